#!/usr/bin/env bash
# One-stop setup for a fresh Debian 12 machine: installs the missing Debian packages,
# configures and builds, then runs what you ask for.
#
#   tools/setup.sh run     build, then run the main job: the kip-up headless, its
#                          summary and its filmstrip (kipup.svg)
#   tools/setup.sh test    build, then run the whole test suite
#   tools/setup.sh build   build only
#
# Environment: BUILD_DIR (default build), CI=true turns warnings into errors.
set -euo pipefail
cd "$(dirname "$0")/.."

action=${1:-run}
case "$action" in
  run|test|build) ;;
  *) echo "usage: tools/setup.sh run|test|build (got '$action')" >&2; exit 2 ;;
esac

packages=(cmake ninja-build g++ pkg-config libbox2d-dev libeigen3-dev libcxxopts-dev catch2
          nlohmann-json3-dev libsfml-dev xvfb xauth fonts-dejavu-core clang-format clang-tidy git)
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

build_dir=${BUILD_DIR:-build}
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCL_WERROR=$werror >/dev/null
cmake --build "$build_dir" -j "$(nproc)"

case "$action" in
  run)
    "$build_dir/tools/scl" run scripts/kipup.scl --filmstrip kipup.svg \
      --frames 0,0.5,0.9,1.1,1.25,1.4,1.55,1.8,2.3,3,5
    echo "setup: filmstrip of the kip-up written to kipup.svg"
    ;;
  test)
    ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
    ;;
esac
