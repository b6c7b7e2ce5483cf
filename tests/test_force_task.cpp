// Force tasks (docs/manipulation.md): `[force LINK (fx, fy) max: N]` in the language, and
// on the feature QP: the character pushes a 40 kg cabinet along the floor, pressing no
// harder than its bound.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "tests/test_support.h"

using namespace scl;

namespace {

// The character steps into a split stance (left foot forward), reaches the cabinet's face
// with the right hand, then `push` (a phase's lines) for 3.2 s. Returns how far the
// cabinet moved, metres, and whether the pelvis stayed up.
struct PushEnd {
  double moved = 0.0;
  bool standing = false;
};

PushEnd pushWith(const std::string& push) {
  const std::string script =
      "scene pose: standing duration: 8\n"
      "box cabinet at: (1.0, 0.6) size: (0.8, 1.2) mass: 40 friction: 0.2\n\n"
      "define upright {\n  [track trunk 90]\n  [angmom 0 kd 10 weight 0.01]\n}\n"
      "{\n  (settle)\n  [necks 0, waist 0, hips 0, knees 0 time: 0.5]\n"
      "  [relax ankles strength 0.1]\n  [vf sb(600, 300) on: trunk, by: leftAnkle]\n  [symm]\n"
      "  [gc]\n}\nafter 2.5\n"
      "{\n  (shift)\n  [necks 0, waist 0, hips 0, knees -5, shoulders 0, elbows 10]\n"
      "  [com (0, 1.15) kp 60 kd 15 time: 0.6]\n  [upright]\n  [support feet]\n}\nafter 0.8\n"
      "{\n  (lift)\n  [necks 0, waist 0, rightHip 0, leftHip 40, rightKnee -5, leftKnee -50, "
      "shoulders 0, elbows 10]\n  [com (0, 1.05) kp 60 kd 15]\n"
      "  [track leftAnkle (0.2, 0.2) time: 0.4]\n  [upright]\n  [support rightFoot]\n}\n"
      "after 0.5\n"
      "{\n  (place)\n  [necks 0, waist 0, rightHip 0, leftHip 25, rightKnee -5, leftKnee -10, "
      "shoulders 0, elbows 10]\n  [com (0, 1.05) kp 60 kd 15]\n"
      "  [track leftAnkle (0.3, -0.05) time: 0.4]\n  [upright]\n  [support rightFoot]\n}\n"
      "when contact leftFoot\n"
      "{\n  (reach)\n  [necks 0, waist 0, rightHip -10, leftHip 15, knees -5, shoulders 0, "
      "elbows 10]\n  [com (0.05, 1.1) kp 60 kd 15 time: 0.6]\n"
      "  [track rightWrist (0.55, 0.85) time: 0.8]\n  [upright]\n  [support feet]\n}\n"
      "when contact rightHand with cabinet or after 1.5\n"
      "{\n  (push)\n  [necks 0, waist 0, rightHip -10, leftHip 15, knees -5, shoulders 0, "
      "elbows 10]\n  [com (0.15, 1.05) kp 60 kd 15 time: 2]\n  [upright]\n  [support feet]\n" +
      push + "}\n";
  const Program program = testing::compileOk(script);
  SimulationDef def;
  def.scene = program.scene;
  Runner runner(program, def);
  runner.runUntil(8.0);
  PushEnd end;
  end.moved = runner.simulation().objects().at(1).position.x() - 1.0;
  end.standing = runner.simulation().state().links[kPelvis].com.y() > 0.8;
  return end;
}

}  // namespace

TEST_CASE("force tasks: parsed, printed canonically, bound, mirrored") {
  const std::string source =
      "scene pose: standing duration: 2\n"
      "\n"
      "{\n"
      "  [force rightHand (150, -10) max: 200 weight 0.5 priority 2]\n"
      "  [symm]\n"
      "  [force leftFoot (0, -100)]\n"
      "}\n";
  ParseResult parsed = parse(source, "t.scl");
  REQUIRE(parsed.diagnostics.empty());
  CHECK(print(parsed.script) == source);
  const Program program = testing::compileOk(source);
  const auto& phase = program.phases[0].primitives;
  const auto& right = std::get<ForcePrimitive>(phase[0]);
  CHECK(right.link == kRightHand);
  CHECK(right.fx.value == 150.0);
  CHECK(right.fy.value == -10.0);
  CHECK(right.hasMax);
  CHECK(right.max.value == 200.0);
  CHECK(right.task.priority == 2);
  CHECK(std::get<ForcePrimitive>(phase[1]).link == kLeftHand);
  CHECK_FALSE(std::get<ForcePrimitive>(phase[2]).hasMax);
  CHECK(isFeature(phase[0]));
}

// 100 N against a 40 kg cabinet on a floor of friction 0.2 (it slides from 78 N): it goes
// 0.42 m and the character stands. Without the force task the hand rests on it (it moves
// 1.2 cm as the hand arrives); bounded to 50 N the push cannot overcome the friction
// (1.5 cm).
TEST_CASE("a force task pushes a cabinet along the floor, within its bound") {
  const PushEnd pushed = pushWith("  [force rightHand (100, 0) max: 130]\n");
  const PushEnd resting = pushWith("");
  const PushEnd bounded = pushWith("  [force rightHand (100, 0) max: 50]\n");
  CAPTURE(pushed.moved, resting.moved, bounded.moved);
  CHECK(pushed.moved > 0.3);
  CHECK(pushed.standing);
  CHECK(resting.moved < 0.02);
  CHECK(bounded.moved < 0.05);
  CHECK(bounded.standing);
}
