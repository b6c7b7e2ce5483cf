// Virtual forces: Jacobian-transpose torques against virtual work by finite differences.
#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "primitives/gravity_compensation_primitive.h"
#include "primitives/joint_chain.h"
#include "primitives/primitive.h"
#include "primitives/stance_balance_primitive.h"
#include "scl/character.h"

using namespace scl;

namespace {

using Angles = std::array<double, kMaxJoints>;

// A random pose within the joint ranges.
Angles randomPose(std::mt19937& random) {
  Angles angles{};
  for (int j = 0; j < kBipedJointCount; ++j) {
    std::uniform_real_distribution<double> range(degToRad(scl::humanCharacter()->joints[j].minDeg),
                                                 degToRad(scl::humanCharacter()->joints[j].maxDeg));
    angles[j] = range(random);
  }
  return angles;
}

// COM of `link` after changing joint `joint` by `delta`, with the base link held where it
// is in the unperturbed pose (the whole body is moved rigidly to put the base back).
Vec2 comWithBaseFixed(const Angles& angles, int joint, double delta, int base, int link) {
  CharacterState reference = forwardKinematics(*scl::humanCharacter(), Vec2(0.3, 1.1), 0.7, angles);
  Angles moved = angles;
  moved[joint] += delta;
  CharacterState perturbed = forwardKinematics(*scl::humanCharacter(), Vec2(0.3, 1.1), 0.7, moved);
  double turn = reference.links[base].angle - perturbed.links[base].angle;
  Eigen::Rotation2Dd rotation(turn);
  return rotation * (perturbed.links[link].com - perturbed.links[base].origin) +
         reference.links[base].origin;
}

// tau_j = F · dp/dtheta_j (virtual work), central differences.
std::array<double, kMaxJoints> virtualWorkTorques(const Angles& angles, int base, int link,
                                                  const Vec2& force) {
  std::array<double, kMaxJoints> torques{};
  constexpr double h = 1e-6;
  for (int j = 0; j < kBipedJointCount; ++j) {
    Vec2 plus = comWithBaseFixed(angles, j, h, base, link);
    Vec2 minus = comWithBaseFixed(angles, j, -h, base, link);
    torques[j] = force.dot((plus - minus) / (2 * h));
  }
  return torques;
}

std::array<double, kMaxJoints> jacobianTorques(const Angles& angles, int link, int byJoint,
                                               const Vec2& force,
                                               ControlFrame* frameOut = nullptr) {
  CharacterState state = forwardKinematics(*scl::humanCharacter(), Vec2(0.3, 1.1), 0.7, angles);
  VirtualForcePrimitive vf;
  vf.fx.value = force.x();
  vf.fy.value = force.y();
  vf.link = link;
  vf.byJoint = byJoint;
  auto primitive = makePrimitive(vf, *scl::humanCharacter());
  ControlFrame frame;
  frame.reset(angles);
  primitive->begin(state);
  primitive->apply(state, 0.0, frame);
  if (frameOut) *frameOut = frame;
  return frame.addedTorque;
}

void requireClose(const std::array<double, kMaxJoints>& actual,
                  const std::array<double, kMaxJoints>& expected) {
  double scale = 0.0;
  for (double value : expected) scale = std::max(scale, std::abs(value));
  for (int j = 0; j < kBipedJointCount; ++j) {
    INFO("joint " << scl::humanCharacter()->joints[j].name << ": " << actual[j] << " vs "
                  << expected[j]);
    REQUIRE(std::abs(actual[j] - expected[j]) <= 1e-6 * scale + 1e-9);
  }
}

}  // namespace

