// Every script in scripts/ and scripts/ports/ says in its header what it does, in
// `// outcome:` lines a program can read (runtime/outcomes.h, docs/motions.md), and does
// it: each line from the nominal start at the default step for the script's scene
// duration, and `N of 20 perturbed starts` by the sweep of `scl run --seeds 1-20`.
// A script with no outcome line fails: a new example cannot rot unnoticed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "runtime/motion_trial.h"
#include "runtime/outcomes.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "scl/compile.h"
#include "tools/run_sweep.h"

namespace {

namespace fs = std::filesystem;
using namespace scl;

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> examples() {
  std::vector<fs::path> paths;
  for (const char* folder : {"/scripts", "/scripts/ports"})
    for (const auto& entry : fs::directory_iterator(std::string(SCL_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".scl") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

MotionSummary runToEnd(const Program& program) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length = defaultRunLength(program);
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  RunSession session(program, def);
  session.run();
  return session.summary();
}

}  // namespace

TEST_CASE("every example script does what its header says", "[examples]") {
  const std::vector<fs::path> paths = examples();
  REQUIRE(paths.size() >= 10);
  for (const fs::path& path : paths) {
    INFO(path.string());
    const std::string source = readFile(path);
    CompileResult compiled = compile(source, path.string());
    REQUIRE(compiled.ok());
    const OutcomeLines outcomes = readOutcomeLines(source, path.string(), *compiled.program);
    CHECK(outcomes.errors.empty());
    CHECK_FALSE(outcomes.claims.empty());  // every example declares what it does
    std::optional<MotionSummary> summary;  // computed once, when a line needs it
    for (const OutcomeClaim& claim : outcomes.claims) {
      INFO("outcome: " << claim.text);
      if (claim.kind == OutcomeKind::Mark) {
        const MotionMark* mark = findMotionMark(claim.mark);
        REQUIRE(mark);
        const MotionTrialResult result = runMotionTrial(*mark, *compiled.program);
        INFO(result.failure);
        CHECK(result.met);
        continue;
      }
      if (claim.kind == OutcomeKind::PerturbedQuota) continue;  // the next test case
      if (!summary) summary = runToEnd(*compiled.program);
      CHECK(outcomeHolds(claim, *summary) == true);
    }
  }
}

// The same sweep as `scl run SCRIPT --seeds 1-20` (perturbed by ±2°), on one thread (the
// sweep's threads are tested in test_run_sweep). Hidden: tests/CMakeLists.txt runs it once
// per script with a quota line, naming the script in SCL_EXAMPLE (so that CTest spreads
// the sweeps over the cores, and the sanitizer builds can leave them out); run without
// it, it sweeps every such script.
TEST_CASE("examples hold from perturbed starts as often as their headers say",
          "[.perturbed][examples]") {
  const char* only = std::getenv("SCL_EXAMPLE");
  int checked = 0;
  for (const fs::path& path : examples()) {
    if (only && fs::relative(path, SCL_SOURCE_DIR) != fs::path(only)) continue;
    const std::string source = readFile(path);
    CompileResult compiled = compile(source, path.string());
    REQUIRE(compiled.ok());
    const OutcomeLines outcomes = readOutcomeLines(source, path.string(), *compiled.program);
    INFO(path.string());
    if (only) REQUIRE(outcomes.quota());  // CMake chose it for its quota line
    if (!outcomes.quota()) continue;
    SweepDef sweep;
    sweep.session.simulation = simulationDefFor(*compiled.program);
    sweep.session.length = defaultRunLength(*compiled.program);
    sweep.session.metrics =
        metricsFor(*compiled.program->character, sweep.session.simulation.scene);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) sweep.seeds.push_back(seed);
    const SweepResult result = runSweep(*compiled.program, outcomes, sweep);
    INFO(sweepText(path.string(), sweep, outcomes, result));
    CHECK(result.ran() == 20);
    CHECK(result.claimsHold(outcomes));
    ++checked;
  }
  CHECK(checked >= (only ? 1 : 5));
}

// docs/scene.md's examples: each command the page shows, run as written from the top of
// the source tree, holds the script's outcome lines from as many of the twenty starts as
// the page says.
TEST_CASE("the world examples of docs/scene.md run as the page says", "[examples][docs]") {
  const std::string page = testing::readText(SCL_SOURCE_DIR "/docs/scene.md");
  const std::string examples = page.substr(page.find("## Examples"));
  struct Example {
    std::string script;
    int starts;  // of 20 that meet every outcome line
  };
  for (const Example& example :
       {Example{"scripts/climb-step.scl", 20}, Example{"scripts/ball-hit.scl", 20},
        Example{"scripts/moving-platform.scl", 20}}) {
    const std::string command = "scl run " + example.script + " --seeds 1-20 --perturb 2";
    INFO(command);
    CHECK(examples.find("\n" + command + "\n") != std::string::npos);
    // The paragraph above the command gives the same count.
    const size_t named = examples.find("`" + example.script + "`");
    REQUIRE(named != std::string::npos);
    const std::string paragraph = examples.substr(named, examples.find("```", named) - named);
    CHECK(paragraph.find(std::to_string(example.starts) + " of 20 perturbed starts") !=
          std::string::npos);
    testing::RunOptions top;
    top.workingDirectory = SCL_SOURCE_DIR;
    const testing::Outcome run = testing::runScl(command.substr(4), top);
    INFO(run.out << run.err);
    CHECK(run.exitCode == 0);
    CHECK(run.out.find("\n" + std::to_string(example.starts) +
                       " of 20 starts meet every outcome line") != std::string::npos);
  }
}

// docs/scene.md's filmstrips: each figure the Examples show is the output of the command
// printed under it, run from the top of the source tree (bit for bit: runs are
// deterministic), so a change to a script or to the drawing that leaves a figure stale
// fails here.
TEST_CASE("the filmstrips of docs/scene.md are the output of the commands under them",
          "[examples][docs]") {
  const std::string page = testing::readText(SCL_SOURCE_DIR "/docs/scene.md");
  const std::string examples = page.substr(page.find("## Examples"));
  const std::string prefix = "\nscl run ";
  const std::string flag = " --filmstrip docs/figures/";
  int checked = 0;
  for (size_t at = examples.find(prefix); at != std::string::npos;
       at = examples.find(prefix, at + 1)) {
    const std::string command = examples.substr(at + 1, examples.find('\n', at + 1) - at - 1);
    const size_t figureAt = command.find(flag);
    if (figureAt == std::string::npos) continue;
    const size_t nameStart = figureAt + flag.size();
    const std::string figure = command.substr(nameStart, command.find(' ', nameStart) - nameStart);
    INFO(command);
    CHECK(examples.find("](figures/" + figure + ")") != std::string::npos);
    testing::TempDir dir;
    const std::string args = command.substr(4, figureAt + std::string(" --filmstrip ").size() - 4) +
                             (dir / figure) + command.substr(nameStart + figure.size());
    testing::RunOptions top;
    top.workingDirectory = SCL_SOURCE_DIR;
    const testing::Outcome run = testing::runScl(args, top);
    INFO(run.out << run.err);
    REQUIRE(run.exitCode == 0);
    // Compared as a boolean: Catch would print both whole files.
    const bool current = testing::readText(dir / figure) ==
                         testing::readText(SCL_SOURCE_DIR "/docs/figures/" + figure);
    INFO("docs/figures/" + figure + " is stale: regenerate it with the command above");
    CHECK(current);
    ++checked;
  }
  CHECK(checked == 3);
}
