#!/usr/bin/env bash
# scl optimize and scl sam sample under mpirun (docs/cluster.md): the same outputs as one
# process for any number of ranks and threads, --resume across rank counts, and a rank
# that dies. Run by CTest when scl was built with MPI:
#   tests/mpi/mpi_cli.sh identical|resume|fault|sample|docs  SCL  SOURCE_DIR  WORK_DIR
# (docs: the commands of docs/cluster.md, its sbatch script with `srun` standing for
# `mpirun -np 2`, and bench/bench_mpi.sh for one generation.)
set -euo pipefail
mode=$1 scl=$(realpath "$2") source=$(realpath "$3") work=$(realpath -m "$4")
rm -rf "$work" && mkdir -p "$work" && cd "$work"

# As root (CI containers) Open MPI wants both switches; --oversubscribe: more ranks than
# this machine's cores.
mpi=(mpirun --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then mpi+=(--allow-run-as-root); fi

fail() { echo "FAIL: $*" >&2; exit 1; }

# Everything of an optimization's outputs but the wall times.
fingerprint() {
  local dir=$1
  python3 - "$dir" <<'PY'
import csv, json, sys
d = sys.argv[1]
c = json.load(open(d + "/checkpoint.json"))
c.pop("wall_time")
for r in c["log"]: r.pop("wall_time")
rows = list(csv.reader(open(d + "/log.csv")))
wall = rows[0].index("wall_time")
print(json.dumps(c, sort_keys=True))
for r in rows: print(",".join(v for i, v in enumerate(r) if i != wall))
print(open(d + "/best.scl").read())
PY
}

cat > s.scl <<'SCL'
scene pose: standing duration: 0.5
{ [waist @10, knees @-20 time: @0.1] }
SCL
printf 'term 1/1000 energy\nterm 100 sum sq com.vx\nbounds relative 1\n' > o.objective
optimize() { "$scl" optimize s.scl o.objective --popsize 8 --seed 7 "$@"; }

case "$mode" in
identical)
  optimize --out one --generations 6 --threads 1 2> one.err
  "${mpi[@]}" -np 3 "$scl" optimize s.scl o.objective --popsize 8 --seed 7 --out three \
    --generations 6 --threads 1 2> three.err
  "${mpi[@]}" -np 2 "$scl" optimize s.scl o.objective --popsize 8 --seed 7 --out two \
    --generations 6 --threads 2 2> two.err
  grep -q "3 ranks x 1 thread" three.err || fail "no '3 ranks x 1 thread' in: $(cat three.err)"
  grep -q "2 ranks x 2 threads" two.err || fail "no '2 ranks x 2 threads' in: $(cat two.err)"
  grep -q "busy .*% of the time: 48 evaluations" three.err || fail "no efficiency line"
  [ "$(fingerprint one)" = "$(fingerprint three)" ] || fail "3 ranks x 1 thread differ from 1 process"
  [ "$(fingerprint one)" = "$(fingerprint two)" ] || fail "2 ranks x 2 threads differ from 1 process"
  ;;
resume)
  optimize --out one --generations 6 --threads 2 2> one.err
  "${mpi[@]}" -np 3 "$scl" optimize s.scl o.objective --popsize 8 --seed 7 --out split \
    --generations 3 --threads 1 2> first.err
  "${mpi[@]}" -np 2 "$scl" optimize s.scl o.objective --popsize 8 --seed 7 --out split \
    --generations 5 --threads 1 --resume 2> second.err
  optimize --out split --generations 6 --threads 1 --resume 2> third.err
  [ "$(fingerprint one)" = "$(fingerprint split)" ] ||
    fail "3 ranks, then 2 ranks, then 1 process resumed differ from one run"
  ;;
fault)
  # Kill rank 1 once a few generations are checkpointed: mpirun ends the job, rank 0 says
  # where the checkpoint is, and the checkpoint resumes exactly.
  set +e
  "${mpi[@]}" -np 3 "$scl" optimize s.scl o.objective --popsize 8 --seed 7 --out killed \
    --generations 100000 --threads 1 > killed.out 2> killed.err &
  launcher=$!
  for _ in $(seq 600); do
    [ -f killed/checkpoint.json ] && python3 -c "import json,sys; sys.exit(len(json.load(open('killed/checkpoint.json'))['log']) < 3)" 2>/dev/null && break
    sleep 0.1
  done
  victim=""
  for pid in $(pgrep -f "optimize s.scl o.objective --popsize 8 --seed 7 --out killed"); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then victim=$pid; fi
  done
  [ -n "$victim" ] || { kill "$launcher"; fail "no rank 1 process found"; }
  kill -9 "$victim"
  wait "$launcher"
  status=$?
  set -e
  [ "$status" -ne 0 ] || fail "the job with a killed rank exited 0"
  grep -q "rank 1" killed.err || fail "mpirun did not name rank 1: $(cat killed.err)"
  grep -q "continue with: mpirun -np 3 scl optimize" killed.err ||
    fail "rank 0 gave no resume command: $(cat killed.err)"
  done=$(python3 -c "import json; print(len(json.load(open('killed/checkpoint.json'))['log']))")
  [ "$done" -ge 3 ] || fail "checkpoint has $done generations"
  # The checkpoint is intact: resumed by one process to 2 generations more, it equals an
  # uninterrupted run.
  target=$((done + 2))
  optimize --out killed --generations "$target" --threads 1 --resume 2> resumed.err ||
    fail "resume failed: $(cat resumed.err)"
  optimize --out whole --generations "$target" --threads 1 2> whole.err
  [ "$(fingerprint whole)" = "$(fingerprint killed)" ] || fail "the resumed run differs"
  ;;
