// The shared pieces of the front end: one number grammar, the lexer's options for
// objective files, the token cursor, the name lookup and the scene rule.
#include <catch2/catch.hpp>
#include <cmath>
#include <string_view>

#include "scl/compile.h"
#include "scl/lexer.h"
#include "scl/names.h"
#include "scl/parser.h"
#include "scl/scene.h"
#include "scl/token_cursor.h"

namespace {

// Tokens view their source: `source` must outlive them (a string literal does; a temporary
// std::string made from one would not).
std::vector<scl::Token> lexOk(std::string_view source, const scl::LexerOptions& options = {}) {
  scl::DiagnosticSink sink;
  std::vector<scl::Token> tokens = scl::lex(source, "t", sink, options);
  INFO(scl::renderDiagnostics(sink.diagnostics(), source));
  REQUIRE(sink.diagnostics().empty());
  return tokens;
}

}  // namespace

TEST_CASE("one number grammar: decimals, signs and exponents") {
  CHECK(scl::numberLength("12") == 2);
  CHECK(scl::numberLength("-0.5]") == 4);
  CHECK(scl::numberLength(".5e-3,") == 5);
  CHECK(scl::numberLength("+3.") == 3);
  CHECK(scl::numberLength("1e2") == 3);
  CHECK(scl::numberLength("1E+10x") == 5);
  CHECK(scl::numberLength("2e") == 1);  // an exponent needs digits: the number 2, then 'e'
  CHECK(scl::numberLength("2e-") == 1);
  CHECK(scl::numberLength("-") == 0);
  CHECK(scl::numberLength(".") == 0);
  CHECK(scl::numberLength("e5") == 0);

  const auto tokens = lexOk("[waist 1e2, hips @-2.5E-1]");
  REQUIRE(tokens.size() == 8);
  CHECK(tokens[2].number == 100.0);
  CHECK(tokens[5].number == -0.25);
  CHECK(tokens[5].parameter);
  CHECK(tokens[5].text == "@-2.5E-1");
}

TEST_CASE("lexer options: comparisons, slashes and paths only where a format asks") {
  const scl::LexerOptions objective{.comparisons = true, .slash = true, .paths = true};
  const auto tokens = lexOk("term 1/50000 max *.pd.time#2 when head <= 1.5 // note", objective);
  REQUIRE(tokens.size() == 11);
  CHECK(tokens[2].kind == scl::TokenKind::Slash);
  CHECK(tokens[5].kind == scl::TokenKind::Identifier);
  CHECK(tokens[5].text == "*.pd.time#2");
  CHECK(tokens[8].kind == scl::TokenKind::LessEqual);
  CHECK(tokens[10].kind == scl::TokenKind::EndOfFile);

  // Without them each is one diagnostic, and lexing goes on.
  scl::DiagnosticSink sink;
  const auto plain = scl::lex("{ [waist < 1] } pelvis.y", "t.scl", sink);
  REQUIRE(sink.diagnostics().size() == 2);
  CHECK(sink.diagnostics()[0].message == "unexpected character '<'");
  CHECK(sink.diagnostics()[1].location.column == 23);  // '.y' is no number either
  // A script knows the comparisons (`when com vy < 0`; the parser refuses them elsewhere),
  // not the paths.
  scl::DiagnosticSink scriptSink;
  const auto script =
      scl::lex("{ [waist < 1] } pelvis.y", "t.scl", scriptSink, scl::scriptLexing());
  REQUIRE(scriptSink.diagnostics().size() == 1);
  CHECK(scriptSink.diagnostics()[0].location.column == 23);
  CHECK(script[3].kind == scl::TokenKind::Less);
  scl::Token endOfLine;
  endOfLine.kind = scl::TokenKind::EndOfLine;
  CHECK(scl::describeToken(endOfLine) == "end of line");
}

TEST_CASE("token cursor: named arguments in any order, with and without commas") {
  scl::DiagnosticSink sink;
  const auto tokens = scl::lex("on: trunk, strength 0.5 by: leftAnkle", "t", sink);
  scl::TokenCursor cursor(tokens, "t", sink);
  std::optional<scl::syntax::Name> on, by;
  std::optional<scl::syntax::NumberLit> strength;
  std::array<scl::ArgSpec, 3> specs = {{{"on", true, "a link", &on, nullptr},
                                        {"by", true, "a joint", &by, nullptr},
                                        {"strength", false, "a number", nullptr, &strength}}};
  CHECK(cursor.parseArgs(specs, "test"));
  CHECK(cursor.atEnd());
  REQUIRE(on);
  REQUIRE(by);
  REQUIRE(strength);
  CHECK(on->text == "trunk");
  CHECK(by->text == "leftAnkle");
  CHECK(strength->value == 0.5);
  CHECK(sink.diagnostics().empty());

  scl::DiagnosticSink bad;
  const auto typo = scl::lex("on: trunk bye: leftAnkle", "t", bad);
  scl::TokenCursor typoCursor(typo, "t", bad);
  on.reset();
  by.reset();
  strength.reset();
  CHECK_FALSE(typoCursor.parseArgs(specs, "vf"));
  REQUIRE(bad.diagnostics().size() == 1);
  CHECK(bad.diagnostics()[0].message == "unknown argument 'bye:' for vf; did you mean 'by'?");
}

