// libFuzzer target for state–action problem files (scl/problem.h; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: parseProblem() never crashes (nor leaks, nor hangs),
// a problem is returned exactly when there is no error, every diagnostic is located in the
// file and renders, and a returned problem keeps the ranges docs/state-action.md promises:
// every state and action with lower < upper and a positive scale, a state's start inside
// its range, a positive duration, population and step, and at least one state, one action
// and one compatibility line.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_checks.h"
#include "scl/problem.h"

namespace {

void checkProblem(const scl::ProblemDef& problem) {
  if (problem.fileName != "fuzz.problem") std::abort();
  if (problem.states.empty() || problem.actions.empty() || problem.compatible.empty()) std::abort();
  for (const scl::ProblemState& state : problem.states) {
    if (!(state.lower < state.upper) || !(state.scale > 0) || !std::isfinite(state.scale))
      std::abort();
    if (!(state.start >= state.lower && state.start <= state.upper)) std::abort();
  }
  for (const scl::ProblemAction& action : problem.actions) {
    if (action.parameter.empty()) std::abort();
    if (!(action.lower < action.upper) || !(action.scale > 0) || !std::isfinite(action.scale))
      std::abort();
  }
  if (problem.duration && !(*problem.duration > 0 && std::isfinite(*problem.duration)))
    std::abort();
  if (problem.paths < 0 || problem.population < 1) std::abort();
  if (!(problem.step > 0) || !std::isfinite(problem.step)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::ProblemParseResult result = scl::parseProblem(source, "fuzz.problem");
  scl::fuzz::checkDiagnostics(result.ok(), result.diagnostics, source, "fuzz.problem");
  if (result.ok()) checkProblem(*result.problem);
  return 0;
}
