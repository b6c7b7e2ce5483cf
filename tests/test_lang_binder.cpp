// Unit tests of the lexer, the diagnostics rendering, the binder and the parameter
// rewrite.
#include <catch2/catch.hpp>
#include <cmath>

#include "scl/binder.h"
#include "scl/character.h"
#include "scl/compile.h"
#include "scl/lexer.h"
#include "scl/transition_text.h"
#include "tests/test_support.h"

namespace {

using scl::testing::compileOk;
using scl::testing::kDeg;
using scl::testing::primitive;

}  // namespace

TEST_CASE("lexer: tokens, locations, numbers and parameters") {
  scl::DiagnosticSink sink;
  auto tokens =
      scl::lex("{ [waist @-30.5, hips .5]\n  // comment\n  rel:leftAnkle }", "f.scl", sink);
  CHECK(sink.diagnostics().empty());
  REQUIRE(tokens.size() == 13);
  CHECK(tokens[2].text == "waist");
  CHECK(tokens[2].line == 1);
  CHECK(tokens[2].column == 4);
  CHECK(tokens[3].kind == scl::TokenKind::Number);
  CHECK(tokens[3].parameter);
  CHECK(tokens[3].number == -30.5);
  CHECK(tokens[3].text == "@-30.5");
  CHECK(tokens[6].number == 0.5);
  CHECK_FALSE(tokens[6].parameter);
  CHECK(tokens[8].text == "rel");
  CHECK(tokens[8].line == 3);
  CHECK(tokens[9].kind == scl::TokenKind::Colon);
  CHECK(tokens[10].text == "leftAnkle");
  CHECK(tokens[12].kind == scl::TokenKind::EndOfFile);
}

TEST_CASE("lexer: NUL and binary bytes are diagnostics, one per run") {
  scl::DiagnosticSink sink;
  const std::string source = std::string("{ [waist 1") + '\0' + '\0' + "0] }\xff\xfe";
  auto tokens = scl::lex(source, "f.scl", sink);
  REQUIRE(sink.diagnostics().size() == 2);
  CHECK(sink.diagnostics()[0].message == "NUL byte in source");
  CHECK(sink.diagnostics()[0].location.column == 11);
  CHECK(sink.diagnostics()[1].message.find("0xFF") != std::string::npos);
  CHECK(tokens.back().kind == scl::TokenKind::EndOfFile);
}

TEST_CASE("rendering: file:line:col, source line and caret, unclosed bracket note") {
  const std::string source = "{\n  [leftShoulder 30\n}\n";
  scl::CompileResult result = scl::compile(source, "s.scl");
  CHECK(scl::renderDiagnostics(result.diagnostics, source) ==
        "s.scl:3:1: error: expected ']' near '}'\n"
        "  }\n"
        "  ^\n"
        "s.scl:2:3: note: '[' opened here\n"
        "    [leftShoulder 30\n"
        "    ^\n");
}

TEST_CASE("edit distance suggestions") {
  CHECK(scl::editDistance("leftShoulderr", "leftShoulder") == 1);
  CHECK(scl::editDistance("wiast", "waist") == 1);  // a swap counts once
  const std::array<std::string_view, 3> names = {"leftShoulder", "rightShoulder", "waist"};
  CHECK(scl::didYouMean("leftshoulder", names) == "; did you mean 'leftShoulder'?");
  CHECK(scl::didYouMean("frobnicate", names).empty());
}

