// The planar dynamics module (dynamics/) against the character's own conventions, against
// finite differences and physics laws, and against Box2D (docs/dynamics.md, Validation).
#include <box2d/box2d.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "dynamics/articulated_body.h"
#include "dynamics/character_coordinates.h"
#include "dynamics/planar_dynamics.h"
#include "dynamics/planar_model.h"
#include "kinematics/character_state.h"
#include "runtime/simulation.h"

namespace {

using namespace scl;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int kDofs = kBipedLinkCount + 2;

// Uniform numbers from a fixed generator, mapped by hand (library distributions differ).
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform(double low, double high) {
    double unit = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return low + (high - low) * unit;
  }

 private:
  std::mt19937_64 engine_;
};

// Joint angles at least `margin` inside their limits, the root near `origin` at any angle.
VectorXd randomConfiguration(const PlanarModel& model, Random& random, double margin = 0.0,
                             const Vec2& origin = Vec2(0.3, 1.2)) {
  VectorXd q(model.dofCount());
  q[kRootX] = origin.x() + random.uniform(-0.5, 0.5);
  q[kRootY] = origin.y() + random.uniform(-0.5, 0.5);
  q[kRootAngle] = random.uniform(-kPi, kPi);
  for (int b = 1; b < model.bodyCount(); ++b) {
    const PlanarBody& body = model.bodies[b];
    q[jointCoordinate(b)] =
        random.uniform(body.jointLowerLimit + margin, body.jointUpperLimit - margin);
  }
  return q;
}

// Root velocity up to `linear` m/s, every angular rate up to `angular` rad/s.
VectorXd randomVelocity(const PlanarModel& model, Random& random, double linear = 1.0,
                        double angular = 2.0) {
  VectorXd qd(model.dofCount());
  qd[kRootX] = random.uniform(-linear, linear);
  qd[kRootY] = random.uniform(-linear, linear);
  for (int k = kRootAngle; k < model.dofCount(); ++k) qd[k] = random.uniform(-angular, angular);
  return qd;
}

double relativeError(const VectorXd& actual, const VectorXd& expected) {
  return (actual - expected).norm() / std::max(expected.norm(), 1e-300);
}

MatrixXd massMatrixAt(PlanarDynamics& dynamics, const VectorXd& q) {
  dynamics.setState(q, VectorXd::Zero(q.size()));
  MatrixXd m(q.size(), q.size());
  dynamics.massMatrix(m);
  return m;
}

double kineticEnergyOfLinks(const PlanarModel& model, const CharacterState& state) {
  double energy = 0.0;
  for (int i = 0; i < kBipedLinkCount; ++i) {
    const LinkState& link = state.links[i];
    energy += 0.5 * model.bodies[i].mass * link.comVelocity.squaredNorm() +
              0.5 * model.bodies[i].inertia * link.angularVelocity * link.angularVelocity;
  }
  return energy;
}

double potentialEnergy(const PlanarModel& model, const CharacterState& state) {
  double energy = 0.0;
  for (int i = 0; i < kBipedLinkCount; ++i)
    energy -= model.bodies[i].mass * model.gravity.dot(state.links[i].com);
  return energy;
}

// ∫ (c − C) × m ċ + I ω over the links: the angular momentum about the whole-body COM.
double angularMomentumOfLinks(const PlanarModel& model, const CharacterState& state,
                              const Vec2& centre) {
  double momentum = 0.0;
  for (int i = 0; i < kBipedLinkCount; ++i) {
    const LinkState& link = state.links[i];
    Vec2 arm = link.com - centre;
    momentum +=
        model.bodies[i].inertia * link.angularVelocity +
        model.bodies[i].mass * (arm.x() * link.comVelocity.y() - arm.y() * link.comVelocity.x());
  }
  return momentum;
}

}  // namespace

