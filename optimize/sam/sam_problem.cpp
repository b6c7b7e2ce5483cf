#include "optimize/sam/sam_problem.h"

#include <stdexcept>

#include "runtime/metrics.h"
#include "runtime/run_session.h"
#include "runtime/runner.h"
#include "scl/names.h"
#include "scl/printer.h"
#include "scl/scene.h"

namespace scl {

namespace {

std::string where(const ProblemDef& def, const SourceLocation& location) {
  return def.fileName + ":" + std::to_string(location.line) + ":" +
         std::to_string(location.column) + ": ";
}

}  // namespace

SamProblem bindSamProblem(Program program, ProblemDef def) {
  SamProblem out;
  out.scene = def.scene ? *def.scene : program.scene;
  if (def.duration)
    out.duration = *def.duration;
  else if (program.scene.duration)
    out.duration = *program.scene.duration;
  else
    throw std::invalid_argument(def.fileName +
                                ": no duration: give one ('duration 2.5') or a scene duration "
                                "in the script");
  for (const ProblemState& state : def.states) {
    if (state.quantity == StateQuantity::ChairHeight && !out.scene.chair())
      throw std::invalid_argument(where(def, state.location) +
                                  "the state 'height' is the chair's height, but the scene has "
                                  "no chair (e.g. 'scene pose: sitting env: chair')");
    if (state.quantity == StateQuantity::ChairHeight &&
        (state.lower < kMinChairHeight || state.upper > kMaxChairHeight))
      throw std::invalid_argument(
          where(def, state.location) + "the range of 'height' must lie in [" +
          formatNumber(kMinChairHeight) + ", " + formatNumber(kMaxChairHeight) +
          "] m, the chair heights a scene can have");
    out.columns.push_back(state.name);
    out.sampler.start.push_back(state.start);
    out.sampler.scale.push_back(state.scale);
    out.sampler.lower.push_back(state.lower);
    out.sampler.upper.push_back(state.upper);
  }
  for (const ProblemAction& action : def.actions) {
    const NameLookup lookup = lookupParameter(program.parameters, action.parameter);
    if (!lookup.ok()) throw std::invalid_argument(where(def, action.location) + lookup.error);
    const Parameter& parameter = program.parameters[static_cast<size_t>(lookup.index())];
    if (parameter.value < action.lower || parameter.value > action.upper)
      throw std::invalid_argument(where(def, action.location) + "the script's value of '" +
                                  action.parameter + "', " + formatNumber(parameter.value) +
                                  ", lies outside the action's range (the sampling starts there)");
    out.actionSlots.push_back(lookup.index());
    out.columns.push_back(action.parameter);
    out.sampler.start.push_back(parameter.value);
    out.sampler.scale.push_back(action.scale);
    out.sampler.lower.push_back(action.lower);
    out.sampler.upper.push_back(action.upper);
  }
  out.sampler.paths = def.paths > 0 ? def.paths : static_cast<int>(out.columns.size()) + 1;
  out.sampler.population = def.population;
  out.sampler.initialStep = def.step;
  out.program = std::move(program);
  out.def = std::move(def);
  return out;
}

Scene sceneAt(const SamProblem& problem, const std::vector<double>& point) {
  Scene scene = problem.scene;
  for (size_t i = 0; i < problem.def.states.size(); ++i)
    if (problem.def.states[i].quantity == StateQuantity::ChairHeight)
      scene.chair()->seatHeight = point[i];  // bindSamProblem saw the chair
  return scene;
}

Program programAt(const SamProblem& problem, const std::vector<double>& point) {
  Program program = problem.program;
  std::vector<double> values = program.parameterValues();
  const size_t states = problem.def.states.size();
  for (size_t i = 0; i < problem.actionSlots.size(); ++i)
    values[static_cast<size_t>(problem.actionSlots[i])] = point[states + i];
  program.setParameters(values);
  return program;
}

SamSimulation samSimulate(const SamProblem& problem, const std::vector<double>& point,
                          const std::shared_ptr<SettleCache>& settleCache,
                          const std::function<void(const StepView&)>& observe) {
  Program program = programAt(problem, point);
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.simulation.scene = sceneAt(problem, point);
  def.simulation.settleCache = settleCache;
  def.length.duration = problem.duration;
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  SamSimulation out;
  try {
    RunSession session(std::move(program), def);
    session.run(observe);
    out.summary = session.summary();
    out.compatible = true;
    for (CompatibleWhen when : problem.def.compatible) {
      if (when == CompatibleWhen::StandingAtEnd && !out.summary.standing) out.compatible = false;
      if (when == CompatibleWhen::NoFall && out.summary.fell) out.compatible = false;
    }
    out.endTime = session.runner().time();
    out.endPhase =
        session.program().phases[static_cast<size_t>(session.runner().report().phase)].name;
    out.endState = session.runner().state();
    out.environment = session.runner().simulation().environmentBoxes();
  } catch (const SimulationDiverged&) {
    out.compatible = false;
    out.diverged = true;
  }
  return out;
}

bool samCompatible(const SamProblem& problem, const std::vector<double>& point,
                   const std::shared_ptr<SettleCache>& settleCache) {
  return samSimulate(problem, point, settleCache).compatible;
}

}  // namespace scl