TEST_CASE("binder: groups expand, units convert, defaults hold") {
  scl::Program program = compileOk(
      "{ [hips 90 child, waist -20 time: 0.5]\n"
      "  [relax shoulders, neckTop strength 0.25]\n"
      "  [ik (0.1, -0.2) on: wrists]\n"
      "  [gc] }\n"
      "when contact feet\n"
      "{ }");
  const auto& pd = primitive<scl::PdPrimitive>(program, 0, 0);
  REQUIRE(pd.targets.size() == 3);
  CHECK(pd.targets[0].joint == scl::kLeftHip);
  CHECK(pd.targets[1].joint == scl::kRightHip);
  CHECK(pd.targets[0].frame == scl::TargetFrame::Child);
  CHECK(pd.targets[0].angle.value == Approx(scl::kPi / 2));
  CHECK(pd.targets[0].angle.unit == scl::Number::Unit::Degrees);
  CHECK(pd.targets[0].angle.unitFactor() == Approx(kDeg));
  CHECK(pd.targets[2].angle.value == Approx(-20 * kDeg));
  CHECK(pd.targets[2].frame == scl::TargetFrame::Local);
  CHECK(pd.duration.value == 0.5);
  const auto& relax = primitive<scl::RelaxPrimitive>(program, 0, 1);
  CHECK(relax.joints == std::vector<int>{scl::kLeftShoulder, scl::kRightShoulder, scl::kNeckTop});
  CHECK(relax.strength.value == 0.25);
  const auto& ik = primitive<scl::IkPrimitive>(program, 0, 2);
  CHECK(ik.effectors == std::vector<int>{scl::kLeftWrist, scl::kRightWrist});
  CHECK(ik.relJoint == -1);
  CHECK(ik.duration.value == 0);
  CHECK(ik.targets[0].second.value == -0.2);
  const auto& gc = primitive<scl::GravityCompPrimitive>(program, 0, 3);
  CHECK(gc.byJoint == -1);
  CHECK(gc.strength.value == 1.0);
  REQUIRE(program.phases[0].exit);
  const scl::Transition& exit = *program.phases[0].exit;
  CHECK(exit.hasContact);
  CHECK_FALSE(exit.hasTime);
  CHECK(exit.event == scl::ContactEvent::Established);
  CHECK(exit.quantifier == scl::ContactQuantifier::Any);
  CHECK(exit.next == 1);
  CHECK(exit.location.line == 5);
  CHECK_FALSE(program.phases[1].exit);
  CHECK(program.scene == scl::Scene{});
}

TEST_CASE("binder: [symm] mirrors every link and joint index") {
  scl::Program program = compileOk(
      "{ [leftShoulder 30, waist 10 parent] [symm]\n"
      "  [vf (1, 2) on: leftHand, by: rightHip] [symm]\n"
      "  [vf sb(3, 4) on: trunk, by: leftAnkle] [symm]\n"
      "  [ik (0, 1), (2, 3) on: leftAnkle rel: rightWrist time: 1] [symm]\n"
      "  [relax leftElbow, neckTop strength 0.5] [symm]\n"
      "  [gc by: leftKnee strength 0.7] [symm] }");
  const auto& phase = program.phases[0].primitives;
  REQUIRE(phase.size() == 12);
  const auto& pd = primitive<scl::PdPrimitive>(program, 0, 1);
  CHECK(pd.targets[0].joint == scl::kRightShoulder);
  CHECK(pd.targets[1].joint == scl::kWaist);
  CHECK(pd.targets[1].frame == scl::TargetFrame::Parent);
  CHECK(pd.targets[0].angle == primitive<scl::PdPrimitive>(program, 0, 0).targets[0].angle);
  const auto& vf = primitive<scl::VirtualForcePrimitive>(program, 0, 3);
  CHECK(vf.link == scl::kRightHand);
  CHECK(vf.byJoint == scl::kLeftHip);
  CHECK(vf.fx.value == 1);
  CHECK(vf.fy.value == 2);
  const auto& sb = primitive<scl::VirtualForcePrimitive>(program, 0, 5);
  CHECK(sb.stanceBalance);
  CHECK(sb.link == scl::kTrunk);
  CHECK(sb.byJoint == scl::kRightAnkle);
  CHECK(sb.kp.value == 3);
  const auto& ik = primitive<scl::IkPrimitive>(program, 0, 7);
  CHECK(ik.effectors == std::vector<int>{scl::kRightAnkle});
  CHECK(ik.relJoint == scl::kLeftWrist);
  CHECK(ik.targets.size() == 2);
  const auto& relax = primitive<scl::RelaxPrimitive>(program, 0, 9);
  CHECK(relax.joints == std::vector<int>{scl::kRightElbow, scl::kNeckTop});
  const auto& gc = primitive<scl::GravityCompPrimitive>(program, 0, 11);
  CHECK(gc.byJoint == scl::kRightKnee);
  CHECK(gc.strength.value == 0.7);
}

