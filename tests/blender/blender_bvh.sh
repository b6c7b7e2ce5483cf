#!/usr/bin/env bash
# `scl run --bvh` imported by Blender in background mode (docs/clips.md, Into Blender):
# one run of the kip-up written as CSV and BVH at the same rate, then one Blender process
# that imports the BVH and checks it against the CSV (tests/blender/check_bvh.py).
# Skipped (exit 77, CTest's SKIP_RETURN_CODE) when blender is not installed
# (tools/setup.sh installs it for the test stage).
#   tests/blender/blender_bvh.sh SCL SOURCE_DIR WORK_DIR
set -euo pipefail
scl=$1 source=$2 work=$3
if ! command -v blender >/dev/null; then
  echo "blender is not installed: skipped (apt-get install blender)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$scl" run "$source/scripts/kipup.scl" --duration 1.5 --out "$work/kipup.csv" --rate 50 \
  --bvh "$work/kipup.bvh" --clip-rate 50 >/dev/null
cd "$source"
status=0
blender -b --factory-startup --python-exit-code 1 --python tests/blender/check_bvh.py -- \
  "$work/kipup.bvh" "$work/kipup.csv" >"$work/blender.log" 2>&1 || status=$?
grep -E '^(ok|FAIL|blender)' "$work/blender.log" || true
if [ "$status" -ne 0 ]; then tail -n 30 "$work/blender.log"; fi
exit "$status"