TEST_CASE("the base of a virtual force is the by-joint's link off the path", "[primitives][vf]") {
  CHECK(virtualForceBase(*scl::humanCharacter(), kTrunk, kLeftAnkle) == kLeftFoot);
  CHECK(virtualForceBase(*scl::humanCharacter(), kLeftFoot, kWaist) == kTrunk);
  CHECK(virtualForceBase(*scl::humanCharacter(), kLeftHand, kWaist) == kPelvis);
  CHECK(virtualForceBase(*scl::humanCharacter(), kTrunk, kLeftWrist) == kLeftHand);
  CHECK(virtualForceBase(*scl::humanCharacter(), kLeftShank, kLeftAnkle) == kLeftFoot);
  CHECK(virtualForceBase(*scl::humanCharacter(), kLeftFoot, kLeftAnkle) == kLeftShank);

  JointChain chain = virtualForceChain(*scl::humanCharacter(), kTrunk, kLeftAnkle);
  REQUIRE(chain.size == 4);  // ankle, knee, hip, waist; all crossed child -> parent
  CHECK(chain.joints[0].joint == kLeftAnkle);
  CHECK(chain.joints[3].joint == kWaist);
  for (const ChainJoint& entry : chain) CHECK(entry.sign == -1.0);

  JointChain across = virtualForceChain(*scl::humanCharacter(), kLeftHand, kWaist);
  REQUIRE(across.size == 4);  // waist (up), shoulder, elbow, wrist (down)
  CHECK(across.joints[0].joint == kWaist);
  CHECK(across.joints[0].sign == -1.0);
  CHECK(across.joints[1].joint == kLeftShoulder);
  CHECK(across.joints[3].joint == kLeftWrist);
  CHECK(across.joints[3].sign == 1.0);
}

TEST_CASE("virtual-force torques equal virtual work by finite differences", "[primitives][vf]") {
  struct Case {
    int link;
    int byJoint;
  };
  const Case cases[] = {
      {kTrunk, kLeftAnkle},        // child -> parent through a whole leg
      {kLeftHand, kWaist},         // across the waist, up then down
      {kLeftFoot, kWaist},         // down a leg (kip-up "straighten")
      {kLeftShank, kWaist},        // kip-up "propel"
      {kLeftHand, kLeftShoulder},  // an arm from the shoulder
      {kTrunk, kLeftWrist},        // prone-to-stand: through an arm from the hand
      {kLeftThigh, kLeftAnkle},    // walk stance leg
      {kRightShank, kRightHip},    // a leg from the hip
      {kLeftFoot, kLeftKnee},      // a shank and foot
      {kHead, kRightAnkle},        // the whole body from a foot
  };
  std::mt19937 random(12345);
  for (int pose = 0; pose < 5; ++pose) {
    Angles angles = randomPose(random);
    for (const Case& c : cases) {
      const Vec2 force(137.0, -421.0);
      INFO("pose " << pose << ", on " << scl::humanCharacter()->links[c.link].name << " by "
                   << scl::humanCharacter()->joints[c.byJoint].name);
      int base = virtualForceBase(*scl::humanCharacter(), c.link, c.byJoint);
      requireClose(jacobianTorques(angles, c.link, c.byJoint, force),
                   virtualWorkTorques(angles, base, c.link, force));
    }
  }
}

TEST_CASE("a virtual force records its force at the link's centre of mass", "[primitives][vf]") {
  Angles angles{};
  ControlFrame frame;
  jacobianTorques(angles, kTrunk, kLeftAnkle, Vec2(0, 400), &frame);
  REQUIRE(frame.forces.size() == 1);
  CharacterState state = forwardKinematics(*scl::humanCharacter(), Vec2(0.3, 1.1), 0.7, angles);
  CHECK(frame.forces[0].link == kTrunk);
  CHECK(frame.forces[0].point.isApprox(state.links[kTrunk].com));
  CHECK(frame.forces[0].force.isApprox(Vec2(0, 400)));
  // Joints off the chain get nothing.
  CHECK(frame.addedTorque[kRightKnee] == 0.0);
  CHECK(frame.addedTorque[kNeckTop] == 0.0);
}

