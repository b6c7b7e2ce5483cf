// `scl run`'s command line as a plain struct: every option read and checked for form,
// nothing yet checked against the script (that happens when the run is set up).
#pragma once

#include <cstdint>
#include <cxxopts.hpp>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "runtime/clip_recorder.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "scl/scene.h"

namespace scl {

/// One `--push TARGET:FX,FY@T+DUR` as written: its target is named, not yet looked up (a
/// link of the script's character or a movable object of its scene: resolvePush()).
struct PushRequest {
  /// The option's value as given, for messages.
  std::string text;
  /// A link, an object, or a chain's link (`rope.3`, counted from 1 at its start).
  std::string target;
  Vec2 force = Vec2::Zero();
  double start = 0.0;
  double duration = 0.0;
};

/// Everything the command line asks of a run.
struct RunRequest {
  std::string script;
  /// `--character NAME|FILE`: overrides the script's `scene character:` (loaded when the
  /// run is set up).
  std::optional<std::string> character;
  /// `--world FILE`: a world file (relative to the working directory) that replaces the
  /// script's `scene world:` (loaded when the run is set up).
  std::optional<std::string> world;
  /// `--use-clip NAME=FILE`, in order: the script's clip NAME read from FILE (relative to
  /// the working directory) instead of its own file (CompileOptions::clipFiles).
  std::vector<std::pair<std::string, std::string>> clipFiles;
  /// `--pose`, `--env`, `--chair-height`, `--duration`: overrides of the script's scene.
  SceneRequest scene;
  /// `--dt`, seconds.
  double timeStep = kDefaultTimeStep;
  /// `--set NAME=VALUE` (script units), in order.
  std::vector<std::pair<std::string, double>> sets;
  /// `--push`, in order.
  std::vector<PushRequest> pushes;
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
  /// `--clip` (a motion clip, docs/clips.md) and `--bvh` (BVH) paths, and `--clip-rate`:
  /// their frames per second, Hz.
  std::optional<std::string> clipPath, bvhPath;
  double clipRate = kDefaultClipRate;
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

/// `TARGET:FX,FY@T+DUR`, e.g. `trunk:200,0@1.5+0.2` or `crate:300,0@0.5+1`. Throws
/// UsageError when malformed.
PushRequest parsePushOption(const std::string& text);

/// The push `request` asks for on `character` in a scene of `bodies`: TARGET is a link
/// (first), a movable object (a chain: its last link), or `CHAIN.N`, a chain's N-th link
/// from its start. Throws UsageError naming the closest link or object when it is neither.
Push resolvePush(const PushRequest& request, const Character& character,
                 std::span<const SceneBodyDef> bodies);

/// What a push acts on, as `--push` names it: "trunk", "crate", "rope.12".
std::string pushTargetName(const Push& push, const Character& character,
                           std::span<const SceneBodyDef> bodies);

}  // namespace scl
