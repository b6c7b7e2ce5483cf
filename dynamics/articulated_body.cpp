#include "dynamics/articulated_body.h"

#include <Eigen/Cholesky>
#include <cassert>
#include <utility>

namespace scl {

namespace {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }
double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

Vec2 linear(const Vec3& v) { return v.tail<2>(); }
Vec3 spatial(double angular, const Vec2& linear) { return Vec3(angular, linear.x(), linear.y()); }

// Motion × motion, m₁ ×ₘ m₂: planar angular velocities commute, so only the linear part
// remains: ω₁ perp(v₂) − ω₂ perp(v₁).
Vec3 crossMotion(const Vec3& a, const Vec3& b) {
  return spatial(0.0, a[0] * perp(linear(b)) - b[0] * perp(linear(a)));
}

// Motion ×* force: (v × F, ω perp(F)).
Vec3 crossForce(const Vec3& motion, const Vec3& force) {
  return spatial(cross(linear(motion), linear(force)), motion[0] * perp(linear(force)));
}

// A body's spatial inertia at the reference point, its centre of mass d from it:
// momentum (Ī ω + m d × v, m (v + ω perp(d))) with Ī = I + m |d|².
Mat3 spatialInertia(double mass, double inertia, const Vec2& d) {
  Mat3 result;
  result << inertia + mass * d.squaredNorm(), -mass * d.y(), mass * d.x(),  //
      -mass * d.y(), mass, 0.0,                                             //
      mass * d.x(), 0.0, mass;
  return result;
}

}  // namespace

ArticulatedBodySolver::ArticulatedBodySolver(PlanarModel model)
    : model_(std::move(model)),
      motions_(model_.bodies.size()),
      inertia_(model_.bodies.size()),
      bias_(model_.bodies.size()),
      axis_(model_.bodies.size()),
      velocityProduct_(model_.bodies.size()),
      projected_(model_.bodies.size()),
      jointInertia_(model_.bodies.size()),
      jointForce_(model_.bodies.size()),
      acceleration_(model_.bodies.size()) {
  assert(isValid(model_));
}

void ArticulatedBodySolver::solve(const Eigen::Ref<const Eigen::VectorXd>& q,
                                  const Eigen::Ref<const Eigen::VectorXd>& qd,
                                  std::span<const double> jointTorques,
                                  std::span<const double> armature,
                                  Eigen::Ref<Eigen::VectorXd> qdd) {
  const int bodies = model_.bodyCount();
  assert(static_cast<int>(jointTorques.size()) == bodies - 1 &&
         static_cast<int>(armature.size()) == bodies - 1 && qdd.size() == model_.dofCount());
  computeBodyMotions(model_, q, qd, motions_);
  const Vec2 reference = motions_[0].origin;

  // Outward: each body's velocity, inertia, bias force and its joint's axis.
  for (int b = 0; b < bodies; ++b) {
    const PlanarBody& body = model_.bodies[b];
    const BodyMotion& motion = motions_[b];
    const double spin = motion.angularVelocity;
    const Vec3 velocity =
        spatial(spin, motion.originVelocity - spin * perp(motion.origin - reference));
    const Vec2 d = motion.com - reference;
    inertia_[b] = spatialInertia(body.mass, body.inertia, d);
    const Vec2 weight = body.mass * model_.gravity;
    bias_[b] = crossForce(velocity, inertia_[b] * velocity) - spatial(cross(d, weight), weight);
    if (b == 0) continue;
    axis_[b] = spatial(1.0, -perp(motion.origin - reference));
    velocityProduct_[b] = crossMotion(velocity, qd[jointCoordinate(b)] * axis_[b]);
  }

  // Inward: fold each subtree's articulated inertia and bias force into its parent.
  for (int b = bodies - 1; b > 0; --b) {
    const Vec3& s = axis_[b];
    const Vec3 u = inertia_[b] * s;
    const double d = s.dot(u) + armature[b - 1];
    const double force = jointTorques[b - 1] - s.dot(bias_[b]);
    projected_[b] = u;
    jointInertia_[b] = d;
    jointForce_[b] = force;
    const Mat3 articulated = inertia_[b] - (u / d) * u.transpose();
    const int parent = model_.bodies[b].parent;
    inertia_[parent] += articulated;
    bias_[parent] += bias_[b] + articulated * velocityProduct_[b] + (force / d) * u;
  }

  // The free root: Iᴬ a = −pᴬ. Its spatial acceleration's linear part is that of the body
  // point fixed at r; the root's origin, moving through r, adds ω perp(v).
  acceleration_[0] = inertia_[0].llt().solve(-bias_[0]);
  const BodyMotion& root = motions_[0];
  qdd[kRootAngle] = acceleration_[0][0];
  const Vec2 rootLinear =
      linear(acceleration_[0]) + root.angularVelocity * perp(root.originVelocity);
  qdd[kRootX] = rootLinear.x();
  qdd[kRootY] = rootLinear.y();

  // Outward again: each joint's acceleration from its parent's.
  for (int b = 1; b < bodies; ++b) {
    const Vec3 carried = acceleration_[model_.bodies[b].parent] + velocityProduct_[b];
    const double joint = (jointForce_[b] - projected_[b].dot(carried)) / jointInertia_[b];
    qdd[jointCoordinate(b)] = joint;
    acceleration_[b] = carried + joint * axis_[b];
  }
}

}  // namespace scl
