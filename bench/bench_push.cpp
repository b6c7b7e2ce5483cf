// The largest push each stance survives (docs/features.md, Results): a horizontal force at
// the trunk's centre of mass from 6 s for 0.1, 0.5 or 1 s, forward (+x) or backward, and
// the character must be standing at 12 s. Found by bisection to 1 N between 0 and 1000 N
// (survival is assumed monotonic in the force; the figures are the bisection's answer).
//
//   bench_push [--quick] [SCRIPT ...]   (default: scripts/stand.scl scripts/feature-stance.scl)
//
// Liu's standing character withstood 120 N for 0.5 s and 90 N for 1 s.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "runtime/run_session.h"
#include "scl/compile.h"

using namespace scl;

namespace {

constexpr double kPushStart = 6.0;
constexpr double kRunLength = 12.0;

bool survives(const Program& program, double force, double duration) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.pushes.push_back({kTrunk, Vec2(force, 0.0), kPushStart, duration});
  def.length.duration = kRunLength;
  def.metrics = metricsFor(*program.character);
  def.metrics->uprightFromStart = true;
  RunSession session(program, def);
  session.run();
  return session.summary().standing;
}

// Largest force in [0, high] N survived, to `resolution` N.
int largestPush(const Program& program, double sign, double duration, int high, int resolution) {
  int low = 0;
  if (!survives(program, 0.0, duration)) return -1;  // does not even stand
  while (high - low > resolution) {
    const int middle = (low + high) / 2;
    if (survives(program, sign * middle, duration))
      low = middle;
    else
      high = middle;
  }
  return low;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<std::string> scripts;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else
      scripts.emplace_back(argv[i]);
  }
  const std::string root = SCL_SOURCE_DIR;
  if (scripts.empty())
    scripts = {root + "/scripts/stand.scl", root + "/scripts/feature-stance.scl"};

  std::vector<Program> programs;
  for (const std::string& path : scripts) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    CompileResult result = compile(text.str(), path);
    if (!in || !result.ok()) {
      std::fprintf(stderr, "bench_push: cannot compile %s\n", path.c_str());
      return 1;
    }
    programs.push_back(std::move(*result.program));
  }

  const std::array<double, 3> durations = {0.1, 0.5, 1.0};
  const std::array<double, 2> signs = {1.0, -1.0};
  const int resolution = quick ? 16 : 1;
  struct Cell {
    size_t script;
    double duration, sign;
    int force = 0;
  };
  std::vector<Cell> cells;
  for (size_t s = 0; s < programs.size(); ++s)
    for (double duration : durations)
      for (double sign : signs) cells.push_back({s, duration, sign});

  const auto start = std::chrono::steady_clock::now();
  ThreadPool pool(0);
  pool.parallelFor(cells.size(), [&](size_t i) {
    Cell& cell = cells[i];
    cell.force = largestPush(programs[cell.script], cell.sign, cell.duration, 1000, resolution);
  });
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("largest push survived at the trunk from %.0f s (standing at %.0f s), N, to %d N\n",
              kPushStart, kRunLength, resolution);
  std::printf("%-32s %9s %9s %9s %9s %9s %9s\n", "script", "fwd 0.1s", "back 0.1s", "fwd 0.5s",
              "back 0.5s", "fwd 1s", "back 1s");
  for (size_t s = 0; s < programs.size(); ++s) {
    const std::string name = scripts[s].substr(scripts[s].find_last_of('/') + 1);
    std::printf("%-32s", name.c_str());
    for (const Cell& cell : cells)
      if (cell.script == s) std::printf(" %9d", cell.force);
    std::printf("\n");
  }
  std::printf("%-32s %9s %9s %9d %9d %9d %9d\n", "Liu (seed 004, Fig. 5.8)", "-", "-", 120, 120, 90,
              90);
  std::printf("(-1: does not stand without a push) %d threads, %.1f s wall\n", pool.threadCount(),
              wall);
  return 0;
}
