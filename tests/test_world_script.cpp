// What a script's world statements carry beyond bodies (docs/scene.md): a body's numbers
// written `@` are parameters of the script (`--set crate.mass=10`, `scl optimize`), and
// `push` statements are pushes the script carries, the same as `--push`.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "optimize/optimizer.h"
#include "runtime/run_session.h"
#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "scl/world.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace {

using scl::testing::compileOk;

// The issue's script: a box with a tunable mass, lifted off a shelf (only its world
// matters here).
const std::string kLift =
    "scene pose: standing duration: 1\n"
    "box crate at: (0.45, 0.5) size: (0.3, 0.25) mass: @2\n"
    "{ (stand)\n"
    "  [waist 0]\n"
    "}\n";

const scl::SceneBodyDef& bodyNamed(const scl::Program& program, std::string_view name) {
  const scl::SceneBodyDef* body = scl::findSceneBody(program.scene.bodies, name);
  REQUIRE(body != nullptr);
  return *body;
}

std::string errorsOf(const std::string& source) {
  const scl::CompileResult result = scl::compile(source, "t.scl");
  CHECK_FALSE(result.ok());
  return scl::renderDiagnostics(result.diagnostics, source);
}

scl::RunSessionDef definitionFor(const scl::Program& program) {
  scl::RunSessionDef def;
  def.simulation = scl::simulationDefFor(program);
  def.length = scl::defaultRunLength(program);
  return def;
}

// The JSON object `scl run` printed; the test fails when the run failed.
nlohmann::json runJson(const std::string& arguments) {
  const scl::testing::Outcome run = scl::testing::runScl("run " + arguments + " --json");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

}  // namespace

// --- world numbers as parameters -----------------------------------------------------------

TEST_CASE("world parameters: an '@' number of a body is the parameter BODY.KEY") {
  scl::Program program = compileOk(kLift);
  REQUIRE(program.parameters.size() == 1);
  const scl::Parameter& mass = program.parameters[0];
  CHECK(mass.name == "crate.mass");
  CHECK(mass.initial == 2.0);
  CHECK(mass.location.line == 2);
  CHECK(mass.location.column == 51);
  CHECK(bodyNamed(program, "crate").mass == 2.0);
  program.setParameters({10.0});
  CHECK(bodyNamed(program, "crate").mass == 10.0);
  CHECK(program.parameterValues() == std::vector<double>{10.0});
  // What a run simulates is the program's scene: the set value.
  CHECK(scl::findSceneBody(scl::simulationDefFor(program).scene.bodies, "crate")->mass == 10.0);
}

TEST_CASE("world parameters: a pair's components are BODY.KEY.x and .y, for every kind's keys") {
  scl::Program program = compileOk(
      "scene pose: standing duration: 1\n"
      "ground friction: @0.8\n"
      "platform step at: @2 size: (1, @0.15) move: (@0.2, 0) frequency: @0.5 start: @1\n"
      "box crate at: (@0.45, @0.5) size: (0.3, 0.25) mass: 2 launch: @1 angle: @10\n"
      "chain rope at: (-4, 2) count: 5 size: (0.2, 0.04) mass: 0.2 angle: @-90 fixed: yes\n"
      "{ (lean) [waist @10] }\n");
  std::vector<std::string> names;
  for (const scl::Parameter& parameter : program.parameters) names.push_back(parameter.name);
  // In script order, the phase's after the world's.
  CHECK(names == std::vector<std::string>{"ground.friction", "step.at", "step.size.y",
                                          "step.move.x", "step.frequency", "step.start",
                                          "crate.at.x", "crate.at.y", "crate.angle", "crate.launch",
                                          "rope.angle", "lean.pd.waist"});
  std::vector<double> values = program.parameterValues();
  values = {0.3, 2.5, 0.2, -0.1, 1.5, 2.0, 0.6, 0.7, 20.0, 3.0, -80.0, 15.0};
  program.setParameters(values);
  CHECK(bodyNamed(program, "ground").friction == 0.3);
  const scl::SceneBodyDef& step = bodyNamed(program, "step");
  CHECK(step.x == 2.5);
  CHECK(step.size == std::array<double, 2>{1.0, 0.2});
  REQUIRE(step.move);
  CHECK(step.move->amplitude == std::array<double, 2>{-0.1, 0.0});
  CHECK(step.move->frequency == 1.5);
  CHECK(step.move->start == 2.0);
  const scl::SceneBodyDef& crate = bodyNamed(program, "crate");
  CHECK(crate.at == std::array<double, 2>{0.6, 0.7});
  CHECK(crate.angle == 20.0);  // degrees, as written
  CHECK(crate.launch == 3.0);
  CHECK(bodyNamed(program, "rope").angle == -80.0);
  CHECK(scl::testing::primitive<scl::PdPrimitive>(program, 0, 0).targets[0].angle.value ==
        Approx(15.0 * std::numbers::pi / 180.0));
  // A name used twice gets #2, as any parameter's.
  const scl::Program twice = compileOk(
      "scene pose: standing\nground friction: @0.8\nground friction: @0.7\n{ [waist 0] }\n");
  REQUIRE(twice.parameters.size() == 2);
  CHECK(twice.parameters[1].name == "ground.friction#2");
}

