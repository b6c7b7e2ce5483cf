// `scl view`: the interactive SFML viewer with hot reload, and its headless mode.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scl/character.h"

namespace scl {

/// How to run the viewer (the options of `scl view`).
struct ViewerDef {
  /// The script to show and watch.
  std::string script;
  /// `--character`: the character every version of the script is bound to, overriding
  /// its `scene character:`; nullptr: the script's.
  std::shared_ptr<const Character> character;
  /// Window (or headless image) size, pixels.
  unsigned width = 1280;
  unsigned height = 720;
  /// Headless when > 0: render this many frames, each 1/60 s of simulation, then exit.
  int frames = 0;
  /// Headless: the PNG written after the last frame (empty: none).
  std::string screenshot;
  /// Record to this file (ffmpeg when on PATH, else PNG frames next to it); empty: no.
  std::string record;
  /// Recording frame rate, frames per second of simulation time.
  int recordFps = 60;
  /// Initial playback speed (1 = real time).
  double speed = 1.0;
  /// Start paused.
  bool paused = false;
  /// Start with the plot panel shown (`--plots`).
  bool plots = false;
  /// The joints the plot panel shows first (`--plot-joints a,b`); empty: none.
  std::string plotJoints;
  /// Headless: after the frames, scrub back to this time, seconds (`--scrub T`), as the
  /// time bar would show it.
  std::optional<double> scrubTo;
  /// Start with the `@` slider panel shown (`--sliders`, key t).
  bool sliders = false;
  /// `--set NAME=VALUE`: sliders set as if moved (script units, clamped to the slider's
  /// range) before the first frame; a name not in the script is a usage error.
  std::vector<std::pair<std::string, double>> sets;
  /// Headless: after the frames, write the sliders' values into the script (`--write-back`,
  /// as key w does).
  bool writeBack = false;
  /// What key o optimizes a phase for: "standing" (at the end), "airborne" (max airborne
  /// time), or an objective file (`--objective`).
  std::string objective = "standing";
  /// Generations of a phase optimization (`--generations`).
  int generations = 30;
  /// Headless: after the frames, optimize this phase (as key o does), drawing frames while
  /// it runs, then show its best as key v does (`--optimize-phase NAME`); empty: none.
  std::string optimizePhase;
  /// Where key s writes its screenshots (`--screenshot-dir`); empty: the current directory.
  std::string screenshotDir;
  /// `--print-layout`: print the window's regions and the visible sliders' tracks and knobs
  /// (pixels) on stderr at the first frame and whenever they change, for scripts that
  /// drive the window with synthetic input (tests/viewer_input.sh).
  bool printLayout = false;
};

/// Runs the viewer; returns the exit code (0 ok, 1 script error, 2 no display or a
/// usage problem). Errors are printed to stderr.
int runViewer(const ViewerDef& def);

}  // namespace scl
