#include "dynamics/planar_dynamics.h"

#include <cassert>
#include <cmath>
#include <utility>

namespace scl {

namespace {

// ω × v for an angular velocity ω along +z: v turned a quarter counter-clockwise.
Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }
// z component of a × b.
double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }
// v turned by the body's angle (its cached cos and sin).
Vec2 rotate(const BodyMotion& body, const Vec2& v) {
  const double c = body.cosAngle, s = body.sinAngle;
  return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
}

}  // namespace

void computeBodyMotions(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& qd,
                        std::span<BodyMotion> motions) {
  assert(q.size() == model.dofCount() && qd.size() == model.dofCount());
  assert(static_cast<int>(motions.size()) == model.bodyCount());
  for (int b = 0; b < model.bodyCount(); ++b) {
    const PlanarBody& body = model.bodies[b];
    BodyMotion& motion = motions[b];
    if (b == 0) {
      motion.angle = q[kRootAngle];
      motion.angularVelocity = qd[kRootAngle];
      motion.origin = Vec2(q[kRootX], q[kRootY]);
      motion.originVelocity = Vec2(qd[kRootX], qd[kRootY]);
      motion.originBiasAcceleration = Vec2::Zero();
    } else {
      // The joint is a point of the parent: it moves and (with q̈ = 0, hence no angular
      // acceleration in the plane) accelerates centripetally with the parent.
      const BodyMotion& parent = motions[body.parent];
      Vec2 arm = rotate(parent, body.jointAnchor);
      motion.angle = parent.angle + q[jointCoordinate(b)];
      motion.angularVelocity = parent.angularVelocity + qd[jointCoordinate(b)];
      motion.origin = parent.origin + arm;
      motion.originVelocity = parent.originVelocity + parent.angularVelocity * perp(arm);
      motion.originBiasAcceleration =
          parent.originBiasAcceleration - parent.angularVelocity * parent.angularVelocity * arm;
    }
    motion.cosAngle = std::cos(motion.angle);
    motion.sinAngle = std::sin(motion.angle);
    Vec2 comArm = rotate(motion, body.comOffset);
    double spin = motion.angularVelocity;
    motion.com = motion.origin + comArm;
    motion.comVelocity = motion.originVelocity + spin * perp(comArm);
    motion.comBiasAcceleration = motion.originBiasAcceleration - spin * spin * comArm;
  }
}

PlanarDynamics::PlanarDynamics(PlanarModel model)
    : model_(std::move(model)),
      bodies_(model_.bodies.size()),
      coordinateMotions_(model_.dofCount()),
      subtreeMass_(model_.bodies.size()),
      subtreeBiasForce_(model_.bodies.size()),
      subtreeBiasMoment_(model_.bodies.size()),
      massMatrix_(model_.dofCount(), model_.dofCount()),
      generalizedForce_(model_.dofCount()),
      massFactor_(model_.dofCount()) {
  assert(isValid(model_));
}

void PlanarDynamics::setBodyMass(int body, double mass, double inertia, const Vec2& comOffset) {
  assert(mass > 0.0 && inertia > 0.0);
  PlanarBody& target = model_.bodies[static_cast<size_t>(body)];
  target.mass = mass;
  target.inertia = inertia;
  target.comOffset = comOffset;
}

void PlanarDynamics::setState(const Eigen::Ref<const Eigen::VectorXd>& q,
                              const Eigen::Ref<const Eigen::VectorXd>& qd) {
  computeBodyMotions(model_, q, qd, bodies_);
  reference_ = bodies_[0].origin;

  // Unit motions: the root translates along x and y and turns about its origin; joint b
  // turns body b's subtree about body b's origin.
  coordinateMotions_[kRootX] = {0.0, Vec2(1.0, 0.0)};
  coordinateMotions_[kRootY] = {0.0, Vec2(0.0, 1.0)};
  for (int b = 0; b < model_.bodyCount(); ++b)
    coordinateMotions_[lastCoordinate(b)] = {1.0, -perp(bodies_[b].origin - reference_)};

  // Subtree sums, leaves to root (children come after their parents).
  for (int b = 0; b < model_.bodyCount(); ++b) {
    const PlanarBody& body = model_.bodies[b];
    const BodyMotion& motion = bodies_[b];
    Vec2 offset = motion.com - reference_;
    subtreeMass_[b] = {body.mass, body.mass * offset,
                       body.inertia + body.mass * offset.squaredNorm()};
    subtreeBiasForce_[b] = body.mass * (motion.comBiasAcceleration - model_.gravity);
    subtreeBiasMoment_[b] = cross(offset, subtreeBiasForce_[b]);
  }
  for (int b = model_.bodyCount() - 1; b > 0; --b) {
    int parent = model_.bodies[b].parent;
    subtreeMass_[parent].mass += subtreeMass_[b].mass;
    subtreeMass_[parent].firstMoment += subtreeMass_[b].firstMoment;
    subtreeMass_[parent].polarInertia += subtreeMass_[b].polarInertia;
    subtreeBiasForce_[parent] += subtreeBiasForce_[b];
    subtreeBiasMoment_[parent] += subtreeBiasMoment_[b];
  }
  hasState_ = true;
}

