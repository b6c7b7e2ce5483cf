// The front end of the feature primitives (docs/features.md): com, angmom, track, posture
// and support are printed canonically and read back, bound with their units and
// defaults, mirrored by [symm] and mirrored phases, and told apart from the other
// primitives. The commands docs/features.md shows run as written.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace {

using scl::testing::compileOk;
using scl::testing::kDeg;
using scl::testing::primitive;

// print(parse(source)), which must parse without an error.
std::string printed(const std::string& source) {
  scl::ParseResult parsed = scl::parse(source, "t.scl");
  INFO(scl::renderDiagnostics(parsed.diagnostics, source));
  REQUIRE_FALSE(scl::hasErrors(parsed.diagnostics));
  return scl::print(parsed.script);
}

}  // namespace

TEST_CASE("features: printed canonically, options in the order kp, kd, time:, weight, priority",
          "[lang][features]") {
  const std::string source =
      "{(a)[com(0.1,0.9),priority 2 weight 3 time:0.5 kd 4 kp 5]"
      "[angmom @1 priority 1, weight 2 kd 3][angmom -0.5]"
      "[track leftWrist(0.2,1)weight 1 kp 2][track trunk 90.0 time: 1, kd 3]"
      "[track pelvis (@-0.1, @1.05) priority 9 kd @4]"
      "[posture priority 3 kd 2 kp 1 weight 0.5][posture]"
      "[support leftFoot,feet , hands]}";
  const std::string canonical =
      "{\n"
      "  (a)\n"
      "  [com (0.1, 0.9) kp 5 kd 4 time: 0.5 weight 3 priority 2]\n"
      "  [angmom @1 kd 3 weight 2 priority 1]\n"
      "  [angmom -0.5]\n"
      "  [track leftWrist (0.2, 1) kp 2 weight 1]\n"
      "  [track trunk 90 kd 3 time: 1]\n"
      "  [track pelvis (@-0.1, @1.05) kd @4 priority 9]\n"
      "  [posture kp 1 kd 2 weight 0.5 priority 3]\n"
      "  [posture]\n"
      "  [support leftFoot, feet, hands]\n"
      "}\n";
  CHECK(printed(source) == canonical);
  CHECK(printed(canonical) == canonical);  // idempotent

  // The tree read back from the canonical text is the tree of the source.
  const scl::ParseResult first = scl::parse(source, "a.scl");
  const scl::ParseResult second = scl::parse(canonical, "b.scl");
  REQUIRE_FALSE(scl::hasErrors(second.diagnostics));
  CHECK(scl::syntax::withoutLocations(second.script) ==
        scl::syntax::withoutLocations(first.script));

  // Each option alone, in each kind that takes it, prints as it was written.
  for (const std::string& line :
       std::vector<std::string>{"[com (0, 1) kp 7]", "[com (0, 1) kd 7]", "[com (0, 1) time: 7]",
                                "[com (0, 1) weight 7]", "[com (0, 1) priority 7]",
                                "[angmom 2 kd 7]", "[angmom 2 weight 7]", "[angmom 2 priority 7]",
                                "[track head 80 kp 7]", "[track leftAnkle (1, 2) time: 7]",
                                "[posture kd 7]", "[posture weight 7]", "[support rightHand]"}) {
    const std::string phase = "{\n  " + line + "\n}\n";
    CHECK(printed(phase) == phase);
  }
}