TEST_CASE("The planar model is the character table's", "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  REQUIRE(isValid(model));
  REQUIRE(model.bodyCount() == kBipedLinkCount);
  REQUIRE(model.dofCount() == kDofs);
  CHECK(model.totalMass() == Approx(scl::humanCharacter()->totalMass).epsilon(1e-14));
  CHECK(model.gravity == Vec2(0.0, -9.81));
  for (int i = 0; i < kBipedLinkCount; ++i) {
    const PlanarBody& body = model.bodies[i];
    INFO("link " << scl::humanCharacter()->links[i].name);
    CHECK(body.mass == scl::humanCharacter()->links[i].mass);
    // Closed-form polygon sums here, numerical integration in scl_primitives: one shape.
    CHECK(body.comOffset.x() == Approx(scl::humanCharacter()->links[i].axisSign *
                                       scl::humanCharacter()->links[i].comOffset)
                                    .epsilon(1e-12));
    CHECK(body.comOffset.y() == 0.0);
    CHECK(body.inertia == Approx(scl::humanCharacter()->links[i].inertia).epsilon(1e-12));
  }
  for (int j = 0; j < kBipedJointCount; ++j) {
    const PlanarBody& child = model.bodies[scl::humanCharacter()->joints[j].childLink];
    INFO("joint " << scl::humanCharacter()->joints[j].name);
    CHECK(characterJointCoordinate(j) ==
          jointCoordinate(scl::humanCharacter()->joints[j].childLink));
    CHECK(child.parent == scl::humanCharacter()->joints[j].parentLink);
    CHECK(
        child.jointAnchor.x() ==
        Approx(scl::humanCharacter()->links[scl::humanCharacter()->joints[j].parentLink].axisSign *
               scl::humanCharacter()->joints[j].anchorOnParent));
    CHECK(child.jointLowerLimit == Approx(degToRad(scl::humanCharacter()->joints[j].minDeg)));
    CHECK(child.jointUpperLimit == Approx(degToRad(scl::humanCharacter()->joints[j].maxDeg)));
  }
  PlanarModel broken = model;
  broken.bodies[5].parent = 7;
  CHECK_FALSE(isValid(broken));
  broken = model;
  broken.bodies[3].inertia = 0.0;
  CHECK_FALSE(isValid(broken));
}

TEST_CASE("Coordinates and CharacterState convert both ways, as the project's kinematics",
          "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  Random random(11);
  for (int trial = 0; trial < 20; ++trial) {
    VectorXd q = randomConfiguration(model, random), qd = randomVelocity(model, random);
    CharacterState state = stateFromCoordinates(model, q, qd);

    // Positions: the same as primitives' forwardKinematics(*scl::humanCharacter(), ).
    std::array<double, kMaxJoints> jointAngles{};
    for (int j = 0; j < kBipedJointCount; ++j) jointAngles[j] = q[characterJointCoordinate(j)];
    CharacterState reference = forwardKinematics(*scl::humanCharacter(), Vec2(q[kRootX], q[kRootY]),
                                                 q[kRootAngle], jointAngles);
    for (int i = 0; i < kBipedLinkCount; ++i) {
      CHECK((state.links[i].origin - reference.links[i].origin).norm() < 1e-12);
      CHECK((state.links[i].com - reference.links[i].com).norm() < 1e-12);
      CHECK(state.links[i].angle == Approx(reference.links[i].angle).margin(1e-14));
    }
    for (int j = 0; j < kBipedJointCount; ++j) {
      CHECK((state.jointPositions[j] - reference.jointPositions[j]).norm() < 1e-12);
      CHECK(state.jointAngles[j] == Approx(reference.jointAngles[j]).margin(1e-13));
    }
    CHECK((state.com - reference.com).norm() < 1e-12);

    // Velocities: the time derivatives of those positions along q + t q̇.
    constexpr double kStep = 1e-6;
    CharacterState ahead = stateFromCoordinates(model, q + kStep * qd, qd);
    CharacterState behind = stateFromCoordinates(model, q - kStep * qd, qd);
    for (int i = 0; i < kBipedLinkCount; ++i) {
      Vec2 comRate = (ahead.links[i].com - behind.links[i].com) / (2 * kStep);
      double angleRate = (ahead.links[i].angle - behind.links[i].angle) / (2 * kStep);
      CHECK((state.links[i].comVelocity - comRate).norm() < 1e-7);
      CHECK(state.links[i].angularVelocity == Approx(angleRate).margin(1e-7));
    }
    for (int j = 0; j < kBipedJointCount; ++j)
      CHECK(state.jointVelocities[j] == qd[characterJointCoordinate(j)]);

    // And back.
    VectorXd qBack(kDofs), qdBack(kDofs);
    coordinatesFromState(model, state, qBack, qdBack);
    CHECK(relativeError(qBack, q) < 1e-14);
    CHECK(relativeError(qdBack, qd) < 1e-13);
  }
}

