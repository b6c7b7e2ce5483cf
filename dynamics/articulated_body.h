// Forward dynamics of a planar tree in O(bodies): Featherstone's articulated-body algorithm
// (Rigid Body Dynamics Algorithms, 2008, ch. 7) in the plane (docs/dynamics.md, Forward
// dynamics in linear time). Solves
//
//   (M(q) + diag(0, 0, 0, armature)) q̈ = Sᵀτ − h(q, q̇)
//
// without forming M or h: the same accelerations as factoring the dense system
// (PlanarDynamics), to rounding. The armature adds to each joint's own inertia, which is
// how stable PD takes its damping implicitly (runtime/stable_pd.h).
//
// Spatial vectors are planar: a motion (ω, v) with v the velocity of the body point at
// the reference point r (the root's origin), a force (n, F) with n the moment about r.
// Sized for one model when made; solve() allocates nothing.
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

#include "dynamics/planar_dynamics.h"
#include "dynamics/planar_model.h"

namespace scl {

class ArticulatedBodySolver {
 public:
  /// Takes the model (asserted valid: isValid()) and sizes every workspace for it.
  explicit ArticulatedBodySolver(PlanarModel model);

  const PlanarModel& model() const { return model_; }

  /// q̈ (dofCount) at the state (q, q̇) under joint torques `jointTorques` (one per joint,
  /// N·m) with `armature` (one per joint, kg·m², ≥ 0) added to each joint's inertia.
  void solve(const Eigen::Ref<const Eigen::VectorXd>& q,
             const Eigen::Ref<const Eigen::VectorXd>& qd, std::span<const double> jointTorques,
             std::span<const double> armature, Eigen::Ref<Eigen::VectorXd> qdd);

 private:
  using Vec3 = Eigen::Vector3d;
  using Mat3 = Eigen::Matrix3d;

  PlanarModel model_;
  std::vector<BodyMotion> motions_;
  std::vector<Mat3> inertia_;          // articulated inertia of each body's subtree, at r
  std::vector<Vec3> bias_;             // its bias force, at r
  std::vector<Vec3> axis_;             // s: the joint's unit motion
  std::vector<Vec3> velocityProduct_;  // c = v × s q̇: the joint's velocity-product acceleration
  std::vector<Vec3> projected_;        // U = Iᴬ s
  std::vector<double> jointInertia_;   // D = sᵀ U + armature
  std::vector<double> jointForce_;     // u = τ − sᵀ pᴬ
  std::vector<Vec3> acceleration_;     // spatial acceleration of each body
};

}  // namespace scl
