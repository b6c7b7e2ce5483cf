#include "runtime/controller.h"

#include <algorithm>
#include <stdexcept>
#include <string>

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
  }
}

}  // namespace

Controller::Controller(Program program, const JointTargets& initialTargets)
    : program_(std::move(program)), initialTargets_(initialTargets), defaults_(initialTargets) {
  if (!program_.character) program_.character = humanCharacter();  // a program built by hand
  validateProgram(program_);
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
  frame_.forces.reserve(mostForces * kLinkCount);
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
}

void Controller::holdTargets(const JointTargets& targets) { frame_.reset(targets); }

void Controller::enterPhase(int index, const CharacterState& state) {
  // The local target each joint ended the last step with becomes its default; a relaxed
  // joint keeps the angle it has now. Before any step the frame holds the initial (or
  // held) targets, so the first phase starts from those.
  for (int j = 0; j < kJointCount; ++j)
    defaults_[j] = frame_.mode[j] == DriveMode::Relax ? state.jointAngles[j] : frame_.target[j];
  phase_ = index;
  pendingPhase_ = -1;
  phaseTime_ = 0.0;
  active_.clear();
  for (const Primitive& primitive : program_.phases[phase_].primitives)
    active_.push_back(makePrimitive(primitive, *program_.character));
  for (auto& primitive : active_) primitive->begin(state);
  for (int i = 0; i < kLinkCount; ++i) {
    hadContact_[i] = state.links[i].contact;
    gainedContact_[i] = false;
    lostContact_[i] = false;
  }
}

void Controller::updateContacts(const CharacterState& state) {
  for (int i = 0; i < kLinkCount; ++i) {
    bool now = state.links[i].contact;
    if (now && !hadContact_[i]) gainedContact_[i] = true;
    if (!now && hadContact_[i]) lostContact_[i] = true;
    hadContact_[i] = now;
  }
}

bool Controller::contactConditionHolds(const Transition& exit) const {
  // Latched per link (docs/language.md, Transitions): established = gained since the phase began
  // and touching now; lost = lost since the phase began and not touching now.
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

bool Controller::exitFires() const {
  const auto& exit = program_.phases[phase_].exit;
  if (!exit || (!exit->hasTime && !exit->hasContact)) return false;
  if (exit->hasTime && phaseTime_ < exit->time.value - kTimeTolerance) return false;
  return !exit->hasContact || contactConditionHolds(*exit);
}

const ControlOutput& Controller::step(const CharacterState& state, double dt) {
  bool started = false;
  if (pendingPhase_ >= 0) {
    enterPhase(pendingPhase_, state);
    started = true;
  } else {
    updateContacts(state);
    if (exitFires()) {
      enterPhase(program_.phases[phase_].exit->next, state);
      started = true;
    }
  }
  frame_.reset(defaults_);
  for (auto& primitive : active_) primitive->apply(state, phaseTime_, frame_);
  computeTorques(state);
  output_.phase = phase_;
  output_.phaseTime = phaseTime_;
  output_.phaseStarted = started;
  phaseTime_ += dt;
  time_ += dt;
  return output_;
}

void Controller::computeTorques(const CharacterState& state) {
  for (int j = 0; j < kJointCount; ++j) {
    const JointDef& joint = program_.character->joints[j];
    double velocity = state.jointVelocities[j];
    double pd = frame_.mode[j] == DriveMode::Relax
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

}  // namespace scl
