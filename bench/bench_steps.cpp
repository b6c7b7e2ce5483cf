// Time step against fidelity (docs/stepping.md): every motion's mark (docs/marks.md) at
// 0.25, 0.5, 1 and 2 ms steps with explicit and with stable PD — nominal rise time, highest
// pelvis, standing, the mark from 20 seeded ±2° perturbed starts, and the real-time factor
// of the nominal run. Prints a table; not a test.
//
//   bench_steps [--seeds N] [--threads N] [--goals GENERATIONS] [NAME...]
//     NAME: a motion (default: all)
//     --goals G: then, side by side, the fast setting's goals (docs/stepping.md): the
//       kip-up's real-time factor at 1 ms with stable PD on one thread (best of 5), and the
//       wall time of a G-generation kip-up optimization at that setting
//       (scripts/optimize/kipup.scl against the thesis objective with `trial dt: 0.001 pd:
//       stable`, seed 2, 2 threads;
//       1000 generations: about 9 minutes on 2 cores).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "optimize/optimizer.h"
#include "runtime/motion_trial.h"
#include "scl/compile.h"

using namespace scl;

namespace {

struct Cell {
  size_t motion = 0;
  double timeStep = 0.0;
  bool stable = false;
  MotionTrialResult nominal;
  int met = 0;
};

std::string optionalSeconds(const std::optional<double>& value) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *value);
  return text;
}

std::string readSource(const std::string& relativePath) {
  std::ifstream in(std::string(SCL_SOURCE_DIR) + "/" + relativePath);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The fast setting's goals, measured one after the other on an otherwise idle machine.
int printGoals(int generations) {
  const MotionMark& kipup = *findMotionMark("kipup");
  CompileResult compiled = compile(readSource(kipup.script), kipup.script);
  if (!compiled.ok()) return 1;
  MotionTrial fast;
  fast.timeStep = 0.001;
  fast.stablePd = true;
  double best = 0.0, bestWithSetup = 0.0;
  for (int round = 0; round < 5; ++round) {
    const MotionTrialResult result = runMotionTrial(kipup, *compiled.program, fast);
    best = std::max(best, kipup.duration / (result.wallSeconds - result.setupSeconds));
    bestWithSetup = std::max(bestWithSetup, kipup.duration / result.wallSeconds);
  }
  std::printf("\ngoals of the fast setting (1 ms, stable PD):\n");
  std::printf(
      "  kip-up, one thread, best of 5:  %.1fx real time (goal >= 80x); %.1fx with the "
      "settle before t = 0\n",
      best, bestWithSetup);

  const std::string script = "scripts/optimize/kipup.scl",
                    objective = "scripts/optimize/kipup.objective";
  ProblemResult made =
      makeProblem(readSource(script), script,
                  readSource(objective) + "\ntrial dt: 0.001 pd: stable\n", objective);
  if (!made.problem) return 1;
  OptimizeSettings settings;
  settings.generations = generations;
  settings.seed = 2;
  settings.threads = 2;
  // A directory of this process's own: removing it touches nothing anyone else made.
  settings.outDir = std::filesystem::temp_directory_path() /
                    ("scl-bench-steps-optimize-" + std::to_string(::getpid()));
  std::filesystem::remove_all(settings.outDir);
  const auto start = std::chrono::steady_clock::now();
  OptimizeResult result = Optimizer(*made.problem, settings).run();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove_all(settings.outDir);
  const GenerationRecord& last = result.log.back();
  const int seconds = static_cast<int>(std::lround(wall));
  std::printf(
      "  kip-up optimization, %d generations (%lld evaluations), 2 threads: %d min %02d s, "
      "best J %.3f (goal <= 10 min for 1000)\n",
      last.generation, static_cast<long long>(last.evaluations), seconds / 60, seconds % 60,
      last.best);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 20, threads = 0, goalGenerations = 0;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seeds" || arg == "--threads" || arg == "--goals") && i + 1 < argc) {
      (arg == "--seeds"     ? seeds
       : arg == "--threads" ? threads
                            : goalGenerations) = std::atoi(argv[++i]);
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr,
                   "usage: bench_steps [--seeds N] [--threads N] [--goals GENERATIONS] "
                   "[NAME...]\n");
      return 2;
    } else {
      names.push_back(arg);
    }
  }
  if (names.empty())
    for (const MotionMark& mark : motionMarks()) names.push_back(mark.name);

  std::vector<const MotionMark*> marks;
  std::vector<Program> programs;
  for (const std::string& name : names) {
    const MotionMark* mark = findMotionMark(name);
    if (!mark) {
      std::fprintf(stderr, "bench_steps: unknown motion '%s'\n", name.c_str());
      return 2;
    }
    const std::string path = std::string(SCL_SOURCE_DIR) + "/" + mark->script;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    CompileResult result = compile(text.str(), path);
    if (!in || !result.ok()) {
      std::fprintf(stderr, "bench_steps: cannot compile %s\n", path.c_str());
      return 1;
    }
    marks.push_back(mark);
    programs.push_back(std::move(*result.program));
  }

  std::vector<Cell> cells;
  for (size_t m = 0; m < marks.size(); ++m)
    for (double dt : {0.00025, 0.0005, 0.001, 0.002})
      for (bool stable : {false, true}) cells.push_back({m, dt, stable, {}, 0});
  // One task per (cell, seed): seed 0 is the nominal start.
  const size_t perCell = static_cast<size_t>(seeds) + 1;
  std::vector<char> met(cells.size() * perCell, 0);
  const auto start = std::chrono::steady_clock::now();
  ThreadPool pool(threads);
  pool.parallelFor(met.size(), [&](size_t task) {
    Cell& cell = cells[task / perCell];
    MotionTrial trial;
    trial.timeStep = cell.timeStep;
    trial.stablePd = cell.stable;
    trial.seed = task % perCell;
    trial.perturbDeg = trial.seed == 0 ? 0.0 : 2.0;
    MotionTrialResult result = runMotionTrial(*marks[cell.motion], programs[cell.motion], trial);
    met[task] = result.met ? 1 : 0;
    if (trial.seed == 0) cell.nominal = std::move(result);
  });
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (size_t c = 0; c < cells.size(); ++c)
    for (size_t s = 1; s < perCell; ++s) cells[c].met += met[c * perCell + s];

  std::printf("%-15s %6s %-8s %-7s %9s %8s %-9s %-12s %s\n", "motion", "dt ms", "pd", "nominal",
              "rise s", "pelvis m", "standing", "perturbed", "real-time factor (nominal)");
  for (const Cell& cell : cells) {
    const MotionMark& mark = *marks[cell.motion];
    const MotionSummary& summary = cell.nominal.summary;
    char perturbed[32];
    std::snprintf(perturbed, sizeof perturbed, "%d/%d", cell.met, seeds);
    std::printf("%-15s %6.2f %-8s %-7s %9s %8.3f %-9s %-12s %.1fx\n", mark.name.c_str(),
                cell.timeStep * 1e3, cell.stable ? "stable" : "explicit",
                cell.nominal.met ? "met" : "MISSED", optionalSeconds(summary.riseTime).c_str(),
                summary.maxPelvisHeight, summary.standing ? "yes" : "no", perturbed,
                mark.duration / cell.nominal.wallSeconds);
  }
  std::printf("(%d threads, %.1f s wall; real-time factors are of runs sharing the threads)\n",
              pool.threadCount(), wall);
  return goalGenerations > 0 ? printGoals(goalGenerations) : 0;
}
