#!/usr/bin/env bash
# tools/setup.sh builds what each action needs: `run` the scl program alone (the main job
# needs nothing else), `build` and `test` everything. Runs setup.sh with stand-ins for
# dpkg-query (every package installed), cmake (records its arguments) and ctest, and a
# build directory whose tools/scl records the main job's command.
#   tests/setup_targets.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1
work=$2
rm -rf "$work"
mkdir -p "$work/bin" "$work/build/tools"
for tool in cmake ctest; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n' "$tool" "$work" > "$work/bin/$tool"
done
printf '#!/bin/sh\nprintf "install ok installed"\n' > "$work/bin/dpkg-query"
printf '#!/bin/sh\necho "scl $*" >> "%s/calls"\n' "$work" > "$work/build/tools/scl"
chmod +x "$work/bin/"* "$work/build/tools/scl"

fail() { echo "setup_targets: $*" >&2; cat "$work/calls" >&2; exit 1; }
builds() { grep '^cmake --build' "$work/calls" || true; }

for action in run build test; do
  : > "$work/calls"
  PATH="$work/bin:$PATH" BUILD_DIR="$work/build" CI= bash "$source_dir/tools/setup.sh" "$action" \
    > "$work/$action.log" 2>&1 || fail "setup.sh $action failed: $(cat "$work/$action.log")"
  [ "$(builds | wc -l)" = 1 ] || fail "$action: expected one 'cmake --build'"
  case "$action" in
    run)
      builds | grep -q -- '--target scl$' || fail "run: does not build only the scl target"
      grep -q '^scl run scripts/kipup.scl' "$work/calls" || fail "run: the main job did not run"
      ;;
    build | test)
      builds | grep -q -- '--target' && fail "$action: builds a subset, not every target"
      ;;
  esac
  if [ "$action" = test ]; then grep -q '^ctest ' "$work/calls" || fail "test: no ctest"; fi
done
echo "setup_targets: run builds scl alone; build and test build every target"
