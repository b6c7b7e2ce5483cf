// `scl run`'s command line as a plain struct: every option read and checked for form,
// nothing yet checked against the script (that happens when the run is set up).
#pragma once

#include <cstdint>
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "scl/scene.h"

namespace scl {

/// Everything the command line asks of a run.
struct RunRequest {
  std::string script;
  /// `--character NAME|FILE`: overrides the script's `scene character:` (loaded when the
  /// run is set up).
  std::optional<std::string> character;
  /// `--pose`, `--env`, `--chair-height`, `--duration`: overrides of the script's scene.
  SceneRequest scene;
  /// `--dt`, seconds.
  double timeStep = kDefaultTimeStep;
  /// `--set NAME=VALUE` (script units), in order.
  std::vector<std::pair<std::string, double>> sets;
  /// `--push`, in order.
  std::vector<Push> pushes;
  /// `--perturb`, degrees, and `--seed`.
  std::optional<double> perturbDeg;
  /// --feature-rate: how often a feature phase solves its QP, Hz (unset: every step).
  std::optional<double> featureRate;
  /// `--pd stable`: stable PD instead of explicit (ControllerOptions::stablePd).
  bool stablePd = false;
  std::uint64_t seed = 0;
  /// `--json`: the summary as one JSON object.
  bool json = false;
  /// `--out` (trajectory CSV) and `--filmstrip` (SVG) paths.
  std::optional<std::string> csvPath, svgPath;
  /// `--rate`: trajectory samples per second, Hz.
  double rate = 100.0;
  /// `--frames`: filmstrip times, seconds, sorted; empty: evenly spaced over the run.
  std::vector<double> frames;
  /// `--seeds`: one perturbed start per seed (a sweep, tools/run_sweep.h); empty: one run.
  std::vector<std::uint64_t> seeds;
  /// `--threads`: threads of a sweep; 0: every core.
  int threads = 0;
};

/// The options of `scl run`, for parsing and `--help`.
cxxopts::Options runOptions();
/// The help groups of runOptions(), in order.
std::vector<std::string> runHelpGroups();

/// The request of a parsed command line. Throws UsageError (tools/cli.h) with a one-line
/// message on a malformed or contradictory option.
RunRequest readRunRequest(const cxxopts::ParseResult& parsed);

/// `LINK:FX,FY@T+DUR`, e.g. `trunk:200,0@1.5+0.2`. Throws UsageError.
Push parsePushOption(const std::string& text);

}  // namespace scl
