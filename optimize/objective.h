// Evaluating an objective (scl/objective.h: the definition and its parser) on
// simulations of a program (docs/objectives.md, thesis §5.3).
//
// ObjectiveAccumulator folds one simulation's steps into the term values;
// evaluateObjective() runs a program once per trial and returns J, or marks the
// candidate infeasible when the simulation diverges.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinematics/character_state.h"
#include "runtime/metrics.h"
#include "runtime/simulation.h"
#include "scl/diagnostics.h"
#include "scl/objective.h"
#include "scl/program.h"

namespace scl {

/// Head height as the objectives measure it: the neckTop joint's height, metres.
double objectiveHeadHeight(const Character& character, const CharacterState& state);

/// Folds the steps of one simulation into the objective's term values.
class ObjectiveAccumulator {
 public:
  /// `character` (the simulated one; for the feet's flat angle) must outlive it.
  /// `bodies`: the scene simulated (Scene::bodies), which the objective's scene-body
  /// quantities (`crate.x`) are bound to; throws std::invalid_argument naming a body it
  /// lacks (objectiveForScene()).
  explicit ObjectiveAccumulator(const ObjectiveDef& objective,
                                const Character& character = *humanCharacter(),
                                std::span<const SceneBodyDef> bodies = {});

  /// Records one step: the state after it, the torques applied during it, its length and
  /// the world's movable and moving bodies after it (Simulation::worldBodies(): what the
  /// scene-body quantities read).
  void observe(const CharacterState& state, const std::array<double, kMaxJoints>& torques,
               double dt, std::span<const WorldBodyState> world = {});
  /// Records the last observed step `count` more times (early termination: the rest of
  /// the run is charged as if the final state stayed). No-op before the first observe().
  void repeatLast(int64_t count);
  /// Whether a stop rule fires for the last observed step; its index, else -1.
  int firedStop() const;

  /// Aggregated value of each term (sign applied, weight not), in objective order.
  std::vector<double> termValues() const;
  /// J = Σ w_i · termValues()_i + penalty.
  double total() const;
  /// Adds an unweighted penalty to total() (a fired stop rule's).
  void addPenalty(double penalty) { penalty_ += penalty; }

 private:
  struct Accumulator {
    double sum = 0.0;      // Σ value (·Δt for Sum)
    double extreme = 0.0;  // min or max so far
    double last = 0.0;     // value at the last step (0 when the condition failed)
    int64_t count = 0;     // steps where the condition held
  };
  struct StepValue {
    bool holds = false;
    double value = 0.0;
  };

  void record(size_t term, const StepValue& step, double dt, int64_t repeats);

  ObjectiveDef objective_;  // its indices the character's (objectiveForCharacter())
  const Character* character_;
  std::vector<Accumulator> accumulators_;
  std::vector<StepValue> lastValues_;
  double lastDt_ = 0.0;
  bool observed_ = false;
  int firedStop_ = -1;
  double penalty_ = 0.0;
};

/// The value of a quantity in a state (after the transform); a scene body's (bound:
/// bindObjectiveObjects()) from `world` (Simulation::worldBodies()), NaN when `world`
/// holds none of it.
double quantityValue(const Quantity& quantity, const Character& character,
                     const CharacterState& state, const std::array<double, kMaxJoints>& torques,
                     std::span<const WorldBodyState> world = {});
/// Whether a condition holds in a state.
bool conditionHolds(const Condition& condition, const Character& character,
                    const CharacterState& state, const std::array<double, kMaxJoints>& torques,
                    std::span<const WorldBodyState> world = {});

/// The outcome of simulating one candidate.
struct ObjectiveEvaluation {
  /// J; NaN when infeasible.
  double value = std::numeric_limits<double>::quiet_NaN();
  /// False when the simulation diverged, the controller rejected the program or J is not
  /// a number; `failure` says why.
  bool feasible = false;
  std::string failure;
  /// Aggregated term values (sign applied, weight not), in objective order; with several
  /// trials, their means.
  std::vector<double> terms;
  /// J of each trial, in objective order (one value without `trial` lines).
  std::vector<double> trialValues;
  /// Simulated time when a stop rule fired (in the first trial), else nullopt.
  std::optional<double> stoppedAt;
  /// Motion figures (rise time, airborne time, energy, ...) of the first trial, when asked for.
  std::optional<MotionSummary> summary;
};

/// `objective` with its link and joint indices (read against the human's names) moved to
/// `character`'s; throws std::invalid_argument naming a link or joint the character lacks.
ObjectiveDef objectiveForCharacter(const ObjectiveDef& objective, const Character& character);

/// `objective` with its scene-body quantities bound to `bodies` (bindObjectiveObjects());
/// throws std::invalid_argument with the first error ("line 3: unknown object 'crat'; did
/// you mean 'crate'?").
ObjectiveDef objectiveForScene(const ObjectiveDef& objective, std::span<const SceneBodyDef> bodies);

/// The scene an objective simulates a program in: the objective's own (`scene pose: ...`)
/// or the program's.
const Scene& objectiveScene(const Program& program, const ObjectiveDef& objective);

/// The simulation settings of an objective for a program: the objective's scene (or the
/// program's), the thesis step. Throws std::invalid_argument when no duration is known or
/// the objective names a link, joint or scene body the run lacks.
SimulationDef objectiveSimulationDef(const Program& program, const ObjectiveDef& objective);
/// Simulated time per evaluation, seconds (objective's, else the script's); throws
/// std::invalid_argument when neither gives one.
double objectiveDuration(const Program& program, const ObjectiveDef& objective);

/// The simulation settings of one trial (objectiveSimulationDef() with its step and
/// initial joint offsets).
SimulationDef trialSimulationDef(const Program& program, const ObjectiveDef& objective,
                                 const ObjectiveTrial& trial);

/// Simulates `program` (parameters already set) for the objective's duration, once per
/// trial, and returns the combined J. Never throws for a failing simulation: it is reported as
/// infeasible. Safe to call concurrently (each call owns its world). `settleCache`: shared
/// by the evaluations of one run, so that each trial's scene settles once (the results are
/// the same without it).
ObjectiveEvaluation evaluateObjective(const Program& program, const ObjectiveDef& objective,
                                      bool withSummary = false,
                                      const std::shared_ptr<SettleCache>& settleCache = nullptr);

}  // namespace scl
