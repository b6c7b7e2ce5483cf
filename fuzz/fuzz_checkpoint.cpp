// libFuzzer target for `scl optimize --resume`'s checkpoint reader (parseCheckpoint,
// optimize/optimizer.h; fuzz/fuzz.sh runs it), for the problem of a fixed two-parameter
// script and objective (the seeds in tests/fuzz/corpus-checkpoint/ were written by
// `scl optimize` for exactly these two texts, so mutations reach past the sources check).
//
// Invariants checked on every input: reading never crashes (nor leaks, nor hangs, nor
// allocates without bound) and fails only with OptimizeError, exit code 2 (a checkpoint of
// other files or another character) or 3 (malformed), its message at most a few hundred
// bytes; a checkpoint that reads gives a log numbered 1..N with N CMA-ES's generation, every
// record with the problem's parameter count and a finite, non-negative wall time, a
// positive finite step size, a population of at least 2, and a state that samples a
// generation of finite candidates.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "optimize/cmaes.h"
#include "optimize/optimizer.h"

namespace {

constexpr std::string_view kScript = R"(// The problem of fuzz/fuzz_checkpoint.cpp.
scene pose: standing env: flat duration: 0.2
{
  (hold)
  [necks 0, waist @2, hips 0, knees @-4 time: 0.5]
  [vf sb(600, 300) on: trunk, by: leftAnkle]
  [symm]
  [gc]
}
)";

constexpr std::string_view kObjective = R"(// The objective of fuzz/fuzz_checkpoint.cpp.
duration 0.2
population 4
term 1 final below: 1.6 penalty: 100
term 1/50000 energy
)";

const scl::OptimizationProblem& problem() {
  static const scl::OptimizationProblem made = [] {
    scl::ProblemResult result = scl::makeProblem(std::string(kScript), "fuzz.scl",
                                                 std::string(kObjective), "fuzz.objective");
    if (!result.problem) std::abort();  // the texts above are wrong
    return std::move(*result.problem);
  }();
  return made;
}

constexpr size_t kMaxMessage = 600;

void checkResumed(const scl::ResumedCheckpoint& resumed, size_t parameters) {
  const int generation = resumed.cmaes.generation();
  if (generation < 0 || resumed.log.size() != static_cast<size_t>(generation)) std::abort();
  if (!std::isfinite(resumed.priorWallTime) || resumed.priorWallTime < 0) std::abort();
  for (size_t i = 0; i < resumed.log.size(); ++i) {
    const scl::GenerationRecord& record = resumed.log[i];
    if (record.generation != static_cast<int>(i) + 1) std::abort();
    if (record.bestParameters.size() != parameters) std::abort();
    if (!std::isfinite(record.wallTime) || record.wallTime < 0) std::abort();
  }
  if (!(resumed.cmaes.sigma() > 0) || !std::isfinite(resumed.cmaes.sigma())) std::abort();
  if (resumed.cmaes.populationSize() < 2) std::abort();
  scl::Cmaes cmaes = resumed.cmaes;
  for (const std::vector<double>& candidate : cmaes.ask()) {
    if (candidate.size() != parameters) std::abort();
    for (double value : candidate)
      if (!std::isfinite(value)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  scl::OptimizeSettings settings;
  settings.outDir = "fuzz-out";
  settings.resume = true;
  try {
    const scl::ResumedCheckpoint resumed =
        scl::parseCheckpoint(problem(), settings, text, "fuzz-out/checkpoint.json");
    checkResumed(resumed, problem().initial.size());
  } catch (const scl::OptimizeError& error) {
    if (error.exitCode() != 2 && error.exitCode() != 3) std::abort();
    const std::string_view message = error.what();
    if (message.empty() || message.size() > kMaxMessage) std::abort();
  }
  return 0;
}