TEST_CASE("features: bound with their values, units and defaults", "[lang][features]") {
  const scl::Program program = compileOk(
      "{ [com (0.05, 0.95) kp 120 kd 22 time: 0.5 weight 2 priority 3]\n"
      "  [com (0, 1)]\n"
      "  [angmom -1.5 kd 8 weight 0.5 priority 2]\n"
      "  [angmom 0]\n"
      "  [track leftWrist (0.3, 1.2) kp 80 kd 15 time: 0.4 weight 4 priority 9]\n"
      "  [track pelvis (0, 0.9)]\n"
      "  [track trunk 95]\n"
      "  [posture kp 50 kd 10 weight 0.2 priority 4]\n"
      "  [posture]\n"
      "  [support leftFoot, hands, trunk] }");
  const auto& com = primitive<scl::ComPrimitive>(program, 0, 0);
  CHECK(com.x.value == 0.05);
  CHECK(com.y.value == 0.95);
  CHECK(com.x.unit == scl::Number::Unit::Plain);
  CHECK(com.kp.value == 120);
  CHECK(com.kd.value == 22);
  CHECK(com.duration.value == 0.5);
  CHECK(com.task.weight.value == 2);
  CHECK(com.task.priority == 3);
  const auto& plainCom = primitive<scl::ComPrimitive>(program, 0, 1);
  CHECK(plainCom.kp.value == 100);
  CHECK(plainCom.kd.value == 20);
  CHECK(plainCom.duration.value == 0);
  CHECK(plainCom.task.weight.value == 1);
  CHECK(plainCom.task.priority == 0);  // not written: level 1

  const auto& angmom = primitive<scl::AngularMomentumPrimitive>(program, 0, 2);
  CHECK(angmom.target.value == -1.5);
  CHECK(angmom.kd.value == 8);
  CHECK(angmom.task.weight.value == 0.5);
  CHECK(angmom.task.priority == 2);
  const auto& plainAngmom = primitive<scl::AngularMomentumPrimitive>(program, 0, 3);
  CHECK(plainAngmom.target.value == 0);
  CHECK(plainAngmom.kd.value == 10);
  CHECK(plainAngmom.task.weight.value == 1);
  CHECK(plainAngmom.task.priority == 0);

  const auto& wrist = primitive<scl::TrackPrimitive>(program, 0, 4);
  CHECK(wrist.target == scl::TrackPrimitive::Target::JointPosition);
  CHECK(wrist.index == scl::kLeftWrist);
  CHECK(wrist.x.value == 0.3);
  CHECK(wrist.y.value == 1.2);
  CHECK(wrist.kp.value == 80);
  CHECK(wrist.kd.value == 15);
  CHECK(wrist.duration.value == 0.4);
  CHECK(wrist.task.weight.value == 4);
  CHECK(wrist.task.priority == 9);
  const auto& pelvis = primitive<scl::TrackPrimitive>(program, 0, 5);
  CHECK(pelvis.target == scl::TrackPrimitive::Target::LinkPosition);
  CHECK(pelvis.index == scl::kPelvis);
  CHECK(pelvis.y.value == 0.9);
  CHECK(pelvis.kp.value == 100);
  CHECK(pelvis.kd.value == 20);
  CHECK(pelvis.duration.value == 0);
  CHECK(pelvis.task.weight.value == 1);
  CHECK(pelvis.task.priority == 0);
  const auto& trunk = primitive<scl::TrackPrimitive>(program, 0, 6);
  CHECK(trunk.target == scl::TrackPrimitive::Target::LinkAngle);
  CHECK(trunk.index == scl::kTrunk);
  CHECK(trunk.x.value == Approx(95 * kDeg));  // degrees in the script, radians bound
  CHECK(trunk.x.unit == scl::Number::Unit::Degrees);

  const auto& posture = primitive<scl::PosturePrimitive>(program, 0, 7);
  CHECK(posture.kp.value == 50);
  CHECK(posture.kd.value == 10);
  CHECK(posture.task.weight.value == 0.2);
  CHECK(posture.task.priority == 4);
  const auto& plainPosture = primitive<scl::PosturePrimitive>(program, 0, 8);
  CHECK(plainPosture.kp.value == 100);
  CHECK(plainPosture.kd.value == 20);
  CHECK(plainPosture.task.weight.value == 0.01);
  CHECK(plainPosture.task.priority == 0);  // not written: the phase's lowest level

  const auto& support = primitive<scl::SupportPrimitive>(program, 0, 9);
  CHECK(support.links ==
        std::vector<int>{scl::kLeftFoot, scl::kLeftHand, scl::kRightHand, scl::kTrunk});
  CHECK(program.parameters.empty());
}

