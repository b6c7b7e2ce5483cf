#include "optimize/cmaes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/format.h"
#include "base/thread_pool.h"
#include "optimize/checkpoint_json.h"

namespace scl {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Percentile with linear interpolation between order statistics (p in [0, 100]).
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.size() == 1) return sorted[0];
  const double position = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double t = position - static_cast<double>(below);
  return sorted[below] + t * (sorted[above] - sorted[below]);
}

// Ranking order: ascending, NaN last, ties by index (stable).
std::vector<size_t> rankingOrder(const std::vector<double>& values) {
  std::vector<size_t> order(values.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const bool aNan = std::isnan(values[a]), bNan = std::isnan(values[b]);
    if (aNan || bNan) return !aNan && bNan;
    return values[a] < values[b];
  });
  return order;
}

std::vector<double> toStd(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

Eigen::VectorXd toEigen(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

void require(bool condition, const char* message) {
  if (!condition) throw std::invalid_argument(std::string("CmaesDef: ") + message);
}

}  // namespace

const char* toString(CmaesStop stop) {
  switch (stop) {
    case CmaesStop::None:
      return "none";
    case CmaesStop::StopFitness:
      return "stopfitness";
    case CmaesStop::MaxEvaluations:
      return "maxevals";
    case CmaesStop::MaxGenerations:
      return "maxgenerations";
    case CmaesStop::TolFun:
      return "tolfun";
    case CmaesStop::TolX:
      return "tolx";
    case CmaesStop::TolUpSigma:
      return "tolupsigma";
    case CmaesStop::ConditionNumber:
      return "conditioncov";
    case CmaesStop::NoEffectAxis:
      return "noeffectaxis";
    case CmaesStop::NoEffectCoord:
      return "noeffectcoord";
  }
  return "?";
}

Cmaes::Cmaes(const CmaesDef& def) : def_(def), random_(def.seed) {
  n_ = static_cast<int>(def.mean.size());
  require(n_ > 0, "mean must not be empty");
  for (double m : def.mean) require(std::isfinite(m), "mean must be finite");
  require(def.sigmas.empty() || def.sigmas.size() == def.mean.size(),
          "sigmas must be empty or have one entry per parameter");
  for (double s : def.sigmas) require(std::isfinite(s) && s > 0, "sigmas must be positive");
  require(std::isfinite(def.sigma) && def.sigma > 0, "sigma must be positive");
  require(def.populationSize == 0 ||
              (def.populationSize >= 2 && def.populationSize <= kMaxPopulationSize),
          "populationSize must be 0 or from 2 to 100000");
  require(def.lower.empty() || def.lower.size() == def.mean.size(),
          "lower must be empty or have one entry per parameter");
  require(def.upper.empty() || def.upper.size() == def.mean.size(),
          "upper must be empty or have one entry per parameter");
  require(def.maxEvaluations >= 0 && def.maxGenerations >= 0 && def.restarts >= 0,
          "limits must not be negative");
  require(def.restartPopulationFactor >= 1, "restartPopulationFactor must be >= 1");

  scale_ = def.sigmas.empty() ? Eigen::VectorXd::Ones(n_) : toEigen(def.sigmas);
  lower_ = def.lower.empty() ? Eigen::VectorXd::Constant(n_, -kInf) : toEigen(def.lower);
  upper_ = def.upper.empty() ? Eigen::VectorXd::Constant(n_, kInf) : toEigen(def.upper);
  for (int i = 0; i < n_; ++i) {
    require(!std::isnan(lower_[i]) && !std::isnan(upper_[i]) && lower_[i] <= upper_[i],
            "lower must not exceed upper");
    bounded_ = bounded_ || std::isfinite(lower_[i]) || std::isfinite(upper_[i]);
  }
  // A start outside the box starts from its nearest point inside.
  origin_ = toEigen(def.mean).cwiseMax(lower_).cwiseMin(upper_);

  lambda_ = def.populationSize > 0 ? def.populationSize
                                   : 4 + static_cast<int>(std::floor(3.0 * std::log(n_)));
  startRun();
}

void Cmaes::setStrategyParameters(int lambda) {
  const double n = n_;
  lambda_ = lambda;
  const double muReal = lambda / 2.0;
  mu_ = static_cast<int>(std::floor(muReal));
  weights_.resize(mu_);
  for (int i = 0; i < mu_; ++i) weights_[i] = std::log(muReal + 0.5) - std::log(i + 1.0);
  weights_ /= weights_.sum();
  mueff_ = 1.0 / weights_.squaredNorm();
  cs_ = (mueff_ + 2) / (n + mueff_ + 5);
  ds_ = 1 + 2 * std::max(0.0, std::sqrt((mueff_ - 1) / (n + 1)) - 1) + cs_;
  cc_ = (4 + mueff_ / n) / (n + 4 + 2 * mueff_ / n);
  c1_ = 2 / ((n + 1.3) * (n + 1.3) + mueff_);
  cmu_ = std::min(1 - c1_, 2 * (mueff_ - 2 + 1 / mueff_) / ((n + 2) * (n + 2) + mueff_));
  chiN_ = std::sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
  eigenGap_ = 1 / ((c1_ + cmu_) * n * 10);
}

void Cmaes::startRun() {
  setStrategyParameters(lambda_);
  mean_ = Eigen::VectorXd::Zero(n_);
  sigma_ = def_.sigma;
  C_ = Eigen::MatrixXd::Identity(n_, n_);
  B_ = Eigen::MatrixXd::Identity(n_, n_);
  D_ = Eigen::VectorXd::Ones(n_);
  pc_ = Eigen::VectorXd::Zero(n_);
  ps_ = Eigen::VectorXd::Zero(n_);
  generationsSinceEigen_ = 0;
  runGeneration_ = 0;
  bestHistory_.clear();
  boundWeights_ = Eigen::VectorXd::Zero(n_);
  fitnessRangeHistory_.clear();
  validFitnessRange_ = false;
  boundInitPhase_ = true;
}

Eigen::VectorXd Cmaes::toParameters(const Eigen::VectorXd& u) const {
  return origin_ + scale_.cwiseProduct(u);
}

const std::vector<std::vector<double>>& Cmaes::ask() {
  if (stopped()) throw std::logic_error("Cmaes::ask: the optimizer has stopped");
  if (asked_) return candidates_;
  samples_.resize(n_, lambda_);
  candidates_.assign(static_cast<size_t>(lambda_), std::vector<double>(static_cast<size_t>(n_)));
  Eigen::VectorXd z(n_);
  for (int k = 0; k < lambda_; ++k) {
    for (int i = 0; i < n_; ++i) z[i] = random_.normal();
    samples_.col(k) = B_ * D_.cwiseProduct(z);
    const Eigen::VectorXd x = toParameters(mean_ + sigma_ * samples_.col(k));
    for (int i = 0; i < n_; ++i) candidates_[k][i] = std::clamp(x[i], lower_[i], upper_[i]);
  }
  asked_ = true;
  return candidates_;
}

void Cmaes::tell(const std::vector<double>& fitness) {
  if (!asked_) throw std::logic_error("Cmaes::tell: no population asked for");
  if (fitness.size() != static_cast<size_t>(lambda_))
    throw std::invalid_argument("Cmaes::tell: expected " + std::to_string(lambda_) +
                                " fitness values, got " + std::to_string(fitness.size()));
  asked_ = false;

  for (int k = 0; k < lambda_; ++k) {
    ++evaluations_;
    if (std::isnan(fitness[k])) {
      ++nanCount_;
    } else if (fitness[k] < best_.fitness) {
      best_ = {candidates_[k], fitness[k], evaluations_};
    }
  }

  const std::vector<double> selection = penalizedFitness(fitness);
  const std::vector<size_t> order = rankingOrder(selection);
  ++generation_;
  ++runGeneration_;
  if (!std::isnan(selection[order[0]])) {  // an all-NaN generation carries no information
    const Eigen::VectorXd oldMean = mean_;
    updateDistribution(order);
    if (bounded_) updateBoundWeights(oldMean);
    // Flat fitness: widen the search so the ranking becomes informative again.
    const size_t kth = static_cast<size_t>(std::ceil(0.1 + lambda_ / 4.0));
    if (kth < order.size() && selection[order[0]] == selection[order[kth]])
      sigma_ *= std::exp(0.2 + cs_ / ds_);
    recordHistory(fitness);
  }
  checkStop();
}

std::vector<double> Cmaes::penalizedFitness(const std::vector<double>& fitness) {
  if (!bounded_) return fitness;
  // Typical fitness difference per unit squared step (interquartile range), cmaes.m.
  std::vector<double> finite;
  for (double f : fitness)
    if (std::isfinite(f)) finite.push_back(f);
  std::sort(finite.begin(), finite.end());
  double range = finite.empty() ? kInf : percentile(finite, 75) - percentile(finite, 25);
  range /= n_ * C_.diagonal().mean() * sigma_ * sigma_;
  if (!std::isfinite(range)) {
    range = fitnessRangeHistory_.empty()
                ? 0.0
                : *std::max_element(fitnessRangeHistory_.begin(), fitnessRangeHistory_.end());
  } else if (range == 0) {
    double smallest = kInf;
    for (double r : fitnessRangeHistory_)
      if (r > 0) smallest = std::min(smallest, r);
    range = std::isfinite(smallest) ? smallest : 0.0;
  } else if (!validFitnessRange_) {
    fitnessRangeHistory_.clear();
    validFitnessRange_ = true;
  }
  const int historyLength = 20 + (3 * n_) / lambda_;
  if (fitnessRangeHistory_.size() >= static_cast<size_t>(historyLength))
    fitnessRangeHistory_.erase(fitnessRangeHistory_.begin());
  fitnessRangeHistory_.push_back(range);

  std::vector<double> selection = fitness;
  for (int k = 0; k < lambda_; ++k) {
    const Eigen::VectorXd unrepaired = toParameters(mean_ + sigma_ * samples_.col(k));
    double penalty = 0;
    for (int i = 0; i < n_; ++i) {
      const double repair = (candidates_[k][i] - unrepaired[i]) / scale_[i];  // normalised
      penalty += boundWeights_[i] * repair * repair;
    }
    selection[k] += penalty;
  }
  return selection;
}

void Cmaes::updateBoundWeights(const Eigen::VectorXd& oldMean) {
  const Eigen::VectorXd x = toParameters(mean_);
  const Eigen::VectorXd outside = (x - x.cwiseMax(lower_).cwiseMin(upper_)).cwiseQuotient(scale_);
  if ((outside.array() == 0).all()) return;
  const Eigen::VectorXd diagC = C_.diagonal();
  if (boundInitPhase_) {
    const double initial = 2.0002 * median(fitnessRangeHistory_);
    for (int i = 0; i < n_; ++i)
      if (std::isfinite(lower_[i]) || std::isfinite(upper_[i]))
        boundWeights_[i] = initial / (diagC[i] / diagC.mean());
    if (validFitnessRange_ && runGeneration_ > 2) boundInitPhase_ = false;
  }
  // Raise the weight where the mean is far outside and still moving away.
  const double far = 3 * std::max(1.0, std::sqrt(n_) / mueff_) * sigma_;
  const double factor = std::pow(1.2, std::min(1.0, mueff_ / 10 / n_));
  for (int i = 0; i < n_; ++i) {
    const double moved = mean_[i] - oldMean[i];
    if (outside[i] != 0 && std::abs(outside[i]) > far * std::sqrt(diagC[i]) &&
        (outside[i] > 0) == (moved > 0) && moved != 0)
      boundWeights_[i] *= factor;
  }
}

void Cmaes::updateDistribution(const std::vector<size_t>& order) {
  Eigen::VectorXd yw = Eigen::VectorXd::Zero(n_);
  for (int i = 0; i < mu_; ++i)
    yw += weights_[i] * samples_.col(static_cast<Eigen::Index>(order[i]));
  mean_ += sigma_ * yw;

  // C^{-1/2} yw = B D^{-1} B^T yw
  const Eigen::VectorXd whitened = B_ * (B_.transpose() * yw).cwiseQuotient(D_);
  ps_ = (1 - cs_) * ps_ + std::sqrt(cs_ * (2 - cs_) * mueff_) * whitened;
  const double psNorm = ps_.norm();
  const bool hsig = psNorm / std::sqrt(1 - std::pow(1 - cs_, 2.0 * runGeneration_)) / chiN_ <
                    1.4 + 2.0 / (n_ + 1);
  pc_ = (1 - cc_) * pc_ + (hsig ? std::sqrt(cc_ * (2 - cc_) * mueff_) : 0.0) * yw;

  Eigen::MatrixXd rankMu = Eigen::MatrixXd::Zero(n_, n_);
  for (int i = 0; i < mu_; ++i) {
    const auto y = samples_.col(static_cast<Eigen::Index>(order[i]));
    rankMu.noalias() += weights_[i] * y * y.transpose();
  }
  const double stallCorrection = hsig ? 0.0 : c1_ * cc_ * (2 - cc_);
  C_ = (1 - c1_ - cmu_ + stallCorrection) * C_ + c1_ * pc_ * pc_.transpose() + cmu_ * rankMu;

  sigma_ *= std::exp(std::min(1.0, (cs_ / ds_) * (psNorm / chiN_ - 1)));

  if (++generationsSinceEigen_ > eigenGap_) updateEigen();
}

void Cmaes::updateEigen() {
  generationsSinceEigen_ = 0;
  C_ = C_.triangularView<Eigen::Upper>();
  C_.triangularView<Eigen::StrictlyLower>() = C_.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(C_);
  const Eigen::VectorXd& eigenvalues = solver.eigenvalues();
  if (solver.info() != Eigen::Success || !eigenvalues.allFinite() || eigenvalues.minCoeff() <= 0) {
    D_ = eigenvalues.cwiseMax(0).cwiseSqrt();  // degenerate: conditionNumber() reports inf
    stop_ = CmaesStop::ConditionNumber;        // checkStop turns this into a restart or a stop
    return;
  }
  B_ = solver.eigenvectors();
  D_ = eigenvalues.cwiseSqrt();
}

void Cmaes::offerBest(const std::vector<double>& x, double fitness) {
  if (static_cast<int>(x.size()) != n_)
    throw std::invalid_argument("Cmaes::offerBest: " + std::to_string(x.size()) + " values for " +
                                std::to_string(n_) + " parameters");
  if (fitness < best_.fitness) best_ = {x, fitness, evaluations_};
}

double Cmaes::conditionNumber() const {
  const double smallest = D_.minCoeff();
  return smallest > 0 ? (D_.maxCoeff() / smallest) * (D_.maxCoeff() / smallest) : kInf;
}

void Cmaes::recordHistory(const std::vector<double>& fitness) {
  double bestOfGeneration = kInf;
  for (double f : fitness)
    if (!std::isnan(f)) bestOfGeneration = std::min(bestOfGeneration, f);
  const size_t length = 10 + static_cast<size_t>(std::ceil(30.0 * n_ / lambda_));
  if (bestHistory_.size() >= length) bestHistory_.erase(bestHistory_.begin());
  bestHistory_.push_back(bestOfGeneration);
}

CmaesStop Cmaes::stallReason() const {
  if (stop_ == CmaesStop::ConditionNumber) return stop_;  // from updateEigen
  if (conditionNumber() > def_.maxCondition) return CmaesStop::ConditionNumber;

  const size_t length = 10 + static_cast<size_t>(std::ceil(30.0 * n_ / lambda_));
  if (bestHistory_.size() >= length) {
    const auto [lo, hi] = std::minmax_element(bestHistory_.begin(), bestHistory_.end());
    if (*hi - *lo < def_.tolFun) return CmaesStop::TolFun;
  }

  const double tolX = def_.tolX * def_.sigma;
  bool allSmall = true;
  for (int i = 0; i < n_ && allSmall; ++i)
    allSmall = sigma_ * std::max(std::abs(pc_[i]), std::sqrt(C_(i, i))) < tolX;
  if (allSmall) return CmaesStop::TolX;

  if (sigma_ / def_.sigma > 1e20 * D_.maxCoeff()) return CmaesStop::TolUpSigma;

  // Numerical resolution, judged in parameter units where the candidates live.
  const Eigen::VectorXd x = toParameters(mean_);
  const int axis = runGeneration_ % n_;
  const Eigen::VectorXd axisStep = 0.1 * sigma_ * D_[axis] * B_.col(axis);
  if ((toParameters(mean_ + axisStep).array() == x.array()).all()) return CmaesStop::NoEffectAxis;
  for (int i = 0; i < n_; ++i) {
    const double step = 0.2 * sigma_ * std::sqrt(C_(i, i)) * scale_[i];
    if (x[i] + step == x[i]) return CmaesStop::NoEffectCoord;
  }
  return CmaesStop::None;
}

void Cmaes::checkStop() {
  if (best_.fitness <= def_.stopFitness) {
    stop_ = CmaesStop::StopFitness;
  } else if (def_.maxEvaluations > 0 && evaluations_ >= def_.maxEvaluations) {
    stop_ = CmaesStop::MaxEvaluations;
  } else if (def_.maxGenerations > 0 && generation_ >= def_.maxGenerations) {
    stop_ = CmaesStop::MaxGenerations;
  } else if (const CmaesStop stall = stallReason(); stall != CmaesStop::None) {
    if (run_ < def_.restarts) {  // IPOP: same start, larger population
      ++run_;
      stop_ = CmaesStop::None;
      lambda_ = static_cast<int>(std::lround(lambda_ * def_.restartPopulationFactor));
      startRun();
    } else {
      stop_ = stall;
    }
  }
}

std::vector<double> Cmaes::mean() const { return toStd(toParameters(mean_)); }

std::vector<double> Cmaes::standardDeviations() const {
  return toStd(sigma_ * C_.diagonal().cwiseSqrt().cwiseProduct(scale_));
}

// --- checkpoints --------------------------------------------------------------------------

namespace {

constexpr const char* kCheckpointFormat = "scl-cmaes-checkpoint";
// Version 1 was a text format of "key values" lines.
constexpr int kCheckpointVersion = 2;
constexpr int kIntMax = std::numeric_limits<int>::max();

CmaesStop stopNamed(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(CmaesStop::NoEffectCoord); ++i)
    if (name == toString(static_cast<CmaesStop>(i))) return static_cast<CmaesStop>(i);
  CheckpointFields::fail("unknown stop reason " + quoteForMessage(name));
}

CmaesDef readDefinition(const CheckpointFields& d, int dimension) {
  CmaesDef def;
  // Sized before anything n x n is allocated: a mean of a million numbers is refused here.
  def.mean = d.numbers("mean", dimension);
  def.sigmas = d.numbers("sigmas");
  def.sigma = d.number("sigma");
  def.populationSize = static_cast<int>(d.integer("population_size", 0, kMaxPopulationSize));
  def.seed = d.word("seed");
  def.lower = d.numbers("lower");
  def.upper = d.numbers("upper");
  def.tolFun = d.number("tol_fun");
  def.tolX = d.number("tol_x");
  def.maxCondition = d.number("max_condition");
  def.stopFitness = d.number("stop_fitness");
  def.maxEvaluations = d.count("max_evaluations");
  def.maxGenerations = static_cast<int>(d.integer("max_generations", 0, kIntMax));
  def.restarts = static_cast<int>(d.integer("restarts", 0, kIntMax));
  def.restartPopulationFactor = d.finite("restart_population_factor");
  return def;
}

}  // namespace