TEST_CASE("COM, its velocity and the centroidal angular momentum are the sums over the links",
          "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  Random random(12);
  for (int trial = 0; trial < 50; ++trial) {
    // Far from the origin too: the module sums about the root, the test about the world.
    Vec2 origin = trial % 2 ? Vec2(0.3, 1.2) : Vec2(250.0, 3.0);
    VectorXd q = randomConfiguration(model, random, 0.0, origin);
    VectorXd qd = randomVelocity(model, random, 2.0, 3.0);
    CharacterState state = stateFromCoordinates(model, q, qd);
    Vec2 weightedPosition = Vec2::Zero(), momentum = Vec2::Zero();
    for (int i = 0; i < kBipedLinkCount; ++i) {
      weightedPosition += model.bodies[i].mass * state.links[i].com;
      momentum += model.bodies[i].mass * state.links[i].comVelocity;
    }
    Vec2 com = weightedPosition / model.totalMass();
    Vec2 comVelocity = momentum / model.totalMass();
    double angularMomentum = angularMomentumOfLinks(model, state, com);

    dynamics.setState(q, qd);
    CHECK((dynamics.com() - com).norm() < 1e-12 * com.norm());
    CHECK((dynamics.comVelocity() - comVelocity).norm() < 1e-12 * comVelocity.norm());
    CHECK((state.com - com).norm() < 1e-12 * com.norm());
    CHECK(dynamics.centroidalAngularMomentum() ==
          Approx(angularMomentum).epsilon(1e-12).margin(1e-12));
    Eigen::RowVectorXd a(kDofs);
    dynamics.centroidalMomentumJacobian(a);
    CHECK(a.dot(qd) == Approx(angularMomentum).epsilon(1e-12).margin(1e-12));
    Eigen::Matrix2Xd comJacobian(2, kDofs);
    dynamics.comJacobian(comJacobian);
    CHECK((comJacobian * qd - comVelocity).norm() < 1e-12 * comVelocity.norm());
  }
}

TEST_CASE("Point Jacobians and their rates agree with velocities and finite differences",
          "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  Random random(13);
  constexpr double kStep = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    VectorXd q = randomConfiguration(model, random), qd = randomVelocity(model, random);
    int body = trial % kBipedLinkCount;
    Vec2 local(random.uniform(-0.3, 0.3), random.uniform(-0.1, 0.1));
    INFO("link " << scl::humanCharacter()->links[body].name);

    CharacterState state = stateFromCoordinates(model, q, qd);
    dynamics.setState(q, qd);
    Eigen::Matrix2Xd jacobian(2, kDofs);
    dynamics.pointJacobian(body, local, jacobian);
    Vec2 point = dynamics.pointPosition(body, local);
    const LinkState& link = state.links[body];
    Vec2 arm = point - link.com;
    Vec2 velocity = link.comVelocity + link.angularVelocity * Vec2(-arm.y(), arm.x());
    CHECK((jacobian * qd - velocity).norm() < 1e-12 * velocity.norm());
    CHECK((dynamics.pointVelocity(body, local) - velocity).norm() < 1e-12 * velocity.norm());

    // Columns: ∂p/∂q_k.
    for (int k = 0; k < kDofs; ++k) {
      VectorXd step = VectorXd::Unit(kDofs, k) * kStep;
      dynamics.setState(q + step, qd);
      Vec2 ahead = dynamics.pointPosition(body, local);
      dynamics.setState(q - step, qd);
      Vec2 behind = dynamics.pointPosition(body, local);
      CHECK((jacobian.col(k) - (ahead - behind) / (2 * kStep)).norm() < 1e-8);
    }

    // J̇ q̇ = d/dt (J q̇) along q + t q̇ with q̇ held.
    dynamics.setState(q, qd);
    Vec2 bias = dynamics.pointBiasAcceleration(body, local);
    Eigen::Matrix2Xd jacobianAhead(2, kDofs), jacobianBehind(2, kDofs);
    dynamics.setState(q + kStep * qd, qd);
    dynamics.pointJacobian(body, local, jacobianAhead);
    dynamics.setState(q - kStep * qd, qd);
    dynamics.pointJacobian(body, local, jacobianBehind);
    Vec2 rate = (jacobianAhead - jacobianBehind) * qd / (2 * kStep);
    CHECK((bias - rate).norm() < 1e-6 * std::max(1.0, rate.norm()));
  }
}