double PlanarDynamics::kineticProduct(const MassDistribution& mass, const UnitMotion& u,
                                      const UnitMotion& v) {
  // ∫ (u.spin perp(x') + u.linear)·(v.spin perp(x') + v.linear) dm with x' = x − r.
  return u.spin * v.spin * mass.polarInertia +
         (u.spin * v.linear + v.spin * u.linear).dot(perp(mass.firstMoment)) +
         mass.mass * u.linear.dot(v.linear);
}

Vec2 PlanarDynamics::velocityAt(const UnitMotion& motion, const Vec2& point) const {
  return motion.spin * perp(point - reference_) + motion.linear;
}

void PlanarDynamics::massMatrix(Eigen::Ref<Eigen::MatrixXd> m) const {
  assert(hasState_ && m.rows() == dofCount() && m.cols() == dofCount());
  m.setZero();
  // M_jk = ∫ u_j·u_k dm over the bodies both coordinates move: the subtree of the deeper
  // one's body (composite rigid body). Pairs in different branches move no common mass.
  for (int b = 0; b < model_.bodyCount(); ++b) {
    const MassDistribution& subtree = subtreeMass_[b];
    for (int j = firstCoordinate(b); j <= lastCoordinate(b); ++j) {
      const UnitMotion& uj = coordinateMotions_[j];
      for (int k = firstCoordinate(b); k <= j; ++k)
        m(j, k) = m(k, j) = kineticProduct(subtree, uj, coordinateMotions_[k]);
      for (int a = model_.bodies[b].parent; a >= 0; a = model_.bodies[a].parent)
        for (int k = firstCoordinate(a); k <= lastCoordinate(a); ++k)
          m(j, k) = m(k, j) = kineticProduct(subtree, uj, coordinateMotions_[k]);
    }
  }
}

void PlanarDynamics::biasForces(Eigen::Ref<Eigen::VectorXd> h) const {
  assert(hasState_ && h.size() == dofCount());
  // With q̈ = 0 no body turns faster (planar: angular accelerations are sums of q̈), so
  // each body needs only the force m (a_bias − g) at its centre of mass; coordinate k
  // bears the generalized force of those of the bodies it moves: Σ u_k(c)·F.
  for (int k = 0; k < dofCount(); ++k) {
    int b = bodyOfCoordinate(k);
    const UnitMotion& u = coordinateMotions_[k];
    h[k] = u.spin * subtreeBiasMoment_[b] + u.linear.dot(subtreeBiasForce_[b]);
  }
}

Vec2 PlanarDynamics::pointPosition(int body, const Vec2& local) const {
  assert(hasState_ && body >= 0 && body < model_.bodyCount());
  const BodyMotion& motion = bodies_[body];
  return motion.origin + rotate(motion, local);
}

Vec2 PlanarDynamics::pointVelocity(int body, const Vec2& local) const {
  assert(hasState_ && body >= 0 && body < model_.bodyCount());
  const BodyMotion& motion = bodies_[body];
  return motion.originVelocity + motion.angularVelocity * perp(rotate(motion, local));
}

void PlanarDynamics::pointJacobian(int body, const Vec2& local,
                                   Eigen::Ref<Eigen::Matrix2Xd> jacobian) const {
  assert(hasState_ && body >= 0 && body < model_.bodyCount() && jacobian.cols() == dofCount());
  jacobian.setZero();
  Vec2 point = pointPosition(body, local);
  for (int b = body; b >= 0; b = model_.bodies[b].parent)
    for (int k = firstCoordinate(b); k <= lastCoordinate(b); ++k)
      jacobian.col(k) = velocityAt(coordinateMotions_[k], point);
}