TEST_CASE("name lookup: one rule and one message for every kind of name") {
  const scl::CharacterNames names(*scl::humanCharacter());
  CHECK(names.joints("leftKnee", scl::Groups::Rejected).indices ==
        std::vector<int>{scl::kLeftKnee});
  CHECK(names.joints("knees", scl::Groups::Allowed).indices ==
        std::vector<int>{scl::kLeftKnee, scl::kRightKnee});
  CHECK(names.joints("knees", scl::Groups::Rejected, "by:").error ==
        "'knees' is a group; 'by:' needs a single joint");
  CHECK(names.joints("leftKne", scl::Groups::Allowed).error ==
        "unknown joint 'leftKne'; did you mean 'leftKnee'?");
  CHECK(names.joints("trunk", scl::Groups::Allowed).error ==
        "'trunk' is a link; expected a joint (the joints at its ends: 'neckBottom', 'waist', "
        "'leftShoulder', 'rightShoulder')");
  CHECK(names.joints("leftHand", scl::Groups::Allowed).error ==
        "'leftHand' is a link; expected a joint (the joint that turns it: 'leftWrist')");
  CHECK(names.joints("hands", scl::Groups::Allowed).error ==
        "'hands' is a link group; expected a joint (the joints that turn them: 'wrists')");
  CHECK(names.links("waist", scl::Groups::Allowed).error == "'waist' is a joint; expected a link");
  CHECK(names.links("feet", scl::Groups::Allowed).indices ==
        std::vector<int>{scl::kLeftFoot, scl::kRightFoot});
  CHECK(names.pose("supin").error == "unknown pose 'supin'; did you mean 'supine'?");
  CHECK(names.pose("lying").error ==
        "unknown pose 'lying' (poses: standing, supine, prone, sitting, crouching)");
  CHECK(names.environment("moon").error ==
        "unknown environment 'moon' (environments: flat, chair)");
  CHECK(names.pose("prone").ok());
}

TEST_CASE("the scene rule: one rule for headers, objective files and options") {
  using scl::SceneRequest;
  const scl::Scene base;  // standing on flat ground
  SECTION("a sitting pose brings its chair") {
    SceneRequest request;
    request.pose = "sitting";
    request.chairHeight = 0.5;
    const scl::SceneResolution resolution =
        scl::resolveScene(request, base, *scl::humanCharacter());
    CHECK(resolution.ok());
    CHECK(resolution.issues.empty());
    REQUIRE(resolution.scene.chair());
    CHECK(resolution.scene.chair()->seatHeight == 0.5);
    CHECK(resolution.scene.bodies ==
          scl::environmentBodies(scl::Environment::Chair, {.seatHeight = 0.5}));
  }
  SECTION("conflicts are errors in the user's spelling") {
    SceneRequest request;
    request.pose = "sitting";
    request.environment = "flat";
    request.chairHeight = 0.5;
    const auto resolution =
        scl::resolveScene(request, base, *scl::humanCharacter(), scl::SceneSpelling::options());
    CHECK_FALSE(resolution.ok());
    REQUIRE(resolution.issues.size() == 2);
    CHECK(resolution.issues[0].part == scl::ScenePart::ChairHeight);
    CHECK(resolution.issues[0].message ==
          "'--chair-height' is the seat height of a chair; it needs '--env chair'");
    CHECK(resolution.issues[1].part == scl::ScenePart::Environment);
    CHECK(resolution.issues[1].message == "pose 'sitting' sits on a chair; it needs '--env chair'");
  }
  SECTION("an override keeps the base's other parts") {
    scl::Scene chair;
    chair.pose = "sitting";
    chair.bodies = scl::environmentBodies(scl::Environment::Chair, {.seatHeight = 0.6});
    SceneRequest request;
    request.duration = 2;
    const auto resolution = scl::resolveScene(request, chair, *scl::humanCharacter());
    CHECK(resolution.ok());
    REQUIRE(resolution.scene.chair());
    CHECK(resolution.scene.chair()->seatHeight == 0.6);
    CHECK(resolution.scene.duration == 2.0);
    request.environment = "flat";
    CHECK_FALSE(scl::resolveScene(request, chair, *scl::humanCharacter())
                    .ok());  // still sitting: needs the chair
  }
  SECTION("limits") {
    SceneRequest request;
    request.environment = "chair";
    request.chairHeight = 2.0;
    request.duration = 1e9;
    const auto resolution = scl::resolveScene(request, base, *scl::humanCharacter());
    REQUIRE(resolution.issues.size() == 2);
    CHECK(resolution.issues[0].message == "chair height must be from 0.05 to 1.5 m (found 2 m)");
    CHECK(resolution.issues[1].message == "duration must be at most 3600 s (found 1000000000 s)");
  }
}