TEST_CASE("world parameters: a count is no parameter, nor a world file's number") {
  CHECK_THAT(errorsOf("scene pose: standing\n"
                      "stairs flight at: 6 rise: 0.1 run: 0.3 count: @4\n{ [waist 0] }\n"),
             Catch::Contains("t.scl:2:47: error: 'count:' cannot be an '@' parameter"));
  const scl::WorldFileParse parsed = scl::parseWorldFile(
      "world yard\nbox crate at: (1, 0.2) size: (0.4, 0.4) mass: @10\n", "yard.world");
  REQUIRE(parsed.diagnostics.empty());
  scl::DiagnosticSink sink;
  std::vector<scl::SceneBodyDef> bodies = {scl::groundBody()};
  scl::bindWorld(parsed.file.statements, bodies, sink);
  const std::vector<scl::Diagnostic> diagnostics = sink.take();
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].location.line == 2);
  CHECK(diagnostics[0].location.column == 47);
  CHECK(diagnostics[0].message ==
        "a world file's numbers cannot be '@' parameters; write the box in the script to make "
        "them parameters");
}

TEST_CASE("world parameters: scl fmt keeps them, the optimizer's rewrite sets them") {
  scl::DiagnosticSink sink;
  const scl::syntax::Script script = scl::parse(kLift, "t.scl", sink);
  CHECK(scl::print(script).find("mass: @2\n") != std::string::npos);
  scl::Program program = compileOk(kLift);
  program.setParameters({10.0});
  const std::string tuned = scl::substituteParameters(kLift, program);
  CHECK(tuned.find("mass: @10\n") != std::string::npos);
  CHECK(bodyNamed(compileOk(tuned), "crate").mass == 10.0);
}

TEST_CASE("world parameters: values a body cannot have are issues of those parameters") {
  scl::Program program = compileOk(
      "scene pose: standing\n"
      "box crate at: (0.45, 0.5) size: (0.3, @0.25) mass: @2 friction: @0.3\n"
      "{ [waist 0] }\n");
  CHECK(scl::worldParameterIssues(program).empty());
  program.setParameters({0.25, -1.0, 0.3});
  std::vector<scl::WorldParameterIssue> issues = scl::worldParameterIssues(program);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].slots == std::vector<int>{1});
  CHECK(issues[0].message == "box 'crate': mass must be positive (found -1 kg)");
  program.setParameters({0.25, 2.0, 3.0});
  issues = scl::worldParameterIssues(program);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].slots == std::vector<int>{2});
  CHECK(issues[0].message == "box 'crate': friction must be from 0 to 2 (found 3)");
  // An issue of a key that is no parameter (a box 1.2 m tall reaches below the ground: its
  // `at:`) is of every parameter of its body.
  program.setParameters({1.2, 2.0, 0.3});
  issues = scl::worldParameterIssues(program);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].slots == std::vector<int>{0, 1, 2});
  CHECK_THAT(issues[0].message, Catch::Contains("reaches below the ground"));
  program.setParameters({0.25, 2.0, 0.3});
  CHECK(scl::worldParameterIssues(program).empty());
}

