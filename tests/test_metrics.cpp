// Motion metrics of docs/marks.md on synthetic state sequences.
#include <catch2/catch.hpp>

#include "runtime/metrics.h"

using namespace scl;

namespace {

CharacterState standingState(double time) {
  std::array<double, kMaxJoints> joints{};
  joints[kLeftAnkle] = joints[kRightAnkle] = degToRad(86.45);
  CharacterState state =
      forwardKinematics(*scl::humanCharacter(), Vec2(0.0, 1.79), degToRad(90), joints);
  state.time = time;
  state.links[kLeftFoot].terrainContact = state.links[kRightFoot].terrainContact = true;
  return state;
}

CharacterState lyingState(double time) {
  std::array<double, kMaxJoints> joints{};
  CharacterState state =
      forwardKinematics(*scl::humanCharacter(), Vec2(0.0, 0.15), degToRad(180), joints);
  state.time = time;
  state.links[kTrunk].terrainContact = true;
  return state;
}

constexpr double kDt = 0.01;
const std::array<double, kMaxJoints> kNoTorque{};

}  // namespace

TEST_CASE("standing needs a second with only the feet down, head up and trunk upright") {
  MotionMetrics metrics;
  double t = 0.0;
  for (; t < 0.5; t += kDt) metrics.observe(lyingState(t), kNoTorque, kDt, 0);
  CHECK_FALSE(metrics.summary().standing);
  for (; t < 1.2; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 1);
  CHECK_FALSE(metrics.summary().standing);  // feet alone for only 0.7 s
  for (; t < 1.6; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 1);
  CHECK(metrics.summary().standing);
  REQUIRE(metrics.summary().firstStanding);
  CHECK(*metrics.summary().firstStanding == Approx(1.5).margin(0.02));
  REQUIRE(metrics.summary().riseTime);
  CHECK(*metrics.summary().riseTime == Approx(0.5).margin(0.02));
  CHECK(metrics.summary().phaseChanges == 1);
  CHECK_FALSE(metrics.summary().fell);

  // Sitting down on the ground after standing counts as a fall.
  metrics.observe(lyingState(t), kNoTorque, kDt, 1);
  CHECK_FALSE(metrics.summary().standing);
  REQUIRE(metrics.summary().fell);
}

TEST_CASE("a tilted trunk or a low head is not standing") {
  MotionMetrics metrics;
  for (double t = 0.0; t < 2.0; t += kDt) {
    CharacterState state = standingState(t);
    state.links[kTrunk].angle = degToRad(90 + 25);
    metrics.observe(state, kNoTorque, kDt, 0);
  }
  CHECK_FALSE(metrics.summary().standing);
}

// Standing on feet with the toes 60° up (the ankles at their limits, on the heels) is not
// standing: the feet must lie roughly flat.
TEST_CASE("standing needs the feet that touch roughly flat") {
  const MetricsDef def = metricsFor(*humanCharacter());
  REQUIRE(def.feet.size() == 2);
  MotionMetrics flat(def), onHeels(def), withoutFeet;
  for (double t = 0.0; t < 1.5; t += kDt) {
    flat.observe(standingState(t), kNoTorque, kDt, 0);
    CharacterState heels = standingState(t);
    for (int foot : {kLeftFoot, kRightFoot}) heels.links[foot].angle += degToRad(60);
    onHeels.observe(heels, kNoTorque, kDt, 0);
    withoutFeet.observe(heels, kNoTorque, kDt, 0);  // no feet given: not checked
  }
  CHECK(flat.summary().standing);
  CHECK_FALSE(onHeels.summary().standing);
  CHECK(withoutFeet.summary().standing);
  // The flat foot's heel and toe are on the ground (the lowest points of its caps).
  const FootPoints points = footPoints(*humanCharacter(), standingState(0), kLeftFoot);
  CHECK(points.heel.y() == Approx(points.toe.y()).margin(0.005));
  CHECK(points.toe.x() > points.heel.x());
}

