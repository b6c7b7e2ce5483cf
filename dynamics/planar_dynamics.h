// Joint-space rigid-body dynamics of a planar tree (docs/dynamics.md):
//
//   M(q) q̈ + h(q, q̇) = Sᵀτ + Σ J_p(q)ᵀ f_p
//
// with M the mass matrix, h the Coriolis, centrifugal and gravity forces, τ the joint
// torques (each acting +τ on its child body and -τ on its parent, so Sᵀτ = (0, 0, 0, τ))
// and f_p external forces at points p with Jacobians J_p. Coordinates: planar_model.h.
//
// A PlanarDynamics is sized for one model when it is made; setState() and every query
// after it allocate nothing (the per-step path of a 4 kHz controller). Outputs are written
// into caller-sized Eigen objects, or blocks of them (a QP's constraint rows, say).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <span>
#include <vector>

#include "dynamics/planar_model.h"

namespace scl {

/// Where one body is and how it moves, at one (q, q̇).
struct BodyMotion {
  /// World angle, radians.
  double angle = 0.0;
  /// cos and sin of `angle`: the rotation of the body's frame, computed once.
  double cosAngle = 1.0, sinAngle = 0.0;
  /// Origin (the joint to the parent; the root's reference point), metres.
  Vec2 origin = Vec2::Zero();
  /// Centre of mass, metres.
  Vec2 com = Vec2::Zero();
  /// Angular velocity, rad/s.
  double angularVelocity = 0.0;
  /// Velocity of the origin, m/s.
  Vec2 originVelocity = Vec2::Zero();
  /// Velocity of the centre of mass, m/s.
  Vec2 comVelocity = Vec2::Zero();
  /// Acceleration of the origin when q̈ = 0 (velocity-product terms: J̇ q̇), m/s².
  Vec2 originBiasAcceleration = Vec2::Zero();
  /// Acceleration of the centre of mass when q̈ = 0, m/s².
  Vec2 comBiasAcceleration = Vec2::Zero();
};

/// Forward kinematics, velocities and bias accelerations of every body (one per entry of
/// `motions`, sized bodyCount()), root to leaves: O(bodies), no allocation.
void computeBodyMotions(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& qd, std::span<BodyMotion> motions);

class PlanarDynamics {
 public:
  /// Takes the model (asserted valid: isValid()) and sizes every workspace for it.
  explicit PlanarDynamics(PlanarModel model);

  const PlanarModel& model() const { return model_; }
  /// Changes body `body`'s mass (kg, > 0), inertia about its centre of mass (kg·m², > 0)
  /// and centre of mass in its frame (m), from the next setState() on: a held object
  /// joins the body that holds it.
  void setBodyMass(int body, double mass, double inertia, const Vec2& comOffset);
  /// Number of generalized coordinates, n.
  int dofCount() const { return model_.dofCount(); }

  /// The configuration q and velocity q̇ (n each) that every query below refers to. Runs
  /// the forward pass and the subtree sums: O(bodies).
  void setState(const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& qd);
  /// Every body's placement and motion at the current state.
  std::span<const BodyMotion> bodies() const { return bodies_; }

  /// Mass matrix M(q), n×n, symmetric positive definite: ½ q̇ᵀ M q̇ is the kinetic energy.
  /// Composite rigid bodies in the world frame: O(Σ depth) = O(n·depth).
  void massMatrix(Eigen::Ref<Eigen::MatrixXd> m) const;
  /// Bias forces h(q, q̇), n: Coriolis and centrifugal forces plus gravity, so that
  /// M q̈ + h = Sᵀτ + Σ Jᵀf. O(n).
  void biasForces(Eigen::Ref<Eigen::VectorXd> h) const;