CheckpointJson Cmaes::serialize() const {
  if (asked_) throw std::logic_error("Cmaes::serialize: tell() the pending population first");
  const RandomState& rng = random_.state();
  return {
      {"format", kCheckpointFormat},
      {"version", kCheckpointVersion},
      {"definition",
       {{"mean", exactJson(def_.mean)},
        {"sigmas", exactJson(def_.sigmas)},
        {"sigma", exactJson(def_.sigma)},
        {"population_size", def_.populationSize},
        {"seed", def_.seed},
        {"lower", exactJson(def_.lower)},
        {"upper", exactJson(def_.upper)},
        {"tol_fun", exactJson(def_.tolFun)},
        {"tol_x", exactJson(def_.tolX)},
        {"max_condition", exactJson(def_.maxCondition)},
        {"stop_fitness", exactJson(def_.stopFitness)},
        {"max_evaluations", def_.maxEvaluations},
        {"max_generations", def_.maxGenerations},
        {"restarts", def_.restarts},
        {"restart_population_factor", exactJson(def_.restartPopulationFactor)}}},
      {"counters",
       {{"run", run_},
        {"generation", generation_},
        {"run_generation", runGeneration_},
        {"evaluations", evaluations_},
        {"nan_count", nanCount_}}},
      {"stop", toString(stop_)},
      {"distribution",
       {{"lambda", lambda_},
        {"mean", exactJson(mean_)},
        {"sigma", exactJson(sigma_)},
        {"C", exactJson(C_)},
        {"B", exactJson(B_)},
        {"D", exactJson(D_)},
        {"pc", exactJson(pc_)},
        {"ps", exactJson(ps_)},
        {"generations_since_eigen", generationsSinceEigen_}}},
      {"best_history", exactJson(bestHistory_)},
      {"bound_handling",
       {{"weights", exactJson(boundWeights_)},
        {"fitness_range_history", exactJson(fitnessRangeHistory_)},
        {"valid_fitness_range", validFitnessRange_},
        {"init_phase", boundInitPhase_}}},
      {"best",
       {{"x", exactJson(best_.x)},
        {"fitness", exactJson(best_.fitness)},
        {"evaluation", best_.evaluation}}},
      {"random",
       {{"words", rng.words},
        {"spare_normal", exactJson(rng.spareNormal)},
        {"has_spare_normal", rng.hasSpareNormal}}},
  };
}