// A scene with a chair allows sitting on it: the thighs on the seat after standing are no
// fall, anything else still is.
TEST_CASE("sitting back down on the scene's chair is no fall") {
  Scene scene;
  scene.pose = "sitting";
  scene.bodies = environmentBodies(Environment::Chair, {});
  const MetricsDef def = metricsFor(*humanCharacter(), scene);
  REQUIRE(def.seatHeight);
  const auto seated = [&](double time, double contactHeight) {
    CharacterState state = standingState(time);
    for (int thigh : {kLeftThigh, kRightThigh}) {
      LinkState& link = state.links[thigh];
      link.terrainContact = true;
      link.contactPointCount = 1;
      link.contactPoints[0] = Vec2(0.1, contactHeight);
    }
    state.jointPositions[kNeckTop].y() = 1.3;  // head lowered, seated
    return state;
  };
  MotionMetrics onChair(def), noChair(metricsFor(*humanCharacter())), offSeat(def);
  double t = 0.0;
  for (; t < 1.5; t += kDt)
    for (MotionMetrics* metrics : {&onChair, &noChair, &offSeat})
      metrics->observe(standingState(t), kNoTorque, kDt, 0);
  REQUIRE(onChair.summary().firstStanding);
  for (; t < 2.5; t += kDt) {
    onChair.observe(seated(t, *def.seatHeight), kNoTorque, kDt, 1);
    noChair.observe(seated(t, *def.seatHeight), kNoTorque, kDt, 1);
    offSeat.observe(seated(t, *def.seatHeight - 0.2), kNoTorque, kDt, 1);  // below the seat
  }
  CHECK_FALSE(onChair.summary().fell);
  CHECK_FALSE(onChair.summary().standing);  // sitting is not standing
  CHECK(noChair.summary().fell);
  CHECK(offSeat.summary().fell);
}

TEST_CASE("airborne time, pelvis height in the air, energy and distance") {
  MotionMetrics metrics;
  std::array<double, kMaxJoints> torques{};
  torques[kWaist] = 10.0;
  torques[kLeftKnee] = -20.0;
  double t = 0.0;
  for (int i = 0; i < 10; ++i, t += kDt) metrics.observe(standingState(t), torques, kDt, 0);
  for (int i = 0; i < 30; ++i, t += kDt) {
    CharacterState state = standingState(t);
    state.links[kLeftFoot].terrainContact = state.links[kRightFoot].terrainContact = false;
    for (LinkState& link : state.links) link.com += Vec2(0.01 * i, 0.002 * i);
    metrics.observe(state, torques, kDt, 0);
  }
  const MotionSummary& s = metrics.summary();
  CHECK(s.airborneTime == Approx(0.30).margin(1e-9));
  REQUIRE(s.maxAirbornePelvisHeight);
  CHECK(*s.maxAirbornePelvisHeight == Approx(standingState(0).links[kPelvis].com.y() + 0.058));
  CHECK(s.energy == Approx(40 * kDt * (100.0 + 400.0)));
  CHECK(s.distance == Approx(0.29));
}

TEST_CASE("a walk is meant to be upright from the start") {
  MetricsDef def;
  def.uprightFromStart = true;
  MotionMetrics metrics(def);
  CharacterState state = standingState(0.0);
  state.links[kLeftHand].terrainContact = true;  // a hand touching is not a fall
  metrics.observe(state, kNoTorque, kDt, 0);
  CHECK_FALSE(metrics.summary().fell);
  state.links[kLeftShank].terrainContact = true;
  metrics.observe(state, kNoTorque, kDt, 0);
  CHECK(metrics.summary().fell);
}

TEST_CASE("standing since: the start of the standing that lasts to the end") {
  MotionMetrics metrics;
  double t = 0.0;
  for (; t < 0.5 - 1e-9; t += kDt) metrics.observe(lyingState(t), kNoTorque, kDt, 0);
  CHECK_FALSE(metrics.summary().standingSince);
  for (; t < 2.0 - 1e-9; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 1);
  REQUIRE(metrics.summary().standing);
  REQUIRE(metrics.summary().firstStanding);
  REQUIRE(metrics.summary().standingSince);
  CHECK(*metrics.summary().standingSince == Approx(1.5).margin(0.02));
  CHECK(*metrics.summary().standingSince == *metrics.summary().firstStanding);

  // It bends over (trunk far from upright, nothing but the feet touching): not standing.
  for (; t < 2.5 - 1e-9; t += kDt) {
    CharacterState state = standingState(t);
    state.links[kTrunk].angle = degToRad(90 + 45);
    metrics.observe(state, kNoTorque, kDt, 1);
  }
  CHECK_FALSE(metrics.summary().standing);
  CHECK_FALSE(metrics.summary().standingSince);
  CHECK(*metrics.summary().firstStanding == Approx(1.5).margin(0.02));

  // Upright again: standing at once (only the feet touched throughout), since 2.5 s.
  for (; t < 3.5 - 1e-9; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 1);
  REQUIRE(metrics.summary().standing);
  REQUIRE(metrics.summary().standingSince);
  CHECK(*metrics.summary().standingSince == Approx(2.5).margin(0.02));
  CHECK(*metrics.summary().firstStanding == Approx(1.5).margin(0.02));
  CHECK_FALSE(metrics.summary().fell);
}

