#include "optimize/sam/sam_inputs.h"

#include <stdexcept>
#include <utility>

#include "scl/compile.h"
#include "scl/diagnostics.h"
#include "scl/printer.h"
#include "scl/problem.h"

namespace scl {

SamInputsResult makeSamInputs(SamSources sources) {
  SamInputsResult result;
  CompileResult compiled = compile(sources.scriptSource, sources.scriptFile);
  result.messages = renderDiagnostics(compiled.diagnostics, sources.scriptSource);
  ProblemParseResult parsed = parseProblem(sources.problemSource, sources.problemFile);
  result.messages += renderDiagnostics(parsed.diagnostics, sources.problemSource);
  if (!compiled.ok() || !parsed.ok()) return result;
  try {
    SamProblem problem = bindSamProblem(std::move(*compiled.program), std::move(*parsed.problem));
    result.inputs = SamInputs{std::move(sources), std::move(problem)};
  } catch (const std::invalid_argument& error) {
    result.messages += std::string(error.what()) + "\n";
  }
  return result;
}

SamSpace samSpace(const SamProblem& problem) {
  return {problem.def.states.size(), problem.sampler.lower, problem.sampler.upper,
          problem.sampler.scale};
}

SamPlotData samPlotData(const SamProblem& problem, const SamModel& model) {
  SamPlotData plot;
  plot.columns = problem.columns;
  plot.lower = problem.sampler.lower;
  plot.upper = problem.sampler.upper;
  plot.scale = problem.sampler.scale;
  plot.decision = [&model](const std::vector<double>& point) { return model.decision(point); };
  return plot;
}

std::string samActionScript(const SamInputs& inputs, const std::vector<double>& point) {
  const SamProblem& problem = inputs.problem;
  std::string source = substituteParameters(inputs.sources.scriptSource, programAt(problem, point));
  for (size_t i = 0; i < problem.def.states.size(); ++i)
    if (problem.def.states[i].quantity == StateQuantity::ChairHeight)
      source = withSceneArgument(source, "height", formatNumber(point[i]));
  if (problem.def.duration)
    source = withSceneArgument(source, "duration", formatNumber(*problem.def.duration));
  return source;
}

}  // namespace scl