TEST_CASE("COM and centroidal momentum Jacobians and their rates match finite differences",
          "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  Random random(14);
  constexpr double kStep = 1e-6;
  for (int trial = 0; trial < 10; ++trial) {
    VectorXd q = randomConfiguration(model, random), qd = randomVelocity(model, random);
    dynamics.setState(q, qd);
    Eigen::Matrix2Xd comJacobian(2, kDofs);
    dynamics.comJacobian(comJacobian);
    Eigen::RowVectorXd momentumJacobian(kDofs);
    dynamics.centroidalMomentumJacobian(momentumJacobian);
    Vec2 comBias = dynamics.comBiasAcceleration();
    double momentumBias = dynamics.centroidalMomentumBias();

    for (int k = 0; k < kDofs; ++k) {
      VectorXd step = VectorXd::Unit(kDofs, k) * kStep;
      dynamics.setState(q + step, qd);
      Vec2 ahead = dynamics.com();
      dynamics.setState(q - step, qd);
      Vec2 behind = dynamics.com();
      CHECK((comJacobian.col(k) - (ahead - behind) / (2 * kStep)).norm() < 1e-8);
    }
    // d/dt of COM velocity and of L along q + t q̇ with q̇ held are J̇ q̇ and Ȧ q̇.
    dynamics.setState(q + kStep * qd, qd);
    Vec2 comVelocityAhead = dynamics.comVelocity();
    double momentumAhead = dynamics.centroidalAngularMomentum();
    dynamics.setState(q - kStep * qd, qd);
    Vec2 comVelocityBehind = dynamics.comVelocity();
    double momentumBehind = dynamics.centroidalAngularMomentum();
    Vec2 comRate = (comVelocityAhead - comVelocityBehind) / (2 * kStep);
    double momentumRate = (momentumAhead - momentumBehind) / (2 * kStep);
    CHECK((comBias - comRate).norm() < 1e-6 * std::max(1.0, comRate.norm()));
    CHECK(momentumBias == Approx(momentumRate).epsilon(1e-6).margin(1e-6));
  }
}

TEST_CASE("The mass matrix is the kinetic energy's", "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  Random random(15);
  for (int trial = 0; trial < 20; ++trial) {
    VectorXd q = randomConfiguration(model, random), qd = randomVelocity(model, random);
    dynamics.setState(q, qd);
    MatrixXd m(kDofs, kDofs);
    dynamics.massMatrix(m);
    CHECK(m == m.transpose());
    CHECK(Eigen::LLT<MatrixXd>(m).info() == Eigen::Success);

    CharacterState state = stateFromCoordinates(model, q, qd);
    double energy = kineticEnergyOfLinks(model, state);
    CHECK(0.5 * qd.dot(m * qd) == Approx(energy).epsilon(1e-12));

    // Entry by entry: Σ m J_cᵀ J_c + I J_ωᵀ J_ω from the point Jacobians of the COMs, the
    // angular Jacobian being 1 on the root's angle and each joint on the way to the root.
    MatrixXd expected = MatrixXd::Zero(kDofs, kDofs);
    Eigen::Matrix2Xd jacobian(2, kDofs);
    for (int b = 0; b < kBipedLinkCount; ++b) {
      const PlanarBody& body = model.bodies[b];
      dynamics.pointJacobian(b, body.comOffset, jacobian);
      Eigen::RowVectorXd spin = Eigen::RowVectorXd::Zero(kDofs);
      spin[kRootAngle] = 1.0;
      for (int a = b; a > 0; a = model.bodies[a].parent) spin[jointCoordinate(a)] = 1.0;
      expected +=
          body.mass * jacobian.transpose() * jacobian + body.inertia * spin.transpose() * spin;
    }
    CHECK((m - expected).norm() < 1e-12 * expected.norm());
  }
}

TEST_CASE("Bias forces are the Lagrangian's Coriolis, centrifugal and gravity forces",
          "[dynamics]") {
  // h = Ṁ q̇ − ∂T/∂q + ∂V/∂q with T = ½ q̇ᵀ M(q) q̇ and V = −Σ m g·c, by central differences.
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  Random random(16);
  constexpr double kStep = 1e-5;
  for (int trial = 0; trial < 10; ++trial) {
    VectorXd q = randomConfiguration(model, random), qd = randomVelocity(model, random);
    dynamics.setState(q, qd);
    VectorXd h(kDofs);
    dynamics.biasForces(h);

    MatrixXd massRate =
        (massMatrixAt(dynamics, q + kStep * qd) - massMatrixAt(dynamics, q - kStep * qd)) /
        (2 * kStep);
    VectorXd expected = massRate * qd;
    for (int k = 0; k < kDofs; ++k) {
      VectorXd step = VectorXd::Unit(kDofs, k) * kStep;
      double kineticAhead = 0.5 * qd.dot(massMatrixAt(dynamics, q + step) * qd);
      double kineticBehind = 0.5 * qd.dot(massMatrixAt(dynamics, q - step) * qd);
      double potentialAhead = potentialEnergy(model, stateFromCoordinates(model, q + step, qd));
      double potentialBehind = potentialEnergy(model, stateFromCoordinates(model, q - step, qd));
      expected[k] += -(kineticAhead - kineticBehind) / (2 * kStep) +
                     (potentialAhead - potentialBehind) / (2 * kStep);
    }
    CHECK(relativeError(h, expected) < 1e-7);

    // At rest only gravity remains: −Σ J_cᵀ m g, exactly.
    dynamics.setState(q, VectorXd::Zero(kDofs));
    dynamics.biasForces(h);
    VectorXd gravity = VectorXd::Zero(kDofs);
    Eigen::Matrix2Xd jacobian(2, kDofs);
    for (int b = 0; b < kBipedLinkCount; ++b) {
      dynamics.pointJacobian(b, model.bodies[b].comOffset, jacobian);
      gravity -= jacobian.transpose() * (model.bodies[b].mass * model.gravity);
    }
    CHECK(relativeError(h, gravity) < 1e-13);
  }
}

