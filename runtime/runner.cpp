#include "runtime/runner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace scl {

namespace {

std::string describeTime(double time) {
  std::ostringstream out;
  out.precision(4);
  out << std::fixed << time;
  return out.str();
}

std::string describeValue(double value) {
  if (std::isnan(value)) return "nan";
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

std::string phaseLabel(const Controller& controller, int phase) {
  const std::string& name = controller.program().phases[phase].name;
  if (!name.empty()) return name;
  // Built in two steps: GCC 12 warns falsely (-Wrestrict) on "#" + std::to_string(...).
  std::string label = std::to_string(phase);
  label.insert(label.begin(), '#');
  return label;
}

}  // namespace

SimulationDiverged::SimulationDiverged(double time, std::string phase, std::string quantity)
    : std::runtime_error("simulation diverged at t=" + describeTime(time) + " s in phase '" +
                         phase + "': " + quantity),
      time_(time),
      phase_(std::move(phase)),
      quantity_(std::move(quantity)) {}

SimulationDef simulationDefFor(const Program& program) {
  SimulationDef definition;
  definition.scene = program.scene;
  if (program.character) definition.character = program.character;
  return definition;
}

namespace {

// The body simulated is the one the program was bound for.
SimulationDef withProgramCharacter(SimulationDef definition, const Program& program) {
  if (program.character) definition.character = program.character;
  return definition;
}

// The program's `with BODY` transitions watch the simulated scene's bodies, which a run's
// scene may order otherwise than the script's (`scl run --env chair`).
Program inScene(Program program, const SimulationDef& definition) {
  pointContactBodies(program, definition.scene.bodies);
  return program;
}

// The feature controller's view of the scene: each body's friction and the bodies (terrain).
ControllerOptions withScene(ControllerOptions options, const SimulationDef& definition) {
  options.feature.friction = definition.friction;
  // A contact's μ is the smaller of its two bodies' (runtime/scene_world.cpp).
  options.feature.bodyFriction.clear();
  for (const SceneBodyDef& body : definition.scene.bodies)
    options.feature.bodyFriction.push_back(std::min(body.friction, definition.friction));
  options.feature.sceneBodies = definition.scene.bodies;
  return options;
}

}  // namespace

Runner::Runner(Program program, const SimulationDef& definition, const DivergenceLimits& limits,
               const ControllerOptions& options)
    : definition_(withProgramCharacter(definition, program)),
      limits_(limits),
      options_(withScene(options, definition_)),
      simulation_(definition_),
      controller_(inScene(std::move(program), definition_), simulation_.initialJointAngles(),
                  options_) {
  report_.timeStep = simulation_.timeStep();
}

const StepReport& Runner::step() {
  controller_.step(simulation_.state(), simulation_.timeStep(), simulation_.objects());
  checkTorques();
  simulation_.setJointTorques(controller_.output().torques);
  simulation_.setGrasps(controller_.output().grasps);
  simulation_.step();
  checkState();
  fillReport();
  return report_;
}

void Runner::runUntil(double time) {
  while (simulation_.time() + 0.5 * simulation_.timeStep() < time) step();
}

void Runner::setProgram(const Program& program, int startPhase) {
  Controller next(inScene(program, definition_), simulation_.initialJointAngles(), options_);
  next.holdTargets(controller_.output().targets);
  if (startPhase != 0) next.jumpToPhase(startPhase);
  controller_ = std::move(next);
}

void Runner::restart() {
  simulation_ = Simulation(definition_);
  controller_.restart();
  report_ = StepReport{};
  report_.timeStep = simulation_.timeStep();
}

void Runner::diverged(std::string quantity) const {
  throw SimulationDiverged(simulation_.time(), phaseLabel(controller_, controller_.output().phase),
                           std::move(quantity));
}

void Runner::checkTorques() const {
  const auto& torques = controller_.output().torques;
  const Character& character = *controller_.program().character;
  for (int j = 0; j < character.jointCount(); ++j)
    if (!std::isfinite(torques[j]))
      diverged(character.joints[j].name + " torque is " + describeValue(torques[j]));
}

void Runner::checkState() const {
  const CharacterState& state = simulation_.state();
  const Character& character = *controller_.program().character;
  for (int i = 0; i < character.linkCount(); ++i) {
    const LinkState& link = state.links[i];
    // The link's name is made only when it is needed: a string per link and step was
    // most of this check's cost.
    const auto name = [&character, i] { return character.links[i].name; };
    auto finite = [](const Vec2& v) { return std::isfinite(v.x()) && std::isfinite(v.y()); };
    if (!finite(link.origin)) diverged(name() + " position is not finite");
    if (!std::isfinite(link.angle)) diverged(name() + " angle is " + describeValue(link.angle));
    double speed = link.comVelocity.norm();
    if (!std::isfinite(speed)) diverged(name() + " velocity is " + describeValue(speed));
    if (!std::isfinite(link.angularVelocity))
      diverged(name() + " angular velocity is " + describeValue(link.angularVelocity));
    if (speed > limits_.maxLinearSpeed)
      diverged(name() + " speed is " + describeValue(speed) + " m/s (limit " +
               describeValue(limits_.maxLinearSpeed) + ")");
    if (std::abs(link.angularVelocity) > limits_.maxAngularSpeed)
      diverged(name() + " angular velocity is " + describeValue(link.angularVelocity) +
               " rad/s (limit " + describeValue(limits_.maxAngularSpeed) + ")");
  }
}

void Runner::fillReport() {
  const ControlOutput& output = controller_.output();
  const CharacterState& state = simulation_.state();
  report_.time = simulation_.time();
  report_.phase = output.phase;
  report_.phaseName = controller_.program().phases[output.phase].name;
  report_.phaseTime = output.phaseTime;
  report_.phaseStarted = output.phaseStarted;
  report_.phaseTimedOut = output.phaseTimedOut;
  report_.targets = output.targets;
  report_.torques = simulation_.appliedTorques();
  for (int i = 0; i < state.linkCount; ++i) report_.contact[i] = state.links[i].contact;
  report_.com = state.com;
  report_.comVelocity = state.comVelocity;
  // assign() reuses the capacity, so steady-state steps do not allocate.
  report_.forces.assign(output.forces.begin(), output.forces.end());
}

}  // namespace scl
