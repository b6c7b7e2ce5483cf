#!/usr/bin/env bash
# One-stop setup for a fresh Debian 12 machine: installs the missing Debian packages,
# configures and builds, then runs what you ask for.
#
#   tools/setup.sh run       build the scl program only (not the tests, benchmarks
#                            or fuzzers: 146 of the 325 build steps), then run the main
#                            job: the kip-up headless, its summary and its filmstrip
#                            (kipup.svg)
#   tools/setup.sh test      build everything, then run the whole test suite
#   tools/setup.sh build     build everything only
#
# The sanitizer and fuzzing stages of CI (docs/ci.md), each in its own build directory
# (the presets of CMakePresets.json):
#
#   tools/setup.sh asan      AddressSanitizer + UBSan build (build-asan), every test but
#                            the lint checks (format, tidy: the same in every build) and
#                            the perturbed sweeps (statistics of the motions, docs/ci.md)
#   tools/setup.sh tsan      ThreadSanitizer build (build-tsan) of the tests of threaded
#                            code (target threaded_tests), and those tests
#   tools/setup.sh sanitize  asan, then tsan
#   tools/setup.sh fuzz      clang libFuzzer targets (build-fuzz), each run for
#                            FUZZ_SECONDS (default 60) on the seed corpora (fuzz/fuzz.sh)
#
# Environment: BUILD_DIR (default build; run, test and build only), CI=true turns
# warnings into errors, FUZZ_SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."

action=${1:-run}
case "$action" in
  run|test|build|asan|tsan|sanitize|fuzz) ;;
  *) echo "usage: tools/setup.sh run|test|build|asan|tsan|sanitize|fuzz (got '$action')" >&2
     exit 2 ;;
esac

packages=(cmake ninja-build g++ pkg-config libbox2d-dev libeigen3-dev libcxxopts-dev catch2
          nlohmann-json3-dev libsvm-dev libsfml-dev xvfb xauth fonts-dejavu-core clang-format clang-tidy git
          libopenmpi-dev openmpi-bin neovim ffmpeg xdotool python3)
# The fuzzers need clang and its libFuzzer runtime (g++ has no libFuzzer).
if [ "$action" = fuzz ]; then packages+=(clang libclang-rt-14-dev); fi
# The test suite imports a run's BVH into Blender (tests/blender, docs/clips.md).
if [ "$action" = test ]; then packages+=(blender); fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON

# Sanitizer stages: configure, build and test through the presets (-j: ctest runs the
# tests in parallel; each sanitized test is several times slower than in Release).
sanitized() {
  local configure=$1 build=$2 test=$3 start=$SECONDS
  echo "setup: $test: configuring and building"
  cmake --preset "$configure" -DSCL_WERROR=$werror >/dev/null
  cmake --build --preset "$build" -j "$(nproc)"
  echo "setup: $test: the build took $((SECONDS - start)) s"
  echo "setup: $test: running the tests"
  start=$SECONDS
  local status=0
  ctest --preset "$test" -j "$(nproc)" || status=$?
  echo "setup: $test: the tests took $((SECONDS - start)) s"
  return $status
}
case "$action" in
  asan) sanitized asan-ubsan asan-ubsan asan-ubsan; exit ;;
  tsan) sanitized tsan tsan-threads tsan-threads; exit ;;
  sanitize)
    sanitized asan-ubsan asan-ubsan asan-ubsan
    sanitized tsan tsan-threads tsan-threads
    exit
    ;;
  fuzz) SCL_WERROR=$werror fuzz/fuzz.sh "${FUZZ_SECONDS:-60}"; exit ;;
esac

build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCL_WERROR=$werror >/dev/null
# The main job needs the scl program alone: on a bare 2-core machine building every
# target (the tests first of all) took minutes more before it could start.
targets=()
[ "$action" = run ] && targets=(--target scl)
start=$SECONDS
cmake --build "$build_dir" -j "$(nproc)" ${targets[@]+"${targets[@]}"}
echo "setup: $action: the build took $((SECONDS - start)) s"

case "$action" in
  run)
    "$build_dir/tools/scl" run scripts/kipup.scl --filmstrip kipup.svg \
      --frames 0,0.5,0.9,1.1,1.25,1.4,1.55,1.8,2.3,3,5
    echo "setup: filmstrip of the kip-up written to kipup.svg"
    ;;
  test)
    start=$SECONDS
    status=0
    ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" || status=$?
    echo "setup: test: the tests took $((SECONDS - start)) s"
    # clang-tidy's summary (how many units it checked, the rest remembered clean).
    [ -f "$build_dir/lint-tidy.txt" ] && cat "$build_dir/lint-tidy.txt"
    exit $status
    ;;
esac
