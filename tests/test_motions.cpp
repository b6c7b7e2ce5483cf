// The motions perform (docs/marks.md): each script meets its mark, also at 0.2 and 0.3 ms
// steps and from perturbed initial poses, and its summary matches the stored golden
// figures, so a change that alters a motion is noticed.
//
// The 20-seed robustness sweep is a benchmark (bench/bench_motions), not a test.
// Regenerate the golden figures after an intended change with
//   SCL_UPDATE_GOLDEN=1 build/tests/test_motions
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "runtime/motion_trial.h"
#include "scl/compile.h"

using namespace scl;

namespace {

const std::string kSourceDir = SCL_SOURCE_DIR;
const std::string kGoldenPath = kSourceDir + "/tests/golden/motions.txt";

Program compileMotion(const MotionMark& mark) {
  std::ifstream in(kSourceDir + "/" + mark.script);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  CompileResult result = compile(text.str(), mark.script);
  REQUIRE(result.ok());
  return *result.program;
}

void requireMet(const MotionMark& mark, const MotionTrialResult& result) {
  CAPTURE(mark.name, result.failure, result.summary.fell.value_or(-1), result.summary.phaseChanges,
          result.distanceAtMark);
  CHECK(result.met);
}

// `name`: the golden line's name, the motion's (its figures at the default setting) or
// "motion@1ms-stable" (the fast setting's).
void checkGolden(const std::string& name, const MotionTrialResult& result) {
  auto figures = motionFigures(result);
  if (std::getenv("SCL_UPDATE_GOLDEN")) {
    auto golden = readGoldenFigures(kGoldenPath);
    golden[name] = figures;
    std::ofstream out(kGoldenPath);
    out << "# Summary figures of each motion script (tests/test_motions.cpp compares them).\n";
    for (const auto& [entry, values] : golden) {
      out << entry;
      for (const auto& [key, value] : values) out << " " << key << "=" << value;
      out << "\n";
    }
    WARN("golden figures of " << name << " rewritten");
    return;
  }
  auto golden = readGoldenFigures(kGoldenPath);
  REQUIRE(golden.count(name));
  for (const auto& [key, expected] : golden[name]) {
    CAPTURE(name, key);
    // Times within 0.05 s, heights within 2 cm, distances within 5 cm or 2 %, steps exact.
    CHECK(figures.at(key) == Approx(expected).margin(goldenTolerance(key, expected)));
  }
}

// Also asserts the mark from three seeded ±2° perturbations of the initial pose.
// `script`: another script checked against the motion's mark, its golden line named by
// the file's stem (scripts/thesis/4.10-walk-started.scl).
void checkMotion(const std::string& name, const std::string& script = "") {
  const MotionMark* mark = findMotionMark(name);
  REQUIRE(mark);
  MotionMark checked = *mark;
  if (!script.empty()) checked.script = script;
  Program program = compileMotion(checked);

  MotionTrialResult nominal = runMotionTrial(*mark, program);
  requireMet(*mark, nominal);
  checkGolden(script.empty() ? name : std::filesystem::path(script).stem().string(), nominal);

  for (double dt : {0.0002, 0.0003}) {
    CAPTURE(dt);
    MotionTrial trial;
    trial.timeStep = dt;
    requireMet(*mark, runMotionTrial(*mark, program, trial));
  }
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    MotionTrial trial;
    trial.perturbDeg = 2.0;
    trial.seed = seed;
    requireMet(*mark, runMotionTrial(*mark, program, trial));
  }
}

// The fast setting (docs/stepping.md): 1 ms steps with stable PD — the mark from the
// nominal start (with its golden figures, "NAME@1ms-stable") and three perturbed ones.
void checkFastMotion(const std::string& name) {
  const MotionMark* mark = findMotionMark(name);
  REQUIRE(mark);
  Program program = compileMotion(*mark);
  MotionTrial fast;
  fast.timeStep = 0.001;
  fast.stablePd = true;
  MotionTrialResult nominal = runMotionTrial(*mark, program, fast);
  requireMet(*mark, nominal);
  checkGolden(name + "@1ms-stable", nominal);
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    MotionTrial trial = fast;
    trial.perturbDeg = 2.0;
    trial.seed = seed;
    requireMet(*mark, runMotionTrial(*mark, program, trial));
  }
}

}  // namespace

TEST_CASE("the kip-up stands at 5 s", "[motions]") { checkMotion("kipup"); }

TEST_CASE("at 1 ms with stable PD every motion meets its mark", "[motions]") {
  for (const char* name : {"kipup", "sit-to-stand", "walk", "prone-to-stand", "stand"}) {
    CAPTURE(name);
    checkFastMotion(name);
  }
}

TEST_CASE("the thesis's walk, after its added start phase, meets the walk's mark", "[motions]") {
  checkMotion("walk", "scripts/thesis/4.10-walk-started.scl");
}

TEST_CASE("sit-to-stand stands at 3 s", "[motions]") { checkMotion("sit-to-stand"); }

TEST_CASE("the walk takes 20 steps without falling and covers 3 m in 10 s", "[motions]") {
  checkMotion("walk");
}

TEST_CASE("prone-to-stand stands at 6 s", "[motions]") { checkMotion("prone-to-stand"); }

TEST_CASE("quiet stance holds 10 s", "[motions]") { checkMotion("stand"); }

TEST_CASE("a trial that misses its mark says why") {
  // The do-nothing listing 4.1 from supine never stands: the mark must fail, not pass.
  CompileResult result = compile("scene pose: supine\n{ [leftShoulder 180] }\n", "idle.scl");
  REQUIRE(result.ok());
  MotionMark mark = *findMotionMark("sit-to-stand");
  MotionTrialResult trial = runMotionTrial(mark, *result.program);
  CHECK_FALSE(trial.met);
  CHECK(trial.failure.find("not standing") != std::string::npos);
}
