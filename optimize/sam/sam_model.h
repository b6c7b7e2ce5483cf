// Learning of a state–action compatibility model (thesis §6.2; docs/state-action.md): a
// support vector machine with a Gaussian RBF kernel, trained by libsvm on the sampled
// points, that predicts whether any point (s, a) is compatible.
//
// The kernel sees scaled coordinates (each multiplied by its problem scale, as the
// sampler's distances do), so that γ means the same along every axis: with the thesis's
// scales (10, 1/40, 1/40) and γ = 4, the kernel falls to 1/e at 0.05 m of height or 20°.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace scl {

class ThreadPool;

/// The SVM's settings (the thesis's by default).
struct SamModelDef {
  /// C: the cost of a training point on the wrong side of the margin.
  double cost = 64.0;
  /// γ of the kernel exp(−γ |p − q|²), |·| on scaled coordinates.
  double gamma = 4.0;
  /// Weights multiplying C for each class (the thesis: incompatible points are fewer,
  /// so they weigh 4).
  double compatibleWeight = 1.0;
  double incompatibleWeight = 4.0;
};

/// A trained classifier. Move-only; thread-safe to query.
class SamModel {
 public:
  /// Trains on `points` (problem units, one coordinate per scale) and their labels.
  /// Throws std::invalid_argument when sizes disagree, a value is not finite or a class
  /// has no point (nothing to separate).
  static SamModel train(const std::vector<std::vector<double>>& points,
                        const std::vector<bool>& compatible, const std::vector<double>& scale,
                        const SamModelDef& def = {});
  /// Reads a model written by text(); throws std::runtime_error when it is not one, or not
  /// one of `scale.size()` dimensions (checkSvmModelText, before libsvm reads it).
  static SamModel fromText(const std::string& text, const std::vector<double>& scale);

  SamModel(SamModel&&) noexcept;
  SamModel& operator=(SamModel&&) noexcept;
  ~SamModel();

  /// libsvm's model file format.
  std::string text() const;

  /// The decision value at `point` (problem units): positive where predicted compatible,
  /// larger farther inside.
  double decision(const std::vector<double>& point) const;
  bool compatible(const std::vector<double>& point) const { return decision(point) > 0.0; }
  /// The same value computed by libsvm itself (slower; the reference for tests).
  double libsvmDecision(const std::vector<double>& point) const;

  int supportVectorCount() const;
  /// The support vectors of the compatible class, in problem units.
  std::vector<std::vector<double>> compatibleSupportVectors() const;
  size_t dimensions() const;
  const std::vector<double>& scale() const;

 private:
  struct Impl;
  explicit SamModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The result of k-fold cross-validation: each point predicted by the model trained
/// without its fold.
struct SamCrossValidation {
  int folds = 0;
  int compatibleCorrect = 0, compatibleTotal = 0;
  int incompatibleCorrect = 0, incompatibleTotal = 0;
  /// Fraction of all points predicted right.
  double accuracy() const;
};

/// k-fold cross-validation (folds stratified by label, assigned by a generator seeded
/// with `seed`); the folds train in parallel on `pool`. Same result for any thread count.
SamCrossValidation crossValidate(const std::vector<std::vector<double>>& points,
                                 const std::vector<bool>& compatible,
                                 const std::vector<double>& scale, const SamModelDef& def,
                                 int folds, uint64_t seed, ThreadPool& pool);

}  // namespace scl