TEST_CASE("scene bodies: one check of their bounds and of the list") {
  auto chairOf = [](double height, double depth = scl::kDefaultSeatDepth) {
    return scl::environmentBodies(scl::Environment::Chair,
                                  {.seatHeight = height, .seatDepth = depth});
  };
  CHECK(scl::sceneBodyIssues(scl::environmentBodies(scl::Environment::Flat, {})).empty());
  // Each bound holds exactly at its value.
  for (double height : {scl::kMinChairHeight, scl::kDefaultChairHeight, scl::kMaxChairHeight})
    CHECK(scl::sceneBodyIssues(chairOf(height)).empty());
  for (double depth : {scl::kMinSeatDepth, scl::kMaxSeatDepth})
    CHECK(scl::sceneBodyIssues(chairOf(0.45, depth)).empty());
  struct Case {
    double height, depth;
    std::string_view key;
    const char* message;
  };
  for (const Case& c : {
           Case{0.0, 0.45, "height", "chair height must be positive (found 0 m)"},
           Case{std::nan(""), 0.45, "height", "chair height must be positive (found nan m)"},
           Case{0.04, 0.45, "height", "chair height must be from 0.05 to 1.5 m (found 0.04 m)"},
           Case{1.51, 0.45, "height", "chair height must be from 0.05 to 1.5 m (found 1.51 m)"},
           Case{0.45, -0.2, "depth", "chair seat depth must be positive (found -0.2 m)"},
           Case{0.45, 0.01, "depth", "chair seat depth must be from 0.05 to 1.5 m (found 0.01 m)"},
           Case{0.45, 2.0, "depth", "chair seat depth must be from 0.05 to 1.5 m (found 2 m)"},
       }) {
    CAPTURE(c.message);
    const auto issues = scl::sceneBodyIssues(chairOf(c.height, c.depth));
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].body == 1);
    CHECK(issues[0].key == c.key);
    CHECK(issues[0].message == c.message);
  }
  // The list: one ground, at most one chair.
  std::vector<scl::SceneBodyDef> twoChairs = chairOf(0.45);
  twoChairs.push_back(scl::chairBody({}));
  auto issues = scl::sceneBodyIssues(twoChairs);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].body == 2);
  CHECK(issues[0].key.empty());
  CHECK(issues[0].message == "a scene has at most one chair (body 3 is a second)");
  issues = scl::sceneBodyIssues(std::vector<scl::SceneBodyDef>{scl::chairBody({})});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].message == "a scene needs the ground (it has none)");
}

TEST_CASE("a scene's bodies are its environment: `env:` and `height:` make them") {
  scl::Scene scene;
  CHECK(scene.bodies == std::vector<scl::SceneBodyDef>{scl::groundBody()});
  CHECK(scene.chair() == nullptr);
  CHECK(scl::environmentName(scl::environmentOf(scene.bodies)) == "flat");
  scene.bodies = scl::environmentBodies(scl::Environment::Chair, {.seatHeight = 0.6});
  REQUIRE(scene.bodies.size() == 2);
  CHECK(scene.bodies[0].kind == scl::SceneBodyKind::Ground);  // the simulation's order
  CHECK(scene.bodies[1].kind == scl::SceneBodyKind::Chair);
  REQUIRE(scene.chair());
  CHECK(scene.chair()->seatHeight == 0.6);
  CHECK(scene.chair()->seatDepth == scl::kDefaultSeatDepth);
  CHECK(scl::environmentName(scl::environmentOf(scene.bodies)) == "chair");
  CHECK(scl::sceneBodyKindName(scl::SceneBodyKind::Chair) == "chair");
}

TEST_CASE("a chair height out of bounds is an error at the number in a scene header") {
  const scl::CompileResult compiled =
      scl::compile("scene env: chair, height: 1.75\n{ }", "chair.scl");
  REQUIRE(compiled.diagnostics.size() == 1);
  CHECK(compiled.diagnostics[0].message ==
        "chair height must be from 0.05 to 1.5 m (found 1.75 m)");
  CHECK(compiled.diagnostics[0].location.line == 1);
  CHECK(compiled.diagnostics[0].location.column == 27);
}

TEST_CASE("the optimizer's rewrite keeps '@' and reads every number form") {
  const std::string source = "{ [waist @1e1, hips @-.5E+1 time: @2.5e-1] }";
  scl::CompileResult compiled = scl::compile(source, "t.scl");
  REQUIRE(compiled.ok());
  scl::Program program = *compiled.program;
  REQUIRE(program.parameterValues() == std::vector<double>{10.0, -5.0, 0.25});
  program.setParameters({20.0, 7.0, 0.5});
  CHECK(scl::substituteParameters(source, program) == "{ [waist @20, hips @7 time: @0.5] }");
}
