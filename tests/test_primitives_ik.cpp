// IK, PD and relax primitives against analytic expectations (no physics).
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "primitives/ik_primitive.h"
#include "primitives/pd_primitive.h"
#include "primitives/primitive.h"
#include "scl/character.h"

using namespace scl;

namespace {

using Angles = std::array<double, kMaxJoints>;
const Vec2 kHeadOrigin(0.0, 1.8);

Angles poseAngles(const char* name) {
  const PoseDef* pose = scl::humanCharacter()->findPose(name);
  Angles angles{};
  for (int j = 0; j < kBipedJointCount; ++j) angles[j] = degToRad(pose->jointDeg[j]);
  return angles;
}

CharacterState standingState(const Angles& angles) {
  return forwardKinematics(*scl::humanCharacter(), kHeadOrigin, kPi / 2, angles);
}

// Runs the primitive's drives through forward kinematics: the pose the PD targets ask for
// with the head (and so every base joint) held where it is.
CharacterState poseFromTargets(const ControlFrame& frame) {
  return forwardKinematics(*scl::humanCharacter(), kHeadOrigin, kPi / 2, frame.target);
}

Number num(double value) { return Number{value}; }

}  // namespace

TEST_CASE("limb chains of the IK effectors", "[primitives][ik]") {
  LimbChain arm = limbChain(*scl::humanCharacter(), kLeftWrist);
  CHECK(arm.baseJoint == kLeftShoulder);
  CHECK(arm.middleJoint == kLeftElbow);
  CHECK(arm.upperLink == kLeftArm);
  CHECK(arm.upperLength == Approx(0.32));
  CHECK(arm.lowerLength == Approx(0.32));
  CHECK(arm.bendSign == 1.0);
  LimbChain leg = limbChain(*scl::humanCharacter(), kRightAnkle);
  CHECK(leg.baseJoint == kRightHip);
  CHECK(leg.middleJoint == kRightKnee);
  CHECK(leg.upperLength == Approx(0.50));
  CHECK(leg.lowerLength == Approx(0.48));
  CHECK(leg.bendSign == -1.0);
  CHECK_THROWS_AS(limbChain(*scl::humanCharacter(), kLeftKnee), std::invalid_argument);
}

TEST_CASE("two-link IK reaches reachable targets, bending elbows + and knees -",
          "[primitives][ik]") {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Angles angles = poseAngles("standing");
  for (int effector : {kLeftWrist, kRightWrist, kLeftAnkle, kRightAnkle}) {
    LimbChain limb = limbChain(*scl::humanCharacter(), effector);
    for (int trial = 0; trial < 50; ++trial) {
      CharacterState state = standingState(angles);
      Vec2 base = state.jointPositions[limb.baseJoint];
      double reach = limb.upperLength + limb.lowerLength;
      Vec2 offset(unit(random), unit(random));
      offset *= (0.3 + 0.65 * std::abs(unit(random))) * reach / std::max(offset.norm(), 1e-3);
      Vec2 target = base + offset;
      TwoLinkSolution solution =
          solveTwoLink(limb, base, target, state.links[limb.upperLink].angle);
      INFO(scl::humanCharacter()->joints[effector].name << " trial " << trial);
      REQUIRE(solution.reachable);
      CHECK(solution.middleAngle * limb.bendSign >= 0.0);
      Angles solved = angles;
      solved[limb.baseJoint] =
          solution.upperAngle -
          state.links[scl::humanCharacter()->joints[limb.baseJoint].parentLink].angle;
      solved[limb.middleJoint] = solution.middleAngle;
      CharacterState reached = standingState(solved);
      CHECK((reached.jointPositions[effector] - target).norm() < 0.01);
      CHECK((reached.jointPositions[effector] - target).norm() < 1e-9);
      // Among the 2π-equivalent answers, the one nearest the current angle.
      CHECK(std::abs(solution.upperAngle - state.links[limb.upperLink].angle) <= kPi + 1e-12);
    }
  }
}