namespace {

// A classical Runge–Kutta step of q̈ = M⁻¹(Sᵀτ − h).
void rungeKuttaStep(PlanarDynamics& dynamics, const VectorXd& torques, double dt, VectorXd& q,
                    VectorXd& qd) {
  auto acceleration = [&](const VectorXd& position, const VectorXd& velocity) {
    VectorXd qdd(position.size());
    dynamics.setState(position, velocity);
    dynamics.forwardDynamics(torques, qdd);
    return qdd;
  };
  VectorXd a1 = acceleration(q, qd);
  VectorXd v2 = qd + 0.5 * dt * a1;
  VectorXd a2 = acceleration(q + 0.5 * dt * qd, v2);
  VectorXd v3 = qd + 0.5 * dt * a2;
  VectorXd a3 = acceleration(q + 0.5 * dt * v2, v3);
  VectorXd v4 = qd + dt * a3;
  VectorXd a4 = acceleration(q + dt * v3, v4);
  q += dt / 6.0 * (qd + 2.0 * v2 + 2.0 * v3 + v4);
  qd += dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
}

}  // namespace

TEST_CASE("Forward dynamics conserves energy and momentum in free flight", "[dynamics]") {
  // A wrong sign or factor in h or M would feed or drain energy and spin.
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarModel weightless = model;
  weightless.gravity = Vec2::Zero();
  Random random(17);
  VectorXd noTorque = VectorXd::Zero(kBipedJointCount);
  for (const PlanarModel& world : {model, weightless}) {
    PlanarDynamics dynamics(world);
    VectorXd q = randomConfiguration(world, random, 0.2), qd = randomVelocity(world, random);
    auto energy = [&](const VectorXd& position, const VectorXd& velocity) {
      CharacterState state = stateFromCoordinates(world, position, velocity);
      return kineticEnergyOfLinks(world, state) + potentialEnergy(world, state);
    };
    dynamics.setState(q, qd);
    double energyBefore = energy(q, qd);
    double momentumBefore = dynamics.centroidalAngularMomentum();
    Vec2 comVelocityBefore = dynamics.comVelocity();
    double kineticScale = kineticEnergyOfLinks(world, stateFromCoordinates(world, q, qd));
    constexpr double kDt = 1e-3;
    constexpr int kSteps = 300;
    for (int i = 0; i < kSteps; ++i) rungeKuttaStep(dynamics, noTorque, kDt, q, qd);
    dynamics.setState(q, qd);
    CHECK(std::abs(energy(q, qd) - energyBefore) < 1e-7 * kineticScale);
    CHECK(dynamics.centroidalAngularMomentum() ==
          Approx(momentumBefore).epsilon(1e-7).margin(1e-9));
    Vec2 expectedComVelocity = comVelocityBefore + kSteps * kDt * world.gravity;
    CHECK((dynamics.comVelocity() - expectedComVelocity).norm() < 1e-9);
  }
}

TEST_CASE("The articulated-body algorithm solves the dense system with armature", "[dynamics]") {
  // (M + diag(0, 0, 0, armature)) q̈ = Sᵀτ − h, factored densely, against the O(n) solve:
  // a wrong spatial inertia, bias force or velocity product shows as a mismatch far above
  // rounding. Also with zero gravity and zero armature, where each term is alone.
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarModel weightless = model;
  weightless.gravity = Vec2::Zero();
  Random random(23);
  for (const PlanarModel& world : {model, weightless}) {
    PlanarDynamics dynamics(world);
    ArticulatedBodySolver solver(world);
    for (int trial = 0; trial < 50; ++trial) {
      VectorXd q = randomConfiguration(world, random), qd = randomVelocity(world, random, 2.0, 6.0);
      std::vector<double> torques(kBipedJointCount), armature(kBipedJointCount);
      for (int j = 0; j < kBipedJointCount; ++j) {
        torques[j] = random.uniform(-200.0, 200.0);
        armature[j] = trial % 2 == 0 ? 0.0 : random.uniform(0.0, 0.5);
      }
      dynamics.setState(q, qd);
      MatrixXd m(kDofs, kDofs);
      VectorXd h(kDofs);
      dynamics.massMatrix(m);
      dynamics.biasForces(h);
      VectorXd force = -h;
      for (int j = 0; j < kBipedJointCount; ++j) {
        m(3 + j, 3 + j) += armature[j];
        force[3 + j] += torques[j];
      }
      const VectorXd expected = m.llt().solve(force);
      VectorXd qdd(kDofs);
      solver.solve(q, qd, torques, armature, qdd);
      INFO("trial " << trial);
      CHECK(relativeError(qdd, expected) < 1e-10);
    }
  }
}