TEST_CASE("binder: mirrored phases copy the expanded source, then add their own") {
  scl::Program program = compileOk(
      "{ (a) [leftHip 10] [vf (0, 1) on: leftFoot, by: waist] [symm] }\n"
      "after 1\n"
      "{ (b) : (a) [waist 5] }\n"
      "after 1\n"
      "{ (c) : (b) }\n"
      "finally after 2 backto b");
  REQUIRE(program.phases.size() == 3);
  const auto& b = program.phases[1].primitives;
  REQUIRE(b.size() == 4);
  CHECK(std::get<scl::PdPrimitive>(b[0]).targets[0].joint == scl::kRightHip);
  CHECK(std::get<scl::VirtualForcePrimitive>(b[1]).link == scl::kRightFoot);
  CHECK(std::get<scl::VirtualForcePrimitive>(b[2]).link == scl::kLeftFoot);
  CHECK(std::get<scl::PdPrimitive>(b[3]).targets[0].joint == scl::kWaist);
  // c mirrors b, so it is a again, plus b's own waist item.
  const auto& c = program.phases[2].primitives;
  REQUIRE(c.size() == 4);
  CHECK(std::get<scl::PdPrimitive>(c[0]).targets[0].joint == scl::kLeftHip);
  REQUIRE(program.phases[2].exit);
  CHECK(program.phases[2].exit->next == 1);
  CHECK(program.phases[2].exit->time.value == 2);
  CHECK(program.phases[1].exit->next == 2);
}

TEST_CASE("binder: @ parameters get slots in script order, shared by mirror copies") {
  const std::string source =
      "{ (lean) [waist @30, hips @-10 time: @0.5] [symm]\n"
      "  [vf (@100, 5) on: leftShank, by: waist] [vf (@7, 0) on: trunk, by: waist] }\n"
      "after @0.4\n"
      "{ [ik (@0.1, 0.2) on: leftAnkle] [relax knees strength @0.2] [gc strength @0.9] }\n"
      "finally after 1 backto lean";
  scl::Program program = compileOk(source);
  std::vector<std::string> names;
  for (const auto& parameter : program.parameters) names.push_back(parameter.name);
  CHECK(names == std::vector<std::string>{
                     "lean.pd.waist", "lean.pd.hips", "lean.pd.time", "lean.vf.fx", "lean.vf.fx#2",
                     "lean.after", "phase2.ik.x1", "phase2.relax.strength", "phase2.gc.strength"});
  CHECK(program.parameters[1].initial == -10);
  CHECK(program.parameters[1].location.line == 1);
  CHECK(program.parameters[1].location.column == 27);
  CHECK(program.parameterValues() == std::vector<double>{30, -10, 0.5, 100, 7, 0.4, 0.1, 0.2, 0.9});

  const auto& pd = primitive<scl::PdPrimitive>(program, 0, 0);
  const auto& mirror = primitive<scl::PdPrimitive>(program, 0, 1);
  CHECK(pd.targets[1].angle.slot == 1);
  CHECK(pd.targets[2].angle.slot == 1);  // hips: both members share the slot
  CHECK(mirror.targets[1].angle.slot == 1);

  program.setParameters({45, 20, 1, 200, 8, 0.7, 0.3, 0.5, 1});
  CHECK(pd.targets[0].angle.value == Approx(45 * kDeg));
  CHECK(mirror.targets[2].angle.value == Approx(20 * kDeg));
  CHECK(pd.duration.value == 1);
  CHECK(primitive<scl::VirtualForcePrimitive>(program, 0, 2).fx.value == 200);
  CHECK(primitive<scl::VirtualForcePrimitive>(program, 0, 2).fy.value == 5);
  CHECK(program.phases[0].exit->time.value == 0.7);
  CHECK(primitive<scl::IkPrimitive>(program, 1, 0).targets[0].first.value == 0.3);
  CHECK(primitive<scl::GravityCompPrimitive>(program, 1, 2).strength.value == 1);

  SECTION("substituteParameters rewrites exactly the @ numbers") {
    const std::string rewritten = scl::substituteParameters(source, program);
    CHECK(rewritten ==
          "{ (lean) [waist @45, hips @20 time: @1] [symm]\n"
          "  [vf (@200, 5) on: leftShank, by: waist] [vf (@8, 0) on: trunk, by: waist] }\n"
          "after @0.7\n"
          "{ [ik (@0.3, 0.2) on: leftAnkle] [relax knees strength @0.5] [gc strength @1] }\n"
          "finally after 1 backto lean");
    scl::Program again = compileOk(rewritten);
    CHECK(again.parameterValues() == program.parameterValues());
  }
  SECTION("substituteParameters refuses a source that does not match") {
    CHECK_THROWS_AS(scl::substituteParameters("{ [waist 30] }", program), std::invalid_argument);
  }
}

