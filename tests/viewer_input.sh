#!/usr/bin/env bash
# Viewer input test (CTest `viewer_input`): `scl view` in a real window under Xvfb, driven
# by real X input from xdotool (docs/viewer.md, Driving the window from a script). On a
# copy of tests/viewer/tune.scl it presses p (plot panel), s (screenshot), t (slider
# panel), drags the waist slider's knob with the mouse, s, drags the time bar back, s,
# then w (write back) and q. The knob and the panels are found from the viewer's own
# layout (--print-layout on stderr); each step waits for the viewer to show it there
# before the next one, so there are timeouts but no wall-clock assertions. Then it
# checks that the script changed only in the waist's `@` number (to the value where the
# knob was dropped, the `@` kept) and checks clean, and that the screenshots (key s,
# --screenshot-dir) show the plot panel, the moved knob and the scrubbing time bar,
# counting colours in the printed regions as tests/test_viewer_screenshot.cpp does (PNG
# decoded by ffmpeg).
#
#   tests/viewer_input.sh SCL_BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
scl=$1 source_dir=$2 work_dir=$3
mkdir -p "$work_dir"
work_dir=$(cd "$work_dir" && pwd)
original="$source_dir/tests/viewer/tune.scl"
script="$work_dir/tune.scl"
shots="$work_dir/shots"
log="$work_dir/view.log"
# How far the knob is dragged to the right, pixels.
drag=60

# Under AddressSanitizer: keep Mesa's software driver loaded until LeakSanitizer has
# scanned (tests/viewer_smoke.sh says why).
launcher=()
asan_runtime=$(ldd "$scl" | awk '/libasan\.so/ { print $3 }')
if [ -n "$asan_runtime" ]; then
  driver=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/dri/swrast_dri.so
  [ -f "$driver" ] && launcher=(env "LD_PRELOAD=$asan_runtime $driver")
fi

fail() {
  echo "viewer_input: $*" >&2
  return 1
}

# The last line of the viewer's log that starts with "scl view: WHAT ".
last_line() { grep "^scl view: $1 " "$log" | tail -1 || true; }
# The four numbers after the word NAME in LINE (a rectangle: x y width height).
rect() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i+1), $(i+2), $(i+3), $(i+4); exit } }' <<<"$2"; }
# The number after the word NAME in LINE (the Nth after it with a third argument).
word_after() { awk -v k="$1" -v n="${3:-1}" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i+n); exit } }' <<<"$2"; }
round() { awk -v v="$1" 'BEGIN { printf "%d\n", v + 0.5 }'; }

# What the viewer reports (on stderr, --print-layout), the conditions waited for.
has_layout() { [ -n "$(last_line layout)" ]; }
plots_shown() { [ "$(word_after plots "$(last_line layout)" 3)" != 0.0 ]; }
has_waist_slider() { [ -n "$(last_line "slider stand.pd.waist")" ]; }
waist_knob_at() { awk -v x="$1" -v k="$(word_after knob "$(last_line "slider stand.pd.waist")")" \
  'BEGIN { exit !(k - x <= 1.5 && x - k <= 1.5) }'; }
scrubbing() { [ "$(word_after scrubbing "$(last_line layout)")" = 1 ]; }
shot_written() { grep -q "screenshot saved to .*_00$1\.png" "$log"; }
written_back() { ! cmp -s "$original" "$script"; }
# Waits (up to a minute, while the viewer runs) until COMMAND... succeeds.
wait_until() {
  local what=$1
  shift
  for _ in $(seq 600); do
    "$@" && return 0
    kill -0 "$viewer" 2>/dev/null || fail "the viewer exited while waiting for $what" || return 1
    sleep 0.1
  done
  fail "timed out waiting for $what"
}
# Key s, then waits for the viewer to say it wrote screenshot N; keeps the layout shown
# then (shot_N.layout: the layout line, then the sliders' lines).
screenshot() {
  xdotool key s
  wait_until "screenshot $1" shot_written "$1" || return 1
  { last_line layout; last_line "slider stand.pd.waist"; last_line "slider stand.pd.knees"; } |
    grep . >"$work_dir/shot_$1.layout"
}
# A left drag in the window from (X1, Y) to (X2, Y) in steps, as a hand would.
drag_mouse() {
  local x1=$1 x2=$2 y=$3
  xdotool mousemove --window "$window" "$x1" "$y"
  sleep 0.2
  xdotool mousedown 1
  sleep 0.2
  for step in 1 2 3 4 5; do
    xdotool mousemove --window "$window" $((x1 + (x2 - x1) * step / 5)) "$y"
    sleep 0.1
  done
  sleep 0.2
  xdotool mouseup 1
}

