// `[swing]` (docs/features.md, Swing): the swing foot rises by its lift on the way, lands
// at its landing point, and the landing point moves with the centre of mass by the
// feedback gains; the feature walk built on it (scripts/feature-walk.scl) walks on after a
// push; and `[support FOOT toe]` lets the heel rise (Heel and toe).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "feature/feature_math.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "scl/compile.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

using namespace scl;

namespace {

// Stance balance for 1.5 s (the standing pose starts with the centre of mass over the
// heels), then `phase`, to 3 s.
std::string afterSettling(const std::string& phase) {
  return "scene pose: standing env: flat duration: 3\n"
         "{\n"
         "  (settle)\n"
         "  [necks 0, waist 0, hips 0, knees 0 time: 0.5]\n"
         "  [relax ankles strength 0.1]\n"
         "  [vf sb(600, 300) on: trunk, by: leftAnkle]\n"
         "  [symm]\n"
         "  [gc]\n"
         "}\n"
         "after 1.5\n"
         "{\n" +
         phase + "}\n";
}

// After settling, the left foot stands and the right swings to `swing`'s landing point;
// the centre of mass is held at `com` from the left foot.
std::string swingScript(const std::string& swing, const std::string& com = "(0, 1.15)") {
  return afterSettling(
      "  (swing)\n"
      "  [necks 0, waist 0, hips 0, leftKnee -10, rightKnee -40, shoulders 0, elbows 10]\n"
      "  [support leftFoot]\n"
      "  [com " +
      com +
      " kp 60 kd 15 time: 0.3]\n"
      "  [track trunk standing weight 0.5]\n"
      "  [" +
      swing +
      "]\n"
      "  [posture]\n");
}

// A run of `program` as its script says (scene, length), pushed by `pushes`.
RunSessionDef runOf(const Program& program, std::vector<Push> pushes = {}) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length = defaultRunLength(program);
  def.metrics = metricsFor(*program.character);
  def.pushes = std::move(pushes);
  return def;
}

// The middle of a foot's sole, world metres (the point a swing moves).
Vec2 soleMiddle(const Character& character, const CharacterState& state, int foot) {
  const LinkDef& link = character.links[foot];
  const LinkState& at = state.links[foot];
  const Vec2 local(0.5 * link.axisSign * link.length, 0.0);
  return at.origin + Vec2(std::cos(at.angle) * local.x() - std::sin(at.angle) * local.y(),
                          std::sin(at.angle) * local.x() + std::cos(at.angle) * local.y());
}

struct SwingRun {
  double highest = -1.0;       // the right sole's greatest rise over its start, metres
  Vec2 landed = Vec2::Zero();  // where it first touched again, from the left sole's middle
  double comAhead = 0.0;       // the centre of mass ahead of the left sole then, metres
  bool touchedDown = false;
  bool fell = true;
};

SwingRun runSwing(const std::string& source) {
  const Program program = scl::testing::compileOk(source, "swing.scl");
  const Character& character = *program.character;
  RunSession session(program, runOf(program));
  SwingRun out;
  Vec2 start = Vec2::Zero(), origin = Vec2::Zero();
  bool swinging = false, lifted = false;
  session.run([&](const StepView& step) {
    if (step.phaseName != "swing" || out.touchedDown) return;
    const Vec2 sole = soleMiddle(character, step.state, kRightFoot);
    if (!swinging) {
      swinging = true;
      start = sole;
      origin = soleMiddle(character, step.state, kLeftFoot);
    }
    out.highest = std::max(out.highest, sole.y() - start.y());
    const bool touching = step.state.links[kRightFoot].contact;
    lifted |= !touching;
    if (lifted && touching) {
      out.touchedDown = true;
      out.landed = sole - origin;
      out.comAhead = step.state.com.x() - origin.x();
    }
  });
  out.fell = session.summary().fell.has_value();
  return out;
}

}  // namespace

TEST_CASE("a swing lifts the foot by its lift and lands it at its landing point", "[swing]") {
  const SwingRun lifted =
      runSwing(swingScript("swing rightFoot (0.3, 0) lift: 0.1 time: 0.6 weight 10"));
  INFO("highest " << lifted.highest << " m, landed at (" << lifted.landed.x() << ", "
                  << lifted.landed.y() << ")");
  REQUIRE(lifted.touchedDown);
  CHECK_FALSE(lifted.fell);
  CHECK(lifted.highest > 0.08);
  CHECK(lifted.highest < 0.13);
  CHECK(lifted.landed.x() == Approx(0.3).margin(0.03));
  CHECK(std::abs(lifted.landed.y()) < 0.02);
  // Without a lift the foot keeps low: the bump is what raised it.
  const SwingRun flat =
      runSwing(swingScript("swing rightFoot (0.3, 0) lift: 0 time: 0.6 weight 10"));
  INFO("without lift: highest " << flat.highest << " m");
  CHECK(flat.highest < 0.03);
}