TEST_CASE("features: '@' numbers are parameters named PHASE.KIND.DETAIL", "[lang][features]") {
  scl::Program program = compileOk(
      "{ (lean) [com (@0.02, @0.9) kp @100 kd @20 time: @0.3 weight @1]\n"
      "  [angmom @0.5 kd @10 weight @0.2]\n"
      "  [track rightWrist (@0.2, 1.1) kp @90 kd @18 time: @0.2 weight @2]\n"
      "  [track head @90] [track leftThigh @100]\n"
      "  [posture kp @80 kd @16 weight @0.05] }\n"
      "after 1\n"
      "{ [com (@0.1, 1)] }");
  std::vector<std::string> names;
  for (const auto& parameter : program.parameters) names.push_back(parameter.name);
  CHECK(names ==
        std::vector<std::string>{
            "lean.com.x",         "lean.com.y",        "lean.com.kp",         "lean.com.kd",
            "lean.com.time",      "lean.com.weight",   "lean.angmom.L",       "lean.angmom.kd",
            "lean.angmom.weight", "lean.track.x",      "lean.track.kp",       "lean.track.kd",
            "lean.track.time",    "lean.track.weight", "lean.track.angle",    "lean.track.angle#2",
            "lean.posture.kp",    "lean.posture.kd",   "lean.posture.weight", "phase2.com.x"});
  CHECK(program.parameters[14].initial == 90);  // script units: degrees
  CHECK(program.parameters[14].location.line == 4);
  CHECK(program.parameters[14].location.column == 15);  // the `@` of "@90"

  // Setting them reaches every Number, in internal units.
  std::vector<double> values = program.parameterValues();
  for (double& value : values) value += 1;
  program.setParameters(values);
  const auto& com = primitive<scl::ComPrimitive>(program, 0, 0);
  CHECK(com.x.value == Approx(1.02));
  CHECK(com.kp.value == 101);
  CHECK(com.duration.value == Approx(1.3));
  CHECK(com.task.weight.value == Approx(2));
  CHECK(primitive<scl::AngularMomentumPrimitive>(program, 0, 1).target.value == Approx(1.5));
  CHECK(primitive<scl::AngularMomentumPrimitive>(program, 0, 1).task.weight.value == Approx(1.2));
  const auto& wrist = primitive<scl::TrackPrimitive>(program, 0, 2);
  CHECK(wrist.x.value == Approx(1.2));
  CHECK(wrist.y.value == 1.1);  // a plain number stays
  CHECK(wrist.duration.value == Approx(1.2));
  CHECK(primitive<scl::TrackPrimitive>(program, 0, 3).x.value == Approx(91 * kDeg));
  CHECK(primitive<scl::TrackPrimitive>(program, 0, 4).x.value == Approx(101 * kDeg));
  CHECK(primitive<scl::PosturePrimitive>(program, 0, 5).task.weight.value == Approx(1.05));
  CHECK(primitive<scl::ComPrimitive>(program, 1, 0).x.value == Approx(1.1));

  SECTION("the optimizer's rewrite keeps them") {
    const std::string source = "{ [track trunk @90 kp @50] [posture weight @0.01] }";
    scl::Program tuned = compileOk(source);
    tuned.setParameters({95, 60, 0.02});
    const std::string rewritten = scl::substituteParameters(source, tuned);
    CHECK(rewritten == "{ [track trunk @95 kp @60] [posture weight @0.02] }");
    CHECK(compileOk(rewritten).parameterValues() == std::vector<double>{95, 60, 0.02});
  }
}

// `[com y standing DY legs]` (docs/features.md, Relative to the body): the standing pose's
// centre-of-mass height alone, moved by DY leg lengths, x free; `[com x standing]` the
// point over the frame's origin alone. The offset is an `@` parameter like `com y`'s.
TEST_CASE("features: [com y standing] is one coordinate of [com standing]", "[lang][features]") {
  const scl::Program program = compileOk(
      "{ (walk) [com y standing -0.09 legs kp 50 weight 2] [com x standing]\n"
      "  [com y standing @0.02] }");
  const auto& height = primitive<scl::ComPrimitive>(program, 0, 0);
  CHECK(height.fromStanding);
  CHECK(height.axis == 'y');
  CHECK(height.y.value == -0.09);
  CHECK(height.scale ==
        Approx(0.5 * (program.character->legLength(0) + program.character->legLength(1))));
  CHECK(height.kp.value == 50);
  CHECK(height.task.weight.value == 2);
  const auto& along = primitive<scl::ComPrimitive>(program, 0, 1);
  CHECK(along.fromStanding);
  CHECK(along.axis == 'x');
  CHECK(along.x.value == 0);
  CHECK(along.scale == 1.0);
  REQUIRE(program.parameters.size() == 1);
  CHECK(program.parameters[0].name == "walk.com.y");
  CHECK(primitive<scl::ComPrimitive>(program, 0, 2).y.value == 0.02);
}

