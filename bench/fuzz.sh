#!/bin/sh
# Fuzzes the SCL front end with libFuzzer + AddressSanitizer + UBSan for a bounded time.
#
#   bench/fuzz.sh [SECONDS]          (default 60)
#
# Needs clang++ and its libFuzzer runtime (Debian: apt-get install clang libclang-rt-14-dev).
# Seeds: the thesis listings and the language test scripts. Crashing inputs are written
# to build-fuzz/ as crash-*; re-run one with build-fuzz/fuzz_parser build-fuzz/crash-...
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
out="$root/build-fuzz"
mkdir -p "$out/corpus"
cp "$root"/scripts/thesis/*.scl "$root"/tests/lang/*.scl "$out/corpus/"

clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root" \
  "$root"/bench/fuzz_parser.cpp \
  "$root"/scl/binder.cpp "$root"/scl/compile.cpp "$root"/scl/diagnostics.cpp \
  "$root"/scl/lexer.cpp "$root"/scl/parser.cpp "$root"/scl/printer.cpp "$root"/scl/syntax.cpp \
  "$root"/scl/character_table.cpp "$root"/scl/poses.cpp "$root"/scl/program.cpp \
  -o "$out/fuzz_parser"

cd "$out"
./fuzz_parser -max_total_time="$seconds" -max_len=4096 -timeout=5 -print_final_stats=1 corpus
