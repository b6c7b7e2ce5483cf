// A state–action problem bound to its script (docs/state-action.md): what each coordinate
// of a sampled point means — a scene quantity (state) or an `@` number (action) — and the
// simulation that decides whether the point is compatible.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "optimize/sam/sam_sampler.h"
#include "runtime/run_session.h"
#include "scl/problem.h"
#include "scl/program.h"

namespace scl {

class SettleCache;

struct SamProblem {
  /// The script, its `@` numbers at their written values.
  Program program;
  ProblemDef def;
  /// Per action: the slot of its `@` parameter.
  std::vector<int> actionSlots;
  /// The scene every point starts from (the problem's, else the script's), before the
  /// state is applied.
  Scene scene;
  /// Simulated seconds per point.
  double duration = 0.0;
  /// Names of the coordinates: the states', then the actions' (the parameter names).
  std::vector<std::string> columns;
  /// The sampler's start (the states' starts and the script's values), scales and ranges,
  /// paths and population.
  SamSamplerDef sampler;
};

/// Binds `def` to `program`; throws std::invalid_argument with a message for the user
/// (an action naming no parameter, with the closest name; a script value outside its
/// action's range; a `height` state without the chair; no duration anywhere).
SamProblem bindSamProblem(Program program, ProblemDef def);

/// The point's scene (its state applied) and program (its action applied).
Scene sceneAt(const SamProblem& problem, const std::vector<double>& point);
Program programAt(const SamProblem& problem, const std::vector<double>& point);

/// One simulated point.
struct SamSimulation {
  /// Meets every `compatible` line (false when the simulation diverged).
  bool compatible = false;
  bool diverged = false;
  MotionSummary summary;
  /// The end: simulated time (s), the active phase's name, the character's state and the
  /// environment (for a filmstrip's last frame).
  double endTime = 0.0;
  std::string endPhase;
  CharacterState endState;
  std::vector<EnvironmentBox> environment;
};

/// Simulates `point` for the problem's duration; `observe` sees every step.
SamSimulation samSimulate(const SamProblem& problem, const std::vector<double>& point,
                          const std::shared_ptr<SettleCache>& settleCache = nullptr,
                          const std::function<void(const StepView&)>& observe = {});

/// Simulates `point` for the problem's duration and applies its `compatible` lines; a
/// simulation that diverges is incompatible. Thread-safe; `settleCache` may be null.
bool samCompatible(const SamProblem& problem, const std::vector<double>& point,
                   const std::shared_ptr<SettleCache>& settleCache = nullptr);

}  // namespace scl
