// Robustness of the motion scripts: each script's mark (docs/marks.md) over 20 seeded
// ±2° perturbations of the initial pose and at 0.2 / 0.25 / 0.3 ms time steps, with the
// wall time and real-time factor of a nominal run. Prints a table; not a test.
//
//   bench_motions [--seeds N] [--degrees D] [--character NAME|FILE] [--script FILE]
//                 [--why] [NAME...]
//     NAME: a motion of runtime/motion_trial.cpp (default: every one whose script exists)
//     --seeds N: perturbation seeds 1..N (default 20); --degrees D: ±D° (default 2)
//     --character: the body the scripts are bound to and simulated with, a built-in
//       (human, child, robot) or a .character file; the marks are scaled to it
//       (docs/marks.md, Other characters). Default: the human.
//     --script FILE: run FILE (e.g. a port in scripts/ports/) against the mark NAME
//       instead of the mark's own script; needs exactly one NAME.
//     --why: print each failed trial's reason.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/motion_trial.h"
#include "scl/character_file.h"
#include "scl/compile.h"
#include "scl/diagnostics.h"

using namespace scl;

namespace {

// The script compiled for `character` (which wins over its `scene character:`).
std::optional<Program> compileFor(const std::string& source, const std::string& name,
                                  std::shared_ptr<const Character> character) {
  CompileResult result = compile(source, name, CompileOptions{std::move(character), {}});
  if (!result.ok()) {
    std::fprintf(stderr, "%s", renderDiagnostics(result.diagnostics, source).c_str());
    return std::nullopt;
  }
  return std::move(result.program);
}

int usage(const std::string& message) {
  std::fprintf(stderr,
               "bench_motions: %s (usage: bench_motions [--seeds N] [--degrees D] "
               "[--character NAME|FILE] [--script FILE] [--why] [NAME...])\n",
               message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string source = SCL_SOURCE_DIR;
  std::vector<std::string> names;
  int seeds = 20;
  double degrees = 2.0;
  std::string characterName = "human";
  std::string scriptOverride;
  bool why = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seeds" || arg == "--degrees") && i + 1 < argc) {
      const double value = std::atof(argv[++i]);
      if (!(value > 0)) return usage(arg + " needs a positive number");
      if (arg == "--seeds")
        seeds = static_cast<int>(value);
      else
        degrees = value;
    } else if (arg == "--character" && i + 1 < argc) {
      characterName = argv[++i];
    } else if (arg == "--script" && i + 1 < argc) {
      scriptOverride = argv[++i];
    } else if (arg == "--why") {
      why = true;
    } else if (arg.rfind("--", 0) == 0) {
      return usage("unknown option '" + arg + "'");
    } else {
      names.push_back(arg);
    }
  }
  const CharacterLoad load = loadCharacter(characterName, std::filesystem::current_path());
  if (!load.ok()) {
    std::fprintf(stderr, "bench_motions: %s\n", renderDiagnostics(load.diagnostics, "").c_str());
    return 2;
  }
  if (!scriptOverride.empty() && names.size() != 1)
    return usage("--script needs exactly one motion NAME, whose mark it is checked against");
  if (names.empty())
    for (const MotionMark& mark : motionMarks()) names.push_back(mark.name);
  std::printf("character %s (%.2f kg)\n", load.character->name.c_str(), load.character->totalMass);
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
    const std::string script =
        scriptOverride.empty() ? source + "/" + mark->script : scriptOverride;
    std::ifstream in(script);
    if (!in) {
      std::printf("%-15s (no script %s)\n", name.c_str(), script.c_str());
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::optional<Program> program = compileFor(text.str(), script, load.character);
    if (!program) {
      std::printf("%-15s (script does not compile)\n", name.c_str());
      continue;
    }
    MotionTrialResult nominal = runMotionTrial(*mark, *program);
    std::string steps;
    for (double dt : {0.0002, 0.0003}) {
      MotionTrial trial;
      trial.timeStep = dt;
      steps += runMotionTrial(*mark, *program, trial).met ? "met " : "MISSED ";
    }
    int met = 0;
    std::string failedSeeds;
    std::vector<std::string> reasons;
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(seeds); ++seed) {
      MotionTrial trial;
      trial.perturbDeg = degrees;
      trial.seed = seed;
      const MotionTrialResult result = runMotionTrial(*mark, *program, trial);
      if (result.met) {
        ++met;
      } else {
        failedSeeds += " " + std::to_string(seed);
        reasons.push_back("seed " + std::to_string(seed) + ": " + result.failure);
      }
    }
    std::printf("%-15s %-9s %-24s %2d/%-3d%-16s %.2f s / %.1fx\n", name.c_str(),
                nominal.met ? "met" : "MISSED", steps.c_str(), met, seeds,
                failedSeeds.empty() ? "" : (" (" + failedSeeds.substr(1, 12) + "…)").c_str(),
                nominal.wallSeconds, mark->duration / nominal.wallSeconds);
    if (!nominal.met) std::printf("%-15s   nominal: %s\n", "", nominal.failure.c_str());
    if (!failedSeeds.empty()) std::printf("%-15s   failed seeds:%s\n", "", failedSeeds.c_str());
    if (why)
      for (const std::string& reason : reasons) std::printf("%-15s   %s\n", "", reason.c_str());
  }
  return 0;
}