TEST_CASE(
    "scl run --set crate.mass=10: the box weighs 10 kg, and a mass it cannot have is a "
    "usage error") {
  scl::testing::TempDir dir;
  const std::string script = dir / "lift.scl";
  // A box on the ground pushed with 60 N for 0.5 s: its friction holds 2 kg × 9.81 × 0.6 =
  // 12 N back, so that a lighter box slides further.
  std::ofstream(script) << "scene pose: standing env: flat duration: 1.5\n"
                           "box crate at: (-1, 0.125) size: (0.3, 0.25) mass: @2\n"
                           "{ (stand) [waist 0] }\n";
  const std::string push = " --push crate:-60,0@0.2+0.5";
  const nlohmann::json light = runJson(script + push);
  const nlohmann::json heavy = runJson(script + push + " --set crate.mass=10");
  const nlohmann::json same = runJson(script + push + " --set crate.mass=2");
  CHECK(light["parameters"]["crate.mass"] == 2.0);
  CHECK(heavy["parameters"]["crate.mass"] == 10.0);
  // 2 kg: (60 − 11.8) N / 2 kg over 0.5 s, then sliding to rest: over a metre. 10 kg:
  // (60 − 58.9) N / 10 kg: a few millimetres.
  const auto moved = [](const nlohmann::json& run) {
    return run["objects"][0]["start_x"].get<double>() - run["objects"][0]["final_x"].get<double>();
  };
  const double lightMoved = moved(light), heavyMoved = moved(heavy);
  CHECK(lightMoved > 1.0);
  CHECK(heavyMoved < 0.02);
  CHECK(same["objects"] == light["objects"]);  // setting the written value changes nothing
  CHECK(same["distance"] == light["distance"]);

  const scl::testing::Outcome negative =
      scl::testing::runScl("run " + script + " --set crate.mass=-1");
  CHECK(negative.exitCode == 2);
  CHECK_THAT(negative.err,
             Catch::Contains("--set crate.mass=-1: box 'crate': mass must be positive (found "
                             "-1 kg)"));
  const scl::testing::Outcome heavier =
      scl::testing::runScl("run " + script + " --set crate.mass=6000");
  CHECK(heavier.exitCode == 2);
  CHECK_THAT(heavier.err,
             Catch::Contains("--set crate.mass=6000: box 'crate': mass must be from 0.01 to "
                             "5000 kg (found 6000 kg)"));
  const scl::testing::Outcome typo = scl::testing::runScl("run " + script + " --set crate.mas=3");
  CHECK(typo.exitCode == 2);
  CHECK_THAT(typo.err, Catch::Contains("did you mean 'crate.mass'?"));
  // scl check is content with the script; scl fmt prints the `@` as written.
  CHECK(scl::testing::runScl("check " + script).exitCode == 0);
  const scl::testing::Outcome printed = scl::testing::runScl("fmt " + script);
  CHECK_THAT(printed.out, Catch::Contains("mass: @2\n"));
}

TEST_CASE("world parameters: scl optimize tunes them, within the body's bounds") {
  // A box pushed away by the script; the objective: push it far (a small final x).
  const std::string script =
      "scene pose: standing env: flat duration: 0.6\n"
      "box crate at: (-1, 0.125) size: (0.3, 0.25) mass: @2 friction: @0.6\n"
      "push crate force: (-60, 0) at: 0.1 for: 0.4\n"
      "{ (stand) [waist 0] }\n";
  const std::string objective = "term 1 final crate.x\n";
  scl::ProblemResult result = scl::makeProblem(script, "lift.scl", objective, "o.objective");
  INFO(scl::renderProblemDiagnostics(result.diagnostics, "lift.scl", script, "o.objective",
                                     objective));
  REQUIRE(result.problem);
  const scl::OptimizationProblem& problem = *result.problem;
  REQUIRE(problem.program.parameters.size() == 2);
  CHECK(problem.lower == std::vector<double>{scl::kMinBodyMass, 0.0});
  CHECK(problem.upper == std::vector<double>{scl::kMaxBodyMass, scl::kMaxFriction});
  const scl::ObjectiveEvaluation light = scl::evaluateParameters(problem, {2.0, 0.6});
  const scl::ObjectiveEvaluation heavy = scl::evaluateParameters(problem, {10.0, 0.6});
  REQUIRE(light.feasible);
  REQUIRE(heavy.feasible);
  CHECK(light.value < heavy.value - 0.3);  // the light box slid farther
  // A candidate that gives the body a value it cannot have is infeasible, not a crash.
  const scl::ObjectiveEvaluation thin = scl::evaluateParameters(problem, {-1.0, 0.6});
  CHECK_FALSE(thin.feasible);
  CHECK_THAT(thin.failure, Catch::Contains("mass must be positive"));
}

// --- pushes a script carries ---------------------------------------------------------------