# One session in a window (under xvfb-run): the viewer in the background, driven by
# xdotool, each step waiting for the viewer's own report of the one before.
session() {
  cp "$original" "$script"
  rm -rf "$shots" "$log" "$work_dir"/shot_*.layout "$work_dir/dropped_at"
  mkdir -p "$shots"
  "${launcher[@]}" "$scl" view "$script" --size 800x600 --print-layout \
    --screenshot-dir "$shots" 2>"$log" &
  viewer=$!
  # shellcheck disable=SC2064
  trap "kill $viewer 2>/dev/null || true" EXIT
  window=$(timeout 60 xdotool search --sync --name '^scl view - ' | head -1)
  [ -n "$window" ] || fail "no viewer window" || return 1
  # No window manager under Xvfb: give the window the keyboard focus directly.
  timeout 30 xdotool windowfocus --sync "$window" || fail "cannot focus the window" || return 1
  wait_until "the first frame" has_layout || return 1

  # p: the plot panel on the right.
  xdotool key p
  wait_until "the plot panel" plots_shown || return 1
  screenshot 1 || return 1

  # t: the slider panel on the left; the waist's knob dragged to the right.
  xdotool key t
  wait_until "the slider panel" has_waist_slider || return 1
  local knob knob_x knob_y
  knob=$(last_line "slider stand.pd.waist")
  knob_x=$(round "$(word_after knob "$knob")")
  knob_y=$(round "$(word_after knob "$knob" 2)")
  drag_mouse "$knob_x" $((knob_x + drag)) "$knob_y"
  echo $((knob_x + drag)) >"$work_dir/dropped_at"
  wait_until "the waist's knob where dropped" waist_knob_at $((knob_x + drag)) || return 1
  screenshot 2 || return 1

  # The time bar dragged back from its live end to a quarter of the history.
  local bar_y
  bar_y=$(round "$(awk '{ print $2 + $4 / 2 }' <<<"$(rect timebar "$(last_line layout)")")")
  drag_mouse 795 200 "$bar_y"
  wait_until "scrubbing" scrubbing || return 1
  screenshot 3 || return 1

  # w: the sliders' values written into the script (atomically), then q.
  xdotool key w
  wait_until "the write-back" written_back || return 1
  xdotool key q
  for _ in $(seq 300); do
    kill -0 "$viewer" 2>/dev/null || break
    sleep 0.1
  done
  local status=0
  wait "$viewer" || status=$?
  trap - EXIT
  [ "$status" = 0 ] || fail "the viewer exited with $status"
}

if [ "${4:-}" = --session ]; then  # inside xvfb-run
  session || exit 1
  exit 0
fi
# Starting Xvfb can race with another server starting at the same moment (the machine
# may be shared), and a session can be unlucky: up to three.
run_session() {
  xvfb-run -a -s "-screen 0 1280x1024x24" bash "$0" "$scl" "$source_dir" "$work_dir" --session
}
for try in 1 2 3; do
  run_session && break
  cat "$log" >&2 || true
  [ "$try" = 3 ] && { fail "three sessions failed"; exit 1; }
  echo "viewer_input: session $try failed, retrying" >&2
  sleep 1
done
cat "$log" >&2

# The script: only the waist's `@` number changed, the `@` kept, to where the knob was
# dropped (one pixel of the track either way), and it checks clean.
normalise() { sed -E 's/\[waist @[-+0-9.eE]+,/[waist @N,/' "$1"; }
diff <(normalise "$original") <(normalise "$script") ||
  { fail "the script changed elsewhere than the waist's @ number"; exit 1; }
written=$(sed -nE 's/.*\[waist @([-+0-9.eE]+),.*/\1/p' "$script")
[ -n "$written" ] || { fail "no '[waist @NUMBER,' in the written script"; cat "$script" >&2; exit 1; }
slider=$(grep '^scl view: slider stand.pd.waist ' "$work_dir/shot_2.layout")
read -r track_x _ track_width _ <<<"$(rect track "$slider")"
awk -v w="$written" -v x="$(cat "$work_dir/dropped_at")" -v tx="$track_x" -v tw="$track_width" \
  -v lo="$(word_after range "$slider")" -v hi="$(word_after range "$slider" 2)" \
  'BEGIN { f = (x - tx) / tw; f = f < 0 ? 0 : f > 1 ? 1 : f; v = lo + f * (hi - lo); pixel = (hi - lo) / tw
           if (w == 0 || w < v - 1.5 * pixel || w > v + 1.5 * pixel) {
             printf "viewer_input: wrote waist @%s, the knob was dropped at %.3f\n", w, v > "/dev/stderr"; exit 1 } }'