  /// World position of the point at `local` in `body`'s frame, metres.
  Vec2 pointPosition(int body, const Vec2& local) const;
  /// Its velocity, m/s (= J_p q̇).
  Vec2 pointVelocity(int body, const Vec2& local) const;
  /// Its Jacobian J_p (2×n, world frame): velocity = J_p q̇. O(n).
  void pointJacobian(int body, const Vec2& local, Eigen::Ref<Eigen::Matrix2Xd> jacobian) const;
  /// Its acceleration when q̈ = 0, J̇_p q̇, m/s², so that its acceleration is J_p q̈ + J̇_p q̇.
  Vec2 pointBiasAcceleration(int body, const Vec2& local) const;

  /// Whole-body centre of mass, metres.
  Vec2 com() const;
  /// Its velocity, m/s.
  Vec2 comVelocity() const;
  /// Its Jacobian J_com (2×n): com velocity = J_com q̇. O(n).
  void comJacobian(Eigen::Ref<Eigen::Matrix2Xd> jacobian) const;
  /// J̇_com q̇, m/s²: the COM's acceleration when q̈ = 0.
  Vec2 comBiasAcceleration() const;

  /// Centroidal angular momentum (about the whole-body COM, counter-clockwise), kg·m²/s.
  double centroidalAngularMomentum() const;
  /// Its Jacobian A (1×n): L = A q̇. O(n).
  void centroidalMomentumJacobian(Eigen::Ref<Eigen::RowVectorXd> jacobian) const;
  /// Ȧ q̇, kg·m²/s²: the rate of change of L when q̈ = 0, so that L̇ = A q̈ + Ȧ q̇.
  double centroidalMomentumBias() const;

  /// Forward dynamics with joint torques only: q̈ = M⁻¹ (Sᵀτ − h), `jointTorques` one per
  /// joint (bodyCount − 1) in N·m. Factors M in a preallocated Cholesky: O(n³).
  void forwardDynamics(const Eigen::Ref<const Eigen::VectorXd>& jointTorques,
                       Eigen::Ref<Eigen::VectorXd> qdd);

 private:
  // A subtree's mass distribution about the reference point r: all that the kinetic energy
  // of a rigid motion of the subtree depends on.
  struct MassDistribution {
    double mass = 0.0;                // Σ m
    Vec2 firstMoment = Vec2::Zero();  // Σ m (c − r)
    double polarInertia = 0.0;        // Σ I + m |c − r|²
  };
  // The velocity field of one coordinate at unit rate: the point x of a body it moves has
  // velocity spin · perp(x − r) + linear.
  struct UnitMotion {
    double spin = 0.0;
    Vec2 linear = Vec2::Zero();
  };

  // ∫ u·v dm over the distribution: the kinetic inner product of two unit motions.
  static double kineticProduct(const MassDistribution& mass, const UnitMotion& u,
                               const UnitMotion& v);
  Vec2 velocityAt(const UnitMotion& motion, const Vec2& point) const;
  static int bodyOfCoordinate(int coordinate) { return coordinate < 3 ? 0 : coordinate - 2; }
  static int firstCoordinate(int body) { return body == 0 ? 0 : body + 2; }
  static int lastCoordinate(int body) { return body + 2; }

  PlanarModel model_;
  // The reference point r of the world-frame sums: the root's origin, so that the numbers
  // stay small wherever the character is.
  Vec2 reference_ = Vec2::Zero();
  std::vector<BodyMotion> bodies_;
  std::vector<UnitMotion> coordinateMotions_;
  std::vector<MassDistribution> subtreeMass_;
  // Σ over the subtree of the forces m (a_bias − g) that hold each body's centre of mass
  // on its q̈ = 0 path, and their moment about r.
  std::vector<Vec2> subtreeBiasForce_;
  std::vector<double> subtreeBiasMoment_;
  bool hasState_ = false;
  // forwardDynamics() workspace.
  Eigen::MatrixXd massMatrix_;
  Eigen::VectorXd generalizedForce_;
  Eigen::LLT<Eigen::MatrixXd> massFactor_;
};

}  // namespace scl
