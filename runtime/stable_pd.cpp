#include "runtime/stable_pd.h"

#include <cassert>

#include "dynamics/character_coordinates.h"

namespace scl {

StablePd::StablePd(const Character& character)
    : character_(character), solver_(planarModelFromCharacter(character)) {
  const int dofs = solver_.model().dofCount();
  q_.resize(dofs);
  qd_.resize(dofs);
  qdd_.resize(dofs);
}

void StablePd::computeTorques(const CharacterState& state, const ControlFrame& frame, double dt,
                              std::array<double, kMaxJoints>& pdTorques) {
  coordinatesFromState(solver_.model(), state, q_, qd_);
  std::array<double, kMaxJoints> kd{};
  for (int j = 0; j < character_.jointCount(); ++j) {
    const JointDef& joint = character_.joints[j];
    const double angle = state.jointAngles[j], velocity = state.jointVelocities[j];
    const bool relaxed = frame.mode[j] == DriveMode::Relax;
    const double kp = relaxed ? 0.0 : joint.kp;
    kd[j] = relaxed ? frame.relaxStrength[j] * joint.kd : joint.kd;
    // The explicit part: stiffness at the predicted angle, damping at today's rate.
    pdTorques[j] = -kp * (angle + dt * velocity - frame.target[j]) - kd[j] * velocity;
    torques_[j] = pdTorques[j] + frame.addedTorque[j];
    armature_[j] = dt * kd[j];
  }
  solver_.solve(q_, qd_, torques_, armature_, qdd_);
  for (int j = 0; j < character_.jointCount(); ++j)
    pdTorques[j] -= dt * kd[j] * qdd_[characterJointCoordinate(j)];
}

}  // namespace scl
