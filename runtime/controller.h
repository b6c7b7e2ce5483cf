// The phase machine: executes a bound scl::Program on a character (docs/language.md, Transitions
// and Primitives; docs/primitives.md).
//
// Each step the controller takes the character's state, decides whether the current
// phase's transition fires (at most one transition per step; the new phase's primitives
// take over on that same call, i.e. on the step after the one whose outcome fired it),
// runs the phase's primitives in script order and turns their drives into net joint
// torques: tau = PD + VF + SB + GC, clamped to each joint's max torque.
//
// No Box2D here: the controller sees only CharacterState, so it can be driven by
// synthetic states in tests.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "feature/feature_controller.h"
#include "feature/support.h"
#include "kinematics/character_state.h"
#include "primitives/control_frame.h"
#include "primitives/primitive.h"
#include "runtime/stable_pd.h"
#include "scl/program.h"

namespace scl {

/// How the controller runs (docs/features.md, Control rate).
struct ControllerOptions {
  /// The feature QP's constants; its friction is the simulation's (the Runner sets it).
  FeatureSettings feature;
  /// How often a phase with features solves its QP, Hz; 0: every step. Between solves the
  /// last solve's torques are held (a zero-order hold); a phase's first step always solves.
  double featureRate = 0.0;
  /// PD torques by stable PD (runtime/stable_pd.h: the stiffness and damping at the state
  /// one step ahead, through the whole body's dynamics) instead of explicit PD; stable at
  /// larger time steps (docs/stepping.md). The feature QP's posture task is unaffected.
  bool stablePd = false;
};

/// A problem met while controlling, reported once per phase (e.g. the feature QP failed
/// and the phase's PD torques stood in).
struct ControlWarning {
  /// Simulated time of the step, seconds.
  double time = 0.0;
  /// The phase, index into Program::phases.
  int phase = 0;
  std::string message;
};

/// What the controller decided for one step.
struct ControlOutput {
  /// Net torque per joint (PD + VF + SB + GC), clamped to ± max torque, N·m.
  std::array<double, kMaxJoints> torques{};
  /// The PD-type part of each torque alone (before clamping), N·m; in a phase with
  /// features, the QP's part (its net torque minus the added torques).
  std::array<double, kMaxJoints> pdTorques{};
  /// The VF + SB + GC part of each torque alone (before clamping), N·m.
  std::array<double, kMaxJoints> addedTorques{};
  /// Local PD target per joint this step, radians (a relaxed joint: its current angle).
  JointTargets targets{};
  /// Drive of each joint this step.
  std::array<DriveMode, kMaxJoints> modes{};
  /// Forces realised through joint torques this step (valid until the next step).
  std::span<const AppliedForce> forces;
  /// The phase has features: the torques come from the whole-body QP.
  bool featurePhase = false;
  /// How the QP's solve ended (a Failed one leaves the phase's PD torques), and whether
  /// this step solved (false: the torques of the last solve are held).
  FeatureStatus featureStatus = FeatureStatus::Solved;
  bool featureSolved = false;
  /// The centre-of-mass target of `[com]` this step, world metres.
  bool hasComTarget = false;
  Vec2 comTarget = Vec2::Zero();
  /// The contact forces the QP planned (valid until the next step).
  std::span<const PlannedContactForce> contactForces;
  /// The grasps the phase asks for (`[grasp]`; valid until the next step): the runner
  /// hands them to the simulation (Simulation::setGrasps).
  std::span<const GraspRequest> grasps;
  /// Phase that produced this output, index into Program::phases.
  int phase = 0;
  /// Time since that phase began, at the start of this step, seconds.
  double phaseTime = 0.0;
  /// True on the first step of a phase (after a transition, a jump or a restart).
  bool phaseStarted = false;
  /// The phase began because the previous one's fallback fired (`when contact ... or
  /// after T`: T passed without the contact), not its condition.
  bool phaseTimedOut = false;
};

class Controller {
 public:
  /// Copies what it needs from `program` (the caller may destroy or change it).
  /// `initialTargets` are the first phase's default PD targets (the initial pose's joint
  /// angles). Throws std::invalid_argument for a program with no phases, a transition
  /// to a phase that does not exist, or a primitive it cannot drive.
  Controller(Program program, const JointTargets& initialTargets,
             const ControllerOptions& options = {});
  ~Controller();
  Controller(Controller&&) noexcept;
  Controller& operator=(Controller&&) noexcept;

  /// Control for the next step of length `dt` seconds, from the state at its start and the
  /// scene's movable objects then (by scene index; for object targets, docs/manipulation.md).
  const ControlOutput& step(const CharacterState& state, double dt,
                            std::span<const SceneObjectState> objects = {});

