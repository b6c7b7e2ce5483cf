#include "tools/viewer/session.h"

#include <algorithm>
#include <limits>

namespace scl {

namespace {

// The viewer runs until it is closed: no length, the summary's metrics as `scl run`.
std::unique_ptr<RunSession> openEndedSession(const Program& program) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length.lastPhaseHold = std::numeric_limits<double>::infinity();
  def.length.longest = std::numeric_limits<double>::infinity();
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  return std::make_unique<RunSession>(program, def);
}

}  // namespace

ViewerSession::ViewerSession(const Program& program, const DragSpringDef& spring)
    : spring_(spring), session_(openEndedSession(program)) {}

void ViewerSession::load(const Program& program) {
  // Build first, so that a program that cannot run leaves the session untouched.
  auto fresh = openEndedSession(program);
  session_ = std::move(fresh);
  drag_.reset();
  dragForce_.setZero();
  failure_.reset();
  stepped_ = false;
}

void ViewerSession::continueWith(const Program& program) {
  if (failure_) {  // nothing sensible to continue from
    load(program);
    return;
  }
  // Validate by building a controller first: Runner::setProgram has no undo.
  Controller probe(program, runner().simulation().initialJointAngles());
  int phase = runner().controller().phaseIndex();
  int startPhase = phase < probe.phaseCount() ? phase : 0;
  runner().setProgram(program, startPhase);
}

void ViewerSession::restart() {
  session_ = openEndedSession(runner().controller().program());
  drag_.reset();
  dragForce_.setZero();
  failure_.reset();
  stepped_ = false;
}

bool ViewerSession::jumpToPhase(int index) {
  if (index < 0 || index >= runner().controller().phaseCount()) return false;
  runner().jumpToPhase(index);
  return true;
}

void ViewerSession::advance(int steps) {
  for (int i = 0; i < steps && !failure_; ++i) stepOnce();
}

void ViewerSession::advanceTo(double time) {
  double halfStep = 0.5 * timeStep();
  while (!failure_ && runner().time() < time - halfStep) stepOnce();
}

std::optional<Vec2> ViewerSession::dragPoint() const {
  if (!drag_) return std::nullopt;
  return toWorld(character(), drag_->grabbed, state().links[drag_->grabbed.link]);
}

std::span<const AppliedForce> ViewerSession::appliedForces() const {
  if (!stepped_ || failure_) return {};
  return runner().report().forces;
}

FeatureOverlay ViewerSession::featureOverlay() const {
  if (!stepped_ || failure_) return {};
  const ControlOutput& output = controller().output();
  FeatureOverlay overlay;
  if (output.hasComTarget) overlay.comTarget = output.comTarget;
  overlay.contactForces = output.contactForces;
  return overlay;
}

void ViewerSession::stepOnce() {
  dragForce_.setZero();
  if (drag_) {
    const LinkState& link = state().links[drag_->grabbed.link];
    Vec2 point = toWorld(character(), drag_->grabbed, link);
    dragForce_ = dragSpringForce(spring_, point, pointVelocity(link, point), drag_->target);
    runner().simulation().addExternalForce({drag_->grabbed.link, dragForce_, point});
  }
  try {
    session_->step();
    stepped_ = true;
  } catch (const SimulationDiverged& diverged) {
    failure_ = std::string(diverged.what()) + " (press r to restart)";
  }
}

}  // namespace scl
