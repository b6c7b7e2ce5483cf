// The state-action model's costs on a real model (docs/state-action.md): training from the
// samples, one model evaluation, and the thesis's three queries (h = 0.45, 0.16, 0.65,
// three actions each; the goal: all three in 100 ms), each the median of several runs.
//
//   scl sam sample  scripts/optimize/sit-to-stand-sam.scl scripts/optimize/sit-to-stand.problem
//   --points 10052
//                   --out thesis
//   scl sam train   scripts/optimize/sit-to-stand-sam.scl scripts/optimize/sit-to-stand.problem
//   --out thesis bench_sam thesis [REPEATS]     (default 5)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/files.h"
#include "optimize/sam/sam_files.h"
#include "optimize/sam/sam_model.h"
#include "optimize/sam/sam_query.h"

namespace {

using Clock = std::chrono::steady_clock;

// The whole file, empty when it cannot be read (a missing model.json is reported below).
std::string readAll(const std::filesystem::path& path) {
  return std::move(scl::readWholeFile(path).text);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <typename F>
double seconds(F&& work) {
  const auto start = Clock::now();
  work();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_sam DIR [REPEATS]  (DIR: scl sam train's --out)\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const auto description = nlohmann::json::parse(readAll(dir / "model.json"), nullptr, false);
  if (description.is_discarded() || !description.contains("scale")) {
    std::fprintf(stderr, "bench_sam: %s/model.json is missing or not scl sam train's\n",
                 dir.c_str());
    return 2;
  }
  scl::SamSpace space;
  space.stateDimensions = description["states"].get<size_t>();
  space.scale = description["scale"].get<std::vector<double>>();
  space.lower = description["lower"].get<std::vector<double>>();
  space.upper = description["upper"].get<std::vector<double>>();
  const size_t dimensions = space.scale.size();

  // The samples, for the training time, read as scl sam train reads them.
  const scl::SamSamples samples = scl::readSamplesCsv(
      readAll(dir / "samples.csv"), description["columns"].get<std::vector<std::string>>(),
      (dir / "samples.csv").string());
  const std::vector<std::vector<double>>& points = samples.points;
  std::vector<double> trainTimes;
  for (int r = 0; r < std::min(repeats, 3); ++r)
    trainTimes.push_back(
        seconds([&] { scl::SamModel::train(points, samples.compatible, space.scale); }));

  const scl::SamModel model = scl::SamModel::fromText(readAll(dir / "model.svm"), space.scale);
  std::vector<double> probe(dimensions);
  for (size_t d = 0; d < dimensions; ++d) probe[d] = 0.5 * (space.lower[d] + space.upper[d]);
  constexpr int kEvaluations = 20000;
  double sink = 0.0;
  const double evaluation = seconds([&] {
    for (int i = 0; i < kEvaluations; ++i) sink += model.decision(probe);
  });
  const double libsvmEvaluation = seconds([&] {
    for (int i = 0; i < kEvaluations; ++i) sink += model.libsvmDecision(probe);
  });

  std::vector<double> queryTimes;
  long evaluations = 0;
  for (int r = 0; r < repeats; ++r) {
    evaluations = 0;
    queryTimes.push_back(seconds([&] {
      for (double h : {0.45, 0.16, 0.65})
        evaluations += scl::samQuery(model, space, {h}, {}).evaluations;
    }));
  }
  std::printf("samples                      %zu\n", points.size());
  std::printf("support vectors              %d\n", model.supportVectorCount());
  std::printf("training (median of %d)       %.2f s\n", std::min(repeats, 3), median(trainTimes));
  std::printf("model evaluation             %.2f us (libsvm's own: %.2f us)\n",
              1e6 * evaluation / kEvaluations, 1e6 * libsvmEvaluation / kEvaluations);
  std::printf("three queries (median of %d)  %.1f ms, %ld model evaluations (goal: 100 ms)\n",
              repeats, 1e3 * median(queryTimes), evaluations);
  return sink == 12345.0 ? 1 : 0;  // keeps the evaluations from being optimised away
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_sam: %s\n", error.what());
    return 1;
  }
}
