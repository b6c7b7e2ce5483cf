// What the primitives of one phase write each step, before the controller turns it into
// joint torques (docs/primitives.md, How a step is computed).
//
// PD-type primitives (PD item, IK, relax) set a joint's drive: the later write wins, so
// "the later primitive in the phase wins for a joint" is simply the order of apply().
// Virtual forces, stance balance and gravity compensation add torques and record the
// force they stand for, for drawing.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kinematics/character_state.h"

namespace scl {

/// Local joint targets, radians, one per joint (kJoints order).
using JointTargets = std::array<double, kMaxJoints>;

/// Standard gravity, m/s² (the world's gravity is (0, -kGravityAcceleration)).
inline constexpr double kGravityAcceleration = 9.81;

/// How a joint's PD controller is driven this step.
enum class DriveMode : std::uint8_t {
  Track,  ///< tau = kp (target - theta) - kd thetadot
  Relax,  ///< target = theta, torque scaled: tau = -s kd thetadot
};

/// Which primitive a drawn force comes from.
enum class ForceKind : std::uint8_t { Virtual, StanceBalance, Gravity };

/// A force a primitive realises through joint torques (for drawing and reports).
struct AppliedForce {
  /// Link the force acts on, index into kLinks.
  int link = 0;
  /// World point of application (the link's centre of mass), metres.
  Vec2 point = Vec2::Zero();
  /// Force, newtons.
  Vec2 force = Vec2::Zero();
  ForceKind kind = ForceKind::Virtual;
};

/// Per-step output of a phase's primitives.
struct ControlFrame {
  /// Local PD target per joint, radians (a relaxed joint: its current angle).
  JointTargets target{};
  /// Drive per joint; Track unless a relax primitive is the last to name the joint.
  std::array<DriveMode, kMaxJoints> mode{};
  /// Relax strength per joint (used when mode is Relax), 0..1.
  std::array<double, kMaxJoints> relaxStrength{};
  /// Torque added by virtual forces, stance balance and gravity compensation, N·m.
  std::array<double, kMaxJoints> addedTorque{};
  /// The forces those torques stand for. Capacity is kept between steps.
  std::vector<AppliedForce> forces;

  /// Starts a step: every joint tracks its default target, nothing added.
  void reset(const JointTargets& defaults) {
    target = defaults;
    mode.fill(DriveMode::Track);
    relaxStrength.fill(0.0);
    addedTorque.fill(0.0);
    forces.clear();
  }
  /// A PD-type primitive takes the joint: track a local target, radians.
  void track(int joint, double localTarget) {
    target[joint] = localTarget;
    mode[joint] = DriveMode::Track;
  }
  /// A relax primitive takes the joint at its current angle with strength s.
  void relax(int joint, double strength, double currentAngle) {
    target[joint] = currentAngle;
    mode[joint] = DriveMode::Relax;
    relaxStrength[joint] = strength;
  }
};

}  // namespace scl