TEST_CASE("a swing's landing point moves with the centre of mass by its feedback", "[swing]") {
  // The centre of mass held 6 cm ahead of the stance foot: with feedback (1, 0) the foot
  // lands about that much further than without.
  const std::string com = "(0.06, 1.15)";
  const SwingRun plain =
      runSwing(swingScript("swing rightFoot (0.25, 0) lift: 0.08 time: 0.6 weight 10", com));
  const SwingRun fed = runSwing(swingScript(
      "swing rightFoot (0.25, 0) lift: 0.08 feedback: (1, 0) time: 0.6 weight 10", com));
  REQUIRE(plain.touchedDown);
  REQUIRE(fed.touchedDown);
  INFO("landed at " << plain.landed.x() << " and, with feedback, " << fed.landed.x()
                    << "; centre of mass ahead " << fed.comAhead);
  // d grows from the held 6 cm as the swing pulls the body along; the landing point
  // follows it with the foot's lag, so the shift lies between d's start and its end.
  CHECK(fed.comAhead > 0.04);
  CHECK(fed.landed.x() - plain.landed.x() > 0.045);
  CHECK(fed.landed.x() - plain.landed.x() < fed.comAhead + 0.01);
}

namespace {

MotionSummary pushedWalk(const std::string& path, double force, double at) {
  const Program program = scl::testing::compileOk(
      scl::testing::readText(std::string(SCL_SOURCE_DIR) + "/" + path), path);
  RunSession session(program, runOf(program, {Push{kTrunk, Vec2(force, 0.0), at, 0.2}}));
  session.run();
  return session.summary();
}

}  // namespace

TEST_CASE("the feature walk walks on after 160 N pushes at the trunk where the PD walk falls",
          "[swing][walk]") {
  // At three of the ten offsets through a step (docs/features.md, Walking: 160 N forward
  // holds at every one).
  for (double at : {6.0, 6.15, 6.25}) {
    for (double force : {160.0, -160.0}) {
      const MotionSummary walked = pushedWalk("scripts/feature-walk.scl", force, at);
      INFO(force << " N at " << at << " s");
      CHECK_FALSE(walked.fell.has_value());
      CHECK(walked.distance > 15.0);
    }
  }
  CHECK(pushedWalk("scripts/walk.scl", 160.0, 6.0).fell.has_value());
}

namespace {

// The right foot's heel (the lower-x cap's lowest point) height after `seconds`, with the
// right foot supporting as `support` says and turned toe-down to 150°.
struct HeelRun {
  double heel = 0.0;  // metres above the ground
  bool toeTouches = false;
  bool fell = true;
};

HeelRun raiseHeel(const std::string& support) {
  const std::string source = afterSettling(
      "  (heelOff)\n"
      "  [necks 0, waist 0, hips 0, knees -10, shoulders 0, elbows 10]\n"
      "  [support leftFoot, " +
      support +
      "]\n"
      "  [com (0, 1.15) kp 60 kd 15 time: 0.3]\n"
      "  [track trunk standing weight 0.5]\n"
      "  [track rightFoot 150 time: 0.6]\n"
      "  [posture]\n");
  const Program program = scl::testing::compileOk(source, "heel.scl");
  const Character& character = *program.character;
  RunSession session(program, runOf(program));
  HeelRun out;
  session.run([&](const StepView& step) {
    const LinkDef& foot = character.links[kRightFoot];
    const LinkState& at = step.state.links[kRightFoot];
    const Vec2 axis(std::cos(at.angle), std::sin(at.angle));
    const Vec2 a = at.origin, b = at.origin + foot.axisSign * foot.length * axis;
    const bool aIsHeel = a.x() < b.x();
    const double radius = 0.5 * (aIsHeel ? foot.proximalThickness : foot.distalThickness);
    out.heel = (aIsHeel ? a : b).y() - radius;
    out.toeTouches = at.contact;
  });
  out.fell = session.summary().fell.has_value();
  return out;
}

}  // namespace

TEST_CASE("a foot supporting on its toe alone lifts its heel, a whole foot keeps it down",
          "[support]") {
  const HeelRun toe = raiseHeel("rightFoot toe");
  const HeelRun whole = raiseHeel("rightFoot");
  INFO("heel at " << toe.heel << " m on the toe, " << whole.heel << " m on the whole foot");
  CHECK_FALSE(toe.fell);
  CHECK(toe.toeTouches);
  CHECK(toe.heel > 0.03);
  CHECK_FALSE(whole.fell);
  CHECK(whole.heel < 0.01);
}
