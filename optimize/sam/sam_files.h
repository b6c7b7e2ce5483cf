// The files of a `scl sam` output directory (docs/state-action.md), written and read here
// and nowhere else: samples.csv (sample writes, train and bench_sam read), checkpoint.json
// (what `scl sam sample --resume` continues) and model.json (train writes, query checks).
// Errors are OptimizeError with the `scl` exit code they map to (1 an input file that
// cannot be used, 2 a checkpoint of other inputs, 3 a malformed checkpoint).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "optimize/sam/sam_inputs.h"
#include "optimize/sam/sam_model.h"
#include "optimize/sam/sam_sampler.h"

namespace scl {

// --- samples.csv -------------------------------------------------------------------------

/// samples.csv: the header `path,generation,COLUMNS...,compatible,objective`, then one row
/// per point in the order sampled, numbers as formatNumber writes them.
std::string samplesCsv(const std::vector<std::string>& columns,
                       const std::vector<SamPoint>& points);

/// The labelled points of samples.csv, what training needs.
struct SamSamples {
  /// Coordinates (state, then action), in the problem's units.
  std::vector<std::vector<double>> points;
  /// Per point: whether it is compatible.
  std::vector<bool> compatible;
  /// How many points are incompatible.
  int incompatibleCount() const;
};

/// Reads samplesCsv()'s `text`, whose columns must be `columns`; empty lines are skipped.
/// Throws OptimizeError(1, "FILE:LINE: why") naming `fileName` (a wrong header, a row of
/// the wrong width, a field that is no number, a label other than 0 or 1).
SamSamples readSamplesCsv(std::string_view text, const std::vector<std::string>& columns,
                          const std::string& fileName);

// --- checkpoint.json ---------------------------------------------------------------------

/// Where a sampling run in `outDir` keeps its checkpoint.
std::filesystem::path samplingCheckpointPath(const std::filesystem::path& outDir);

/// What a sampling run is between two generations: enough to go on bit-identically.
struct SamplingState {
  /// The run's seed (the sampler's paths use seed + path).
  uint64_t seed = 1;
  /// Wall-clock seconds spent sampling, over every invocation.
  double wallTime = 0.0;
  /// Every point sampled so far, in order.
  std::vector<SamPoint> points;
  /// The sampler, ready for its next generation.
  std::unique_ptr<SamSampler> sampler;
};

/// checkpoint.json's text: the inputs' hashes and character, the seed, the wall time, the
/// points and the sampler's state, every double exact.
std::string samplingCheckpointText(const SamInputs& inputs, const SamplingState& state);

/// Reads the checkpoint of `outDir` (samplingCheckpointPath) for `inputs`. Throws
/// OptimizeError(2) when it was made for other sources or another character, and
/// OptimizeError(3, "malformed checkpoint 'PATH': why") when it cannot be read back.
SamplingState readSamplingCheckpoint(const SamInputs& inputs, const std::filesystem::path& outDir);

// --- model.json --------------------------------------------------------------------------

/// What `scl sam train` learned from, for model.json.
struct SamTraining {
  /// The model's definition (C, gamma, class weights).
  SamModelDef def;
  /// Folds of the cross-validation and its outcome.
  int folds = 5;
  SamCrossValidation validation;
  /// Samples trained on, and how many of them are incompatible.
  size_t samples = 0;
  int incompatible = 0;
};

/// model.json's text (indented, with a final newline): the problem's columns, states,
/// scales and ranges, the SVM's settings, the samples and the cross-validation.
std::string samModelDescription(const SamProblem& problem, const SamModel& model,
                                const SamTraining& training);

/// Checks that `text`, model.json of the output directory `dir`, is one scl sam train
/// wrote for the problem's columns. Throws OptimizeError(1).
void checkSamModelDescription(std::string_view text, const SamProblem& problem,
                              const std::filesystem::path& dir);

/// The model that `text`, model.svm of the output directory `dir`, holds, on the problem's
/// scales. Throws OptimizeError(1).
SamModel readSamModel(const std::string& text, const SamProblem& problem,
                      const std::filesystem::path& dir);

}  // namespace scl