TEST_CASE("rise time: none for a motion that starts with the head up") {
  SECTION("standing from the start") {
    MotionMetrics metrics;
    REQUIRE(MotionMetrics::headHeight(*humanCharacter(), standingState(0.0)) >=
            MetricsDef{}.riseHeadHeight);
    for (double t = 0.0; t < 2.0; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 0);
    CHECK(metrics.summary().standing);
    CHECK_FALSE(metrics.summary().riseTime);
  }
  SECTION("the head exactly at the threshold at the start") {
    MetricsDef def;
    def.riseHeadHeight = MotionMetrics::headHeight(*humanCharacter(), standingState(0.0));
    MotionMetrics metrics(def);
    for (double t = 0.0; t < 0.5; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 0);
    CHECK_FALSE(metrics.summary().riseTime);
  }
  SECTION("starting low and rising: the first time the head is that high") {
    MotionMetrics metrics;
    REQUIRE(MotionMetrics::headHeight(*humanCharacter(), lyingState(0.0)) <
            MetricsDef{}.riseHeadHeight);
    double t = 0.0;
    for (; t < 0.3 - 1e-9; t += kDt) metrics.observe(lyingState(t), kNoTorque, kDt, 0);
    CHECK_FALSE(metrics.summary().riseTime);
    for (; t < 1.0 - 1e-9; t += kDt) metrics.observe(standingState(t), kNoTorque, kDt, 1);
    REQUIRE(metrics.summary().riseTime);
    CHECK(*metrics.summary().riseTime == Approx(0.3).margin(0.02));
  }
}

TEST_CASE("longest airborne interval, farthest travel and the links that touched") {
  MotionMetrics metrics;
  double t = 0.0;
  // On the ground, 3 steps in the air, back down, 5 steps in the air, down again.
  const int pattern[] = {0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0};
  int i = 0;
  for (int airborne : pattern) {
    t += kDt;
    CharacterState state = standingState(t);
    if (airborne)
      state.links[kLeftFoot].terrainContact = state.links[kRightFoot].terrainContact = false;
    // Forward 0.1 m per step for 6 steps, then back.
    const double x = 0.1 * (i < 6 ? i : 12 - i);
    for (LinkState& link : state.links) link.com.x() += x;
    if (i == 11) state.links[kLeftShank].terrainContact = true;
    metrics.observe(state, kNoTorque, kDt, 0);
    ++i;
  }
  const MotionSummary& s = metrics.summary();
  CHECK(s.airborneTime == Approx(8 * kDt));
  CHECK(s.longestAirborne == Approx(5 * kDt));
  CHECK(s.farthest == Approx(0.6));
  CHECK(s.distance == Approx(0.1));
  CHECK(s.touched[kLeftFoot]);
  CHECK(s.touched[kLeftShank]);
  CHECK_FALSE(s.touched[kRightShank]);
  CHECK_FALSE(s.touched[kHead]);
}

TEST_CASE("the scene bodies each link touched, and touches at the end") {
  MotionMetrics metrics;
  // Bodies 0 (the ground) and 2 under the feet, then the left foot on body 2 alone; a ball
  // (body 3) at the trunk for one step.
  for (int i = 0; i < 4; ++i) {
    CharacterState state = standingState((i + 1) * kDt);
    state.links[kLeftFoot].touching = i < 2 ? 0b101 : 0b100;
    state.links[kRightFoot].touching = 0b1;
    if (i == 1) state.links[kTrunk].touching = 0b1000;
    metrics.observe(state, kNoTorque, kDt, 0);
  }
  const MotionSummary& s = metrics.summary();
  CHECK(s.touchedBodies[kLeftFoot] == 0b101);
  CHECK(s.touchedBodies[kRightFoot] == 0b1);
  CHECK(s.touchedBodies[kTrunk] == 0b1000);
  CHECK(s.touchingAtEnd[kLeftFoot] == 0b100);
  CHECK(s.touchingAtEnd[kTrunk] == 0);
  CHECK_FALSE(s.touched[kTrunk]);  // a movable object's touch is no terrain contact
  CHECK_FALSE(s.fell);
}

TEST_CASE("metrics for a scene: upright from the start only when it starts standing") {
  Scene scene;
  scene.pose = "standing";
  CHECK(metricsFor(*humanCharacter(), scene).uprightFromStart);
  scene.pose = "sitting";
  scene.bodies = environmentBodies(Environment::Chair, {});
  const MetricsDef sitting = metricsFor(*humanCharacter(), scene);
  CHECK_FALSE(sitting.uprightFromStart);
  CHECK(sitting.standingHeadHeight == metricsFor(*humanCharacter()).standingHeadHeight);
}