TEST_CASE("Same inputs give bit-identical dynamics", "[dynamics]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics first(model), second(model);
  Random random(18);
  VectorXd q = randomConfiguration(model, random), qd = randomVelocity(model, random);
  MatrixXd m1(kDofs, kDofs), m2(kDofs, kDofs);
  VectorXd h1(kDofs), h2(kDofs);
  first.setState(q, qd);
  first.massMatrix(m1);
  first.biasForces(h1);
  second.setState(randomConfiguration(model, random), randomVelocity(model, random));
  second.setState(q, qd);
  second.massMatrix(m2);
  second.biasForces(h2);
  CHECK(std::memcmp(m1.data(), m2.data(), sizeof(double) * m1.size()) == 0);
  CHECK(std::memcmp(h1.data(), h2.data(), sizeof(double) * h1.size()) == 0);
}

// ---------------------------------------------------------------------------------------
// Against Box2D.

namespace {

// The runtime's character (runtime/simulation.cpp: the same mass data, joints and limits,
// gravity, solver iterations and step) in a Box2D world of its own, so that it can start
// from any state. There is no ground: high in the air, nothing touches. No fixtures either:
// the mass data is set explicitly, as the runtime does, and fixtures would only collide.
class AirborneCharacter {
 public:
  explicit AirborneCharacter(const CharacterState& state) {
    for (int i = 0; i < kBipedLinkCount; ++i) {
      const LinkState& link = state.links[i];
      b2BodyDef bodyDef;
      bodyDef.type = b2_dynamicBody;
      bodyDef.position = toB2(link.origin);
      bodyDef.angle = static_cast<float>(link.angle);
      bodies_[i] = world_.CreateBody(&bodyDef);
      b2MassData mass;
      mass.mass = static_cast<float>(scl::humanCharacter()->links[i].mass);
      double comOffset = scl::humanCharacter()->links[i].comOffset;
      mass.center.Set(static_cast<float>(scl::humanCharacter()->links[i].axisSign * comOffset),
                      0.0f);
      mass.I = static_cast<float>(scl::humanCharacter()->links[i].inertia +
                                  scl::humanCharacter()->links[i].mass * comOffset * comOffset);
      bodies_[i]->SetMassData(&mass);
      bodies_[i]->SetLinearVelocity(toB2(link.comVelocity));  // of the centre of mass
      bodies_[i]->SetAngularVelocity(static_cast<float>(link.angularVelocity));
    }
    for (const JointDef& joint : scl::humanCharacter()->joints) {
      b2RevoluteJointDef jointDef;
      jointDef.bodyA = bodies_[joint.parentLink];
      jointDef.bodyB = bodies_[joint.childLink];
      jointDef.localAnchorA.Set(
          static_cast<float>(scl::humanCharacter()->links[joint.parentLink].axisSign *
                             joint.anchorOnParent),
          0.0f);
      jointDef.localAnchorB.SetZero();
      jointDef.referenceAngle = 0.0f;
      jointDef.enableLimit = true;
      jointDef.lowerAngle = static_cast<float>(degToRad(joint.minDeg));
      jointDef.upperAngle = static_cast<float>(degToRad(joint.maxDeg));
      world_.CreateJoint(&jointDef);
    }
  }

  void step(const VectorXd& torques) {
    for (int j = 0; j < kBipedJointCount; ++j) {
      bodies_[scl::humanCharacter()->joints[j].childLink]->ApplyTorque(
          static_cast<float>(torques[j]), true);
      bodies_[scl::humanCharacter()->joints[j].parentLink]->ApplyTorque(
          static_cast<float>(-torques[j]), true);
    }
    world_.Step(static_cast<float>(def_.timeStep), def_.velocityIterations,
                def_.positionIterations);
  }

  double timeStep() const { return def_.timeStep; }

  // What Simulation::state() reports, the per-link fields.
  CharacterState state() const {
    CharacterState state;
    for (int i = 0; i < kBipedLinkCount; ++i) {
      const b2Body* body = bodies_[i];
      LinkState& link = state.links[i];
      link.origin = Vec2(body->GetPosition().x, body->GetPosition().y);
      link.angle = body->GetAngle();
      link.com = Vec2(body->GetWorldCenter().x, body->GetWorldCenter().y);
      link.comVelocity = Vec2(body->GetLinearVelocity().x, body->GetLinearVelocity().y);
      link.angularVelocity = body->GetAngularVelocity();
    }
    return state;
  }

