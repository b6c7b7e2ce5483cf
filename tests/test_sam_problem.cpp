// Problem files (scl/problem.h) and their binding to a script (optimize/sam/sam_problem.h):
// the thesis's sit-to-stand problem, the errors a problem file can have, and the
// simulation that labels a point.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "optimize/sam/sam_problem.h"
#include "scl/compile.h"
#include "scl/problem.h"

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

scl::SamProblem thesisProblem() {
  const std::string script = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand-sam.scl";
  scl::CompileResult compiled = scl::compile(readFile(script), script);
  REQUIRE(compiled.ok());
  scl::ProblemParseResult parsed = scl::parseProblem(
      readFile(SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand.problem"), "p.problem");
  REQUIRE(parsed.ok());
  return scl::bindSamProblem(std::move(*compiled.program), std::move(*parsed.problem));
}

// The first error of a problem file, as "line:column: message".
std::string firstError(const std::string& source) {
  const scl::ProblemParseResult parsed = scl::parseProblem(source, "p.problem");
  for (const scl::Diagnostic& diagnostic : parsed.diagnostics)
    if (diagnostic.severity == scl::Severity::Error)
      return std::to_string(diagnostic.location.line) + ":" +
             std::to_string(diagnostic.location.column) + ": " + diagnostic.message;
  return "";
}

const std::string kValid =
    "state height 0.15 0.75 scale 10 start 0.45\n"
    "action lean.pd.waist 0 90 scale 1/40\n"
    "compatible standing at end\n";

}  // namespace

TEST_CASE("problem files: the thesis's sit-to-stand problem", "[sam]") {
  const scl::SamProblem problem = thesisProblem();
  CHECK(problem.columns ==
        std::vector<std::string>{"height", "lean.pd.waist", "lean.pd.shoulders"});
  CHECK(problem.sampler.start == std::vector<double>{0.45, 30, 20});
  CHECK(problem.sampler.scale == std::vector<double>{10, 1.0 / 40, 1.0 / 40});
  CHECK(problem.sampler.lower == std::vector<double>{0.15, 0, 0});
  CHECK(problem.sampler.upper == std::vector<double>{0.75, 90, 180});
  CHECK(problem.sampler.paths == 4);
  CHECK(problem.sampler.population == 7);
  CHECK(problem.duration == 2.5);
  CHECK(problem.scene.chair());
  // A point sets the chair and the script's numbers.
  const std::vector<double> point = {0.3, 45, 90};
  REQUIRE(scl::sceneAt(problem, point).chair());
  CHECK(scl::sceneAt(problem, point).chair()->seatHeight == 0.3);
  CHECK(scl::programAt(problem, point).parameterValues() == std::vector<double>{45, 90});
}

TEST_CASE("problem files: each mistake is a diagnostic at its place", "[sam]") {
  CHECK(firstError(kValid).empty());
  CHECK(firstError("stat height 0.15 0.75 scale 10 start 0.45\n" + kValid) ==
        "1:1: unknown statement 'stat'; did you mean 'state'?");
  CHECK(
      firstError("term 1 energy\n" + kValid).rfind("1:1: 'term' belongs in an objective file", 0) ==
      0);
  CHECK(firstError("state hight 0.15 0.75 scale 10 start 0.45\n") ==
        "1:7: unknown state quantity 'hight'; did you mean 'height'? (state quantities: height, "
        "the chair's seat height in m)");
  CHECK(firstError("state height 0.75 0.15 scale 10 start 0.45\n") ==
        "1:14: the range must have lower < upper");
  CHECK(firstError("state height 0.15 0.75 start 0.45\n") ==
        "1:24: expected 'scale' and the distance scale (e.g. scale 1/40), found 'start'");
  CHECK(firstError("state height 0.15 0.75 scale 10 start 0.9\n") ==
        "1:39: the start must lie inside the range");
  CHECK(firstError(kValid + "compatible standing\n") ==
        "4:12: expected 'standing at end' or 'no fall' after 'compatible', found 'standing'");
  CHECK(firstError(kValid + "paths 0\n") ==
        "4:7: the number of paths must be a whole number from 1 to 64");
  CHECK(firstError(kValid + "action lean.pd.waist 0 90 scale 1/40\n") ==
        "4:8: the action 'lean.pd.waist' is given twice");
  CHECK(firstError("compatible no fall\n") ==
        "0:0: the problem has no state (add a line such as "
        "'state height 0.15 0.75 scale 10 start 0.45')");
}

TEST_CASE("problem files: binding to the script reports what does not fit", "[sam]") {
  const std::string script = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand-sam.scl";
  auto bindWith = [&](const std::string& problemText) {
    scl::CompileResult compiled = scl::compile(readFile(script), script);
    REQUIRE(compiled.ok());
    scl::ProblemParseResult parsed = scl::parseProblem(problemText, "p.problem");
    REQUIRE(parsed.ok());
    return scl::bindSamProblem(std::move(*compiled.program), std::move(*parsed.problem));
  };
  const std::string chair = "scene pose: sitting env: chair\nduration 2.5\n";
  CHECK_THROWS_WITH(bindWith(chair + "state height 0.15 0.75 scale 10 start 0.45\n"
                                     "action lean.pd.waste 0 90 scale 1/40\n"
                                     "compatible standing at end\n"),
                    Catch::Contains("p.problem:4:1: unknown parameter 'lean.pd.waste'; did you "
                                    "mean 'lean.pd.waist'?"));
  CHECK_THROWS_WITH(bindWith(chair + "state height 0.15 0.75 scale 10 start 0.45\n"
                                     "action lean.pd.waist 40 90 scale 1/40\n"
                                     "compatible standing at end\n"),
                    Catch::Contains("the script's value of 'lean.pd.waist', 30, lies outside"));
  CHECK_THROWS_WITH(bindWith("scene pose: standing\nduration 2.5\n" + kValid),
                    Catch::Contains("the scene has no chair"));
  CHECK_THROWS_WITH(
      bindWith(chair + "state height 0.01 0.75 scale 10 start 0.45\n"
                       "action lean.pd.waist 0 90 scale 1/40\n"
                       "compatible standing at end\n"),
      Catch::Contains("p.problem:3:1: the range of 'height' must lie in [0.05, 1.5] m"));
}

TEST_CASE("problem files: a point is labelled by simulating it", "[sam]") {
  const scl::SamProblem problem = thesisProblem();
  // The thesis's starting point stands up; the same action from a chair 0.15 m high
  // (knees folded far past the lean's reach) does not.
  CHECK(scl::samCompatible(problem, {0.45, 30, 20}));
  CHECK_FALSE(scl::samCompatible(problem, {0.15, 0, 0}));
}

TEST_CASE("withSceneArgument sets one scene argument and keeps every other byte", "[sam]") {
  using scl::withSceneArgument;
  // Replaced in place, comments and layout kept.
  CHECK(withSceneArgument("scene pose: sitting height: 0.45 // low\n{ (a) [hips 0] }\n", "height",
                          "0.16") == "scene pose: sitting height: 0.16 // low\n{ (a) [hips 0] }\n");
  // Added at the header's end, before a comment, a define or the first phase.
  CHECK(withSceneArgument("scene pose: sitting env: chair  // seat\n{ (a) [hips 0] }\n", "height",
                          "0.3") ==
        "scene pose: sitting env: chair height: 0.3  // seat\n{ (a) [hips 0] }\n");
  CHECK(withSceneArgument("scene pose: sitting\ndefine b { [hips 0] }\n{ (a) [b] }\n", "duration",
                          "2.5") ==
        "scene pose: sitting duration: 2.5\ndefine b { [hips 0] }\n{ (a) [b] }\n");
  CHECK(withSceneArgument("scene character: \"my body.character\"\n{ (a) }\n", "height", "1") ==
        "scene character: \"my body.character\" height: 1\n{ (a) }\n");
  // No header: one is added on top.
  CHECK(withSceneArgument("// a script\n{ (a) [hips 0] }\n", "height", "0.2") ==
        "scene height: 0.2\n// a script\n{ (a) [hips 0] }\n");
  // A `height` elsewhere (a joint named so in a phase) is not the header's.
  CHECK(withSceneArgument("scene pose: sitting\n{ (a) [vf (0, 1) on: trunk] }\n", "pose",
                          "standing") == "scene pose: standing\n{ (a) [vf (0, 1) on: trunk] }\n");
}
