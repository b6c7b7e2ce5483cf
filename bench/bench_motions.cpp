// Robustness of the motion scripts: each script's mark (acceptance.md) over 20 seeded
// ±2° perturbations of the initial pose and at 0.2 / 0.25 / 0.3 ms time steps, with the
// wall time and real-time factor of a nominal run. Prints a table; not a test.
//
//   bench_motions [NAME...]   (default: every motion whose script exists)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/motion_trial.h"
#include "scl/compile.h"

using namespace scl;

int main(int argc, char** argv) {
  const std::string source = SCL_SOURCE_DIR;
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty())
    for (const MotionMark& mark : motionMarks()) names.push_back(mark.name);
  std::printf("%-15s %-9s %-24s %-22s %s\n", "motion", "nominal", "dt 0.2 / 0.3 ms", "perturbed ±2° (20)",
              "wall s / real-time factor");
  for (const std::string& name : names) {
    const MotionMark* mark = findMotionMark(name);
    if (!mark) {
      std::fprintf(stderr, "bench_motions: unknown motion '%s'\n", name.c_str());
      return 2;
    }
    std::ifstream in(source + "/" + mark->script);
    if (!in) {
      std::printf("%-15s (no script %s)\n", name.c_str(), mark->script.c_str());
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    CompileResult compiled = compile(text.str(), mark->script);
    if (!compiled.ok()) {
      std::printf("%-15s (script does not compile)\n", name.c_str());
      continue;
    }
    MotionTrialResult nominal = runMotionTrial(*mark, *compiled.program);
    std::string steps;
    for (double dt : {0.0002, 0.0003}) {
      MotionTrial trial;
      trial.timeStep = dt;
      steps += runMotionTrial(*mark, *compiled.program, trial).met ? "met " : "MISSED ";
    }
    int met = 0;
    std::string failedSeeds;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      MotionTrial trial;
      trial.perturbDeg = 2.0;
      trial.seed = seed;
      if (runMotionTrial(*mark, *compiled.program, trial).met) {
        ++met;
      } else {
        failedSeeds += " " + std::to_string(seed);
      }
    }
    std::printf("%-15s %-9s %-24s %2d/20%-16s %.2f s / %.1fx\n", name.c_str(), nominal.met ? "met" : "MISSED",
                steps.c_str(), met, failedSeeds.empty() ? "" : (" (" + failedSeeds.substr(1, 12) + "…)").c_str(),
                nominal.wallSeconds, mark->duration / nominal.wallSeconds);
    if (!nominal.met) std::printf("%-15s   nominal: %s\n", "", nominal.failure.c_str());
    if (!failedSeeds.empty()) std::printf("%-15s   failed seeds:%s\n", "", failedSeeds.c_str());
  }
  return 0;
}
