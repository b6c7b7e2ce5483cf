// Per-step quantities and conditions, the term accumulators and one evaluation.
#include "optimize/objective.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>

#include "runtime/run_session.h"
#include "runtime/world_metrics.h"
#include "scl/character.h"

namespace scl {

namespace {

// Angle difference wrapped into (−π, π], so a foot that turned a full circle is not "tilted".
double wrappedDifference(double angle, double reference) {
  double difference = std::remainder(angle - reference, 2.0 * kPi);
  if (difference <= -kPi) difference += 2.0 * kPi;
  return difference;
}

double skid(const Character& character, const CharacterState& state, double tolerance) {
  double total = 0.0;
  for (int side = 0; side < 2; ++side) {
    const int foot = character.roles.sides[static_cast<size_t>(side)].foot;
    const double flat = degToRad(character.footFlatAngleDeg(side));
    if (!state.links[foot].contact) continue;
    const double deviation = wrappedDifference(state.links[foot].angle, flat);
    if (std::abs(deviation) > tolerance) total += deviation * deviation;
  }
  return total;
}

bool airborne(const CharacterState& state) {
  return std::none_of(state.links.begin(), state.links.end(),
                      [](const LinkState& link) { return link.contact; });
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A scene body's quantity: its part's (a chain's link) or the body's as a whole
// (objectState(): a chain's links together); NaN when `world` holds none of it.
double objectQuantity(const Quantity& quantity, std::span<const WorldBodyState> world) {
  const WorldParts parts = partsOf(world, quantity.index);
  if (parts.count == 0 || quantity.part >= parts.count) return kNaN;
  ObjectState object;
  if (quantity.part >= 0) {
    const WorldBodyState& part =
        world[static_cast<size_t>(parts.first) + static_cast<size_t>(quantity.part)];
    object = {part.position, part.velocity, part.angle, part.spin};
  } else {
    object = objectState(world, parts);
  }
  switch (quantity.kind) {
    case QuantityKind::ObjectX:
      return object.position.x();
    case QuantityKind::ObjectY:
      return object.position.y();
    case QuantityKind::ObjectVx:
      return object.velocity.x();
    case QuantityKind::ObjectVy:
      return object.velocity.y();
    case QuantityKind::ObjectAngle:
      return radToDeg(object.angle);
    case QuantityKind::ObjectOmega:
      return radToDeg(object.spin);
    default:
      return kNaN;
  }
}

double rawQuantity(const Quantity& quantity, const Character& character,
                   const CharacterState& state, const std::array<double, kMaxJoints>& torques,
                   std::span<const WorldBodyState> world) {
  const int i = quantity.index;
  switch (quantity.kind) {
    case QuantityKind::Constant:
      return quantity.constant;
    case QuantityKind::LinkX:
      return state.links[i].com.x();
    case QuantityKind::LinkY:
      return state.links[i].com.y();
    case QuantityKind::LinkVx:
      return state.links[i].comVelocity.x();
    case QuantityKind::LinkVy:
      return state.links[i].comVelocity.y();
    case QuantityKind::LinkAngle:
      return radToDeg(state.links[i].angle);
    case QuantityKind::LinkAngularVelocity:
      return radToDeg(state.links[i].angularVelocity);
    case QuantityKind::LinkContact:
      return state.links[i].contact ? 1.0 : 0.0;
    case QuantityKind::JointX:
      return state.jointPositions[i].x();
    case QuantityKind::JointY:
      return state.jointPositions[i].y();
    case QuantityKind::JointAngle:
      return radToDeg(state.jointAngles[i]);
    case QuantityKind::JointVelocity:
      return radToDeg(state.jointVelocities[i]);
    case QuantityKind::JointTorque:
      return torques[i];
    case QuantityKind::ComX:
      return state.com.x();
    case QuantityKind::ComY:
      return state.com.y();
    case QuantityKind::ComVx:
      return state.comVelocity.x();
    case QuantityKind::ComVy:
      return state.comVelocity.y();
    case QuantityKind::HeadHeight:
      return objectiveHeadHeight(character, state);
    case QuantityKind::Airborne:
      return airborne(state) ? 1.0 : 0.0;
    case QuantityKind::Contacts:
      return static_cast<double>(std::count_if(state.links.begin(), state.links.end(),
                                               [](const LinkState& link) { return link.contact; }));
    case QuantityKind::Time:
      return state.time;
    case QuantityKind::Energy: {
      double sum = 0.0;
      for (double torque : torques) sum += torque * torque;
      return sum;
    }
    case QuantityKind::Skid:
      return skid(character, state, quantity.skidTolerance);
    case QuantityKind::ObjectX:
    case QuantityKind::ObjectY:
    case QuantityKind::ObjectVx:
    case QuantityKind::ObjectVy:
    case QuantityKind::ObjectAngle:
    case QuantityKind::ObjectOmega:
      return objectQuantity(quantity, world);
  }
  return 0.0;
}

bool compare(double value, Comparison comparison, double threshold) {
  switch (comparison) {
    case Comparison::Less:
      return value < threshold;
    case Comparison::LessEqual:
      return value <= threshold;
    case Comparison::Greater:
      return value > threshold;
    case Comparison::GreaterEqual:
      return value >= threshold;
  }
  return false;
}

bool allHold(const std::vector<Condition>& conditions, const Character& character,
             const CharacterState& state, const std::array<double, kMaxJoints>& torques,
             std::span<const WorldBodyState> world) {
  return std::all_of(conditions.begin(), conditions.end(), [&](const Condition& condition) {
    return conditionHolds(condition, character, state, torques, world);
  });
}

}  // namespace

double objectiveHeadHeight(const Character& character, const CharacterState& state) {
  return MotionMetrics::headHeight(character, state);
}

double quantityValue(const Quantity& quantity, const Character& character,
                     const CharacterState& state, const std::array<double, kMaxJoints>& torques,
                     std::span<const WorldBodyState> world) {
  const double value = rawQuantity(quantity, character, state, torques, world);
  switch (quantity.transform) {
    case QuantityTransform::None:
      return value;
    case QuantityTransform::Abs:
      return std::abs(value);
    case QuantityTransform::Square:
      return value * value;
  }
  return value;
}

bool conditionHolds(const Condition& condition, const Character& character,
                    const CharacterState& state, const std::array<double, kMaxJoints>& torques,
                    std::span<const WorldBodyState> world) {
  const auto touches = [&](int link) { return state.links[link].contact; };
  switch (condition.kind) {
    case ConditionKind::Airborne:
      return airborne(state);
    case ConditionKind::Grounded:
      return !airborne(state);
    case ConditionKind::Fallen:
      return MotionMetrics::bodyTouches(character, state);
    case ConditionKind::Contact:
      return condition.all ? std::all_of(condition.links.begin(), condition.links.end(), touches)
                           : std::any_of(condition.links.begin(), condition.links.end(), touches);
    case ConditionKind::NoContact:
      return std::none_of(condition.links.begin(), condition.links.end(), touches);
    case ConditionKind::Compare:
      return compare(quantityValue(condition.quantity, character, state, torques, world),
                     condition.comparison, condition.threshold);
  }
  return false;
}

// --- ObjectiveAccumulator -------------------------------------------------------------

ObjectiveAccumulator::ObjectiveAccumulator(const ObjectiveDef& objective,
                                           const Character& character,
                                           std::span<const SceneBodyDef> bodies)
    : objective_(objectiveForScene(objectiveForCharacter(objective, character), bodies)),
      character_(&character),
      accumulators_(objective.terms.size()),
      lastValues_(objective.terms.size()) {}

void ObjectiveAccumulator::observe(const CharacterState& state,
                                   const std::array<double, kMaxJoints>& torques, double dt,
                                   std::span<const WorldBodyState> world) {
  const auto& terms = objective_.terms;
  for (size_t i = 0; i < terms.size(); ++i) {
    StepValue step;
    step.holds = allHold(terms[i].conditions, *character_, state, torques, world);
    if (step.holds)
      step.value = quantityValue(terms[i].quantity, *character_, state, torques, world);
    lastValues_[i] = step;
    record(i, step, dt, 1);
  }
  lastDt_ = dt;
  observed_ = true;
  firedStop_ = -1;
  const auto& stops = objective_.stops;
  for (size_t i = 0; i < stops.size() && firedStop_ < 0; ++i) {
    // Half a step of slack so that `after 2.5` is reached at the step ending at 2.5 s.
    if (state.time + 0.5 * dt >= stops[i].after &&
        allHold(stops[i].conditions, *character_, state, torques, world))
      firedStop_ = static_cast<int>(i);
  }
}

void ObjectiveAccumulator::repeatLast(int64_t count) {
  if (!observed_ || count <= 0) return;
  for (size_t i = 0; i < lastValues_.size(); ++i) record(i, lastValues_[i], lastDt_, count);
}

int ObjectiveAccumulator::firedStop() const { return firedStop_; }

void ObjectiveAccumulator::record(size_t term, const StepValue& step, double dt, int64_t repeats) {
  Accumulator& accumulator = accumulators_[term];
  if (!step.holds) {
    accumulator.last = 0.0;
    return;
  }
  const Aggregation aggregation = objective_.terms[term].aggregation;
  const double n = static_cast<double>(repeats);
  if (aggregation == Aggregation::Sum) accumulator.sum += step.value * dt * n;
  if (aggregation == Aggregation::Mean) accumulator.sum += step.value * n;
  if (accumulator.count == 0) accumulator.extreme = step.value;
  if (aggregation == Aggregation::Min)
    accumulator.extreme = std::min(accumulator.extreme, step.value);
  if (aggregation == Aggregation::Max)
    accumulator.extreme = std::max(accumulator.extreme, step.value);
  accumulator.last = step.value;
  accumulator.count += repeats;
}

std::vector<double> ObjectiveAccumulator::termValues() const {
  std::vector<double> values(accumulators_.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Accumulator& a = accumulators_[i];
    const ObjectiveTerm& term = objective_.terms[i];
    double value = 0.0;
    switch (term.aggregation) {
      case Aggregation::Sum:
        value = a.sum;
        break;
      case Aggregation::Mean:
        value = a.count > 0 ? a.sum / static_cast<double>(a.count) : 0.0;
        break;
      case Aggregation::Min:
      case Aggregation::Max:
        value = a.count > 0 ? a.extreme : 0.0;
        break;
      case Aggregation::Last:
        value = a.last;
        break;
    }
    values[i] = term.sign * value;
  }
  return values;
}

double ObjectiveAccumulator::total() const {
  const std::vector<double> values = termValues();
  double sum = penalty_;
  for (size_t i = 0; i < values.size(); ++i) sum += objective_.terms[i].weight * values[i];
  return sum;
}

// --- evaluation -----------------------------------------------------------------------

double objectiveDuration(const Program& program, const ObjectiveDef& objective) {
  if (objective.duration) return *objective.duration;
  if (program.scene.duration) return *program.scene.duration;
  throw std::invalid_argument(
      "no duration: give one in the objective ('duration 5') or in the script's scene header");
}

namespace {

bool ofLink(QuantityKind kind) {
  return kind >= QuantityKind::LinkX && kind <= QuantityKind::LinkContact;
}
bool ofJoint(QuantityKind kind) {
  return kind >= QuantityKind::JointX && kind <= QuantityKind::JointTorque;
}

// The index of the human's link (or joint) `index` in `character`, by name.
int renamed(const Character& character, int index, bool link, const SourceLocation& at) {
  const Character& human = *humanCharacter();
  const std::string& name = link ? human.links[static_cast<size_t>(index)].name
                                 : human.joints[static_cast<size_t>(index)].name;
  const auto found = link ? character.findLink(name) : character.findJoint(name);
  if (!found)
    throw std::invalid_argument(
        "the objective's " + std::string(link ? "link '" : "joint '") + name + "' (line " +
        std::to_string(at.line) + ") is not in character '" + character.name +
        "' (an objective names the human's links and joints; docs/character.md, Roles)");
  return *found;
}

void rename(const Character& character, Quantity& quantity, const SourceLocation& at) {
  if (ofLink(quantity.kind)) quantity.index = renamed(character, quantity.index, true, at);
  if (ofJoint(quantity.kind)) quantity.index = renamed(character, quantity.index, false, at);
}

void rename(const Character& character, Condition& condition, const SourceLocation& at) {
  for (int& link : condition.links) link = renamed(character, link, true, at);
  rename(character, condition.quantity, at);
}

}  // namespace

ObjectiveDef objectiveForCharacter(const ObjectiveDef& objective, const Character& character) {
  ObjectiveDef out = objective;
  for (ObjectiveTerm& term : out.terms) {
    rename(character, term.quantity, term.location);
    for (Condition& condition : term.conditions) rename(character, condition, term.location);
  }
  for (EarlyStop& stop : out.stops)
    for (Condition& condition : stop.conditions) rename(character, condition, stop.location);
  for (ObjectiveTrial& trial : out.trials)
    for (ScriptPush& push : trial.pushes)
      if (push.target.body.empty())
        push.target.link = renamed(character, push.target.link, true, push.location);
  return out;
}

ObjectiveDef objectiveForScene(const ObjectiveDef& objective,
                               std::span<const SceneBodyDef> bodies) {
  ObjectiveDef out = objective;
  DiagnosticSink sink;
  if (bindObjectiveObjects(out, bodies, sink)) return out;
  const Diagnostic first = sink.take().front();
  throw std::invalid_argument("line " + std::to_string(first.location.line) + ": " + first.message);
}

const Scene& objectiveScene(const Program& program, const ObjectiveDef& objective) {
  return objective.scene ? *objective.scene : program.scene;
}

SimulationDef objectiveSimulationDef(const Program& program, const ObjectiveDef& objective) {
  objectiveForCharacter(objective, *program.character);  // throws for a name it lacks
  objectiveForScene(objective, objectiveScene(program, objective).bodies);  // and the scene
  SimulationDef definition = simulationDefFor(program);
  if (objective.scene) definition.scene = *objective.scene;
  definition.scene.duration = objectiveDuration(program, objective);
  return definition;
}

SimulationDef trialSimulationDef(const Program& program, const ObjectiveDef& objective,
                                 const ObjectiveTrial& trial) {
  SimulationDef definition = objectiveSimulationDef(program, objective);
  if (trial.timeStep > 0) definition.timeStep = trial.timeStep;
  if (trial.perturbDegrees > 0)
    definition.jointOffsets = perturbationOffsets(trial.perturbDegrees, trial.seed);
  return definition;
}

namespace {

// One simulation of one trial; throws when it diverges.
// `pushes` are the trial's, bound to the program's character and the scene (objectiveFor
// Character(), objectiveForScene()).
ObjectiveEvaluation runTrial(const Program& program, const ObjectiveDef& objective,
                             const ObjectiveTrial& trial, std::span<const ScriptPush> pushes,
                             bool withSummary, const std::shared_ptr<SettleCache>& settleCache) {
  ObjectiveEvaluation out;
  RunSessionDef def;
  def.simulation = trialSimulationDef(program, objective, trial);
  def.simulation.settleCache = settleCache;
  def.controller.stablePd = trial.stablePd;
  for (const ScriptPush& push : pushes)
    def.pushes.push_back(pushOf(push, def.simulation.scene.bodies));
  def.length.duration = def.simulation.scene.duration;
  if (!withSummary) def.metrics.reset();
  def.metricsSeeInitialState = false;
  const int64_t steps = std::llround(*def.length.duration / def.simulation.timeStep);
  RunSession session(program, def);
  const Simulation& simulation = session.runner().simulation();
  ObjectiveAccumulator accumulator(objective, simulation.character(),
                                   simulation.definition().scene.bodies);
  session.run([&](const StepView& step) {
    if (!step.report) return;
    accumulator.observe(step.state, step.torques, step.timeStep, step.world);
    if (const int rule = accumulator.firedStop(); rule >= 0) {
      // The rest of the run is charged as if the final state stayed.
      accumulator.repeatLast(steps - session.steps());
      accumulator.addPenalty(objective.stops[rule].penalty);
      out.stoppedAt = step.report->time;
      session.stop("an early stop of the objective");
    }
  });
  out.terms = accumulator.termValues();
  out.value = accumulator.total();
  if (withSummary) out.summary = session.summary();
  return out;
}

}  // namespace

ObjectiveEvaluation evaluateObjective(const Program& program, const ObjectiveDef& objective,
                                      bool withSummary,
                                      const std::shared_ptr<SettleCache>& settleCache) {
  ObjectiveEvaluation out;
  const std::vector<ObjectiveTrial> trials =
      objective.trials.empty() ? std::vector<ObjectiveTrial>{ObjectiveTrial{}} : objective.trials;
  try {
    const ObjectiveDef bound =
        objectiveForScene(objectiveForCharacter(objective, *program.character),
                          objectiveScene(program, objective).bodies);
    double combined = objective.combination == TrialCombination::Worst
                          ? -std::numeric_limits<double>::infinity()
                          : 0.0;
    for (size_t t = 0; t < trials.size(); ++t) {
      const std::span<const ScriptPush> pushes =
          bound.trials.empty() ? std::span<const ScriptPush>{} : bound.trials[t].pushes;
      ObjectiveEvaluation trial =
          runTrial(program, objective, trials[t], pushes, withSummary && t == 0, settleCache);
      if (t == 0) {
        out.terms.assign(trial.terms.size(), 0.0);
        out.stoppedAt = trial.stoppedAt;
        out.summary = trial.summary;
      }
      for (size_t i = 0; i < out.terms.size(); ++i)
        out.terms[i] += trial.terms[i] / static_cast<double>(trials.size());
      out.trialValues.push_back(trial.value);
      if (!std::isfinite(trial.value)) {  // one bad trial makes the candidate infeasible
        combined = trial.value;
        break;
      }
      if (objective.combination == TrialCombination::Worst)
        combined = std::max(combined, trial.value);
      else
        combined += trial.value / static_cast<double>(trials.size());
    }
    out.value = combined;
    if (!std::isfinite(out.value)) {
      out.failure = "the objective is not a finite number";
      out.value = std::numeric_limits<double>::quiet_NaN();
      return out;
    }
    out.feasible = true;
  } catch (const std::exception& error) {
    out.failure = error.what();
    out.value = std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

}  // namespace scl