TEST_CASE("push statements: parsed, printed canonically, bound to links and objects") {
  const std::string source =
      "scene pose: standing duration: 2\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n"
      "chain rope at: (1.5, 1.5) count: 4 size: (0.1, 0.03) mass: 0.1 angle: -90 fixed: yes\n"
      "push trunk force: (120, 0) at: 1 for: 0.5\n"
      "push crate for: 0.5, at: 0.2 force: (-300, 0)\n"
      "push rope force: (0, 5) at: 0.1 for: 0.1\n"
      "push rope.2 force: (5, 0) at: 0.1 for: 0.1\n"
      "{ (stand) [waist 0] }\n";
  scl::DiagnosticSink sink;
  const scl::syntax::Script script = scl::parse(source, "t.scl", sink);
  REQUIRE(sink.diagnostics().empty());
  REQUIRE(script.world.size() == 6);
  CHECK(scl::isPushStatement(script.world[2]));
  CHECK_FALSE(scl::isPushStatement(script.world[0]));
  CHECK(scl::printWorldStatement(script.world[2]) == "push trunk force: (120, 0) at: 1 for: 0.5");
  CHECK(scl::printWorldStatement(script.world[3]) ==
        "push crate force: (-300, 0) at: 0.2 for: 0.5");
  CHECK(script.world[5].name->text == "rope.2");
  CHECK(scl::printWorldStatement(script.world[5]) == "push rope.2 force: (5, 0) at: 0.1 for: 0.1");
  // The canonical text reads back as the same statements.
  const std::string printed = scl::print(script);
  scl::DiagnosticSink again;
  CHECK(scl::parse(printed, "t.scl", again).world.size() == 6);
  CHECK(scl::print(scl::parse(printed, "t.scl", again)) == printed);

  const scl::Program program = compileOk(source);
  CHECK(program.scene.bodies.size() == 3);  // pushes are no bodies
  REQUIRE(program.pushes.size() == 4);
  const scl::ScriptPush& trunk = program.pushes[0];
  CHECK(trunk.target.body.empty());
  CHECK(trunk.target.link == *program.character->findLink("trunk"));
  CHECK(trunk.force == std::array<double, 2>{120.0, 0.0});
  CHECK(trunk.start == 1.0);
  CHECK(trunk.duration == 0.5);
  CHECK(trunk.location.line == 4);
  CHECK(program.pushes[1].target == scl::PushTarget{0, "crate", 0});
  CHECK(program.pushes[2].target == scl::PushTarget{0, "rope", 3});  // its last link
  CHECK(program.pushes[3].target == scl::PushTarget{0, "rope", 1});
  CHECK(program.pushes[3].name == "rope.2");
}

TEST_CASE("push statements: errors at what is wrong, with a suggestion") {
  const std::string world =
      "scene pose: standing duration: 2\n"
      "platform step at: 2 size: (1, 0.15)\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n";
  const std::string phase = "{ (stand) [waist 0] }\n";
  CHECK_THAT(errorsOf(world + "push crat force: (1, 0) at: 1 for: 1\n" + phase),
             Catch::Contains("t.scl:4:6: error: unknown link or object 'crat'; did you mean "
                             "'crate'? (links: head,") &&
                 Catch::Contains("; objects: crate)"));
  CHECK_THAT(errorsOf(world + "push step force: (1, 0) at: 1 for: 1\n" + phase),
             Catch::Contains("4:6: error: 'step' is a platform, which does not move"));
  CHECK_THAT(errorsOf(world + "push trunk force: (1, 0) at: -1 for: 0\n" + phase),
             Catch::Contains("4:30: error: a push starts at 0 s or later, at most 3600 s (found "
                             "-1 s)") &&
                 Catch::Contains("4:38: error: a push lasts more than 0 s, at most 3600 s (found "
                                 "0 s)"));
  // A body written after the push is known to it; a body with errors is not reported again.
  CHECK(compileOk("scene pose: standing\npush crate force: (1, 0) at: 1 for: 1\n"
                  "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n" +
                  phase)
            .pushes.size() == 1);
  const std::string broken = errorsOf(
      "scene pose: standing\nbox crate at: (-1, 0.25) size: (0.5, 0.5) mass: 9000\n"
      "push crate force: (1, 0) at: 1 for: 1\n" +
      phase);
  CHECK_THAT(broken, Catch::Contains("mass must be from 0.01 to 5000 kg"));
  CHECK_THAT(broken, !Catch::Contains("unknown link or object"));
  // A world file holds no push.
  const scl::WorldFileParse parsed = scl::parseWorldFile(
      "world yard\npush trunk force: (1, 0) at: 1 for: 1\nbox crate at: (1, 0.2) size: (0.4, "
      "0.4) mass: 10\n",
      "yard.world");
  REQUIRE(parsed.diagnostics.size() == 1);
  CHECK(parsed.diagnostics[0].location.line == 2);
  CHECK(parsed.diagnostics[0].message ==
        "a push is written in the script that is to survive it, not in a world file");
  CHECK(parsed.file.statements.size() == 1);
}

