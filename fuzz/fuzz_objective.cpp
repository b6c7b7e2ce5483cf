// libFuzzer target for the objective-file parser (scl/objective.h; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: parseObjective() never crashes (nor leaks, nor
// hangs), an objective is returned exactly when there is no error, every diagnostic is
// located in the file and renders, and a returned objective keeps the ranges the parser
// promises (docs/objectives.md): duration in (0, 3600] s, population 0 or 2..10000,
// bounds with lower < upper, trial steps in (0, 0.01] s and perturbations in [0, 180]°, a
// trial's pushes named, starting in [0, 3600] s and lasting (0, 3600] s, and a scene body's
// quantity named and not yet bound.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_checks.h"
#include "scl/objective.h"

namespace {

void checkObjective(const scl::ObjectiveDef& objective) {
  if (objective.fileName != "fuzz.objective") std::abort();
  if (objective.duration && !(*objective.duration > 0 && *objective.duration <= 3600)) std::abort();
  if (objective.populationSize != 0 &&
      (objective.populationSize < 2 || objective.populationSize > 10000))
    std::abort();
  if (!(objective.relativeRange >= 0)) std::abort();
  for (const scl::ParameterBound& bound : objective.bounds) {
    if (bound.pattern.empty() || !(bound.lower < bound.upper)) std::abort();
  }
  for (const scl::ObjectiveTrial& trial : objective.trials) {
    if (!(trial.timeStep >= 0 && trial.timeStep <= 0.01)) std::abort();
    if (!(trial.perturbDegrees >= 0 && trial.perturbDegrees <= 180)) std::abort();
    for (const scl::ScriptPush& push : trial.pushes) {
      if (push.name.empty() || push.target.link < 0) std::abort();
      if (!(push.start >= 0 && push.start <= 3600)) std::abort();
      if (!(push.duration > 0 && push.duration <= 3600)) std::abort();
    }
  }
  for (const scl::EarlyStop& stop : objective.stops) {
    if (!(stop.after >= 0) || stop.conditions.empty()) std::abort();
  }
  for (const scl::ObjectiveTerm& term : objective.terms) {
    if (term.label.empty()) std::abort();
    // A scene body's quantity is bound later, by its name (bindObjectiveObjects()).
    if (scl::isObjectQuantity(term.quantity.kind) &&
        (term.quantity.object.empty() || term.quantity.index != -1))
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::ObjectiveParseResult result = scl::parseObjective(source, "fuzz.objective");
  scl::fuzz::checkDiagnostics(result.ok(), result.diagnostics, source, "fuzz.objective");
  if (result.ok()) checkObjective(*result.objective);
  return 0;
}
