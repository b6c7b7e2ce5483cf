// What `scl run` prints: the summary as aligned text, or as one JSON object (keys and
// types in docs/cli.md, "JSON").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/phase_standing.h"
#include "runtime/run_session.h"
#include "tools/filmstrip.h"
#include "tools/run_request.h"

namespace scl {

/// The outcome of one `scl run`.
struct RunOutcome {
  SimulationDef def;
  /// The pushes applied (`--push`, resolved to links and objects).
  std::vector<Push> pushes;
  MotionSummary summary;
  /// The world's movable objects and moving platforms (WorldMetrics).
  std::vector<ObjectSummary> objects;
  std::vector<PhaseStart> timeline;
  /// Simulated time and steps taken.
  double simulatedTime = 0.0;
  long steps = 0;
  /// Wall time of building the simulation (settling included) and of stepping, seconds.
  double setupWall = 0.0, runWall = 0.0;
  /// Why the run ended.
  std::string endReason;
  /// The phase active at the end and the exit it was waiting for.
  PhaseStanding ended;
  /// The `@` parameters with the values the run used.
  std::vector<Parameter> parameters;
  /// Trajectory rows written (0 without --out) and filmstrip frames (0 without it).
  int trajectoryRows = 0;
  int filmstripFrames = 0;
  /// Frames of the recorded clip (--clip) and of the BVH (--bvh).
  int clipFrames = 0;
  int bvhFrames = 0;
};

/// The summary as aligned "label  value" lines.
std::string runSummaryText(const RunRequest& request, const RunOutcome& run);
/// The summary as a JSON object, keys in the documented order.
nlohmann::ordered_json runSummaryJson(const RunRequest& request, const RunOutcome& run);

}  // namespace scl