TEST_CASE("binder: scene header") {
  scl::Program program = compileOk("scene pose: sitting, env: chair height: 0.6 duration: 3\n{ }");
  CHECK(program.scene.pose == "sitting");
  REQUIRE(program.scene.chair());
  CHECK(program.scene.chair()->seatHeight == 0.6);
  REQUIRE(program.scene.duration);
  CHECK(*program.scene.duration == 3);
  scl::Program supine = compileOk("scene pose: supine\n{ }");
  CHECK(supine.scene.pose == "supine");
  CHECK(supine.scene.bodies == std::vector<scl::SceneBodyDef>{scl::groundBody()});
  CHECK_FALSE(supine.scene.duration);
}

TEST_CASE("compile reports several independent errors in source order") {
  scl::CompileResult result = scl::compile(
      "{ [leftShoulderr 30] [vf (1) on: trunk, by: waist] [hips 10] }\n"
      "after 1\n"
      "{ (x) : (y) }",
      "t.scl");
  CHECK_FALSE(result.ok());
  REQUIRE(result.diagnostics.size() == 3);
  CHECK(result.diagnostics[0].message ==
        "unknown joint 'leftShoulderr'; did you mean 'leftShoulder'?");
  CHECK(result.diagnostics[1].location.column == 26);
  CHECK(result.diagnostics[2].message == "unknown phase 'y'");
}

TEST_CASE("primitive blocks: bound once where defined, spliced where used") {
  const scl::Program program = compileOk(
      "define balance {\n"
      "  [relax ankles strength 0.1]\n"
      "  [vf sb(600, @300) on: trunk, by: leftAnkle]\n"
      "  [symm]\n"
      "}\n"
      "define lean { [waist 10] [balance] }\n"
      "{ (a) [knees -10] [lean] [gc] }\n"
      "after 1\n"
      "{ (b) [balance] [symm] }\n");
  // a: knees, then lean's waist and balance's three, then gc.
  REQUIRE(program.phases[0].primitives.size() == 6);
  CHECK(primitive<scl::PdPrimitive>(program, 0, 1).targets.front().joint == scl::kWaist);
  const auto& relax = primitive<scl::RelaxPrimitive>(program, 0, 2);
  CHECK(relax.joints == std::vector<int>{scl::kLeftAnkle, scl::kRightAnkle});
  const auto& left = primitive<scl::VirtualForcePrimitive>(program, 0, 3);
  const auto& right = primitive<scl::VirtualForcePrimitive>(program, 0, 4);
  CHECK(left.link == scl::kTrunk);
  CHECK(left.byJoint == scl::kLeftAnkle);
  CHECK(right.byJoint == scl::kRightAnkle);
  primitive<scl::GravityCompPrimitive>(program, 0, 5);
  // b: the block's three, and a [symm] after the use copies its last primitive.
  REQUIRE(program.phases[1].primitives.size() == 4);
  CHECK(primitive<scl::VirtualForcePrimitive>(program, 1, 3).byJoint == scl::kLeftAnkle);
  // One `@` in a block is one parameter, shared by every use (and every [symm] copy).
  REQUIRE(program.parameters.size() == 1);
  CHECK(program.parameters[0].name == "balance.vf.kd");
  CHECK(left.kd.slot == 0);
  CHECK(right.kd.slot == 0);
  CHECK(primitive<scl::VirtualForcePrimitive>(program, 1, 1).kd.slot == 0);
}

