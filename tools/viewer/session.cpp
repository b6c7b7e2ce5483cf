#include "tools/viewer/session.h"

#include <algorithm>
#include <cmath>
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

// Drops the entries of `log` after step `step`.
template <typename Entry>
void forgetAfter(std::vector<Entry>& log, long step) {
  while (!log.empty() && log.back().step > step) log.pop_back();
}

}  // namespace

ViewerSession::ViewerSession(const Program& program, const DragSpringDef& spring,
                             const HistoryDef& history)
    : spring_(spring),
      session_(openEndedSession(program)),
      world_(session_->runner().simulation()),
      historyDef_(history),
      plots_(*program.character, history.plotRate, simulationDefFor(program).timeStep,
             history.plotSeconds) {
  resetHistory(program);
}

void ViewerSession::load(const Program& program) {
  // Build first, so that a program that cannot run leaves the session untouched.
  auto fresh = openEndedSession(program);
  session_ = std::move(fresh);
  world_ = WorldPicture(runner().simulation());
  drag_.reset();
  dragForce_.setZero();
  failure_.reset();
  stepped_ = false;
  resetHistory(program);
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
  swaps_.push_back({steps(), program, startPhase});
}

void ViewerSession::restart() {
  const Program program = runner().controller().program();
  session_ = openEndedSession(program);
  world_ = WorldPicture(runner().simulation());
  drag_.reset();
  dragForce_.setZero();
  failure_.reset();
  stepped_ = false;
  resetHistory(program);
}

void ViewerSession::resetHistory(const Program& program) {
  initialProgram_ = std::make_shared<const Program>(program);
  swaps_.clear();
  jumps_.clear();
  pushes_.clear();
  snapshots_.clear();
  plots_ =
      PlotRecorder(*program.character, historyDef_.plotRate, timeStep(), historyDef_.plotSeconds);
  record();
}

bool ViewerSession::jumpToPhase(int index) {
  if (index < 0 || index >= runner().controller().phaseCount()) return false;
  runner().jumpToPhase(index);
  jumps_.push_back({steps(), index});
  plots_.markJump();
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
  if (drag_->object) return toWorld(*drag_->object, worldBodies());
  return toWorld(character(), drag_->grabbed, state().links[drag_->grabbed.link]);
}

std::optional<ExternalForce> ViewerSession::dragPush() const {
  if (!drag_) return std::nullopt;
  if (const std::optional<ObjectPoint>& object = drag_->object) {
    const Vec2 point = toWorld(*object, worldBodies());
    const Vec2 force =
        dragSpringForce(spring_, point, pointVelocity(*object, worldBodies()), drag_->target);
    return ExternalForce{object->part, force, point, object->sceneBody};
  }
  const LinkState& link = state().links[drag_->grabbed.link];
  const Vec2 point = toWorld(character(), drag_->grabbed, link);
  const Vec2 force = dragSpringForce(spring_, point, pointVelocity(link, point), drag_->target);
  return ExternalForce{drag_->grabbed.link, force, point};
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

const Snapshot* ViewerSession::snapshotAt(double time) const {
  if (snapshots_.empty()) return nullptr;
  auto after =
      std::upper_bound(snapshots_.begin(), snapshots_.end(), time + 0.5 * timeStep(),
                       [](double t, const Snapshot& snapshot) { return t < snapshot.state.time; });
  return after == snapshots_.begin() ? &snapshots_.front() : &*(after - 1);
}

double ViewerSession::historyStart() const {
  return snapshots_.empty() ? time() : snapshots_.front().state.time;
}

bool ViewerSession::resumeFrom(double time) {
  if (time >= this->time() - 0.5 * timeStep()) return true;  // already there
  const Snapshot* target = snapshotAt(time);
  if (!target) return false;
  const long step = target->step;
  if (step == steps()) return true;
  auto replay = openEndedSession(*initialProgram_);
  std::swap(replay, session_);  // the live run stays in `replay` until this one succeeds
  size_t swap = 0, jump = 0, push = 0;
  try {
    while (session_->steps() < step) replayStep(swap, jump, push);
  } catch (const SimulationDiverged&) {
    std::swap(replay, session_);
    return false;
  } catch (...) {
    std::swap(replay, session_);  // anything else: the live run back, and the error on
    throw;
  }
  forgetAfter(swaps_, step - 1);
  forgetAfter(jumps_, step - 1);
  forgetAfter(pushes_, step - 1);
  forgetAfter(snapshots_, step);
  plots_.truncateAfter(this->time());
  drag_.reset();
  dragForce_.setZero();
  failure_.reset();
  stepped_ = step > 0;
  return true;
}

void ViewerSession::replayStep(size_t& swap, size_t& jump, size_t& push) {
  const long step = session_->steps();
  for (; swap < swaps_.size() && swaps_[swap].step == step; ++swap)
    runner().setProgram(swaps_[swap].program, swaps_[swap].startPhase);
  for (; jump < jumps_.size() && jumps_[jump].step == step; ++jump)
    runner().jumpToPhase(jumps_[jump].phase);
  for (; push < pushes_.size() && pushes_[push].step == step; ++push)
    runner().simulation().addExternalForce(pushes_[push].force);
  session_->step();
}

void ViewerSession::stepOnce() {
  dragForce_.setZero();
  if (const std::optional<ExternalForce> force = dragPush()) {
    dragForce_ = force->force;
    runner().simulation().addExternalForce(*force);
    pushes_.push_back({steps(), *force});
  }
  try {
    session_->step();
    stepped_ = true;
    record();
  } catch (const SimulationDiverged& diverged) {
    failure_ = std::string(diverged.what()) + " (press r to restart)";
  }
}

void ViewerSession::record() {
  const StepReport& report = runner().report();
  const bool initial = steps() == 0;
  plots_.observe({state(), report.phase, report.phaseName, !initial && report.phaseStarted,
                  !initial && report.phaseTimedOut, initial ? nullptr : &report.targets,
                  report.torques});
  const double period = 1.0 / historyDef_.snapshotRate;
  if (!snapshots_.empty() && time() + 0.5 * timeStep() < snapshots_.back().state.time + period)
    return;
  snapshots_.push_back(
      {steps(), state(), controller().phaseIndex(), controller().phaseTime(), worldBodies()});
  const auto kept = static_cast<size_t>(historyDef_.snapshotSeconds * historyDef_.snapshotRate);
  if (snapshots_.size() > 2 * kept)
    snapshots_.erase(snapshots_.begin(),
                     snapshots_.begin() + static_cast<std::ptrdiff_t>(snapshots_.size() - kept));
}

}  // namespace scl