TEST_CASE("features: [symm] and mirrored phases swap left and right", "[lang][features]") {
  const std::string source =
      "{ (a) [track leftWrist (0.3, 1.2) kp @80] [symm]\n"
      "  [track leftThigh 100] [symm]\n"
      "  [track leftHand (0.1, 0.2)] [symm]\n"
      "  [support leftFoot, leftHand, pelvis] [symm]\n"
      "  [com (0.1, 0.9) kp 50]\n"
      "  [angmom 1 kd 3]\n"
      "  [posture kp 30] }\n"
      "after 1\n"
      "{ (b) : (a) [support feet] }";
  const scl::CompileResult result = scl::compile(source, "t.scl");
  INFO(scl::renderDiagnostics(result.diagnostics, source));
  REQUIRE(result.ok());
  CHECK(result.diagnostics.empty());
  const scl::Program& program = *result.program;

  const auto& wrist = primitive<scl::TrackPrimitive>(program, 0, 0);
  const auto& wristCopy = primitive<scl::TrackPrimitive>(program, 0, 1);
  CHECK(wrist.index == scl::kLeftWrist);
  CHECK(wristCopy.index == scl::kRightWrist);
  CHECK(wristCopy.target == scl::TrackPrimitive::Target::JointPosition);
  CHECK(wristCopy.x == wrist.x);  // the numbers are shared, `@` slot included
  CHECK(wristCopy.kp.slot == 0);
  const auto& thigh = primitive<scl::TrackPrimitive>(program, 0, 3);
  CHECK(thigh.index == scl::kRightThigh);
  CHECK(thigh.target == scl::TrackPrimitive::Target::LinkAngle);
  CHECK(thigh.x.value == Approx(100 * kDeg));
  const auto& hand = primitive<scl::TrackPrimitive>(program, 0, 5);
  CHECK(hand.index == scl::kRightHand);
  CHECK(hand.target == scl::TrackPrimitive::Target::LinkPosition);
  CHECK(primitive<scl::SupportPrimitive>(program, 0, 7).links ==
        std::vector<int>{scl::kRightFoot, scl::kRightHand, scl::kPelvis});
  REQUIRE(program.parameters.size() == 1);

  // b: a's eleven primitives mirrored, then its own.
  const auto& b = program.phases[1].primitives;
  REQUIRE(b.size() == 12);
  CHECK(std::get<scl::TrackPrimitive>(b[0]).index == scl::kRightWrist);
  CHECK(std::get<scl::TrackPrimitive>(b[1]).index == scl::kLeftWrist);
  CHECK(std::get<scl::TrackPrimitive>(b[2]).index == scl::kRightThigh);
  CHECK(std::get<scl::TrackPrimitive>(b[4]).index == scl::kRightHand);
  CHECK(std::get<scl::SupportPrimitive>(b[6]).links ==
        std::vector<int>{scl::kRightFoot, scl::kRightHand, scl::kPelvis});
  CHECK(std::get<scl::SupportPrimitive>(b[7]).links ==
        std::vector<int>{scl::kLeftFoot, scl::kLeftHand, scl::kPelvis});
  // The centre of mass, the angular momentum and the posture have no side.
  const auto& com = std::get<scl::ComPrimitive>(b[8]);
  const auto& original = primitive<scl::ComPrimitive>(program, 0, 8);
  CHECK(com.x == original.x);
  CHECK(com.y == original.y);
  CHECK(com.kp.value == 50);
  CHECK(std::get<scl::AngularMomentumPrimitive>(b[9]).target.value == 1);
  CHECK(std::get<scl::PosturePrimitive>(b[10]).kp.value == 30);
  CHECK(std::get<scl::SupportPrimitive>(b[11]).links ==
        std::vector<int>{scl::kLeftFoot, scl::kRightFoot});
}

