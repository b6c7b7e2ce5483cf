// The wall time of `scl run SCRIPT --seeds 1-20` (tools/run_sweep.h) on 1 and on 2 threads
// and the speed-up between them (docs/cli.md, Sweeping perturbed starts; goal: at least
// 1.9x on 2 cores). Each thread count is run `--rounds` times and the fastest kept; the
// sweeps must agree start for start (the table is the same on any number of threads).
//
//   bench_sweep [--rounds N] [SCRIPT]   (default scripts/kipup.scl, 3 rounds)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "runtime/outcomes.h"
#include "runtime/run_session.h"
#include "scl/compile.h"
#include "tools/run_sweep.h"

using namespace scl;

namespace {

struct Timing {
  double fastest = 1e300;
  SweepResult result;
};

Timing timeSweep(const Program& program, const OutcomeLines& outcomes, int threads, int rounds) {
  SweepDef sweep;
  sweep.session.simulation = simulationDefFor(program);
  sweep.session.length = defaultRunLength(program);
  sweep.session.metrics = metricsFor(*program.character, sweep.session.simulation.scene);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) sweep.seeds.push_back(seed);
  sweep.threads = threads;
  Timing timing;
  for (int round = 0; round < rounds; ++round) {
    timing.result = runSweep(program, outcomes, sweep);
    timing.fastest = std::min(timing.fastest, timing.result.wallSeconds);
  }
  return timing;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  std::string script = SCL_SOURCE_DIR "/scripts/kipup.scl";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else
      script = argv[i];
  }
  std::ifstream in(script);
  std::stringstream text;
  text << in.rdbuf();
  const CompileResult compiled = compile(text.str(), script);
  if (!compiled.ok()) {
    std::fprintf(stderr, "bench_sweep: %s does not compile\n", script.c_str());
    return 1;
  }
  const Program& program = *compiled.program;
  const OutcomeLines outcomes = readOutcomeLines(text.str(), script, program);
  const Timing one = timeSweep(program, outcomes, 1, rounds);
  const Timing two = timeSweep(program, outcomes, 2, rounds);
  bool same = true;
  for (size_t i = 0; i < one.result.starts.size(); ++i)
    same = same && one.result.starts[i].summary.energy == two.result.starts[i].summary.energy &&
           one.result.starts[i].summary.standing == two.result.starts[i].summary.standing;
  const double simulated = one.result.starts.empty() ? 0.0 : one.result.starts[0].summary.duration;
  std::printf("sweep of %s: 20 starts of %.2f s simulated each, fastest of %d rounds\n",
              script.c_str(), simulated, rounds);
  std::printf("  1 thread   %7.2f s wall  (%.1fx real time)\n", one.fastest,
              20 * simulated / one.fastest);
  std::printf("  2 threads  %7.2f s wall  (%.1fx real time)\n", two.fastest,
              20 * simulated / two.fastest);
  std::printf("  speed-up   %7.2fx  (goal: at least 1.9x on 2 cores)\n", one.fastest / two.fastest);
  std::printf("  standing at end %d of 20; the two sweeps agree start for start: %s\n",
              one.result.standing(), same ? "yes" : "NO");
  return same ? 0 : 1;
}
