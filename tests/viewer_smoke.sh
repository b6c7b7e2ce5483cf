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
# one. Starting Xvfb can race with another server starting at the same moment, so retry
# once.
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
render() {
  xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
    "$source_dir/tests/viewer/stand.scl" --headless-frames 30 --screenshot "$screenshot" --size 800x600
}
render || { echo "viewer_smoke: first attempt failed, retrying" >&2; sleep 1; render; }
[ -s "$screenshot" ] || { echo "viewer_smoke: no screenshot written" >&2; exit 1; }
SCL_VIEWER_SCREENSHOT="$screenshot" "$checker" "[screenshot]"

# docs/tutorial.md's viewer command, run as the page writes it from the top of the source
# tree, with --headless-frames so that it ends (tests/test_tutorial.cpp checks the page
# still shows this command).
tutorial() {
  (cd "$source_dir" && xvfb-run -a -s "-screen 0 1280x1024x24" "${launcher[@]}" "$scl" view \
    docs/tutorial/2-balance.scl --headless-frames 10)
}
tutorial || { echo "viewer_smoke: tutorial view failed, retrying" >&2; sleep 1; tutorial; }

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
studio || { echo "viewer_smoke: studio screenshots failed, retrying" >&2; sleep 1; studio; }
SCL_VIEWER_PLOTS_SCREENSHOT="$work_dir/plots.png" "$checker" --warn NoTests "[.plots]"
SCL_VIEWER_SCRUB_SCREENSHOT="$work_dir/scrub.png" "$checker" --warn NoTests "[.scrub]"
