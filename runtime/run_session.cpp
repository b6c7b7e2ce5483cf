#include "runtime/run_session.h"

#include <algorithm>
#include <stdexcept>

namespace scl {

namespace {

constexpr std::array<double, kMaxJoints> kNoTorques{};

// A cyclic script without a duration runs this long, seconds.
constexpr double kCyclicRun = 10.0;

// Endless: the last phase leads back (a counted `finally` cycle ends).
bool isCyclic(const Program& program) {
  const auto& exit = program.phases.back().exit;
  return exit && exit->cycles == 0;
}

std::string_view phaseNameOf(const Program& program, int index) {
  return program.phases[static_cast<size_t>(index)].name;
}

}  // namespace

RunLength defaultRunLength(const Program& program) {
  RunLength length;
  if (program.scene.duration) {
    length.duration = program.scene.duration;
    length.reason = "the script's scene duration";
  } else if (isCyclic(program)) {
    length.duration = kCyclicRun;
    length.reason = "default for a cyclic script";
  } else {
    length.reason = "the last phase had been active 3 s";
  }
  return length;
}

Push pushOf(const ScriptPush& carried, std::span<const SceneBodyDef> bodies) {
  Push push;
  push.link = carried.target.link;
  push.force = Vec2(carried.force[0], carried.force[1]);
  push.start = carried.start;
  push.duration = carried.duration;
  push.part = carried.target.part;
  if (!carried.target.body.empty()) {
    const SceneBodyDef* body = findSceneBody(bodies, carried.target.body);
    if (!body)
      throw std::invalid_argument("line " + std::to_string(carried.location.line) +
                                  ": the push of '" + carried.name +
                                  "' names a body the scene does not hold");
    push.sceneBody = static_cast<int>(body - bodies.data());
  }
  return push;
}

std::vector<Push> programPushes(const Program& program, std::span<const SceneBodyDef> bodies) {
  std::vector<Push> pushes;
  for (const ScriptPush& carried : program.pushes) {
    pushes.push_back(pushOf(carried, bodies));
    pushes.back().fromScript = true;
  }
  return pushes;
}

RunSession::RunSession(Program program, RunSessionDef definition)
    : def_(std::move(definition)),
      runner_(std::move(program), def_.simulation, {}, def_.controller) {
  std::vector<Push> pushes =
      programPushes(this->program(), runner_.simulation().definition().scene.bodies);
  pushes.insert(pushes.end(), def_.pushes.begin(), def_.pushes.end());
  def_.pushes = std::move(pushes);
  endReason_ = def_.length.reason;
  if (def_.metrics) {
    metrics_.emplace(*def_.metrics);
    worldMetrics_.emplace(runner_.simulation().definition().scene.bodies,
                          runner_.simulation().character().linkCount());
  }
  if (metrics_ && def_.metricsSeeInitialState) {
    metrics_->observe(runner_.state(), kNoTorques, 0.0, 0);
    worldMetrics_->observe(runner_.state(), runner_.simulation().worldBodies());
  }
  timeline_.push_back({0.0, 0, std::string(phaseNameOf(this->program(), 0))});
  findPushedParts();
  updateFinished(nullptr);
}

void RunSession::findPushedParts() {
  const Simulation& simulation = runner_.simulation();
  const std::vector<SceneBodyDef>& bodies = simulation.definition().scene.bodies;
  const std::vector<WorldBodyState>& parts = simulation.worldBodies();
  for (const Push& push : def_.pushes) {
    if (push.sceneBody < 0) {
      if (push.link >= simulation.character().linkCount())
        throw std::invalid_argument("a push on link " + std::to_string(push.link) + " of " +
                                    std::to_string(simulation.character().linkCount()));
      pushedParts_.push_back(-1);
      continue;
    }
    const auto body = static_cast<size_t>(push.sceneBody);
    if (body >= bodies.size() || !bodies[body].movable())
      throw std::invalid_argument("a push on scene body " + std::to_string(push.sceneBody) +
                                  ", which is no movable object");
    const auto part = std::find_if(parts.begin(), parts.end(), [&](const WorldBodyState& state) {
      return state.sceneBody == push.sceneBody && state.part == push.part;
    });
    if (part == parts.end())
      throw std::invalid_argument("a push on part " + std::to_string(push.part) + " of '" +
                                  bodies[body].name + "', which has no such part");
    pushedParts_.push_back(static_cast<int>(part - parts.begin()));
  }
}

void RunSession::applyPushes() {
  const double now = runner_.time() + 0.5 * runner_.simulation().timeStep();
  for (size_t i = 0; i < def_.pushes.size(); ++i) {
    const Push& push = def_.pushes[i];
    if (now < push.start || now >= push.start + push.duration) continue;
    if (pushedParts_[i] < 0) {
      runner_.simulation().addExternalForce(
          {push.link, push.force, runner_.state().links[push.link].com});
      continue;
    }
    const WorldBodyState& part =
        runner_.simulation().worldBodies()[static_cast<size_t>(pushedParts_[i])];
    runner_.simulation().addExternalForce({push.part, push.force, part.position, push.sceneBody});
  }
}

const StepReport& RunSession::step() {
  applyPushes();
  const StepReport& report = runner_.step();
  ++steps_;
  if (report.phaseStarted && steps_ > 1)
    timeline_.push_back({report.time - report.timeStep, report.phase, std::string(report.phaseName),
                         report.phaseTimedOut});
  if (metrics_) {
    metrics_->observe(runner_.state(), report.torques, report.timeStep, report.phase);
    worldMetrics_->observe(runner_.state(), runner_.simulation().worldBodies());
  }
  updateFinished(&report);
  return report;
}

// Before the next step: has the run reached its length? A fixed duration ends when the
// time is within half a step of it; otherwise the last phase's hold (after the step that
// completes it) or the longest run ends it.
void RunSession::updateFinished(const StepReport* report) {
  if (finished_) return;
  const RunLength& length = def_.length;
  const double dt = runner_.simulation().timeStep();
  const double now = runner_.time();
  if (length.duration) {
    finished_ = now + 0.5 * dt >= *length.duration;
    return;
  }
  if (now + 0.5 * dt >= length.longest) {
    finished_ = true;
    endReason_ = "the 60 s limit";
    return;
  }
  const int lastPhase = static_cast<int>(program().phases.size()) - 1;
  // The last phase holds once it will not end (after a counted cycle's last round).
  if (report && report->phase == lastPhase && runner_.controller().phaseIsFinal() &&
      report->phaseTime + report->timeStep >= length.lastPhaseHold - 0.5 * dt &&
      report->time + 0.5 * dt >= length.notBefore)
    finished_ = true;
}

void RunSession::stop(std::string reason) {
  finished_ = true;
  endReason_ = std::move(reason);
}

StepView RunSession::initialView() const {
  return {runner_.state(),
          0,
          phaseNameOf(program(), 0),
          kNoTorques,
          0.0,
          nullptr,
          runner_.simulation().worldBodies()};
}

void RunSession::run(const std::function<void(const StepView&)>& observe) {
  if (observe && steps_ == 0) observe(initialView());
  while (!finished_) {
    const StepReport& report = step();
    if (observe)
      observe({runner_.state(), report.phase, report.phaseName, report.torques, report.timeStep,
               &report, runner_.simulation().worldBodies()});
  }
}

MotionSummary RunSession::summary() const {
  MotionSummary summary = metrics_ ? metrics_->summary() : MotionSummary{};
  summary.objects = objects();
  return summary;
}

std::vector<ObjectSummary> RunSession::objects() const {
  return worldMetrics_ ? worldMetrics_->objects() : std::vector<ObjectSummary>{};
}

}  // namespace scl