"$scl" check "$script"

# The screenshots: pixels of exactly RGB in the rectangle X Y W H of a PNG.
count_colour() {
  local png=$1 r=$2 g=$3 b=$4
  read -r x y w h <<<"$(awk '{ printf "%d %d %d %d\n", $1, $2, $3, $4 }' <<<"$5")"
  ffmpeg -v error -i "$png" -vf "crop=$w:$h:$x:$y" -f rawvideo -pix_fmt rgb24 - |
    od -An -v -tu1 -w3 | awk -v r="$r" -v g="$g" -v b="$b" '$1 == r && $2 == g && $3 == b { n++ } END { print n + 0 }'
}
links_in() {  # the character's link colours (renderer.h's palette) in rectangle $2
  echo $(($(count_colour "$1" 52 84 150 "$2") + $(count_colour "$1" 66 110 196 "$2") +
    $(count_colour "$1" 98 146 228 "$2")))
}
at_least() {  # WHAT COUNT MIN
  [ "$2" -ge "$3" ] || { fail "$1: $2 pixels, expected at least $3"; exit 1; }
}
at_most() {
  [ "$2" -le "$3" ] || { fail "$1: $2 pixels, expected at most $3"; exit 1; }
}
shot() { echo "$shots/tune_00$1.png"; }

# 1, after p: the plot panel (white, the feet's orange contact strip) beside the scene,
# which still shows the character.
layout=$(cat "$work_dir/shot_1.layout")
plots=$(rect plots "$layout")
plot_width=$(awk '{ printf "%d\n", $3 }' <<<"$plots")
at_least "shot 1: white in the plot panel" "$(count_colour "$(shot 1)" 255 255 255 "$plots")" $((plot_width * 50))
at_least "shot 1: the contact strip" "$(count_colour "$(shot 1)" 236 134 40 "$plots")" 200
at_least "shot 1: the character in the scene" "$(links_in "$(shot 1)" "$(rect scene "$layout")")" 300

# 2, after t and the drag: the slider panel with the waist's knob where it was dropped
# and not at the written value (the track's middle), the knees' knob in the middle; the
# plot panel still there.
layout=$(head -1 "$work_dir/shot_2.layout")
at_least "shot 2: the slider panel's background" \
  "$(count_colour "$(shot 2)" 248 249 251 "$(rect sliders "$layout")")" 20000
knob_box() {  # the 6x6 box around the knob of slider $1 in shot 2's layout, or at x $2
  local line x y
  line=$(grep "^scl view: slider $1 " "$work_dir/shot_2.layout")
  read -r x y <<<"$(awk '{ for (i = 1; i < NF; i++) if ($i == "knob") print $(i+1), $(i+2) }' <<<"$line")"
  x=${2:-$x}
  awk -v x="$x" -v y="$y" 'BEGIN { printf "%d %d 6 6\n", x - 3, y - 3 }'
}
read -r track_x _ track_width _ <<<"$(rect track "$slider")"
middle=$(awk -v x="$track_x" -v w="$track_width" 'BEGIN { print x + w / 2 }')
at_least "shot 2: the waist's knob where dropped" "$(count_colour "$(shot 2)" 30 150 90 "$(knob_box stand.pd.waist)")" 30
at_most "shot 2: the waist's knob at its written value" \
  "$(count_colour "$(shot 2)" 30 150 90 "$(knob_box stand.pd.waist "$middle")")" 0
at_least "shot 2: the knees' knob" "$(count_colour "$(shot 2)" 30 150 90 "$(knob_box stand.pd.knees)")" 30
at_least "shot 2: the contact strip" "$(count_colour "$(shot 2)" 236 134 40 "$(rect plots "$layout")")" 200

# 3, after the time bar's drag: its knob in the scrubbing colour.
layout=$(head -1 "$work_dir/shot_3.layout")
at_least "shot 3: the time bar's knob scrubbing" \
  "$(count_colour "$(shot 3)" 20 110 220 "$(rect timebar "$layout")")" 50
echo "viewer_input: ok (waist written as @$written)"