sample)
  files=("$source/scripts/optimize/sit-to-stand-sam.scl" "$source/scripts/optimize/sit-to-stand.problem")
  "$scl" sam sample "${files[@]}" --out one --generations 2 --threads 1 2> one.err
  "${mpi[@]}" -np 3 "$scl" sam sample "${files[@]}" --out three --generations 1 --threads 1 \
    2> three.err
  grep -q "3 ranks x 1 thread" three.err || fail "no '3 ranks x 1 thread' in: $(cat three.err)"
  "${mpi[@]}" -np 2 "$scl" sam sample "${files[@]}" --out three --generations 2 --threads 1 \
    --resume 2> resumed.err
  cmp one/samples.csv three/samples.csv || fail "samples differ from one process"
  ;;
docs)
  page=$source/docs/cluster.md
  mkdir -p bin tree/scripts/optimize
  ln -s "$scl" bin/scl
  # mpirun starts `scl` from PATH, as a user's would.
  cat > bin/mpirun <<SH
#!/usr/bin/env bash
exec $(command -v mpirun) --oversubscribe $([ "$(id -u)" -eq 0 ] && echo --allow-run-as-root) "\$@"
SH
  cat > bin/srun <<'SH'
#!/usr/bin/env bash
exec mpirun -np 2 "$@"
SH
  chmod +x bin/mpirun bin/srun
  export PATH=$work/bin:$PATH
  cp "$source"/scripts/optimize/kipup.scl "$source"/scripts/optimize/kipup.objective tree/scripts/optimize/
  cd tree
  run_doc() {
    grep -qxF "$1" "$page" || fail "docs/cluster.md does not show: $1"
    bash -c "$1" > /dev/null 2> doc.err || fail "$1: $(cat doc.err)"
  }
  run_doc "mpirun -np 3 scl optimize scripts/optimize/kipup.scl scripts/optimize/kipup.objective --threads 1 --generations 2"
  grep -q "3 ranks x 1 thread" doc.err || fail "not 3 ranks: $(cat doc.err)"
  run_doc "mpirun -np 3 scl optimize scripts/optimize/kipup.scl scripts/optimize/kipup.objective --threads 1 --generations 4 --resume"
  [ "$(tail -1 scripts/optimize/kipup.opt/log.csv | cut -d, -f1)" = 4 ] || fail "the resumed run did not reach 4"
  # The sbatch script, with 2 generations of 8 instead of 1000 of 64.
  sed -n '/^```bash$/,/^```$/p' "$page" | sed '1d;$d' |
    sed 's/--generations 1000/--generations 2/; s/--popsize 64/--popsize 8/' > kipup.sbatch
  grep -q "^srun scl optimize" kipup.sbatch || fail "no sbatch script in docs/cluster.md"
  SLURM_CPUS_PER_TASK=1 bash kipup.sbatch > /dev/null 2> sbatch.err || fail "sbatch script: $(cat sbatch.err)"
  grep -q "2 ranks x 1 thread" sbatch.err || fail "sbatch script not on 2 ranks: $(cat sbatch.err)"
  [ -f kipup.opt/best.scl ] || fail "the sbatch script wrote no kipup.opt/best.scl"
  cd "$source"
  grep -qxF "bench/bench_mpi.sh build 1" "$page" || fail "docs/cluster.md does not show the benchmark"
  bash bench/bench_mpi.sh "$(dirname "$(dirname "$scl")")" 1 > "$work/bench.out" 2>&1 ||
    fail "bench: $(cat "$work/bench.out")"
  grep -q "best.scl identical in every configuration" "$work/bench.out" ||
    fail "bench: $(cat "$work/bench.out")"
  ;;
*) fail "unknown mode $mode" ;;
esac
echo "ok: $mode"
