// The job of `scl sam sample` under mpirun (docs/cluster.md): rank 0 sends every worker
// rank the script and the problem exactly as it read them, and each rank labels the points
// it is handed by simulating them, as rank 0 would.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "optimize/evaluation_farm.h"
#include "optimize/sam/sam_inputs.h"

namespace scl {

/// The job's text (JSON): both sources with their file names, the character's fingerprint
/// and the threads per rank (0: the rank's default).
std::string samplingJobText(const SamInputs& inputs, int threads);

/// A worker rank's side of samplingJobText().
struct SamplingJob {
  /// The problem as rank 0 bound it.
  std::shared_ptr<const SamProblem> problem;
  /// Threads asked for (0: the rank's default).
  int threads = 0;
};

/// Reads samplingJobText()'s `text` and binds its problem. Throws std::runtime_error when
/// the sources do not compile here or the character differs from rank 0's.
SamplingJob readSamplingJob(const std::string& text);

/// The label of a point as every rank computes it: value 1 compatible, 0 not.
FarmResult samCompatibilityLabel(const SamProblem& problem, const std::vector<double>& point);

}  // namespace scl
