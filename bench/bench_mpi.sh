#!/usr/bin/env bash
# Evaluations per second of `scl optimize` on the kip-up (scripts/optimize/kipup.scl), in one run:
# 1 rank x 1 thread, 2 ranks x 1 thread, 1 rank x 2 threads (and 3 ranks x 1 thread,
# oversubscribed), each the same GENERATIONS from the same seed; then the message cost
# (bench_mpi_messages). Prints figures (docs/cluster.md); asserts nothing.
#   bench/bench_mpi.sh [BUILD_DIR] [GENERATIONS]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$source_dir/build}
generations=${2:-10}
scl=$build/tools/scl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=(mpirun --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then mpi+=(--allow-run-as-root); fi

run() {  # label, then the launcher words (none for a plain process), then --threads N
  local label=$1; shift
  local out=$work/${label// /_}
  local start end
  start=$(date +%s.%N)
  "$@" "$scl" optimize "$source_dir/scripts/optimize/kipup.scl" \
    "$source_dir/scripts/optimize/kipup.objective" \
    --out "$out" --generations "$generations" --seed 1 ${THREADS_OPTION} > /dev/null 2> "$out.err"
  end=$(date +%s.%N)
  local evaluations busy outside mean longest
  evaluations=$(tail -1 "$out/log.csv" | cut -d, -f2)
  busy=$(grep -o "busy [0-9.]*%" "$out.err" | cut -d' ' -f2)
  outside=$(grep -o "[0-9.]* s outside" "$out.err" | cut -d' ' -f1)
  mean=$(grep -o "[0-9.]* ms each" "$out.err" | cut -d' ' -f1)
  longest=$(grep -o "generation [0-9.]* ms" "$out.err" | cut -d' ' -f2)
  # The generation loop's own wall time (log.csv), without start-up and generation 0.
  local wall
  wall=$(tail -1 "$out/log.csv" | cut -d, -f8)
  printf "%-20s %4d evaluations %6.2f s %6.1f evaluations/s  busy %6s  outside %s s" \
    "$label" "$evaluations" "$wall" "$(awk "BEGIN { print $evaluations / $wall }")" "$busy" \
    "$outside"
  printf "  evaluation %s ms, longest of a generation %s ms\n" "$mean" "$longest"
  sha256sum "$out/best.scl" | cut -c1-16 >> "$work/hashes"
}

echo "scl optimize kipup, $generations generations, $(nproc) cores:"
THREADS_OPTION="--threads 1" run "1 rank x 1 thread"
THREADS_OPTION="--threads 1" run "2 ranks x 1 thread" "${mpi[@]}" -np 2
THREADS_OPTION="--threads 2" run "1 rank x 2 threads"
THREADS_OPTION="--threads 1" run "3 ranks x 1 thread" "${mpi[@]}" -np 3
if [ "$(sort -u "$work/hashes" | wc -l)" -eq 1 ]; then
  echo "best.scl identical in every configuration"
else
  echo "best.scl DIFFERS between configurations"
fi
if [ -x "$build/bench/bench_mpi_messages" ]; then
  "${mpi[@]}" -np 2 "$build/bench/bench_mpi_messages"
fi
