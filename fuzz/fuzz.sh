#!/usr/bin/env bash
# Fuzzes every reader of user files with libFuzzer, AddressSanitizer and UBSan, each target
# for a bounded time: CI's fuzz stage (60 s each) and long local campaigns (docs/ci.md).
#
#   fuzz/fuzz.sh [--workers N] [--corpus DIR] [SECONDS [TARGET...]]
#
#   SECONDS       per target (default 60)
#   TARGET        fuzz_script fuzz_objective fuzz_character fuzz_world fuzz_problem fuzz_trajectory
#                 fuzz_checkpoint fuzz_model fuzz_lsp fuzz_clip fuzz_bvh fuzz_bvhmap (default: all,
#                 in that order)
#   --workers N   N fuzzing processes per target at once (libFuzzer's -fork=N), sharing its
#                 corpus; a long campaign on a many-core machine (default 1)
#   --corpus DIR  keep each target's discovered inputs in DIR/NAME, across runs and clones
#                 (default build-fuzz/corpus-NAME)
#
# Needs clang and its libFuzzer runtime (Debian: clang libclang-rt-14-dev; `tools/setup.sh
# fuzz` installs them and runs this). Builds the CMake preset `fuzz` into build-fuzz/, then
# runs each target on its committed seed corpus (tests/fuzz/corpus-*/, only read), the
# inputs that once broke it (tests/fuzz/regressions-*/) and the kept corpus, where new
# inputs go. Exits non-zero on a crash, a broken invariant, a leak, a timeout (one input
# slower than 10 s) or running out of memory, and prints the input and how to reproduce it.
#
# Every run appends a line to build-fuzz/ledger.tsv (date, target, workers, seconds,
# executions, result); `fuzz/fuzz.sh --ledger` prints each target's totals since its last
# finding, the numbers docs/ci.md reports.
#
# Environment: SCL_WERROR=ON|OFF (default OFF).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=build-fuzz
ledger=$build/ledger.tsv
all=(fuzz_script fuzz_objective fuzz_character fuzz_world fuzz_problem fuzz_trajectory fuzz_checkpoint
  fuzz_model fuzz_lsp fuzz_clip fuzz_bvh fuzz_bvhmap)

usage() {
  echo "usage: fuzz/fuzz.sh [--workers N] [--corpus DIR] [SECONDS [TARGET...]] | --ledger" >&2
  exit 2
}

# Each target's executions and seconds since its last failed run.
print_ledger() {
  [ -f "$ledger" ] || { echo "fuzz: no runs recorded yet ($ledger)"; return; }
  printf "%-16s %6s %14s %10s  %s\n" target runs executions "cpu hours" "last finding"
  awk -F'\t' '
    { if ($6 != "ok") { runs[$2] = 0; execs[$2] = 0; secs[$2] = 0; last[$2] = $1 }
      else { runs[$2]++; execs[$2] += $5; secs[$2] += $4 * $3 } seen[$2] = 1 }
    END { for (t in seen) printf "%-16s %6d %14d %10.2f  %s\n", t, runs[t], execs[t],
                                 secs[t] / 3600, (t in last) ? last[t] : "none ever" }' "$ledger" |
    sort
}

workers=1
corpus_root=""
while (($# > 0)); do
  case "$1" in
    --workers) (($# > 1)) || usage; workers=$2; shift 2 ;;
    --corpus) (($# > 1)) || usage; corpus_root=$2; shift 2 ;;
    --ledger) print_ledger; exit 0 ;;
    -*) usage ;;
    *) break ;;
  esac
done
[[ "$workers" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --workers needs a positive count" >&2; exit 2; }
seconds=${1:-60}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS must be a positive count" >&2; exit 2; }
if (($# > 1)); then targets=("${@:2}"); else targets=("${all[@]}"); fi
for target in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $target "* ]] ||
    { echo "fuzz: unknown target '$target' (${all[*]})" >&2; exit 2; }
done

cmake --preset fuzz -DSCL_WERROR="${SCL_WERROR:-OFF}" >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

status=0
for target in "${targets[@]}"; do
  name=${target#fuzz_}
  # The largest inputs worth trying: the longest shipped script is 5.5 KiB; a trajectory
  # CSV row is about 600 bytes and an editor session several messages.
  case "$name" in
    trajectory | lsp) max_len=16384 ;;
    *) max_len=8192 ;;
  esac
  seeds=tests/fuzz/corpus-$name
  regressions=()
  [ -d "tests/fuzz/regressions-$name" ] && regressions=("tests/fuzz/regressions-$name")
  if [ -n "$corpus_root" ]; then kept=$corpus_root/$name; else kept=$build/corpus-$name; fi
  artifacts=$build/artifacts-$name
  log=$build/$target.log
  mkdir -p "$kept" "$artifacts"
  rm -f "$artifacts"/*
  mode=()
  ((workers > 1)) && mode=(-fork="$workers" -ignore_crashes=0)
  echo "fuzz: $target for $seconds s with $workers worker(s) on $seeds" \
    "($(find "$seeds" -type f | wc -l) seeds, $(find "$kept" -type f | wc -l) kept in $kept)"
  # New inputs go to the first corpus directory, the kept one.
  started=$SECONDS
  if "$build/fuzz/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" "${mode[@]}" \
    "$kept" "$seeds" "${regressions[@]}" >"$log" 2>&1; then
    result=ok
    grep -E '^#[0-9]+ +(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
      sed "s/^/fuzz: $target: /" || true
  else
    result=failed
    status=1
    echo "fuzz: $target FAILED; the end of its log ($log):" >&2
    tail -n 80 "$log" >&2
    for input in "$artifacts"/*; do
      [ -f "$input" ] || continue
      echo "fuzz: the input ($(wc -c <"$input") bytes), base64: $(base64 -w0 "$input")" >&2
      echo "fuzz: reproduce: echo '$(base64 -w0 "$input")' | base64 -d > input &&" \
        "cmake --preset fuzz && cmake --build --preset fuzz && $build/fuzz/$target input" >&2
      echo "fuzz: (locally the input is $input; keep it as a regression input in" \
        "tests/fuzz/regressions-$name/ once fixed)" >&2
    done
  fi
  # Executions: the single process's final count, or the fork mode's last progress line.
  executions=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' |
    tail -n 1 || true)
  [ -n "$executions" ] ||
    executions=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#' || true)
  # The seconds it ran (less than asked when it failed early).
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$target" "$workers" \
    "$((SECONDS - started))" "${executions:-0}" "$result" >>"$ledger"
done
exit $status
