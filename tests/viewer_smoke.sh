#!/usr/bin/env bash
# Viewer smoke test (CTest `viewer_smoke`): render a standing character headless under
# xvfb-run and check the screenshot (tests/test_viewer_screenshot.cpp).
#
#   tests/viewer_smoke.sh SCL_BINARY CHECKER_BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
scl=$1 checker=$2 source_dir=$3 work_dir=$4
mkdir -p "$work_dir"
screenshot="$work_dir/stand.png"
rm -f "$screenshot"

# xvfb-run's default screen (640x480, 8-bit) is smaller than the window; give it a real
# one.
# Under AddressSanitizer, LeakSanitizer checks the viewer at exit like every test. Mesa's
# software GL driver (swrast_dri.so, dlopen()ed through GLX) is unloaded when the display
# closes, before LeakSanitizer scans; the blocks its globals still point to then look
# leaked, allocated from an "<unknown module>" no suppression can name. Preloading the
# driver keeps it mapped, so those blocks stay reachable and any real leak still fails.
# (ASan's runtime must come first in LD_PRELOAD.)
launcher=()
asan_runtime=$(ldd "$scl" | awk '/libasan\.so/ { print $3 }')
if [ -n "$asan_runtime" ]; then
  driver=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/dri/swrast_dri.so
  if [ -f "$driver" ]; then
    launcher=(env "LD_PRELOAD=$asan_runtime $driver")
  else
    echo "viewer_smoke: $driver not found; LeakSanitizer may report Mesa's blocks" >&2
  fi
fi
# Each step runs once, without retries: the viewer holds its probe's X connection for as
# long as it runs (tools/viewer/display_probe.h), so Xvfb's reset when its last client
# leaves can no longer hang up on SFML ("Failed to open X11 display" under load).
render() {
  xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
    "$source_dir/tests/viewer/stand.scl" --headless-frames 30 --screenshot "$screenshot" --size 800x600
}
render
[ -s "$screenshot" ] || { echo "viewer_smoke: no screenshot written" >&2; exit 1; }
SCL_VIEWER_SCREENSHOT="$screenshot" "$checker" "[screenshot]"

# The world (docs/viewer.md, What is drawn): a step, a box and a ball held up around the
# standing character; the checker finds the terrain's and the objects' colours where the
# scene puts them, and the ball round.
world() {
  xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
    "$source_dir/tests/viewer/world.scl" --headless-frames 30 --screenshot "$work_dir/world.png" \
    --size 800x600
}
rm -f "$work_dir/world.png"
world
SCL_VIEWER_WORLD_SCREENSHOT="$work_dir/world.png" "$checker" --warn NoTests "[.world]"

# docs/tutorial.md's viewer command, run as the page writes it from the top of the source
# tree, with --headless-frames so that it ends (tests/test_tutorial.cpp checks the page
# still shows this command).
tutorial() {
  (cd "$source_dir" && xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
    docs/tutorial/2-balance.scl --headless-frames 10)
}
tutorial

# The studio (docs/viewer.md): the plot panel beside the scene, and the scene scrubbed back
# to an earlier moment through the time bar's history (test_viewer_screenshot checks both).
studio() {
  xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
    "$source_dir/tests/viewer/stand.scl" --headless-frames 30 --plot-joints leftKnee \
    --screenshot "$work_dir/plots.png" --size 800x600 &&
    xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
      "$source_dir/scripts/kipup.scl" --headless-frames 120 --scrub 0.5 \
      --screenshot "$work_dir/scrub.png" --size 800x600
}
rm -f "$work_dir/plots.png" "$work_dir/scrub.png"
studio
SCL_VIEWER_PLOTS_SCREENSHOT="$work_dir/plots.png" "$checker" --warn NoTests "[.plots]"
SCL_VIEWER_SCRUB_SCREENSHOT="$work_dir/scrub.png" "$checker" --warn NoTests "[.scrub]"

# The `@` sliders (docs/viewer.md, Tuning): tests/viewer/tune.scl's waist set to 8 as if its
# slider were moved (the panel and the re-run scene in the screenshot), then written back
# into a copy of the script, which must check clean and run (`scl run --json`) to the
# figures the viewer showed at the same 2 s (test_viewer_screenshot checks both).
tune="$work_dir/tune.scl"
tuning() {
  cp "$source_dir/tests/viewer/tune.scl" "$tune" &&
    xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view "$tune" \
      --set stand.pd.waist=8 --headless-frames 30 --screenshot "$work_dir/sliders.png" \
      --size 800x600 &&
    xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view "$tune" \
      --set stand.pd.waist=8 --headless-frames 120 --write-back 2>"$work_dir/tune.log"
}
rm -f "$work_dir/sliders.png" "$work_dir/tune.log"
tuning || { cat "$work_dir/tune.log" >&2; exit 1; }
grep -q '(stand) \[waist @8, knees @0\]' "$tune" ||
  { echo "viewer_smoke: not written back" >&2; cat "$tune" >&2; exit 1; }
"$scl" check "$tune"
"$scl" run "$tune" --json >"$work_dir/tune.json"
SCL_VIEWER_SLIDERS_SCREENSHOT="$work_dir/sliders.png" "$checker" --warn NoTests "[.sliders]"
SCL_VIEWER_TUNE_LOG="$work_dir/tune.log" SCL_VIEWER_TUNE_JSON="$work_dir/tune.json" \
  "$checker" --warn NoTests "[.tune]"

# Optimizing a phase in the background (docs/viewer.md): three generations on a copy of
# tests/viewer/lean.scl, frames drawn meanwhile, the best J below the start's, and the
# best written back into a script that checks clean.
lean="$work_dir/lean.scl"
optimize() {
  cp "$source_dir/tests/viewer/lean.scl" "$lean" &&
    xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view "$lean" \
      --optimize-phase lean --generations 3 --headless-frames 10 --write-back \
      --screenshot "$work_dir/optimize.png" --size 800x600 2>"$work_dir/optimize.log"
}
optimize || { cat "$work_dir/optimize.log" >&2; exit 1; }
cat "$work_dir/optimize.log" >&2
line=$(grep "optimized 'lean' 3/3: best J" "$work_dir/optimize.log")
best=$(sed -E 's/.*best J ([^ ]+) \(start ([^)]+)\).*/\1/' <<<"$line")
start=$(sed -E 's/.*best J ([^ ]+) \(start ([^)]+)\).*/\2/' <<<"$line")
frames=$(sed -E 's/.*frames drawn meanwhile: ([0-9]+).*/\1/' <<<"$line")
awk -v b="$best" -v s="$start" 'BEGIN { exit !(b < s) }' ||
  { echo "viewer_smoke: J did not improve ($start -> $best)" >&2; exit 1; }
[ "$frames" -ge 1 ] || { echo "viewer_smoke: no frames drawn while optimizing" >&2; exit 1; }
grep -q 'wrote 2 @ values' "$work_dir/optimize.log"
! grep -q '(lean) \[waist @30, knees @0\]' "$lean" ||
  { echo "viewer_smoke: best not written" >&2; exit 1; }
"$scl" check "$lean"
