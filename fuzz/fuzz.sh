#!/usr/bin/env bash
# Fuzzes the script front end, the objective-file parser and the character-file parser with libFuzzer, AddressSanitizer
# and UBSan, each for a bounded time (CI's fuzz stage; docs/ci.md).
#
#   fuzz/fuzz.sh [SECONDS [TARGET...]]   default 60 s each for fuzz_script fuzz_objective
#                                        fuzz_character
#
# Needs clang and its libFuzzer runtime (Debian: clang libclang-rt-14-dev; `tools/setup.sh
# fuzz` installs them and runs this). Builds the CMake preset `fuzz` into build-fuzz/, then
# runs each target on its committed seed corpus (tests/fuzz/corpus-*/, only read) plus a
# scratch corpus in build-fuzz/ that keeps what the fuzzer finds between local runs. Exits
# non-zero on a crash, a broken invariant, a leak, a timeout (one input slower than 10 s)
# or running out of memory, and prints the input and how to reproduce it.
#
# Environment: SCL_WERROR=ON|OFF (default OFF).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
if (($# > 1)); then targets=("${@:2}"); else targets=(fuzz_script fuzz_objective fuzz_character); fi
build=build-fuzz

cmake --preset fuzz -DSCL_WERROR="${SCL_WERROR:-OFF}" >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

status=0
for target in "${targets[@]}"; do
  case "$target" in
    fuzz_script) name=script ;;
    fuzz_objective) name=objective ;;
    fuzz_character) name=character ;;
    *) echo "fuzz: unknown target '$target' (fuzz_script, fuzz_objective, fuzz_character)" >&2
       exit 2 ;;
  esac
  seeds=tests/fuzz/corpus-$name
  # Inputs that once broke a target (tests/fuzz/regressions-NAME/, replayed by CTest too)
  # seed it as well.
  regressions=()
  [ -d "tests/fuzz/regressions-$name" ] && regressions=("tests/fuzz/regressions-$name")
  scratch=$build/corpus-$name
  artifacts=$build/artifacts-$name
  log=$build/$target.log
  mkdir -p "$scratch" "$artifacts"
  rm -f "$artifacts"/*
  echo "fuzz: $target for $seconds s on $seeds ($(find "$seeds" -type f | wc -l) seeds)"
  # Inputs up to 8 KiB (the largest shipped script is 5.5 KiB); new inputs go to the
  # first corpus directory, the scratch one.
  if "$build/fuzz/$target" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$scratch" "$seeds" "${regressions[@]}" >"$log" 2>&1; then
    grep -E '^#[0-9]+ +(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
      sed "s/^/fuzz: $target: /"
  else
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
done
exit $status
