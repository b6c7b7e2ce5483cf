// The viewer's "optimize this phase" (key o) without a display: CMA-ES on one phase's `@`
// numbers in the background improves J on a small problem, the other phases' numbers held
// at the sliders' values; progress is read while it runs without waiting; a stop ends it
// between evaluations; user errors are messages. Starts threads (SCL_THREADED_TESTS).
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include <cmath>
#include <thread>

#include "scl/compile.h"
#include "tools/viewer/phase_optimizer.h"

namespace {

// Leaning 30° at the waist from the start falls forward; the optimizer should find a
// straighter waist. The second phase's number must not move.
constexpr const char* kScript =
    "scene pose: standing env: flat duration: 1\n"
    "{ (lean) [waist @30, knees @0] } after 5 { (rest) [waist @12] }\n";

scl::Program compileOrFail(const std::string& source) {
  scl::CompileResult result = scl::compile(source, "lean.scl");
  REQUIRE(result.ok());
  return *result.program;
}

scl::PhaseOptimizerDef problem(const std::string& phase, int generations,
                               const std::string& objective = scl::kStandingObjective) {
  scl::PhaseOptimizerDef def;
  def.scriptSource = kScript;
  def.scriptFile = "lean.scl";
  def.objectiveSource = *scl::builtInObjective(objective, compileOrFail(kScript));
  def.objectiveFile = "<built-in>";
  def.phase = phase;
  def.start = {30.0, 0.0, 14.0};  // the sliders: the rest phase's waist moved to 14
  def.generations = generations;
  def.threads = 2;
  def.seed = 3;
  return def;
}

}  // namespace

TEST_CASE("viewer phase optimizer: the built-in objectives parse for a script",
          "[viewer][optimizer]") {
  const scl::Program program = compileOrFail(kScript);
  for (const char* name : {scl::kStandingObjective, scl::kAirborneObjective}) {
    const std::optional<std::string> text = scl::builtInObjective(name, program);
    REQUIRE(text);
    CHECK_THAT(*text, Catch::Contains("duration 1\n"));
    const scl::ProblemResult resolved = scl::makeProblem(kScript, "lean.scl", *text, name);
    INFO(scl::renderProblemDiagnostics(resolved.diagnostics, "lean.scl", kScript, name, *text));
    CHECK(resolved.problem.has_value());
  }
  CHECK_THAT(*scl::builtInObjective(scl::kStandingObjective, program),
             Catch::Contains("mean head when time > 0\n"));
  CHECK_FALSE(scl::builtInObjective("tallest", program));
}

TEST_CASE("viewer phase optimizer: a few generations improve J, read without waiting",
          "[viewer][optimizer]") {
  scl::PhaseOptimizer optimizer(problem("lean", 4));
  CHECK(optimizer.parameterNames() == std::vector<std::string>{"lean.pd.waist", "lean.pd.knees"});
  // The viewer's frame loop: progress from atomics, the best by try_lock, never waiting.
  int frames = 0;
  while (optimizer.status().running) {
    (void)optimizer.tryBest();
    ++frames;
    std::this_thread::yield();
  }
  optimizer.wait();
  CHECK(frames >= 1);
  const scl::PhaseOptimizerStatus status = optimizer.status();
  CHECK_FALSE(status.running);
  CHECK(status.generation == 4);
  CHECK(status.evaluations == 1 + 4 * 6);  // the start, then 4 + floor(3 ln 2) a generation
  CHECK(optimizer.endReason().empty());
  INFO("start J " << status.startJ << ", best J " << status.bestJ);
  REQUIRE(std::isfinite(status.startJ));
  CHECK(status.bestJ < status.startJ);
  const std::optional<std::vector<double>> best = optimizer.tryBest();
  REQUIRE(best);
  REQUIRE(best->size() == 3);
  CHECK((*best)[0] < 30.0);   // straighter
  CHECK((*best)[2] == 14.0);  // the other phase's number stays the slider's
}

TEST_CASE("viewer phase optimizer: a stop ends the run between evaluations",
          "[viewer][optimizer]") {
  scl::PhaseOptimizer optimizer(problem("lean", 100000));
  while (optimizer.status().evaluations < 2) std::this_thread::yield();
  optimizer.stop();
  optimizer.wait();
  CHECK_FALSE(optimizer.status().running);
  CHECK(optimizer.status().generation < 100000);
  CHECK(optimizer.endReason() == "stopped");
  // Destroying a running optimizer stops and joins it too (the viewer closing).
  { const scl::PhaseOptimizer running(problem("lean", 100000)); }
}

TEST_CASE("viewer phase optimizer: user errors are messages", "[viewer][optimizer]") {
  scl::PhaseOptimizerDef none = problem("stand", 3);
  CHECK_THROWS_WITH(scl::PhaseOptimizer(none),
                    Catch::Contains("phase 'stand' has no @ numbers to optimize"));
  scl::PhaseOptimizerDef bad = problem("lean", 3);
  bad.objectiveSource = "duration 1\nterm 1 enrgy\n";
  bad.objectiveFile = "bad.objective";
  CHECK_THROWS_WITH(scl::PhaseOptimizer(bad), Catch::Contains("unknown term 'enrgy'"));
}

#endif  // SCL_HAVE_VIEWER
