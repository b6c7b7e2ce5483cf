// Centre-of-mass transitions (`when com QUANTITY < NUM`, docs/language.md, Transitions):
// the controller driven by built states (the frame, each quantity, `legs`, a moving
// platform), and simulated runs in which the phase changes on the step after the one whose
// recorded centre of mass met the condition.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "feature/support.h"
#include "runtime/controller.h"
#include "runtime/runner.h"
#include "tests/test_support.h"

using namespace scl;

namespace {

constexpr double kDt = 0.001;

JointTargets standingAngles() {
  const PoseDef* pose = humanCharacter()->findPose("standing");
  JointTargets angles{};
  for (int j = 0; j < kBipedJointCount; ++j) angles[j] = degToRad(pose->jointDeg[j]);
  return angles;
}

// The standing body with both feet down.
CharacterState standingState() {
  CharacterState state =
      forwardKinematics(*humanCharacter(), Vec2(0.0, 1.8), kPi / 2, standingAngles());
  for (int foot : {kLeftFoot, kRightFoot}) state.links[foot].contact = true;
  return state;
}

// `when com QUANTITY (< | >) VALUE` from "first" (no primitives) to "second".
Program comExit(ComQuantity quantity, bool above, double value, double scale = 1.0) {
  Program program;
  program.phases.resize(2);
  program.phases[0].name = "first";
  program.phases[1].name = "second";
  Transition exit;
  exit.hasContact = true;
  exit.com = true;
  exit.comQuantity = quantity;
  exit.comAbove = above;
  exit.comValue.value = value;
  exit.comScale = scale;
  exit.next = 1;
  program.phases[0].exit = exit;
  return program;
}

// Steps the controller with `state` changed by `set(state, i)` before step i (from 0, the
// step that begins the first phase); the step on which the second phase began, or -1.
int stepOfChange(const Program& program, CharacterState state,
                 const std::function<void(CharacterState&, int)>& set, int steps = 1000) {
  Controller controller(program, standingAngles());
  for (int i = 0; i < steps; ++i) {
    set(state, i);
    if (controller.step(state, kDt).phase == 1) return i;
  }
  return -1;
}

// The origin of a phase's frame without `[support]`: the middle of the touching feet's soles.
Vec2 frameOrigin(const CharacterState& state) {
  return supportFeetMiddle(*humanCharacter(), supportSetOf({}), state);
}

double meanLegLength() {
  const Character& human = *humanCharacter();
  return 0.5 * (human.legLength(0) + human.legLength(1));
}

}  // namespace

TEST_CASE("when com: each quantity in the frame of the feet, checked every step",
          "[controller][transition]") {
  const CharacterState start = standingState();
  const Vec2 origin = frameOrigin(start);
  // The soles' middle lies between the feet, just above the ground under them.
  CHECK(origin.x() > start.links[kLeftFoot].origin.x());
  CHECK(origin.y() == Approx(start.links[kLeftFoot].com.y()).margin(0.03));
  SECTION("x: ahead of the origin, not of the world's") {
    // 0.5 mm more each step, from 0.25 mm: past 5 cm on step 100.
    const auto ahead = [&](CharacterState& state, int i) {
      state.com = origin + Vec2(0.0005 * i + 0.00025, 1.0);
    };
    CHECK(stepOfChange(comExit(ComQuantity::X, true, 0.05), start, ahead) == 100);
    CHECK(stepOfChange(comExit(ComQuantity::X, false, 0.05), start, ahead) == 1);
  }
  SECTION("y and vy: the height above the origin, the velocity up") {
    const auto falling = [&](CharacterState& state, int i) {
      state.com = origin + Vec2(0.0, 1.0 - 0.001 * i);
      state.comVelocity = Vec2(0.0, 1.05 - 0.1 * i);
    };
    CHECK(stepOfChange(comExit(ComQuantity::Vy, false, 0.0), start, falling) == 11);
    CHECK(stepOfChange(comExit(ComQuantity::Y, false, 0.9995), start, falling) == 1);
    CHECK(stepOfChange(comExit(ComQuantity::Y, false, 0.9), start, falling) == 101);
  }
  SECTION("capture: x + vx sqrt(y / g), in leg lengths") {
    const double legs = meanLegLength();
    const auto speeding = [&](CharacterState& state, int i) {
      state.com = origin + Vec2(0.0, 1.0);
      state.comVelocity = Vec2(0.01 * i + 0.005, 0.0);
    };
    // 0.2 leg lengths of capture point: vx = 0.2 L sqrt(g / 1 m).
    const int expected = static_cast<int>(std::ceil((0.2 * legs * std::sqrt(9.81) - 0.005) / 0.01));
    CHECK(stepOfChange(comExit(ComQuantity::Capture, true, 0.2, legs), start, speeding) ==
          expected);
    // Below the origin the height counts as 0: the capture point is x alone.
    const auto low = [&](CharacterState& state, int i) {
      state.com = origin + Vec2(0.001 * i + 0.0005, -0.5);
      state.comVelocity = Vec2(5.0, 0.0);
    };
    CHECK(stepOfChange(comExit(ComQuantity::Capture, true, 0.05), start, low) == 50);
  }
}