 private:
  static b2Vec2 toB2(const Vec2& v) {
    return b2Vec2(static_cast<float>(v.x()), static_cast<float>(v.y()));
  }

  SimulationDef def_;  // the runtime's step and iterations
  b2World world_{b2Vec2(0.0f, -9.81f)};
  std::array<b2Body*, kMaxLinks> bodies_{};
};

// One trial: Box2D's joint-space acceleration over one step, (q̇_after − q̇_before)/Δt,
// after kWarmUpSteps under the same torques (Box2D warm-starts its impulses from the
// previous step's: a cold first step is 5% off), and the state before that step.
struct Box2dStep {
  VectorXd q, qd, measuredAcceleration;
};

constexpr int kWarmUpSteps = 10;

Box2dStep stepBox2d(const PlanarModel& model, const VectorXd& q, const VectorXd& qd,
                    const VectorXd& torques) {
  AirborneCharacter character(stateFromCoordinates(model, q, qd));
  for (int i = 0; i < kWarmUpSteps; ++i) character.step(torques);
  Box2dStep result{VectorXd(kDofs), VectorXd(kDofs), VectorXd(kDofs)};
  coordinatesFromState(model, character.state(), result.q, result.qd);
  character.step(torques);
  VectorXd q1(kDofs), qd1(kDofs);
  coordinatesFromState(model, character.state(), q1, qd1);
  result.measuredAcceleration = (qd1 - result.qd) / character.timeStep();
  return result;
}

// The error in the kinetic-energy metric, ‖e‖_M / ‖q̈‖_M: one number for coordinates of
// mixed units, each acceleration weighted by the inertia it moves.
double massNormRelativeError(const MatrixXd& m, const VectorXd& actual, const VectorXd& expected) {
  VectorXd error = actual - expected;
  return std::sqrt(error.dot(m * error) / expected.dot(m * expected));
}

struct ErrorSummary {
  double median = 0.0, worst = 0.0;
};

ErrorSummary summarize(std::vector<double> errors) {
  std::sort(errors.begin(), errors.end());
  return {errors[errors.size() / 2], errors.back()};
}

// Two regimes, so that neither the torque-driven part (M) nor the velocity-driven part (h)
// hides behind the other: torques up to 10% of each joint's max torque at moderate speeds
// (±1 m/s, ±1 rad/s), and no torque at ±3 rad/s (centrifugal and Coriolis terms alone,
// gravity accelerating everything alike).
struct Regime {
  const char* name;
  double torqueFraction;
  double speed;
  std::uint64_t seed;
};
constexpr std::array<Regime, 2> kRegimes = {
    {{"torques", 0.1, 1.0, 21}, {"spinning", 0.0, 3.0, 22}}};
constexpr int kTrials = 1000;

// How a model could be wrong, for the check that the comparison notices.
enum class Fault { None, TrunkInertia, VelocityTermsFlipped };

ErrorSummary compareWithBox2d(const Regime& regime, Fault fault) {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarModel predicting = model;
  if (fault == Fault::TrunkInertia) predicting.bodies[kTrunk].inertia *= 1.1;
  PlanarDynamics dynamics(predicting);
  Random random(regime.seed);
  std::vector<double> errors;
  for (int trial = 0; trial < kTrials; ++trial) {
    // Joints 20° inside their limits: Box2D's limits stay slack.
    VectorXd q = randomConfiguration(model, random, degToRad(20.0), Vec2(0.0, 10.0));
    VectorXd qd = randomVelocity(model, random, regime.speed, regime.speed);
    VectorXd torques(kBipedJointCount);
    for (int j = 0; j < kBipedJointCount; ++j)
      torques[j] = regime.torqueFraction * scl::humanCharacter()->joints[j].maxTorque *
                   random.uniform(-1.0, 1.0);
    Box2dStep box2d = stepBox2d(model, q, qd, torques);

    dynamics.setState(box2d.q, box2d.qd);
    MatrixXd m(kDofs, kDofs);
    dynamics.massMatrix(m);
    VectorXd predicted(kDofs);
    dynamics.forwardDynamics(torques, predicted);
    if (fault == Fault::VelocityTermsFlipped) {
      VectorXd h(kDofs), gravityOnly(kDofs);
      dynamics.biasForces(h);
      dynamics.setState(box2d.q, VectorXd::Zero(kDofs));
      dynamics.biasForces(gravityOnly);
      VectorXd force = -gravityOnly + (h - gravityOnly);
      force.tail(kBipedJointCount) += torques;
      predicted = m.llt().solve(force);
    }
    errors.push_back(massNormRelativeError(m, box2d.measuredAcceleration, predicted));
  }
  return summarize(errors);
}

// Measured over the kTrials states of each regime (docs/dynamics.md, Validation against
// Box2D), errors in ‖·‖_M relative to ‖q̈‖_M:
//   torques:   median 1.1e-4, worst 1.4e-3
//   spinning:  median 4.9e-4, worst 2.7e-3
// Where they come from (each measured by changing one thing):
// - Box2D's sequential-impulse solver stops after 8 iterations, warm-started from the last
//   step's impulses: cold (no warm-up) the median is 6e-2; 50 iterations lower the
//   torques' worst to 8e-4.
// - Semi-implicit Euler in maximal coordinates: velocities change from the step's start
//   state, the joint Jacobians lag a step. q̈ moves by ~0.4% within one 0.25 ms step here
//   (predicting from the step's end: median 4e-3); a 0.1 ms step lowers the worst to 7.5e-4.
// - Float velocities: an ulp of 3 m/s over 0.25 ms is 1e-3 m/s², against centripetal
//   accelerations of a few m/s² when spinning; that regime gets worse with a 0.1 ms step
//   (median 8e-4), as rounding and not the model sets it.
// The tolerances are ~4× the median and ~3× the worst, and a wrong model exceeds them many
// times over: the trunk's inertia 10% off (torques: median 4.1e-3, worst 1.9e-2), the
// velocity terms' sign flipped (spinning: median 0.8).
struct Tolerance {
  double median, worst;
};
constexpr std::array<Tolerance, 2> kTolerances = {{{5e-4, 4e-3}, {2e-3, 8e-3}}};

}  // namespace

