// Stable proportional-derivative control (Tan, Liu & Turk, "Stable Proportional-Derivative
// Controllers", IEEE CG&A 2011; docs/stepping.md): each joint's PD torque is computed from
// the state predicted one step ahead,
//
//   τ = −kp (θ + Δt θ̇ − θ̄) − kd (θ̇ + Δt θ̈),
//
// with θ̈ the accelerations those very torques cause, solved from the whole body's
// equations of motion with the damping taken implicitly:
//
//   (M + Δt K_d) q̈ = −h + Sᵀ(−K_p (θ + Δt θ̇ − θ̄) − K_d θ̇ + τ_added).
//
// Contact forces are left out of the prediction (as in the paper): the body is predicted
// as if floating. Explicit PD (τ = −kp (θ − θ̄) − kd θ̇) diverges once kd Δt is no longer
// small beside a joint's effective inertia; stable PD does not, at any step.
//
// The system is solved by the articulated-body algorithm in O(bodies), the damping as each
// joint's armature (dynamics/articulated_body.h): no mass matrix is formed or factored.
// Knows the dynamics (scl_dynamics) and the controller's frame; no Box2D. Allocates only
// when made.
#pragma once

#include <Eigen/Core>
#include <array>

#include "dynamics/articulated_body.h"
#include "kinematics/character_state.h"
#include "primitives/control_frame.h"

namespace scl {

class StablePd {
 public:
  explicit StablePd(const Character& character);

  /// The PD torque of every joint for this step of `dt` seconds: the frame's targets and
  /// drive modes (a relaxed joint: kp 0, kd scaled by its strength), the character's
  /// gains, and the frame's added torques in the prediction. Not clamped.
  void computeTorques(const CharacterState& state, const ControlFrame& frame, double dt,
                      std::array<double, kMaxJoints>& pdTorques);

 private:
  const Character& character_;
  ArticulatedBodySolver solver_;
  Eigen::VectorXd q_, qd_, qdd_;
  std::array<double, kMaxJoints> torques_{};   // explicit PD part + added, N·m
  std::array<double, kMaxJoints> armature_{};  // Δt k_d, kg·m²
};

}  // namespace scl