TEST_CASE("stance balance pushes the centre of mass toward the middle of the feet",
          "[primitives][sb]") {
  const auto* standing = scl::humanCharacter()->findPose("standing");
  Angles angles{};
  for (int j = 0; j < kBipedJointCount; ++j) angles[j] = degToRad(standing->jointDeg[j]);
  CharacterState state = forwardKinematics(*scl::humanCharacter(), Vec2(0.0, 1.8), kPi / 2, angles);
  // The target is the middle of the two soles, wherever the feet touch.
  auto soleMiddle = [&](int foot) {
    const LinkState& link = state.links[foot];
    return (link.origin + 0.5 * scl::humanCharacter()->links[foot].length *
                              linkAxis(*scl::humanCharacter(), foot, link.angle))
        .x();
  };
  double middle = 0.5 * (soleMiddle(kLeftFoot) + soleMiddle(kRightFoot));
  CHECK(middle > state.jointPositions[kLeftAnkle].x() + 0.09);  // ahead of the ankles
  state.links[kLeftFoot].contact = state.links[kRightFoot].contact = true;
  state.links[kLeftFoot].contactPoint =
      state.jointPositions[kLeftAnkle] - Vec2(0.0, 0.04);  // heel only
  state.links[kRightFoot].contactPoint = state.jointPositions[kRightAnkle] - Vec2(0.0, 0.04);
  CHECK(stanceBalanceTargetX(*scl::humanCharacter(), state) == Approx(middle));
  state.links[kRightFoot].contact = false;
  CHECK(stanceBalanceTargetX(*scl::humanCharacter(), state) == Approx(middle));
  state.links[kRightFoot].contact = true;

  state.comVelocity = Vec2(0.5, 0.0);
  VirtualForcePrimitive sb;
  sb.stanceBalance = true;
  sb.kp.value = 400;
  sb.kd.value = 30;
  sb.link = kTrunk;
  sb.byJoint = kLeftAnkle;
  auto primitive = makePrimitive(sb, *scl::humanCharacter());
  ControlFrame frame;
  frame.reset(angles);
  primitive->apply(state, 0.0, frame);
  double expected = 400 * (middle - state.com.x()) - 30 * 0.5;
  REQUIRE(frame.forces.size() == 1);
  CHECK(frame.forces[0].kind == ForceKind::StanceBalance);
  CHECK(frame.forces[0].force.x() == Approx(expected));
  CHECK(frame.forces[0].force.y() == 0.0);
  // The torques are those of a plain virtual force of that size.
  VirtualForcePrimitive plain;
  plain.fx.value = expected;
  plain.link = kTrunk;
  plain.byJoint = kLeftAnkle;
  ControlFrame plainFrame;
  plainFrame.reset(angles);
  makePrimitive(plain, *scl::humanCharacter())->apply(state, 0.0, plainFrame);
  for (int j = 0; j < kBipedJointCount; ++j)
    CHECK(frame.addedTorque[j] == Approx(plainFrame.addedTorque[j]).margin(1e-9));
  CHECK(frame.addedTorque[kLeftKnee] != 0.0);
}

namespace {

// d/dtheta_j of the potential energy sum m_i g y_i over `links`, base held fixed.
double potentialGradient(const Angles& angles, int joint, int base, const std::vector<int>& links,
                         const std::vector<double>& shares) {
  constexpr double h = 1e-6;
  double gradient = 0.0;
  for (std::size_t k = 0; k < links.size(); ++k) {
    double dy = (comWithBaseFixed(angles, joint, h, base, links[k]).y() -
                 comWithBaseFixed(angles, joint, -h, base, links[k]).y()) /
                (2 * h);
    gradient += shares[k] * scl::humanCharacter()->links[links[k]].mass * kGravityAcceleration * dy;
  }
  return gradient;
}

ControlFrame applyGc(const GravityCompPrimitive& gc, const CharacterState& state) {
  auto primitive = makePrimitive(gc, *scl::humanCharacter());
  ControlFrame frame;
  frame.reset({});
  primitive->begin(state);
  primitive->apply(state, 0.0, frame);
  return frame;
}

}  // namespace

