#include "runtime/stable_pd.h"

#include <cassert>

#include "dynamics/character_coordinates.h"

namespace scl {

StablePd::StablePd(const Character& character)
    : character_(character), dynamics_(planarModelFromCharacter(character)) {
  assert(dynamics_.dofCount() == kDofs);
  q_.resize(kDofs);
  qd_.resize(kDofs);
  h_.resize(kDofs);
  massMatrix_.resize(kDofs, kDofs);
}

void StablePd::computeTorques(const CharacterState& state, const ControlFrame& frame, double dt,
                              std::array<double, kJointCount>& pdTorques) {
  coordinatesFromState(dynamics_.model(), state, q_, qd_);
  dynamics_.setState(q_, qd_);
  dynamics_.massMatrix(massMatrix_);
  dynamics_.biasForces(h_);

  system_ = massMatrix_;
  rhs_ = -h_;
  std::array<double, kJointCount> kd{};
  for (int j = 0; j < kJointCount; ++j) {
    const JointDef& joint = character_.joints[j];
    const double angle = state.jointAngles[j], velocity = state.jointVelocities[j];
    const bool relaxed = frame.mode[j] == DriveMode::Relax;
    const double kp = relaxed ? 0.0 : joint.kp;
    kd[j] = relaxed ? frame.relaxStrength[j] * joint.kd : joint.kd;
    // The explicit part: stiffness at the predicted angle, damping at today's rate.
    pdTorques[j] = -kp * (angle + dt * velocity - frame.target[j]) - kd[j] * velocity;
    const int c = characterJointCoordinate(j);
    system_(c, c) += dt * kd[j];
    rhs_[c] += pdTorques[j] + frame.addedTorque[j];
  }
  factor_.compute(system_);
  factor_.solveInPlace(rhs_);  // now q̈
  for (int j = 0; j < kJointCount; ++j)
    pdTorques[j] -= dt * kd[j] * rhs_[characterJointCoordinate(j)];
}

}  // namespace scl
