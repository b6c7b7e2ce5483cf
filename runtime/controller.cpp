#include "runtime/controller.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "base/format.h"

namespace scl {

namespace {

// Phase time is a sum of steps; this absorbs its rounding so that `after 0.6` with
// 0.25 ms steps fires after exactly 2400 steps.
constexpr double kTimeTolerance = 1e-9;

void validateProgram(const Program& program) {
  if (program.phases.empty()) throw std::invalid_argument("the program has no phases");
  const int count = static_cast<int>(program.phases.size());
  for (int i = 0; i < count; ++i) {
    const auto& exit = program.phases[i].exit;
    if (exit && (exit->next < 0 || exit->next >= count))
      throw std::invalid_argument("phase " + std::to_string(i) + " transitions to phase " +
                                  std::to_string(exit->next) + ", which does not exist");
    if (exit && exit->cycles > 0 && (exit->cycleStart < 0 || exit->cycleStart > i))
      throw std::invalid_argument("phase " + std::to_string(i) + " cycles back to phase " +
                                  std::to_string(exit->cycleStart) + ", not an earlier one");
  }
}

std::string_view qpStatusName(QpStatus status) {
  switch (status) {
    case QpStatus::Optimal:
      return "optimal";
    case QpStatus::Infeasible:
      return "infeasible";
    case QpStatus::IterationLimit:
      return "iteration limit";
    case QpStatus::NotPositiveDefinite:
      return "not positive definite";
    case QpStatus::InvalidInput:
      return "a number is not finite";
  }
  return "unknown";
}

}  // namespace

Controller::Controller(Program program, const JointTargets& initialTargets,
                       const ControllerOptions& options)
    : program_(std::move(program)),
      initialTargets_(initialTargets),
      defaults_(initialTargets),
      options_(options) {
  if (!program_.character) program_.character = humanCharacter();  // a program built by hand
  validateProgram(program_);
  cyclesDone_.assign(program_.phases.size(), 0);
  if (options_.stablePd) stablePd_ = std::make_unique<StablePd>(*program_.character);
  // Every primitive is made once here so that one the controller cannot drive fails now;
  // the instances of a phase are made again when it starts (only the current phase's
  // are held: a long script costs no memory per phase here).
  std::size_t mostForces = 0;
  for (const Phase& phase : program_.phases) {
    for (const Primitive& primitive : phase.primitives)
      makePrimitive(primitive, *program_.character);
    mostForces = std::max(mostForces, phase.primitives.size());
  }
  // A gc primitive draws up to one force per link; reserve so steps never allocate.
  frame_.forces.reserve(mostForces * program_.character->links.size());
  frame_.reset(defaults_);
}

Controller::~Controller() = default;
Controller::Controller(Controller&&) noexcept = default;
Controller& Controller::operator=(Controller&&) noexcept = default;

const std::string& Controller::phaseName() const { return program_.phases[phase_].name; }

void Controller::jumpToPhase(int index) {
  if (index < 0 || index >= phaseCount())
    throw std::out_of_range("no phase " + std::to_string(index) + " (the program has " +
                            std::to_string(phaseCount()) + ")");
  pendingPhase_ = index;
}

void Controller::restart() {
  time_ = 0.0;
  phaseTime_ = 0.0;
  phase_ = 0;
  pendingPhase_ = 0;
  defaults_ = initialTargets_;
  frame_.reset(defaults_);
  output_ = ControlOutput{};
  feature_.reset();
  holding_ = false;
  warnings_.clear();
}

void Controller::holdTargets(const JointTargets& targets) { frame_.reset(targets); }

// A grasp whose body no link took hold of while the phase lasted is worth a word: the
// body stayed out of reach (docs/manipulation.md, Grasp and release).
void Controller::warnOfGraspsNotTaken() {
  std::uint64_t warned = 0;
  for (const GraspRequest& grasp : grasps_) {
    const std::uint64_t bit = std::uint64_t{1} << static_cast<unsigned>(grasp.sceneBody);
    if ((heldInPhase_ & bit) != 0 || (warned & bit) != 0) continue;
    warned |= bit;
    const auto& bodies = program_.scene.bodies;
    const std::string name = static_cast<size_t>(grasp.sceneBody) < bodies.size()
                                 ? bodies[static_cast<size_t>(grasp.sceneBody)].name
                                 : std::to_string(grasp.sceneBody);
    warnings_.push_back({time_, phase_,
                         "the phase ended without a hold on '" + name +
                             "': no grasping link took hold of it (within its reach, " +
                             formatNumber(grasp.reach) +
                             " m; an object held for its launch is taken only once launched)"});
  }
}

void Controller::enterPhase(int index, const CharacterState& state) {
  warnOfGraspsNotTaken();
  // The local target each joint ended the last step with becomes its default; a relaxed
  // joint keeps the angle it has now. Before any step the frame holds the initial (or
  // held) targets, so the first phase starts from those.
  for (int j = 0; j < program_.character->jointCount(); ++j)
    defaults_[j] = frame_.mode[j] == DriveMode::Relax ? state.jointAngles[j] : frame_.target[j];
  phase_ = index;
  pendingPhase_ = -1;
  phaseTime_ = 0.0;
  cycleEnded_ = false;
  active_.clear();
  const std::vector<Primitive>& primitives = program_.phases[phase_].primitives;
  for (const Primitive& primitive : primitives)
    if (auto instance = makePrimitive(primitive, *program_.character))
      active_.push_back(std::move(instance));
  for (auto& primitive : active_) primitive->begin(state);
  feature_.reset();
  holding_ = false;
  heldInPhase_ = 0;
  for (int i = 0; i < program_.character->linkCount(); ++i) heldInPhase_ |= state.links[i].holding;
  warnedThisPhase_ = false;
  comOutsideSince_.reset();
  if (hasFeatures(primitives)) {
    feature_ =
        std::make_unique<FeatureController>(primitives, *program_.character, options_.feature);
    feature_->begin(state);
  }
  grasps_.clear();
  for (const Primitive& primitive : primitives)
    if (const auto* grasp = std::get_if<GraspPrimitive>(&primitive))
      for (int link : grasp->links)
        grasps_.push_back({link, grasp->body, std::clamp(grasp->reach.value, 0.0, kMaxGraspReach),
                           grasp->hasGrip ? std::max(grasp->grip.value, 0.0)
                                          : std::numeric_limits<double>::infinity()});
  const std::optional<Transition>& exit = program_.phases[phase_].exit;
  if (exit && exit->com) {
    // The features' frame: their controller's when the phase has one, else placed by the
    // same rule from where the feet are.
    comSupport_ = supportSetOf(primitives);
    comFrame_.begin(feature_ ? feature_->frame().origin()
                             : supportFeetMiddle(*program_.character, comSupport_, state));
  }
  watchedBodies_ = exit ? exit->bodyMask : 0;
  for (int i = 0; i < program_.character->linkCount(); ++i) {
    hadContact_[i] = touchesWatched(state.links[i]);
    gainedContact_[i] = false;
    lostContact_[i] = false;
  }
}

bool Controller::touchesWatched(const LinkState& link) const {
  return watchedBodies_ != 0 ? (link.touching & watchedBodies_) != 0 : link.contact;
}

void Controller::updateContacts(const CharacterState& state) {
  heldBodies_ = 0;
  for (int i = 0; i < program_.character->linkCount(); ++i) {
    heldBodies_ |= state.links[i].holding;
    heldInPhase_ |= state.links[i].holding;
    bool now = touchesWatched(state.links[i]);
    if (now && !hadContact_[i]) gainedContact_[i] = true;
    if (!now && hadContact_[i]) lostContact_[i] = true;
    hadContact_[i] = now;
  }
}

void Controller::updateCom(const Transition& exit, const CharacterState& state) {
  comFrame_.carry(*program_.character, comSupport_, state, phaseTime_);
  const auto [com, comVelocity] = comWithHeld(*program_.character, state);
  const Vec2 position = com - comFrame_.origin();
  const Vec2 velocity = comVelocity - comFrame_.velocity();
  // The capture point, where a step would bring the body to rest: x + ẋ·√(y/g), the
  // height clamped at 0.
  const double capture =
      position.x() + velocity.x() * std::sqrt(std::max(position.y(), 0.0) / kGravityAcceleration);
  const std::array<double, kComQuantityWords.size()> measures = {
      position.x(), position.y(), velocity.x(), velocity.y(), capture};
  comMeasure_ = measures[static_cast<size_t>(exit.comQuantity)];
}

bool Controller::contactConditionHolds(const Transition& exit) const {
  if (exit.com) {
    const double threshold = exit.comValue.value * exit.comScale;
    return exit.comAbove ? comMeasure_ > threshold : comMeasure_ < threshold;
  }
  if (exit.holding) return (heldBodies_ & exit.bodyMask) != 0;
  if (exit.released)
    return (heldInPhase_ & exit.bodyMask) != 0 && (heldBodies_ & exit.bodyMask) == 0;
  // Latched per link (docs/language.md, Transitions): established = gained since the phase began
  // and touching now; lost = lost since the phase began and not touching now. Touching: the
  // exit's `with` body, else any scene body (touchesWatched).
  auto holds = [&](int link) {
    bool established = gainedContact_[link] && hadContact_[link];
    bool lost = lostContact_[link] && !hadContact_[link];
    switch (exit.event) {
      case ContactEvent::Established:
        return established;
      case ContactEvent::Lost:
        return lost;
      case ContactEvent::Changed:
        break;
    }
    return established || lost;
  };
  if (exit.quantifier == ContactQuantifier::All)
    return !exit.links.empty() && std::all_of(exit.links.begin(), exit.links.end(), holds);
  return std::any_of(exit.links.begin(), exit.links.end(), holds);
}

bool Controller::phaseIsFinal() const { return !program_.phases[phase_].exit || cycleEnded_; }

int Controller::nextPhase() {
  const Transition& exit = *program_.phases[phase_].exit;
  if (exit.cycles == 0) return exit.next;
  // A counted cycle: back to its start until it has run `cycles` times, then on (and
  // the count starts again, should the script come back here later).
  int& done = cyclesDone_[static_cast<size_t>(phase_)];
  if (done + 1 < exit.cycles) {
    ++done;
    return exit.cycleStart;
  }
  done = 0;
  if (exit.next != phase_) return exit.next;
  cycleEnded_ = true;  // `finally ... N times`: the last phase stays
  return -1;
}

Controller::ExitCause Controller::exitCause() const {
  const auto& exit = program_.phases[phase_].exit;
  if (!exit || (!exit->hasTime && !exit->hasContact) || cycleEnded_) return ExitCause::None;
  if (exit->hasTime && phaseTime_ < exit->time.value - kTimeTolerance) return ExitCause::None;
  if (!exit->hasContact || contactConditionHolds(*exit)) return ExitCause::Condition;
  // The fallback: the condition, checked first, wins a tie.
  if (exit->hasTimeout && phaseTime_ >= exit->timeout.value - kTimeTolerance)
    return ExitCause::Timeout;
  return ExitCause::None;
}

const ControlOutput& Controller::step(const CharacterState& state, double dt,
                                      std::span<const SceneObjectState> objects) {
  bool started = false;
  if (pendingPhase_ >= 0) {
    // A jump or a restart: counted cycles count afresh from here.
    std::fill(cyclesDone_.begin(), cyclesDone_.end(), 0);
    enterPhase(pendingPhase_, state);
    timedOut_ = false;
    started = true;
  } else {
    updateContacts(state);
    if (const auto& exit = program_.phases[phase_].exit; exit && exit->com) updateCom(*exit, state);
    if (const ExitCause cause = exitCause(); cause != ExitCause::None) {
      if (const int next = nextPhase(); next >= 0) {
        enterPhase(next, state);
        timedOut_ = cause == ExitCause::Timeout;
        started = true;
      }
    }
  }
  frame_.reset(defaults_);
  for (auto& primitive : active_) primitive->apply(state, phaseTime_, frame_);
  computeTorques(state, dt);
  output_.featurePhase = feature_ != nullptr;
  output_.featureSolved = false;
  output_.hasComTarget = false;
  output_.contactForces = {};
  if (feature_) computeFeatureTorques(state, dt, started, objects);
  output_.phase = phase_;
  output_.grasps = grasps_;
  output_.phaseTime = phaseTime_;
  output_.phaseStarted = started;
  output_.phaseTimedOut = timedOut_;
  phaseTime_ += dt;
  time_ += dt;
  return output_;
}

void Controller::computeTorques(const CharacterState& state, double dt) {
  if (stablePd_) stablePd_->computeTorques(state, frame_, dt, output_.pdTorques);
  for (int j = 0; j < program_.character->jointCount(); ++j) {
    const JointDef& joint = program_.character->joints[j];
    double velocity = state.jointVelocities[j];
    double pd = stablePd_ ? output_.pdTorques[j]
                : frame_.mode[j] == DriveMode::Relax
                    ? -frame_.relaxStrength[j] * joint.kd * velocity
                    : joint.kp * (frame_.target[j] - state.jointAngles[j]) - joint.kd * velocity;
    output_.pdTorques[j] = pd;
    output_.addedTorques[j] = frame_.addedTorque[j];
    // std::clamp keeps a NaN, so a diverging run is reported rather than hidden.
    output_.torques[j] = std::clamp(pd + frame_.addedTorque[j], -joint.maxTorque, joint.maxTorque);
  }
  output_.targets = frame_.target;
  output_.modes = frame_.mode;
  output_.forces = frame_.forces;
}

void Controller::warnOnce(const std::string& message) {
  if (warnedThisPhase_) return;
  warnedThisPhase_ = true;
  warnings_.push_back({time_, phase_, message});
}

void Controller::warnIfComTargetOutsideSupport(const FeatureStepResult& result) {
  // The support's extent along the ground: the planned contact points. A target beyond it
  // cannot be held still; the QP then does what it can (the user should know why).
  if (!result.hasComTarget || result.contactForces.empty()) {
    comOutsideSince_.reset();
    return;
  }
  double low = result.contactForces.front().point.x(), high = low;
  for (const PlannedContactForce& force : result.contactForces) {
    low = std::min(low, force.point.x());
    high = std::max(high, force.point.x());
  }
  constexpr double kSlack = 0.01;  // metres: a target on the edge is not a mistake
  // Seconds: a foot lands or lifts over a few steps, when the support is briefly smaller.
  constexpr double kPersistence = 0.25;
  const double x = result.comTarget.x();
  if (x >= low - kSlack && x <= high + kSlack) {
    comOutsideSince_.reset();
    return;
  }
  if (!comOutsideSince_) {
    comOutsideSince_ = time_;
    supportWhenOutside_ = {low, high};  // the support it left, not the one it fell onto
  }
  if (time_ - *comOutsideSince_ < kPersistence) return;
  std::tie(low, high) = supportWhenOutside_;
  warnOnce("the centre-of-mass target (x = " + formatFixed(x, 3) +
           " m) lies outside the support (" + formatFixed(low, 3) + " to " + formatFixed(high, 3) +
           " m): it cannot be held still");
}

void Controller::computeFeatureTorques(const CharacterState& state, double dt, bool started,
                                       std::span<const SceneObjectState> objects) {
  // Solve on a phase's first step and whenever a solve is due; hold the last torques
  // between (docs/features.md, Control rate).
  const double interval = options_.featureRate > 0.0 ? 1.0 / options_.featureRate : 0.0;
  const bool due = started || !holding_ || sinceSolve_ + 1e-9 >= interval;
  if (due) {
    FeatureStepInput input;
    input.postureTargets = frame_.target;
    for (int j = 0; j < program_.character->jointCount(); ++j)
      input.postureHeld[j] = frame_.mode[j] == DriveMode::Track;
    input.addedTorques = frame_.addedTorque;
    input.objects = objects;
    const FeatureStepResult& result = feature_->solve(state, phaseTime_, input);
    output_.featureSolved = true;
    output_.featureStatus = result.status;
    output_.hasComTarget = result.hasComTarget;
    output_.comTarget = result.comTarget;
    output_.contactForces = result.contactForces;
    sinceSolve_ = 0.0;
    if (result.status == FeatureStatus::Failed) {
      holding_ = false;
      warnOnce("the feature QP failed (" + std::string(qpStatusName(result.qpStatus)) +
               " at level " + std::to_string(result.failedLevel) +
               "); the phase's PD torques stand in until it solves");
      return;  // the PD torques computed above stay
    }
    if (result.status == FeatureStatus::LowerLevelFailed)
      warnOnce("the feature QP's level " + std::to_string(result.failedLevel) + " failed (" +
               std::string(qpStatusName(result.qpStatus)) +
               "); the torques of the levels above it are used");
    warnIfComTargetOutsideSupport(result);
    heldTorques_ = result.torques;
    holding_ = true;
  } else {
    const FeatureStepResult& last = feature_->result();
    output_.featureStatus = last.status;
    output_.hasComTarget = last.hasComTarget;
    output_.comTarget = last.comTarget;
    output_.contactForces = last.contactForces;
  }
  sinceSolve_ += dt;
  for (int j = 0; j < program_.character->jointCount(); ++j) {
    const JointDef& joint = program_.character->joints[j];
    output_.pdTorques[j] = heldTorques_[j] - frame_.addedTorque[j];
    output_.torques[j] = std::clamp(heldTorques_[j], -joint.maxTorque, joint.maxTorque);
  }
}

}  // namespace scl