Vec2 PlanarDynamics::pointBiasAcceleration(int body, const Vec2& local) const {
  assert(hasState_ && body >= 0 && body < model_.bodyCount());
  const BodyMotion& motion = bodies_[body];
  double spin = motion.angularVelocity;
  return motion.originBiasAcceleration - spin * spin * rotate(motion, local);
}

Vec2 PlanarDynamics::com() const {
  assert(hasState_);
  return reference_ + subtreeMass_[0].firstMoment / subtreeMass_[0].mass;
}

Vec2 PlanarDynamics::comVelocity() const {
  assert(hasState_);
  Vec2 momentum = Vec2::Zero();
  for (int b = 0; b < model_.bodyCount(); ++b)
    momentum += model_.bodies[b].mass * bodies_[b].comVelocity;
  return momentum / subtreeMass_[0].mass;
}

void PlanarDynamics::comJacobian(Eigen::Ref<Eigen::Matrix2Xd> jacobian) const {
  assert(hasState_ && jacobian.cols() == dofCount());
  // Column k: Σ m u_k(c) / M over the bodies coordinate k moves.
  for (int k = 0; k < dofCount(); ++k) {
    const MassDistribution& subtree = subtreeMass_[bodyOfCoordinate(k)];
    const UnitMotion& u = coordinateMotions_[k];
    jacobian.col(k) =
        (u.spin * perp(subtree.firstMoment) + subtree.mass * u.linear) / subtreeMass_[0].mass;
  }
}

Vec2 PlanarDynamics::comBiasAcceleration() const {
  assert(hasState_);
  Vec2 sum = Vec2::Zero();
  for (int b = 0; b < model_.bodyCount(); ++b)
    sum += model_.bodies[b].mass * bodies_[b].comBiasAcceleration;
  return sum / subtreeMass_[0].mass;
}

double PlanarDynamics::centroidalAngularMomentum() const {
  assert(hasState_);
  Vec2 centre = com();
  double momentum = 0.0;
  for (int b = 0; b < model_.bodyCount(); ++b) {
    const PlanarBody& body = model_.bodies[b];
    const BodyMotion& motion = bodies_[b];
    momentum += body.inertia * motion.angularVelocity +
                body.mass * cross(motion.com - centre, motion.comVelocity);
  }
  return momentum;
}

void PlanarDynamics::centroidalMomentumJacobian(Eigen::Ref<Eigen::RowVectorXd> jacobian) const {
  assert(hasState_ && jacobian.size() == dofCount());
  // L = ∫ (x − g) × ẋ dm = ∫ u_G·ẋ dm with u_G the unit turn about the COM g, so column k
  // is the kinetic product of u_G and u_k over the bodies coordinate k moves.
  UnitMotion aboutCom{1.0, -perp(com() - reference_)};
  for (int k = 0; k < dofCount(); ++k)
    jacobian[k] =
        kineticProduct(subtreeMass_[bodyOfCoordinate(k)], aboutCom, coordinateMotions_[k]);
}

double PlanarDynamics::centroidalMomentumBias() const {
  assert(hasState_);
  // L̇ = Σ I α + m (c − g) × c̈ (the terms in ċ cancel); with q̈ = 0, α = 0.
  Vec2 centre = com();
  double rate = 0.0;
  for (int b = 0; b < model_.bodyCount(); ++b) {
    const BodyMotion& motion = bodies_[b];
    rate += model_.bodies[b].mass * cross(motion.com - centre, motion.comBiasAcceleration);
  }
  return rate;
}

void PlanarDynamics::forwardDynamics(const Eigen::Ref<const Eigen::VectorXd>& jointTorques,
                                     Eigen::Ref<Eigen::VectorXd> qdd) {
  assert(hasState_ && jointTorques.size() == model_.bodyCount() - 1 && qdd.size() == dofCount());
  massMatrix(massMatrix_);
  biasForces(generalizedForce_);
  generalizedForce_ = -generalizedForce_;
  generalizedForce_.tail(jointTorques.size()) += jointTorques;
  massFactor_.compute(massMatrix_);
  qdd = generalizedForce_;
  massFactor_.solveInPlace(qdd);
}

}  // namespace scl