TEST_CASE("push statements: a script's push is --push's, bit for bit") {
  const std::string world =
      "scene pose: standing env: flat duration: 1\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n"
      "chain rope at: (1.5, 1.5) count: 4 size: (0.1, 0.03) mass: 0.1 angle: -90 fixed: yes\n";
  const std::string phase =
      "{ (quiet_stance)\n"
      "  [necks 0, waist 0, hips 0, knees 0 time: 0.5]\n"
      "  [vf sb(600, 300) on: trunk, by: leftAnkle]\n"
      "  [symm]\n"
      "  [gc]\n"
      "}\n";
  const scl::Program carried = compileOk(world +
                                         "push trunk force: (120, 0) at: 0.2 for: 0.3\n"
                                         "push crate force: (-300, 0) at: 0.1 for: 0.5\n"
                                         "push rope.2 force: (5, 0) at: 0.1 for: 0.2\n" +
                                         phase);
  const scl::Program plain = compileOk(world + phase);
  scl::RunSessionDef given = definitionFor(plain);
  scl::Push trunk;
  trunk.link = *plain.character->findLink("trunk");
  trunk.force = scl::Vec2(120.0, 0.0);
  trunk.start = 0.2;
  trunk.duration = 0.3;
  scl::Push crate;
  crate.force = scl::Vec2(-300.0, 0.0);
  crate.start = 0.1;
  crate.duration = 0.5;
  crate.sceneBody = 1;
  scl::Push rope = crate;
  rope.force = scl::Vec2(5.0, 0.0);
  rope.duration = 0.2;
  rope.sceneBody = 2;
  rope.part = 1;
  given.pushes = {trunk, crate, rope};
  scl::RunSession a(carried, definitionFor(carried)), b(plain, given);
  REQUIRE(a.pushes().size() == 3);
  CHECK(a.pushes()[0].fromScript);
  CHECK(a.pushes()[2].part == 1);
  CHECK_FALSE(b.pushes()[0].fromScript);
  a.run();
  b.run();
  CHECK(a.steps() == b.steps());
  CHECK(a.runner().simulation().stateHash() == b.runner().simulation().stateHash());
  // And pushed it is: not the run without pushes.
  scl::RunSession calm(plain, definitionFor(plain));
  calm.run();
  CHECK(calm.runner().simulation().stateHash() != a.runner().simulation().stateHash());
  // The script's pushes come first, then the caller's.
  scl::RunSessionDef both = definitionFor(carried);
  both.pushes = {trunk};
  const scl::RunSession c(carried, both);
  REQUIRE(c.pushes().size() == 4);
  CHECK_FALSE(c.pushes()[3].fromScript);
}

TEST_CASE("push statements: scl run lists them and gives --push's run") {
  scl::testing::TempDir dir;
  const std::string carried = dir / "carried.scl", plain = dir / "plain.scl";
  const std::string world =
      "scene pose: standing env: flat duration: 0.8\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n";
  std::ofstream(carried) << world << "push crate force: (-300, 0) at: 0.2 for: 0.5\n"
                         << "push trunk force: (100, 0) at: 0.1 for: 0.2\n{ (stand) }\n";
  std::ofstream(plain) << world << "{ (stand) }\n";
  const nlohmann::json a = runJson(carried);
  const nlohmann::json b =
      runJson(plain + " --push crate:-300,0@0.2+0.5 --push trunk:100,0@0.1+0.2");
  REQUIRE(a["pushes"].size() == 2);
  CHECK(a["pushes"][0] == nlohmann::json{{"link", nullptr},
                                         {"object", "crate"},
                                         {"part", nullptr},
                                         {"fx", -300.0},
                                         {"fy", 0.0},
                                         {"start", 0.2},
                                         {"duration", 0.5},
                                         {"source", "script"}});
  CHECK(b["pushes"][0]["source"] == "--push");
  CHECK(a["objects"] == b["objects"]);
  CHECK(a["distance"] == b["distance"]);
  CHECK(a["energy"] == b["energy"]);
  // Both apply: the script's and the command line's.
  const nlohmann::json more = runJson(carried + " --push trunk:10,0@0.1+0.1");
  REQUIRE(more["pushes"].size() == 3);
  CHECK(more["pushes"][2]["source"] == "--push");
  const scl::testing::Outcome text = scl::testing::runScl("run " + carried);
  CHECK_THAT(text.out, Catch::Contains("push               crate (-300.0, 0.0) N from 0.200 s "
                                       "for 0.500 s (script)"));
}