TEST_CASE("Joint-space accelerations match Box2D's over one step", "[dynamics][box2d]") {
  for (std::size_t r = 0; r < kRegimes.size(); ++r) {
    INFO("regime " << kRegimes[r].name);
    ErrorSummary errors = compareWithBox2d(kRegimes[r], Fault::None);
    CHECK(errors.median < kTolerances[r].median);
    CHECK(errors.worst < kTolerances[r].worst);
  }
}

TEST_CASE("The comparison with Box2D catches a wrong model", "[dynamics][box2d]") {
  auto fails = [](std::size_t regime, Fault fault) {
    ErrorSummary errors = compareWithBox2d(kRegimes[regime], fault);
    return errors.median >= kTolerances[regime].median || errors.worst >= kTolerances[regime].worst;
  };
  CHECK(fails(0, Fault::TrunkInertia));
  CHECK(fails(1, Fault::VelocityTermsFlipped));
}

TEST_CASE("Coordinates from the runtime's Box2D state place every link where Box2D has it",
          "[dynamics][box2d]") {
  // The model's geometry (anchors, COM offsets, axis signs) against the real runtime: a
  // supine character flailing under torques for 0.2 s, on the ground.
  SimulationDef def;
  def.scene.pose = "supine";
  Simulation simulation(def);
  Random random(23);
  std::array<double, kMaxJoints> torques{};
  for (int j = 0; j < kBipedJointCount; ++j)
    torques[j] = 0.2 * scl::humanCharacter()->joints[j].maxTorque * random.uniform(-1.0, 1.0);
  simulation.setJointTorques(torques);
  for (int i = 0; i < 800; ++i) simulation.step();

  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  const CharacterState& box2d = simulation.state();
  VectorXd q(kDofs), qd(kDofs);
  coordinatesFromState(model, box2d, q, qd);
  CharacterState modelled = stateFromCoordinates(model, q, qd);
  double fastest = 0.0;
  for (const LinkState& link : box2d.links) fastest = std::max(fastest, link.comVelocity.norm());
  REQUIRE(fastest > 1.0);  // it did move
  for (int i = 0; i < kBipedLinkCount; ++i) {
    INFO("link " << scl::humanCharacter()->links[i].name);
    // Box2D's joints separate by float rounding only (measured: under 1e-6 m).
    CHECK(modelled.links[i].angle == Approx(box2d.links[i].angle).margin(1e-12));
    CHECK((modelled.links[i].origin - box2d.links[i].origin).norm() < 1e-5);
    CHECK((modelled.links[i].com - box2d.links[i].com).norm() < 1e-5);
    // Box2D's velocities meet the joint constraints at the step's start positions, so at
    // its end the chain rebuilt from the head is off by about Δt·ω·v (measured: 1 cm/s
    // for a hand moving 5 m/s, 0.2%).
    CHECK((modelled.links[i].comVelocity - box2d.links[i].comVelocity).norm() < 0.01 * fastest);
  }
}