TEST_CASE("primitive blocks: a drive conflict is reported at the use, with the block") {
  const std::string source =
      "define balance {\n"
      "  [relax ankles strength 0.1]\n"
      "}\n"
      "{\n"
      "  [ankles 80]\n"
      "  [balance]\n"
      "}\n";
  scl::CompileResult result = scl::compile(source, "b.scl");
  REQUIRE(result.ok());
  REQUIRE(result.diagnostics.size() == 2);
  CHECK(result.diagnostics[0].severity == scl::Severity::Warning);
  CHECK(result.diagnostics[0].location.line == 6);
  CHECK(result.diagnostics[0].message.find("already driven") != std::string::npos);
  CHECK(result.diagnostics[1].severity == scl::Severity::Note);
  CHECK(result.diagnostics[1].location.line == 1);
  CHECK(result.diagnostics[1].message == "the block 'balance' is defined here");
}

TEST_CASE("binder: when com: the quantity, the comparison, legs and the parameter's name") {
  scl::Program program = compileOk(
      "{ (rise) } when com vy < 0\n"
      "{ (lean) } and when com capture > @0.25 legs after 0.2\n"
      "{ (step) } when com x > -0.1 or after @0.6\n"
      "{ (end) }");
  const scl::Transition& rise = *program.phases[0].exit;
  CHECK(rise.hasContact);
  CHECK(rise.com);
  CHECK_FALSE(rise.hasTime);
  CHECK(rise.comQuantity == scl::ComQuantity::Vy);
  CHECK_FALSE(rise.comAbove);
  CHECK(rise.comValue.value == 0.0);
  CHECK(rise.comScale == 1.0);
  const scl::Transition& lean = *program.phases[1].exit;
  CHECK(lean.comQuantity == scl::ComQuantity::Capture);
  CHECK(lean.comAbove);
  CHECK(lean.comInLegs);
  const scl::Character& human = *scl::humanCharacter();
  CHECK(lean.comScale == Approx(0.5 * (human.legLength(0) + human.legLength(1))));
  CHECK(lean.hasTime);
  CHECK(lean.time.value == 0.2);
  const scl::Transition& step = *program.phases[2].exit;
  CHECK(step.comQuantity == scl::ComQuantity::X);
  CHECK(step.comValue.value == -0.1);
  CHECK(step.hasTimeout);
  // The threshold is PHASE.when, as the fallback is PHASE.timeout; both follow the optimizer.
  REQUIRE(program.parameters.size() == 2);
  CHECK(program.parameters[0].name == "lean.when");
  CHECK(program.parameters[1].name == "step.timeout");
  CHECK(lean.comValue.slot == 0);
  program.setParameters({0.3, 0.7});
  CHECK(program.phases[1].exit->comValue.value == Approx(0.3));
  CHECK(scl::transitionText(*program.phases[1].exit, human) ==
        "and when com capture > 0.3 legs after 0.2");
  CHECK(scl::transitionText(*program.phases[2].exit, human) == "when com x > -0.1 or after 0.7");
}
