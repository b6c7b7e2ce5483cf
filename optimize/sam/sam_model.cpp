#include "optimize/sam/sam_model.h"

#include <libsvm/svm.h>
#include <unistd.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include "base/files.h"
#include "base/thread_pool.h"
#include "optimize/random.h"
#include "optimize/sam/svm_model_text.h"

namespace scl {

namespace {

constexpr int kCompatibleLabel = 1;
constexpr int kIncompatibleLabel = -1;

// libsvm prints its progress to stdout unless told otherwise; its print hook is a global
// of the library, set once before any training.
void silenceLibsvm() {
  static std::once_flag once;
  std::call_once(once, [] { svm_set_print_string_function([](const char*) {}); });
}

// A file that exists for one libsvm call (libsvm reads and writes models only by path).
class TemporaryFile {
 public:
  TemporaryFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "scl-svm-XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for libsvm");
    close(fd);
    path_ = pattern;
  }
  ~TemporaryFile() { std::remove(path_.c_str()); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

struct SamModel::Impl {
  std::vector<double> scale;
  // The training points as libsvm nodes (each row D nodes and the terminator): a trained
  // model's support vectors point into them, so they live as long as the model.
  std::vector<svm_node> nodes;
  svm_model* model = nullptr;
  // +1 when libsvm's first class is the compatible one (its decision value is then
  // positive for compatible points), else −1.
  double sign = 1.0;

  ~Impl() {
    if (model) svm_free_and_destroy_model(&model);
  }

  // The decision function f(x) = Σ_i coef_i exp(−γ |x − sv_i|²) − ρ in a form Eigen
  // evaluates vectorized (libsvm's predict walks sparse nodes one kernel at a time: a
  // query's thousands of evaluations took 7 times longer): one column of support vector
  // coordinates per dimension, scaled as the kernel sees them.
  std::vector<Eigen::ArrayXd> coordinates;
  Eigen::ArrayXd coefficients;
  double gamma = 0.0, rho = 0.0;

  void prepareDecision() {
    const int count = model->l;
    coordinates.assign(scale.size(), Eigen::ArrayXd::Zero(count));  // libsvm omits zeros
    coefficients.resize(count);
    for (int i = 0; i < count; ++i) {
      coefficients[i] = model->sv_coef[0][i];
      for (const svm_node* node = model->SV[i]; node->index != -1; ++node)
        coordinates[static_cast<size_t>(node->index - 1)][i] = node->value;
    }
    gamma = model->param.gamma;
    rho = model->rho[0];
  }

  std::vector<svm_node> scaled(const std::vector<double>& point) const {
    std::vector<svm_node> row(scale.size() + 1);
    for (size_t d = 0; d < scale.size(); ++d)
      row[d] = {static_cast<int>(d) + 1, scale[d] * point[d]};
    row[scale.size()] = {-1, 0.0};
    return row;
  }
};

SamModel::SamModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SamModel::SamModel(SamModel&&) noexcept = default;
SamModel& SamModel::operator=(SamModel&&) noexcept = default;
SamModel::~SamModel() = default;

SamModel SamModel::train(const std::vector<std::vector<double>>& points,
                         const std::vector<bool>& compatible, const std::vector<double>& scale,
                         const SamModelDef& def) {
  if (points.size() != compatible.size())
    throw std::invalid_argument("state-action model: one label per point");
  const size_t dimensions = scale.size();
  for (double s : scale)
    if (!(s > 0.0) || !std::isfinite(s))
      throw std::invalid_argument("state-action model: a scale must be positive");
  const auto compatibleCount = std::count(compatible.begin(), compatible.end(), true);
  if (compatibleCount == 0 || compatibleCount == static_cast<long>(points.size()))
    throw std::invalid_argument(
        std::string("state-action model: every point is ") +
        (compatibleCount == 0 ? "incompatible" : "compatible") +
        ", so there is no boundary to learn (sample more generations or widen the ranges)");
  if (!(def.cost > 0.0) || !(def.gamma > 0.0) || !(def.compatibleWeight > 0.0) ||
      !(def.incompatibleWeight > 0.0))
    throw std::invalid_argument("state-action model: C, gamma and the weights must be positive");
  silenceLibsvm();

  auto impl = std::make_unique<Impl>();
  impl->scale = scale;
  impl->nodes.reserve(points.size() * (dimensions + 1));
  for (const std::vector<double>& point : points) {
    if (point.size() != dimensions)
      throw std::invalid_argument("state-action model: a point of the wrong dimension");
    for (double value : point)
      if (!std::isfinite(value))
        throw std::invalid_argument("state-action model: a point is not finite");
    const std::vector<svm_node> row = impl->scaled(point);
    impl->nodes.insert(impl->nodes.end(), row.begin(), row.end());
  }
  std::vector<svm_node*> rows(points.size());
  std::vector<double> labels(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    rows[i] = &impl->nodes[i * (dimensions + 1)];
    labels[i] = compatible[i] ? kCompatibleLabel : kIncompatibleLabel;
  }
  svm_problem problem{static_cast<int>(points.size()), labels.data(), rows.data()};
  std::vector<int> weightLabels = {kCompatibleLabel, kIncompatibleLabel};
  std::vector<double> weights = {def.compatibleWeight, def.incompatibleWeight};
  svm_parameter parameter{};
  parameter.svm_type = C_SVC;
  parameter.kernel_type = RBF;
  parameter.gamma = def.gamma;
  parameter.cache_size = 100;  // MB, libsvm's default
  parameter.eps = 1e-3;        // libsvm's default stopping tolerance
  parameter.C = def.cost;
  parameter.nr_weight = 2;
  parameter.weight_label = weightLabels.data();
  parameter.weight = weights.data();
  parameter.shrinking = 1;
  parameter.probability = 0;
  if (const char* error = svm_check_parameter(&problem, &parameter))
    throw std::invalid_argument(std::string("state-action model: libsvm: ") + error);
  impl->model = svm_train(&problem, &parameter);
  // The model keeps the parameter struct, whose weight arrays are ours: forget them.
  impl->model->param.nr_weight = 0;
  impl->model->param.weight_label = nullptr;
  impl->model->param.weight = nullptr;
  impl->sign = impl->model->label[0] == kCompatibleLabel ? 1.0 : -1.0;
  impl->prepareDecision();
  return SamModel(std::move(impl));
}

SamModel SamModel::fromText(const std::string& text, const std::vector<double>& scale) {
  // libsvm's loader trusts what it reads: the text is checked completely first.
  checkSvmModelText(text, scale.size());
  TemporaryFile file;
  {
    std::ofstream out(file.path(), std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write a temporary file for libsvm");
  }
  auto impl = std::make_unique<Impl>();
  impl->scale = scale;
  impl->model = svm_load_model(file.path().c_str());
  if (!impl->model) throw std::runtime_error("not a libsvm model");
  impl->sign = impl->model->label[0] == kCompatibleLabel ? 1.0 : -1.0;
  impl->prepareDecision();
  return SamModel(std::move(impl));
}

std::string SamModel::text() const {
  TemporaryFile file;
  if (svm_save_model(file.path().c_str(), impl_->model) != 0)
    throw std::runtime_error("libsvm could not write the model");
  FileRead read = readWholeFile(file.path());
  if (!read) throw std::runtime_error("libsvm's model " + read.error);
  return std::move(read.text);
}

double SamModel::decision(const std::vector<double>& point) const {
  const Impl& impl = *impl_;
  Eigen::ArrayXd distance2 = Eigen::ArrayXd::Zero(impl.coefficients.size());
  for (size_t d = 0; d < impl.scale.size(); ++d)
    distance2 += (impl.coordinates[d] - impl.scale[d] * point[d]).square();
  const double sum = (impl.coefficients * (-impl.gamma * distance2).exp()).sum();
  return impl.sign * (sum - impl.rho);
}

double SamModel::libsvmDecision(const std::vector<double>& point) const {
  const std::vector<svm_node> row = impl_->scaled(point);
  double value = 0.0;
  svm_predict_values(impl_->model, row.data(), &value);
  return impl_->sign * value;
}

int SamModel::supportVectorCount() const { return impl_->model->l; }

std::vector<std::vector<double>> SamModel::compatibleSupportVectors() const {
  const svm_model& model = *impl_->model;
  // libsvm stores the support vectors class by class, in the order of model.label.
  const int classIndex = model.label[0] == kCompatibleLabel ? 0 : 1;
  int first = 0;
  for (int k = 0; k < classIndex; ++k) first += model.nSV[k];
  std::vector<std::vector<double>> vectors;
  for (int i = first; i < first + model.nSV[classIndex]; ++i) {
    std::vector<double> point(impl_->scale.size(), 0.0);  // libsvm omits zero coordinates
    for (const svm_node* node = model.SV[i]; node->index != -1; ++node) {
      const size_t d = static_cast<size_t>(node->index - 1);
      point[d] = node->value / impl_->scale[d];
    }
    vectors.push_back(std::move(point));
  }
  return vectors;
}

size_t SamModel::dimensions() const { return impl_->scale.size(); }
const std::vector<double>& SamModel::scale() const { return impl_->scale; }

double SamCrossValidation::accuracy() const {
  const int total = compatibleTotal + incompatibleTotal;
  return total > 0 ? static_cast<double>(compatibleCorrect + incompatibleCorrect) / total : 0.0;
}

SamCrossValidation crossValidate(const std::vector<std::vector<double>>& points,
                                 const std::vector<bool>& compatible,
                                 const std::vector<double>& scale, const SamModelDef& def,
                                 int folds, uint64_t seed, ThreadPool& pool) {
  if (folds < 2) throw std::invalid_argument("cross-validation needs at least 2 folds");
  if (static_cast<size_t>(folds) > points.size())
    throw std::invalid_argument("cross-validation needs at least one point per fold");
  // Stratified folds: each class shuffled on its own, then dealt round robin.
  Random random(seed);
  std::vector<int> foldOf(points.size());
  for (const bool label : {true, false}) {
    std::vector<size_t> members;
    for (size_t i = 0; i < points.size(); ++i)
      if (compatible[i] == label) members.push_back(i);
    for (size_t i = members.size(); i > 1; --i)
      std::swap(members[i - 1], members[static_cast<size_t>(random.next() % i)]);
    for (size_t i = 0; i < members.size(); ++i)
      foldOf[members[i]] = static_cast<int>(i % static_cast<size_t>(folds));
  }
  std::vector<char> predicted(points.size(), 0);
  std::vector<std::string> errors(static_cast<size_t>(folds));
  pool.parallelFor(static_cast<size_t>(folds), [&](size_t fold) {
    std::vector<std::vector<double>> trainPoints;
    std::vector<bool> trainLabels;
    for (size_t i = 0; i < points.size(); ++i)
      if (foldOf[i] != static_cast<int>(fold)) {
        trainPoints.push_back(points[i]);
        trainLabels.push_back(compatible[i]);
      }
    // A fold whose training points hold one label (a class rarer than the folds) can only
    // predict that label.
    const auto compatibleCount = std::count(trainLabels.begin(), trainLabels.end(), true);
    if (compatibleCount == 0 || compatibleCount == static_cast<long>(trainLabels.size())) {
      for (size_t i = 0; i < points.size(); ++i)
        if (foldOf[i] == static_cast<int>(fold)) predicted[i] = compatibleCount > 0 ? 1 : 0;
      return;
    }
    try {
      const SamModel model = SamModel::train(trainPoints, trainLabels, scale, def);
      for (size_t i = 0; i < points.size(); ++i)
        if (foldOf[i] == static_cast<int>(fold)) predicted[i] = model.compatible(points[i]) ? 1 : 0;
    } catch (const std::exception& error) {
      errors[fold] = error.what();
    }
  });
  for (const std::string& error : errors)
    if (!error.empty()) throw std::invalid_argument(error);
  SamCrossValidation result;
  result.folds = folds;
  for (size_t i = 0; i < points.size(); ++i) {
    const bool right = (predicted[i] != 0) == compatible[i];
    if (compatible[i]) {
      ++result.compatibleTotal;
      result.compatibleCorrect += right ? 1 : 0;
    } else {
      ++result.incompatibleTotal;
      result.incompatibleCorrect += right ? 1 : 0;
    }
  }
  return result;
}

}  // namespace scl