TEST_CASE("two-link IK stretches straight toward an unreachable target", "[primitives][ik]") {
  Angles angles = poseAngles("standing");
  CharacterState state = standingState(angles);
  LimbChain leg = limbChain(*scl::humanCharacter(), kLeftAnkle);
  Vec2 base = state.jointPositions[kLeftHip];
  Vec2 target = base + Vec2(1.5, -2.0);
  TwoLinkSolution solution = solveTwoLink(leg, base, target, state.links[kLeftThigh].angle);
  CHECK_FALSE(solution.reachable);
  CHECK(solution.middleAngle == 0.0);
  Angles solved = angles;
  solved[kLeftHip] = solution.upperAngle - state.links[kPelvis].angle;
  solved[kLeftKnee] = 0.0;
  CharacterState reached = standingState(solved);
  Vec2 direction = (target - base).normalized();
  Vec2 ankle = reached.jointPositions[kLeftAnkle] - base;
  CHECK(ankle.norm() == Approx(0.98));
  CHECK(ankle.normalized().isApprox(direction, 1e-12));
}

TEST_CASE("the IK primitive follows its targets piecewise linearly", "[primitives][ik]") {
  Angles angles = poseAngles("standing");
  angles[kRightHip] = degToRad(20);
  angles[kRightKnee] = degToRad(-40);
  CharacterState state = standingState(angles);
  IkPrimitive ik;
  ik.targets = {{num(0.25), num(0.30)}, {num(0.20), num(0.10)}};
  ik.effectors = {kRightAnkle};
  ik.relJoint = kLeftAnkle;
  ik.duration = num(0.4);
  IkInstance instance(ik, *scl::humanCharacter());
  instance.begin(state);
  Vec2 reference = state.jointPositions[kLeftAnkle];
  Vec2 start = state.jointPositions[kRightAnkle];
  Vec2 first = reference + Vec2(0.25, 0.30), second = reference + Vec2(0.20, 0.10);
  CHECK(instance.effectorTarget(0, 0.0).isApprox(start));
  CHECK(instance.effectorTarget(0, 0.1).isApprox(0.5 * (start + first)));
  CHECK(instance.effectorTarget(0, 0.2).isApprox(first));
  CHECK(instance.effectorTarget(0, 0.3).isApprox(0.5 * (first + second)));
  CHECK(instance.effectorTarget(0, 0.4).isApprox(second));
  CHECK(instance.effectorTarget(0, 9.0).isApprox(second));

  // The drives put the ankle on the target (the hip stays where it is: the head is fixed).
  for (double t : {0.1, 0.2, 0.3, 0.4}) {
    ControlFrame frame;
    frame.reset(angles);
    instance.apply(state, t, frame);
    CHECK(frame.mode[kRightHip] == DriveMode::Track);
    CHECK(frame.target[kRightKnee] <= 0.0);
    CharacterState reached = poseFromTargets(frame);
    CHECK((reached.jointPositions[kRightAnkle] - instance.effectorTarget(0, t)).norm() < 0.01);
    // Other joints keep their defaults.
    CHECK(frame.target[kLeftHip] == angles[kLeftHip]);
  }
}

