// libFuzzer target for state–action model files (model.svm of `scl sam train`, read by
// SamModel::fromText, optimize/sam/sam_model.h; fuzz/fuzz.sh runs it): the check that
// stands before libsvm's trusting loader, and libsvm's use of what passed it.
//
// Invariants checked on every input, for a model of two dimensions: reading never crashes
// (nor leaks, nor hangs, nor allocates without bound) and fails only with
// std::runtime_error, its message at most a few hundred bytes; a model that reads has
// support vectors, gives finite decision values equal to libsvm's own, and the text libsvm
// writes of it is a fixed point: read back and written again it is the same text, with
// the same decisions bit for bit. (Not the input's decisions: libsvm writes support-vector
// values with 8 significant digits, so a model file written with more reads back
// slightly different — regressions-model/decision-differs-long-number.svm, the
// campaign's one finding, broke the first form of this invariant.)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "optimize/sam/sam_model.h"

namespace {

constexpr size_t kMaxMessage = 400;

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(b)); }

void checkModel(const scl::SamModel& model, const std::vector<double>& scale) {
  if (model.supportVectorCount() < 1 || model.dimensions() != scale.size()) std::abort();
  const std::vector<std::vector<double>> points = {{0, 0}, {0.5, -0.25}, {-3, 7}};
  const std::string saved = model.text();
  const scl::SamModel again = scl::SamModel::fromText(saved, scale);
  if (again.text() != saved) std::abort();
  const scl::SamModel third = scl::SamModel::fromText(again.text(), scale);
  for (const std::vector<double>& point : points) {
    const double decision = model.decision(point);
    if (!std::isfinite(decision)) std::abort();
    if (!near(decision, model.libsvmDecision(point))) std::abort();
    if (third.decision(point) != again.decision(point)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<double> scale = {1.0, 0.5};
  try {
    checkModel(scl::SamModel::fromText(text, scale), scale);
  } catch (const std::runtime_error& error) {
    const std::string_view message = error.what();
    if (message.empty() || message.size() > kMaxMessage) std::abort();
  }
  return 0;
}