TEST_CASE("gravity compensation cancels the gradient of the potential energy", "[primitives][gc]") {
  std::mt19937 random(99);
  for (int pose = 0; pose < 3; ++pose) {
    Angles angles = randomPose(random);
    CharacterState state = forwardKinematics(*scl::humanCharacter(), Vec2(0.3, 1.1), 0.7, angles);

    SECTION("one foot planted: every other link through that foot") {
      state.links[kLeftFoot].contact = true;
      GravityCompPrimitive gc;
      gc.strength.value = 0.8;
      ControlFrame frame = applyGc(gc, state);
      std::vector<int> links;
      for (int i = 0; i < kBipedLinkCount; ++i)
        if (i != kLeftFoot) links.push_back(i);
      std::vector<double> shares(links.size(), 0.8);
      for (int j = 0; j < kBipedJointCount; ++j) {
        INFO("pose " << pose << " joint " << scl::humanCharacter()->joints[j].name);
        CHECK(frame.addedTorque[j] == Approx(potentialGradient(angles, j, kLeftFoot, links, shares))
                                          .epsilon(1e-6)
                                          .margin(1e-6));
      }
      CHECK(frame.forces.size() == kBipedLinkCount - 1);
    }
    SECTION("gc by a joint: the links on the head's side of it") {
      GravityCompPrimitive gc;
      gc.byJoint = kRightWrist;  // base: the right hand (e.g. planted on the ground)
      ControlFrame frame = applyGc(gc, state);
      std::vector<int> links;
      for (int i = 0; i < kBipedLinkCount; ++i)
        if (i != kRightHand) links.push_back(i);
      std::vector<double> shares(links.size(), 1.0);
      for (int j = 0; j < kBipedJointCount; ++j) {
        INFO("pose " << pose << " joint " << scl::humanCharacter()->joints[j].name);
        CHECK(frame.addedTorque[j] ==
              Approx(potentialGradient(angles, j, kRightHand, links, shares))
                  .epsilon(1e-6)
                  .margin(1e-6));
      }
    }
    SECTION("no foot in contact: nothing") {
      ControlFrame frame = applyGc(GravityCompPrimitive{}, state);
      for (double torque : frame.addedTorque) CHECK(torque == 0.0);
      CHECK(frame.forces.empty());
    }
  }
}

TEST_CASE("gravity compensation on two feet splits the upper body evenly", "[primitives][gc]") {
  GravityCompensationInstance gc(GravityCompPrimitive{}, *scl::humanCharacter());
  const auto& loads = gc.loads(true, true);
  std::array<double, kMaxLinks> carried{};
  for (const auto& load : loads) {
    carried[load.link] += load.share;
    // Leg links go through their own foot only.
    if (load.link == kLeftThigh || load.link == kLeftShank)
      CHECK(!load.chain.contains(kRightAnkle));
    if (load.link == kRightThigh || load.link == kRightShank)
      CHECK(!load.chain.contains(kLeftAnkle));
  }
  for (int i = 0; i < kBipedLinkCount; ++i) {
    INFO(scl::humanCharacter()->links[i].name);
    CHECK(carried[i] == (i == kLeftFoot || i == kRightFoot ? 0.0 : 1.0));
  }
  // Symmetric: in the standing pose the two ankles get mirror torques.
  const auto* standing = scl::humanCharacter()->findPose("standing");
  Angles angles{};
  for (int j = 0; j < kBipedJointCount; ++j) angles[j] = degToRad(standing->jointDeg[j]);
  CharacterState state = forwardKinematics(*scl::humanCharacter(), Vec2(0.0, 1.8), kPi / 2, angles);
  state.links[kLeftFoot].contact = state.links[kRightFoot].contact = true;
  ControlFrame frame = applyGc(GravityCompPrimitive{}, state);
  CHECK(frame.addedTorque[kLeftAnkle] == Approx(frame.addedTorque[kRightAnkle]));
  CHECK(frame.addedTorque[kLeftKnee] == Approx(frame.addedTorque[kRightKnee]));
  CHECK(frame.forces.size() == kBipedLinkCount - 2);
}