TEST_CASE("an IK group places both effectors at the same offsets", "[primitives][ik]") {
  Angles angles = poseAngles("standing");
  angles[kLeftShoulder] = degToRad(40);
  CharacterState state = standingState(angles);
  IkPrimitive ik;
  ik.targets = {{num(0.30), num(0.25)}};
  ik.effectors = {kLeftWrist, kRightWrist};
  ik.relJoint = kLeftHip;
  IkInstance instance(ik, *scl::humanCharacter());  // no time: the target jumps
  instance.begin(state);
  Vec2 target = state.jointPositions[kLeftHip] + Vec2(0.30, 0.25);
  CHECK(instance.effectorTarget(0, 0.0).isApprox(target));
  CHECK(instance.effectorTarget(1, 0.0).isApprox(target));
  ControlFrame frame;
  frame.reset(angles);
  instance.apply(state, 0.0, frame);
  CharacterState reached = poseFromTargets(frame);
  CHECK((reached.jointPositions[kLeftWrist] - target).norm() < 0.01);
  CHECK((reached.jointPositions[kRightWrist] - target).norm() < 0.01);
  CHECK(frame.target[kLeftElbow] >= 0.0);
  CHECK(frame.target[kRightElbow] >= 0.0);

  // Without rel: each effector from its own shoulder.
  ik.relJoint = -1;
  IkInstance own(ik, *scl::humanCharacter());
  own.begin(state);
  CHECK(
      own.effectorTarget(0, 0.0).isApprox(state.jointPositions[kLeftShoulder] + Vec2(0.30, 0.25)));
  CHECK(
      own.effectorTarget(1, 0.0).isApprox(state.jointPositions[kRightShoulder] + Vec2(0.30, 0.25)));
}

TEST_CASE("PD targets: local, child and parent frames, with and without time", "[primitives][pd]") {
  Angles angles = poseAngles("standing");
  angles[kWaist] = degToRad(10);
  CharacterState start = standingState(angles);
  PdPrimitive pd;
  pd.targets = {{kWaist, num(degToRad(50)), TargetFrame::Local},
                {kLeftAnkle, num(degToRad(180)), TargetFrame::Child},
                {kNeckTop, num(degToRad(80)), TargetFrame::Parent}};
  pd.duration = num(1.0);
  PdInstance instance(pd, *scl::humanCharacter());
  instance.begin(start);

  // Later in the phase the body has moved: child/parent targets follow the other link.
  Angles later = angles;
  later[kLeftKnee] = degToRad(-30);
  later[kNeckTop] = degToRad(5);
  CharacterState now = standingState(later);
  for (double t : {0.0, 0.25, 0.5, 1.0, 2.0}) {
    ControlFrame frame;
    frame.reset(angles);
    instance.apply(now, t, frame);
    double s = std::min(t, 1.0);
    CHECK(frame.target[kWaist] == Approx(degToRad(10) + s * degToRad(40)));
    double footWorld0 = start.links[kLeftFoot].angle;
    CHECK(frame.target[kLeftAnkle] ==
          Approx(footWorld0 + s * (degToRad(180) - footWorld0) - now.links[kLeftShank].angle));
    double headWorld0 = start.links[kHead].angle;
    CHECK(frame.target[kNeckTop] ==
          Approx(now.links[kNeck].angle - (headWorld0 + s * (degToRad(80) - headWorld0))));
  }
  // time: 0 (or none) jumps at once.
  pd.duration = num(0.0);
  PdInstance jump(pd, *scl::humanCharacter());
  jump.begin(start);
  ControlFrame frame;
  frame.reset(angles);
  jump.apply(start, 0.0, frame);
  CHECK(frame.target[kWaist] == Approx(degToRad(50)));
}

TEST_CASE("relax sets the target to the current angle and keeps its strength",
          "[primitives][relax]") {
  Angles angles = poseAngles("standing");
  angles[kLeftElbow] = 0.7;
  CharacterState state = standingState(angles);
  RelaxPrimitive relax;
  relax.joints = {kLeftElbow, kRightElbow};
  relax.strength = num(0.3);
  auto primitive = makePrimitive(relax, *scl::humanCharacter());
  ControlFrame frame;
  frame.reset(JointTargets{});
  frame.track(kLeftElbow, 1.5);
  primitive->apply(state, 0.0, frame);
  CHECK(frame.mode[kLeftElbow] == DriveMode::Relax);
  CHECK(frame.target[kLeftElbow] == Approx(0.7));
  CHECK(frame.relaxStrength[kRightElbow] == 0.3);
  CHECK(frame.mode[kLeftKnee] == DriveMode::Track);
  // A later PD item takes the joint back.
  frame.track(kLeftElbow, 1.5);
  CHECK(frame.mode[kLeftElbow] == DriveMode::Track);
}