// A step size or covariance CMA-ES never produces would be sampled from as it is: refused.
void Cmaes::checkDistribution() const {
  const auto fail = [](const std::string& what) {
    CheckpointFields::fail("'distribution." + what);
  };
  if (!std::isfinite(sigma_) || !(sigma_ > 0))
    fail("sigma' must be a positive finite number, not " + formatNumber(sigma_));
  if (!mean_.allFinite() || !pc_.allFinite() || !ps_.allFinite() || !B_.allFinite())
    fail("mean', 'pc', 'ps' and 'B' must be finite");
  if (!D_.allFinite() || !(D_.array() > 0).all()) fail("D' must be positive and finite");
  // Symmetric with a positive diagonal and |C_ij| <= sqrt(C_ii C_jj): what every
  // covariance is (a positive-definite check short of a factorization).
  constexpr double kTolerance = 1e-9;
  for (int i = 0; i < n_; ++i) {
    if (!std::isfinite(C_(i, i)) || !(C_(i, i) > 0)) fail("C' must have a positive diagonal");
    for (int j = 0; j < i; ++j) {
      const double bound = std::sqrt(C_(i, i) * C_(j, j)) * (1 + kTolerance);
      if (!std::isfinite(C_(i, j)) || std::abs(C_(i, j) - C_(j, i)) > kTolerance * bound ||
          std::abs(C_(i, j)) > bound)
        fail("C' is no covariance (row " + std::to_string(i) + ", column " + std::to_string(j) +
             ")");
    }
  }
}

