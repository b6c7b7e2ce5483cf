#include "optimize/sam/sampling_job.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "optimize/optimizer.h"

namespace scl {

std::string samplingJobText(const SamInputs& inputs, int threads) {
  const nlohmann::json job = {
      {"command", "sam sample"},
      {"script", inputs.sources.scriptSource},
      {"script_file", inputs.sources.scriptFile},
      {"problem", inputs.sources.problemSource},
      {"problem_file", inputs.sources.problemFile},
      {"fingerprint", characterFingerprint(*inputs.problem.program.character)},
      {"threads", threads}};
  return job.dump();
}

SamplingJob readSamplingJob(const std::string& text) {
  const nlohmann::json job = nlohmann::json::parse(text);
  SamSources sources;
  sources.scriptFile = job.at("script_file").get<std::string>();
  sources.scriptSource = job.at("script").get<std::string>();
  sources.problemFile = job.at("problem_file").get<std::string>();
  sources.problemSource = job.at("problem").get<std::string>();
  SamInputsResult made = makeSamInputs(std::move(sources));
  if (!made.inputs) throw std::runtime_error("the script or the problem does not compile here");
  SamplingJob result;
  result.problem = std::make_shared<const SamProblem>(std::move(made.inputs->problem));
  if (characterFingerprint(*result.problem->program.character) != job.at("fingerprint"))
    throw std::runtime_error(
        "its character differs from rank 0's: every host must see the "
        "same character file");
  result.threads = job.at("threads").get<int>();
  return result;
}

FarmResult samCompatibilityLabel(const SamProblem& problem, const std::vector<double>& point) {
  FarmResult result;
  result.value = samCompatible(problem, point) ? 1.0 : 0.0;
  return result;
}

}  // namespace scl
