// Time step against fidelity (docs/stepping.md): every motion's mark (docs/marks.md) at
// 0.25, 0.5, 1 and 2 ms steps with explicit and with stable PD — nominal rise time, highest
// pelvis, standing, the mark from 20 seeded ±2° perturbed starts, and the real-time factor
// of the nominal run. Prints a table; not a test.
//
//   bench_steps [--seeds N] [--threads N] [NAME...]   (NAME: a motion; default: all)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "optimize/thread_pool.h"
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

}  // namespace

int main(int argc, char** argv) {
  int seeds = 20, threads = 0;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seeds" || arg == "--threads") && i + 1 < argc) {
      (arg == "--seeds" ? seeds : threads) = std::atoi(argv[++i]);
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr, "usage: bench_steps [--seeds N] [--threads N] [NAME...]\n");
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
  return 0;
}
