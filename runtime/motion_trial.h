// The thesis motions' marks (docs/marks.md) and a trial that runs a script and checks
// one: shared by the motion tests, the robustness benchmark and `scl bench`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/metrics.h"
#include "runtime/simulation.h"
#include "scl/program.h"

namespace scl {

/// What "the motion works" means for one script.
struct MotionMark {
  /// Short name, e.g. "sit-to-stand".
  std::string name;
  /// Script path relative to the source tree.
  std::string script;
  /// Simulated time of a trial, seconds.
  double duration = 0.0;
  /// The character must be standing at this time (docs/marks.md), seconds.
  std::optional<double> standingAt;
  /// At least this many phase changes without falling (a walk's steps).
  int minSteps = 0;
  /// The pelvis must advance at least this far, metres, by `distanceBy` seconds.
  std::optional<double> minDistance;
  double distanceBy = 0.0;
  /// The motion is meant to be upright from t = 0 (it starts standing).
  bool uprightFromStart = false;
};

/// The marks of the project's motion scripts: scripts/sit-to-stand.scl, walk.scl,
/// kipup.scl, prone-to-stand.scl and stand.scl (quiet stance).
const std::vector<MotionMark>& motionMarks();
const MotionMark* findMotionMark(const std::string& name);

/// The mark for another character (docs/marks.md, Other characters): the same times and
/// step count; the walk's distance scaled by the square root of the ratio of its leg
/// length (hip height) to the human's, as a dynamically similar (Froude-scaled) walk
/// would go. The human's marks are returned unchanged.
MotionMark markFor(const MotionMark& mark, const Character& character);

/// How to run a trial.
struct MotionTrial {
  /// Time step, seconds.
  double timeStep = 0.00025;
  /// Uniform random offsets of every initial joint angle in ±this, degrees.
  double perturbDeg = 0.0;
  std::uint64_t seed = 0;
  /// Stable PD instead of explicit (ControllerOptions::stablePd).
  bool stablePd = false;
  /// Box2D's solver iterations and continuous collision (SimulationDef's fields).
  int velocityIterations = kDefaultVelocityIterations;
  int positionIterations = kDefaultPositionIterations;
  bool continuousPhysics = false;
};

struct MotionTrialResult {
  /// Whether every part of the mark was met, and if not, the first reason why not.
  bool met = false;
  std::string failure;
  /// The summary at the end of the trial.
  MotionSummary summary;
  /// Pelvis advance at MotionMark::distanceBy, metres.
  double distanceAtMark = 0.0;
  /// Wall time of the trial, seconds.
  double wallSeconds = 0.0;
  /// Of it, building the simulation (and settling its pose before t = 0), seconds.
  double setupSeconds = 0.0;
};

/// Simulates `program` (compiled from the mark's script) from its scene and checks the
/// mark, scaled to the program's character (markFor(), metricsFor()). A diverged
/// simulation is a failed trial.
MotionTrialResult runMotionTrial(const MotionMark& mark, const Program& program,
                                 const MotionTrial& trial = {});

/// A trial's summary figures by name, as golden files store them (tests/golden/motions.txt):
/// rise_time, first_standing (−1 when absent), max_pelvis_height, distance, steps.
using MotionFigures = std::map<std::string, double>;
MotionFigures motionFigures(const MotionTrialResult& result);

/// A golden file: one line per entry, "name key=value ..."; '#' starts a comment line.
/// A missing file reads as empty.
std::map<std::string, MotionFigures> readGoldenFigures(const std::string& path);

/// How far a figure may lie from its golden value: times 0.05 s, heights 2 cm, distances
/// 5 cm or 2 %, step counts exactly.
double goldenTolerance(const std::string& key, double expected);

}  // namespace scl