Cmaes Cmaes::deserialize(const CheckpointJson& state, int dimension) {
  try {
    const CheckpointFields top(state, "");
    if (top.text("format") != kCheckpointFormat)
      CheckpointFields::fail("format is not '" + std::string(kCheckpointFormat) + "'");
    top.requireVersion(kCheckpointVersion);
    Cmaes cmaes = [&] {
      const CmaesDef def = readDefinition(top.object("definition"), dimension);
      try {
        return Cmaes(def);
      } catch (const std::invalid_argument& error) {
        CheckpointFields::fail(error.what());
      }
    }();
    const int n = cmaes.n_;

    const CheckpointFields counters = top.object("counters");
    cmaes.run_ = static_cast<int>(counters.integer("run", 0, kIntMax));
    cmaes.generation_ = static_cast<int>(counters.integer("generation", 0, kIntMax));
    cmaes.runGeneration_ = static_cast<int>(counters.integer("run_generation", 0, kIntMax));
    cmaes.evaluations_ = counters.count("evaluations");
    cmaes.nanCount_ = counters.count("nan_count");
    cmaes.stop_ = stopNamed(top.text("stop"));

    const CheckpointFields distribution = top.object("distribution");
    cmaes.setStrategyParameters(
        static_cast<int>(distribution.integer("lambda", 2, kMaxPopulationSize)));
    cmaes.mean_ = distribution.vector("mean", n);
    cmaes.sigma_ = distribution.number("sigma");
    cmaes.C_ = distribution.matrix("C", n);
    cmaes.B_ = distribution.matrix("B", n);
    cmaes.D_ = distribution.vector("D", n);
    cmaes.pc_ = distribution.vector("pc", n);
    cmaes.ps_ = distribution.vector("ps", n);
    cmaes.generationsSinceEigen_ =
        static_cast<int>(distribution.integer("generations_since_eigen", 0, kIntMax));

    cmaes.bestHistory_ = top.numbers("best_history");
    const CheckpointFields bounds = top.object("bound_handling");
    cmaes.boundWeights_ = bounds.vector("weights", n);
    cmaes.fitnessRangeHistory_ = bounds.numbers("fitness_range_history");
    cmaes.validFitnessRange_ = bounds.flag("valid_fitness_range");
    cmaes.boundInitPhase_ = bounds.flag("init_phase");

    const CheckpointFields best = top.object("best");
    cmaes.best_.x = best.numbers("x");
    if (!cmaes.best_.x.empty() && cmaes.best_.x.size() != static_cast<size_t>(n))
      CheckpointFields::fail("'best.x' must be empty or have " + std::to_string(n) + " elements");
    cmaes.best_.fitness = best.number("fitness");
    cmaes.best_.evaluation = best.count("evaluation");

    const CheckpointFields random = top.object("random");
    RandomState rng;
    const std::vector<uint64_t> words = random.words("words", rng.words.size());
    std::copy(words.begin(), words.end(), rng.words.begin());
    rng.spareNormal = random.number("spare_normal");
    rng.hasSpareNormal = random.flag("has_spare_normal");
    cmaes.random_.setState(rng);
    if (cmaes.stop_ == CmaesStop::None) cmaes.checkDistribution();
    return cmaes;
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(std::string("Cmaes checkpoint: ") + error.what());
  }
}

// --- driving a run ------------------------------------------------------------------------

std::vector<double> evaluatePopulation(const std::vector<std::vector<double>>& candidates,
                                       const Objective& objective, ThreadPool* pool) {
  std::vector<double> fitness(candidates.size());
  const auto evaluate = [&](size_t k) { fitness[k] = objective(candidates[k]); };
  if (pool) {
    pool->parallelFor(candidates.size(), evaluate);
  } else {
    for (size_t k = 0; k < candidates.size(); ++k) evaluate(k);
  }
  return fitness;
}

Cmaes minimize(const CmaesDef& def, const Objective& objective, ThreadPool* pool) {
  Cmaes cmaes(def);
  while (!cmaes.stopped()) cmaes.tell(evaluatePopulation(cmaes.ask(), objective, pool));
  return cmaes;
}

}  // namespace scl