TEST_CASE("features: [symm] after a feature without a side is warned about", "[lang][features]") {
  for (const std::string& feature : std::vector<std::string>{
           "[com (0, 1)]", "[angmom 0]", "[posture]", "[track trunk 90]", "[support feet]"}) {
    const std::string source = "{ " + feature + " [symm] }";
    const scl::CompileResult result = scl::compile(source, "t.scl");
    INFO(source << "\n" << scl::renderDiagnostics(result.diagnostics, source));
    CHECK(result.ok());
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].severity == scl::Severity::Warning);
    CHECK_THAT(result.diagnostics[0].message, Catch::Contains("its own mirror image"));
    CHECK(result.diagnostics[0].location.column == static_cast<int>(source.find("[symm]")) + 1);
  }
}

TEST_CASE("features: isFeature and hasFeatures", "[lang][features]") {
  const scl::Program program = compileOk(
      "{ [waist 10] [vf (0, 1) on: trunk, by: waist] [gc] [ik (0, 1) on: leftWrist]\n"
      "  [relax elbows strength 0.5] }\n"
      "after 1\n"
      "{ [com (0, 1)] } after 1 { [angmom 0] } after 1 { [track trunk 90] }\n"
      "after 1 { [posture] } after 1 { [waist 10] [support feet] }");
  REQUIRE(program.phases.size() == 6);
  for (const scl::Primitive& p : program.phases[0].primitives) CHECK_FALSE(scl::isFeature(p));
  CHECK(program.phases[0].primitives.size() == 5);
  CHECK_FALSE(scl::hasFeatures(program.phases[0].primitives));
  for (size_t i = 1; i < program.phases.size(); ++i) {
    INFO("phase " << i + 1);
    CHECK(scl::isFeature(program.phases[i].primitives.back()));
    CHECK(scl::hasFeatures(program.phases[i].primitives));
  }
  CHECK_FALSE(scl::isFeature(program.phases[5].primitives.front()));
  CHECK_FALSE(scl::hasFeatures({}));
}

TEST_CASE("features: an option a kind does not take is named, with or without a comma",
          "[lang][features]") {
  struct Case {
    std::string primitive, message;
  };
  for (const Case& c : std::vector<Case>{
           {"[angmom 0 kp 5]", "'kp' does not apply to angmom; it takes kd, weight and priority"},
           {"[angmom 0 kd 5, kp 5]",
            "'kp' does not apply to angmom; it takes kd, weight and priority"},
           {"[angmom 0 time: 1]",
            "'time:' does not apply to angmom; it takes kd, weight and priority"},
           {"[posture weight 1, time: 1]",
            "'time:' does not apply to posture; it takes kp, kd, weight, priority, speed: and "
            "from:"},
           {"[com (0, 1) tiem: 1]", "unknown argument 'tiem:' for com; did you mean 'time'?"},
       }) {
    const std::string source = "{ " + c.primitive + " [com (0, 1)] }";
    const scl::CompileResult result = scl::compile(source, "t.scl");
    INFO(source << "\n" << scl::renderDiagnostics(result.diagnostics, source));
    CHECK_FALSE(result.ok());
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].message == c.message);
  }
}

// The commands docs/features.md shows, run as written from the top of the source tree:
// each must appear in the page on a line of its own, and the page's example is the
// script they read, verbatim.
TEST_CASE("the commands and the example of docs/features.md run as the page says",
          "[lang][features][docs]") {
  using scl::testing::readText;
  using scl::testing::runScl;
  const std::string page = readText(SCL_SOURCE_DIR "/docs/features.md");
  const std::string script = "tests/lang/features_example.scl";
  const std::string example = readText(std::string(SCL_SOURCE_DIR "/") + script);
  REQUIRE_FALSE(example.empty());
  CHECK(page.find("```\n" + example + "```\n") != std::string::npos);
  const std::string check = "scl check " + script;
  const std::string fmt = "scl fmt " + script;
  for (const std::string& command : {check, fmt}) {
    INFO(command);
    CHECK(page.find("\n" + command + "\n") != std::string::npos);
  }

  scl::testing::RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  const scl::testing::Outcome checked = runScl(check.substr(4), top);
  CHECK(checked.exitCode == 0);
  CHECK(checked.err.empty());
  const scl::testing::Outcome formatted = runScl(fmt.substr(4), top);
  CHECK(formatted.exitCode == 0);
  CHECK(formatted.out == example);  // the example is in canonical form
}
