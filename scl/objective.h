// Objective files: what "better" means when `scl optimize` tunes a script's `@` numbers
// (docs/objectives.md). This is the language side: the definition as data and its parser,
// on the same lexer, token cursor, scene rule and name lookup as scripts. Evaluating an
// objective on a simulation is optimize/objective.h's job.
//
// An objective file names the scene and duration of one simulation and a weighted sum of
// terms J = Σ w_i · agg_i(f_i(s_t)). Each term is a per-step quantity of the state, an
// optional condition and an aggregation; the thesis's terms (time, height, airborne,
// energy, skid, contactless, final) are predefined combinations of the same parts.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/character.h"
#include "scl/diagnostics.h"
#include "scl/program.h"
#include "scl/push.h"

namespace scl {

/// What a per-step quantity measures.
enum class QuantityKind {
  Constant,             ///< Quantity::constant
  LinkX,                ///< a link's centre of mass x, m
  LinkY,                ///< a link's centre of mass height, m
  LinkVx,               ///< a link's centre of mass horizontal velocity, m/s
  LinkVy,               ///< a link's centre of mass vertical velocity, m/s
  LinkAngle,            ///< a link's world angle, degrees
  LinkAngularVelocity,  ///< a link's angular velocity, deg/s
  LinkContact,          ///< 1 when the link touches the environment, else 0
  JointX,               ///< a joint's world x, m
  JointY,               ///< a joint's height, m
  JointAngle,           ///< a joint angle, degrees
  JointVelocity,        ///< a joint's angular velocity, deg/s
  JointTorque,          ///< the torque applied at a joint in the step, N·m
  ComX,                 ///< whole-body centre of mass x, m
  ComY,                 ///< whole-body centre of mass height, m
  ComVx,                ///< whole-body centre of mass horizontal velocity, m/s
  ComVy,                ///< whole-body centre of mass vertical velocity, m/s
  HeadHeight,           ///< height of the neckTop joint (MotionMetrics::headHeight), m
  Airborne,             ///< 1 when no link touches the environment, else 0
  Contacts,             ///< number of links touching the environment
  Time,                 ///< simulated time after the step, s
  Energy,               ///< Σ_joints τ², (N·m)²
  Skid,         ///< Σ_feet in contact (φ − φ̄)² where |φ − φ̄| > tolerance, rad²
  ObjectX,      ///< a scene body's centre of mass x (a chain's: its links'), m
  ObjectY,      ///< a scene body's centre of mass height, m
  ObjectVx,     ///< a scene body's horizontal velocity, m/s
  ObjectVy,     ///< a scene body's vertical velocity, m/s
  ObjectAngle,  ///< a scene body's angle (a chain's: its links' mean), degrees
  ObjectOmega,  ///< a scene body's angular velocity, deg/s
};

/// Whether a quantity is of a scene body (`crate.x`) rather than of the character.
bool isObjectQuantity(QuantityKind kind);

/// A transformation applied to a quantity's value.
enum class QuantityTransform { None, Abs, Square };

/// A per-step scalar of the simulated state.
struct Quantity {
  QuantityKind kind = QuantityKind::Constant;
  /// Link or joint index (kLinks / kJoints) for the Link* and Joint* kinds; for the
  /// Object* kinds the scene body's index in Scene::bodies once bound
  /// (bindObjectiveObjects()); else -1.
  int index = -1;
  /// Object* kinds: the scene body's name as written, and the chain link it names
  /// (`rope.2.x`: 1, from 0) or -1 for the body as a whole.
  std::string object;
  int part = -1;
  /// Where the quantity's name is written (Object* kinds: for the binding's messages).
  SourceLocation location;
  /// Value of a Constant.
  double constant = 1.0;
  /// Skid: a foot's deviation from flat below this is free, radians (thesis: π/9).
  double skidTolerance = kPi / 9.0;
  QuantityTransform transform = QuantityTransform::None;
};

enum class Comparison { Less, LessEqual, Greater, GreaterEqual };

enum class ConditionKind {
  Airborne,   ///< no link touches the environment
  Grounded,   ///< some link touches the environment
  Fallen,     ///< a link other than the feet and hands touches (docs/marks.md)
  Contact,    ///< any (or all) of `links` touch
  NoContact,  ///< none of `links` touches
  Compare,    ///< quantity <op> threshold
};

/// A per-step condition of the state.
struct Condition {
  ConditionKind kind = ConditionKind::Airborne;
  /// Contact / NoContact: the links watched (groups expanded).
  std::vector<int> links;
  /// Contact: every listed link must touch (else any).
  bool all = false;
  /// Compare: the quantity, the operator and the threshold (quantity's unit).
  Quantity quantity;
  Comparison comparison = Comparison::Less;
  double threshold = 0.0;
};

/// How a term folds its per-step values into one number. Steps whose condition does not
/// hold are skipped; a term that never holds contributes 0.
enum class Aggregation {
  Sum,   ///< Σ value · Δt over the steps where the condition holds
  Min,   ///< smallest value where the condition holds
  Max,   ///< largest value where the condition holds
  Last,  ///< the value at the last step when the condition holds there, else 0
  Mean,  ///< mean value over the steps where the condition holds
};

/// One weighted term of the objective.
struct ObjectiveTerm {
  /// As written: the predefined name ("time", "skid", ...) or "sum pelvis.y when ...".
  std::string label;
  /// Weight w_i (dimensionless).
  double weight = 1.0;
  /// Sign folded into the aggregate (−1 for the thesis's negated terms height, airborne).
  double sign = 1.0;
  Quantity quantity;
  /// All must hold for a step to count.
  std::vector<Condition> conditions;
  Aggregation aggregation = Aggregation::Sum;
  SourceLocation location;
};

/// Early termination (`stop when ...`): once `conditions` hold at or after `after`, the
/// run stops.
struct EarlyStop {
  std::vector<Condition> conditions;
  /// Earliest simulated time at which the rule may fire, seconds.
  double after = 0.0;
  /// Added to J (unweighted) when the rule fires.
  double penalty = 0.0;
  SourceLocation location;
};

/// An explicit bound for the parameters whose name matches `pattern` (`*` matches any
/// run of characters), script units.
struct ParameterBound {
  std::string pattern;
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  SourceLocation location;
};

/// One simulation of every candidate: the start and step it is evaluated under. Several
/// trials make a robust objective (a candidate must do well from perturbed starts and at
/// other steps, not only from the one start it was tuned on).
struct ObjectiveTrial {
  /// Simulation step, seconds; 0: the thesis's 0.25 ms (SimulationDef's default).
  double timeStep = 0.0;
  /// Every initial joint angle is offset by a uniform draw in ±this, degrees; 0: none.
  double perturbDegrees = 0.0;
  /// Seed of the perturbation draws (perturbationOffsets()).
  uint64_t seed = 0;
  /// `pd: stable`: stable PD instead of explicit (docs/stepping.md).
  bool stablePd = false;
  /// `push: NAME force: (FX, FY) at: T for: D`, each as the script's `push` statement and
  /// `scl run --push`. A link's target is the human's link (renamed for another character
  /// when the trial runs); an object's has its name in `target.body` until
  /// bindObjectiveObjects() finds it in the scene (its part then too). `location` is the
  /// name's.
  std::vector<ScriptPush> pushes;
  SourceLocation location;
};

/// How the trials' J values make the candidate's J.
enum class TrialCombination {
  Mean,   ///< their mean: rewards doing well from most starts
  Worst,  ///< the largest: rewards doing well from every start
};

/// A parsed objective file.
struct ObjectiveDef {
  /// The scene of the simulation; nullopt: the script's own scene header.
  std::optional<Scene> scene;
  /// Simulated time per evaluation, seconds; nullopt: the script's `duration:`.
  std::optional<double> duration;
  /// Candidates per generation; 0: CMA-ES's default (or the command line's).
  int populationSize = 0;
  /// Default search range of every parameter as a fraction of its scale (see
  /// docs/objectives.md); 0: unbounded but for the natural limits.
  double relativeRange = 0.0;
  std::vector<ParameterBound> bounds;
  std::vector<ObjectiveTerm> terms;
  std::vector<EarlyStop> stops;
  /// The simulations per candidate; empty: one, from the scene's unperturbed start.
  std::vector<ObjectiveTrial> trials;
  TrialCombination combination = TrialCombination::Mean;
  /// The file the objective came from, for messages.
  std::string fileName;
};

struct ObjectiveParseResult {
  /// Present exactly when `diagnostics` has no error.
  std::optional<ObjectiveDef> objective;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return objective.has_value(); }
};

/// Parses an objective file. Never throws on any input. A quantity of a name that is no
/// link, joint, group or `com` (nor close to one: a misspelled link is an error here) is
/// a scene body's, such as `crate.x`: bindObjectiveObjects() looks its name up in the
/// scene the objective simulates.
ObjectiveParseResult parseObjective(std::string_view source, std::string_view fileName);

/// Binds the objective's scene-body quantities (`crate.x`, `rope.2.y`) to the bodies of
/// `bodies` (Scene::bodies of the scene it simulates): each Quantity::index becomes its
/// body's index. Reports, at the quantity, a name no body of the scene has ("did you
/// mean" over the scene's movable objects and moving platforms), a body that does not
/// move (terrain) and a link number its chain lacks (or a link number of a body that is
/// no chain). Returns false when it reported an error.
bool bindObjectiveObjects(ObjectiveDef& objective, std::span<const SceneBodyDef> bodies,
                          DiagnosticSink& sink);

/// The predefined term names (time, height, airborne, energy, skid, proneSkid,
/// contactless, final), for help and messages.
std::vector<std::string_view> predefinedTermNames();

}  // namespace scl