  /// Time controlled so far (sum of the dt of every step), seconds.
  double time() const { return time_; }
  /// Current phase (the one that produced the last output, or the next to start).
  int phaseIndex() const { return phase_; }
  /// Current phase's name; empty when the script gives none.
  const std::string& phaseName() const;
  int phaseCount() const { return static_cast<int>(program_.phases.size()); }
  /// Time since the current phase began, seconds (at the end of the last step).
  double phaseTime() const { return phaseTime_; }
  /// The current phase began by the previous one's `or after` fallback.
  bool phaseTimedOut() const { return output_.phaseTimedOut; }
  /// The current phase will not end: it has no exit, or its counted `finally` cycle has
  /// run out.
  bool phaseIsFinal() const;
  /// The last output.
  const ControlOutput& output() const { return output_; }
  /// Warnings so far, in order (at most one per phase entered).
  const std::vector<ControlWarning>& warnings() const { return warnings_; }
  const ControllerOptions& options() const { return options_; }
  const Program& program() const { return program_; }

  /// Starts phase `index` on the next step (for the viewer). The default PD targets
  /// carry over as on a transition; counted cycles count afresh. Throws
  /// std::out_of_range for a bad index.
  void jumpToPhase(int index);
  /// Back to phase 0 with the initial targets and time 0 (pair with a fresh simulation).
  void restart();
  /// The default PD targets the next phase starts from (e.g. to keep holding the current
  /// pose after a hot reload). Takes effect when the next phase starts.
  void holdTargets(const JointTargets& targets);

 private:
  void enterPhase(int index, const CharacterState& state);
  void updateContacts(const CharacterState& state);
  // Whether the link touches what the current phase's exit watches: its `with` body, or any
  // scene body.
  bool touchesWatched(const LinkState& link) const;
  // What ends the current phase this step.
  enum class ExitCause { None, Condition, Timeout };
  ExitCause exitCause() const;
  // The phase the current one's exit leads to now (counted cycles), or -1: stay.
  int nextPhase();
  bool contactConditionHolds(const Transition& exit) const;
  // For a `when com` exit: the centre of mass's quantity in the phase's frame now.
  void updateCom(const Transition& exit, const CharacterState& state);
  void computeTorques(const CharacterState& state, double dt);
  void warnOfGraspsNotTaken();
  void computeFeatureTorques(const CharacterState& state, double dt, bool started,
                             std::span<const SceneObjectState> objects);
  void warnOnce(const std::string& message);
  void warnIfComTargetOutsideSupport(const FeatureStepResult& result);

  // The current phase began by the previous one's `or after` fallback.
  bool timedOut_ = false;
  // Per phase: how many times its counted cycle has gone back so far.
  std::vector<int> cyclesDone_;
  // A `finally ... N times` cycle has run out: the last phase stays.
  bool cycleEnded_ = false;
  Program program_;
  /// The current phase's primitives, made when it started.
  std::vector<std::unique_ptr<PrimitiveInstance>> active_;
  JointTargets initialTargets_{};
  /// Default PD targets of the current phase.
  JointTargets defaults_{};
  int phase_ = 0;
  /// Phase to start on the next step, or -1.
  int pendingPhase_ = 0;
  double time_ = 0.0;
  double phaseTime_ = 0.0;
  /// The scene bodies the current phase's exit watches (Transition::bodyMask; 0: any).
  std::uint64_t watchedBodies_ = 0;
  /// The current phase's grasps, one per link and body.
  std::vector<GraspRequest> grasps_;
  /// The scene bodies some link held at the last step (LinkState::holding), and at some
  /// step since the phase began.
  std::uint64_t heldBodies_ = 0;
  std::uint64_t heldInPhase_ = 0;
  /// For a `when com` exit: the phase's supporting feet, its frame (docs/features.md, The
  /// frame) and the quantity the exit compares, measured at the last step.
  SupportSet comSupport_;
  SupportFrame comFrame_;
  double comMeasure_ = 0.0;
  /// Per link since the phase began: contact at the last step, gained, lost.
  std::array<bool, kMaxLinks> hadContact_{};
  std::array<bool, kMaxLinks> gainedContact_{};
  std::array<bool, kMaxLinks> lostContact_{};
  ControlFrame frame_;
  ControlOutput output_;
  ControllerOptions options_;
  /// The current phase's whole-body QP (null when the phase has no features).
  std::unique_ptr<FeatureController> feature_;
  std::unique_ptr<StablePd> stablePd_;  // with ControllerOptions::stablePd
  /// Net torques of the last successful solve, held between solves.
  std::array<double, kMaxJoints> heldTorques_{};
  bool holding_ = false;
  /// Time since the last solve, seconds.
  double sinceSolve_ = 0.0;
  bool warnedThisPhase_ = false;
  /// Since when the centre-of-mass target has been outside the support, seconds.
  std::optional<double> comOutsideSince_;
  /// The support's extent along x then, metres.
  std::pair<double, double> supportWhenOutside_{};
  std::vector<ControlWarning> warnings_;
};

}  // namespace scl