TEST_CASE("when com: the frame rides with what the feet stand on", "[controller][transition]") {
  // The feet on a platform moving forward at 1 m/s; the centre of mass still in the world.
  CharacterState start = standingState();
  for (int foot : {kLeftFoot, kRightFoot}) start.links[foot].supportVelocity = Vec2(1.0, 0.0);
  const Vec2 origin = frameOrigin(start);
  const auto still = [&](CharacterState& state, int) {
    state.com = origin + Vec2(0.0, 1.0);
    state.comVelocity = Vec2(1.0, 0.0);
  };
  // Moving with the platform, it has no velocity in the frame.
  CHECK(stepOfChange(comExit(ComQuantity::Vx, true, 0.5), start, still, 300) == -1);
  CHECK(stepOfChange(comExit(ComQuantity::Vx, false, 0.5), start, still) == 1);
  // Its own velocity zero in the world, the frame leaves it behind at 1 m/s: 10.05 cm back
  // once the frame has moved on 101 steps (from step 1, when it takes the platform's
  // velocity, as the features' frame does).
  const auto left = [&](CharacterState& state, int) {
    state.com = origin + Vec2(0.0, 1.0);
    state.comVelocity = Vec2::Zero();
  };
  CHECK(stepOfChange(comExit(ComQuantity::X, false, -0.1005), start, left) == 102);
}

TEST_CASE("when com vy < 0 ends a jump's rise at the first step the centre of mass falls",
          "[controller][transition][simulation]") {
  // scripts/jump.scl with its flight split at the apex.
  std::string script = testing::readWholeTextFile(SCL_SOURCE_DIR "/scripts/jump.scl");
  const std::string landing = "when contact any feet or after 0.8\n{\n  (land)";
  const size_t at = script.find(landing);
  REQUIRE(at != std::string::npos);
  script.replace(at, landing.size(), "when com vy < 0 or after 0.8\n{\n  (fall)\n}\n" + landing);
  const Program program = testing::compileOk(script, "jump.scl");
  const int flight = 3, fall = 4;
  REQUIRE(program.phases[flight].name == "flight");
  REQUIRE(program.phases[fall].name == "fall");
  Runner runner(program, simulationDefFor(program));
  std::vector<StepReport> reports;
  while (runner.time() < 3.0) reports.push_back(runner.step());
  // The flight's first step, and the first step of it (or after) whose outcome falls.
  size_t began = 0;
  while (began < reports.size() && reports[began].phase != flight) ++began;
  REQUIRE(began < reports.size());
  size_t falling = began;
  double fastest = 0.0;
  while (falling < reports.size() && reports[falling].comVelocity.y() >= 0.0)
    fastest = std::max(fastest, reports[falling++].comVelocity.y());
  REQUIRE(falling + 1 < reports.size());
  CHECK(fastest > 1.0);  // it rose
  for (size_t k = began; k <= falling; ++k) REQUIRE(reports[k].phase == flight);
  const StepReport& next = reports[falling + 1];
  CHECK(next.phase == fall);
  CHECK(next.phaseStarted);
  CHECK_FALSE(next.phaseTimedOut);
}

TEST_CASE("when com x > D ends a lean toward a [com] target once the centre of mass passed D",
          "[controller][transition][simulation]") {
  // The features' frame: its origin is the [com] target's less the written offset.
  const Program program = testing::compileOk(
      "scene pose: standing duration: 3\n"
      "{\n  (lean)\n  [com (0.06, 1.1) kp 60 kd 15]\n}\n"
      "when com x > 0.03 or after 2\n"
      "{\n  (hold)\n  [com (0.06, 1.1) kp 60 kd 15]\n}\n");
  Runner runner(program, simulationDefFor(program));
  std::vector<double> ahead;  // the centre of mass from the origin after each lean step
  bool moved = false;
  while (runner.time() < 2.5) {
    const StepReport& report = runner.step();
    if (report.phase == 1) {
      REQUIRE(report.phaseStarted);
      CHECK_FALSE(report.phaseTimedOut);
      moved = true;
      break;
    }
    const Vec2 origin = runner.controller().output().comTarget - Vec2(0.06, 1.1);
    ahead.push_back(report.com.x() - origin.x());
  }
  REQUIRE(moved);
  REQUIRE(ahead.size() >= 2);
  CHECK(ahead.front() < 0.0);  // it began behind the middle of the feet
  // The step before the change is the first whose outcome had passed 3 cm.
  CHECK(ahead.back() > 0.03);
  for (size_t k = 0; k + 1 < ahead.size(); ++k) CHECK(ahead[k] <= 0.03);
}

TEST_CASE("when com x > D without features: the frame is placed by the feet that touch",
          "[controller][transition][simulation]") {
  // The quiet stance pushed forward at the trunk; the phase has PD targets only.
  const Program program = testing::compileOk(
      "scene pose: standing duration: 3\n"
      "{\n  (stand)\n  [relax ankles strength 0.1]\n  [vf sb(600, 300) on: trunk, by: leftAnkle]\n"
      "  [symm]\n  [gc]\n}\n"
      "when com x > 0.0 or after 2\n"
      "{\n  (caught)\n}\n");
  Runner runner(program, simulationDefFor(program));
  const Vec2 origin = frameOrigin(runner.state());  // as the phase's first step sees it
  std::vector<double> ahead;
  bool moved = false;
  while (runner.time() < 2.5) {
    runner.simulation().addExternalForce(
        {kTrunk, Vec2(60.0, 0.0), runner.state().links[kTrunk].com});
    const StepReport& report = runner.step();
    if (report.phase == 1) {
      CHECK_FALSE(report.phaseTimedOut);
      moved = true;
      break;
    }
    ahead.push_back(report.com.x() - origin.x());
  }
  REQUIRE(moved);
  REQUIRE(ahead.size() >= 2);
  CHECK(ahead.back() > 0.0);
  for (size_t k = 0; k + 1 < ahead.size(); ++k) CHECK(ahead[k] <= 0.0);
}
