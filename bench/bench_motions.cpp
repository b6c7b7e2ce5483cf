// Robustness of the motion scripts: each script's mark (docs/marks.md) over 20 seeded
// ±2° perturbations of the initial pose and at 0.2 / 0.25 / 0.3 ms time steps, with the
// wall time and real-time factor of a nominal run. Prints a table; not a test.
//
//   bench_motions [--seeds N] [--degrees D] [NAME...]
//     NAME: a motion of runtime/motion_trial.cpp (default: every one whose script exists)
//     --seeds N: perturbation seeds 1..N (default 20); --degrees D: ±D° (default 2)
#include <cstdio>
#include <cstdlib>
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
  std::vector<std::string> names;
  int seeds = 20;
  double degrees = 2.0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seeds" || arg == "--degrees") && i + 1 < argc) {
      const double value = std::atof(argv[++i]);
      if (!(value > 0)) {
        std::fprintf(stderr, "bench_motions: %s needs a positive number\n", arg.c_str());
        return 2;
      }
      if (arg == "--seeds")
        seeds = static_cast<int>(value);
      else
        degrees = value;
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr,
                   "bench_motions: unknown option '%s' (usage: bench_motions [--seeds N] "
                   "[--degrees D] [NAME...])\n",
                   arg.c_str());
      return 2;
    } else {
      names.push_back(arg);
    }
  }
  if (names.empty())
    for (const MotionMark& mark : motionMarks()) names.push_back(mark.name);
  char perturbedLabel[64];
  std::snprintf(perturbedLabel, sizeof perturbedLabel, "perturbed ±%g° (%d)", degrees, seeds);
  std::printf("%-15s %-9s %-24s %-22s %s\n", "motion", "nominal", "dt 0.2 / 0.3 ms", perturbedLabel,
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
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(seeds); ++seed) {
      MotionTrial trial;
      trial.perturbDeg = degrees;
      trial.seed = seed;
      if (runMotionTrial(*mark, *compiled.program, trial).met) {
        ++met;
      } else {
        failedSeeds += " " + std::to_string(seed);
      }
    }
    std::printf("%-15s %-9s %-24s %2d/%-3d%-16s %.2f s / %.1fx\n", name.c_str(),
                nominal.met ? "met" : "MISSED", steps.c_str(), met, seeds,
                failedSeeds.empty() ? "" : (" (" + failedSeeds.substr(1, 12) + "…)").c_str(),
                nominal.wallSeconds, mark->duration / nominal.wallSeconds);
    if (!nominal.met) std::printf("%-15s   nominal: %s\n", "", nominal.failure.c_str());
    if (!failedSeeds.empty()) std::printf("%-15s   failed seeds:%s\n", "", failedSeeds.c_str());
  }
  return 0;
}
