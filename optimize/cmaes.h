// CMA-ES: the (mu/mu_w, lambda) evolution strategy with full covariance matrix adaptation
// (Hansen, "The CMA Evolution Strategy: A Tutorial", default parameters), minimising.
//
// Ask/tell interface: ask() returns a population of candidates, the caller evaluates them
// (in any order, in parallel if it likes) and passes the fitness values, by index, to
// tell(). Everything random comes from the optimizer's own seeded generator, so a run is a
// pure function of its definition and the fitness values: same seed, same trajectory, bit
// for bit, whatever the thread count. serialize()/deserialize() checkpoint the full state.
//
// Per-parameter step sizes: the search runs in normalised coordinates u, with
// x = start + sigmas ⊙ u, and starts from C = I, step size `sigma`. Bounds: candidates
// are clamped into the box before evaluation and a quadratic penalty on the repair
// distance, with adaptive weights (Hansen's cmaes.m boundary handling), is added to the
// fitness used for ranking; the distribution is updated from the unrepaired samples.
// See docs/cmaes.md.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "optimize/random.h"

namespace scl {

class ThreadPool;

/// Why a CMA-ES run ended.
enum class CmaesStop {
  None,             ///< still running
  StopFitness,      ///< best fitness reached CmaesDef::stopFitness
  MaxEvaluations,   ///< CmaesDef::maxEvaluations reached
  MaxGenerations,   ///< CmaesDef::maxGenerations reached
  TolFun,           ///< best fitness of recent generations varies less than tolFun
  TolX,             ///< all step sizes below tolX (relative to the initial ones)
  TolUpSigma,       ///< sigma grew by more than 1e20 relative to the covariance (divergence)
  ConditionNumber,  ///< condition number of C above maxCondition (or C lost definiteness)
  NoEffectAxis,     ///< a principal-axis step of 0.1 sigma no longer changes the mean
  NoEffectCoord,    ///< a coordinate step of 0.2 sigma no longer changes the mean
};

/// Short name of a stop reason ("tolfun", "maxevals", ...).
const char* toString(CmaesStop stop);

/// The most candidates per generation (count): far above the objectives' 10000, far below
/// what would exhaust memory (the samples are n x lambda doubles).
inline constexpr int kMaxPopulationSize = 100'000;

/// Definition of a CMA-ES run. Only `mean` is required.
struct CmaesDef {
  /// Start point (parameter units); its size is the dimension n.
  std::vector<double> mean;
  /// Per-parameter initial standard deviations (parameter units); empty: all 1.
  std::vector<double> sigmas;
  /// Initial global step size (dimensionless, multiplies `sigmas`).
  double sigma = 1.0;
  /// Candidates per generation lambda (at most kMaxPopulationSize); 0: 4 + floor(3 ln n).
  int populationSize = 0;
  /// Seed of the random generator.
  uint64_t seed = 1;
  /// Lower bounds (parameter units, -inf allowed); empty: unbounded below.
  std::vector<double> lower;
  /// Upper bounds (parameter units, +inf allowed); empty: unbounded above.
  std::vector<double> upper;
  /// Stall: best fitness of the last 10 + ceil(30 n / lambda) generations spans less than this.
  double tolFun = 1e-12;
  /// Stall: every coordinate's step size below tolX times its initial step size.
  double tolX = 1e-11;
  /// Stall: condition number of C above this.
  double maxCondition = 1e14;
  /// Stop when a fitness at or below this is found.
  double stopFitness = -std::numeric_limits<double>::infinity();
  /// Stop after this many evaluations over all restarts (0: no limit).
  int64_t maxEvaluations = 0;
  /// Stop after this many generations over all restarts (0: no limit).
  int maxGenerations = 0;
  /// IPOP restarts: on a stall, restart from `mean` with a larger population this many times.
  int restarts = 0;
  /// Population growth factor per restart.
  double restartPopulationFactor = 2.0;
};

/// The best candidate evaluated so far (over all restarts).
struct CmaesBest {
  /// Parameters as evaluated (inside the bounds).
  std::vector<double> x;
  /// Its fitness; +inf until a non-NaN fitness was told.
  double fitness = std::numeric_limits<double>::infinity();
  /// 1-based evaluation number at which it was found (0: none yet).
  int64_t evaluation = 0;
};

class Cmaes {
 public:
  /// Throws std::invalid_argument for an inconsistent definition.
  explicit Cmaes(const CmaesDef& def);

  /// The population to evaluate, lambda candidates within the bounds. Calling ask() again
  /// before tell() returns the same population. Throws std::logic_error once stopped().
  const std::vector<std::vector<double>>& ask();
  /// Fitness of each candidate of the last ask(), by index (lower is better). NaN means
  /// "failed": ranked worst and counted in nanCount(). Throws std::logic_error without a
  /// pending ask() and std::invalid_argument for a wrong count.
  void tell(const std::vector<double>& fitness);

  bool stopped() const { return stop_ != CmaesStop::None; }
  CmaesStop stopReason() const { return stop_; }

  const CmaesBest& best() const { return best_; }
  /// A point evaluated outside the distribution (the optimizer's starting values): it
  /// becomes best() when it is better. Changes nothing else (not the distribution, not the
  /// evaluation count).
  void offerBest(const std::vector<double>& x, double fitness);
  /// Current distribution mean (parameter units, not clamped into the bounds).
  std::vector<double> mean() const;
  /// Current global step size (multiplies the per-parameter sigmas).
  double sigma() const { return sigma_; }
  /// Current standard deviation of each parameter (parameter units).
  std::vector<double> standardDeviations() const;
  /// Condition number of C at its last eigendecomposition.
  double conditionNumber() const;
  int dimension() const { return n_; }
  /// Current lambda (grows with IPOP restarts).
  int populationSize() const { return lambda_; }
  /// Generations told, over all restarts.
  int generation() const { return generation_; }
  /// Fitness values told, over all restarts (NaN ones included).
  int64_t evaluations() const { return evaluations_; }
  /// NaN fitness values told.
  int64_t nanCount() const { return nanCount_; }
  /// Restarts done so far.
  int restartsDone() const { return run_; }
  const CmaesDef& definition() const { return def_; }

  /// The definition and the full state as one JSON object (docs/cmaes.md): every double
  /// exact, infinities and NaN as the strings "inf", "-inf", "nan", the generator's words
  /// as unsigned 64-bit integers. Only between tell() and ask(); throws std::logic_error
  /// else. Needs <nlohmann/json.hpp> where the result is used.
  nlohmann::ordered_json serialize() const;
  /// Restores a serialize()d state of `dimension` parameters; the run continues
  /// bit-identically. Throws std::runtime_error ("Cmaes checkpoint: missing
  /// 'distribution.C'", ...) for a malformed or inconsistent state: another dimension
  /// (checked before anything of its size is allocated), a population above
  /// kMaxPopulationSize, and for a run not stopped a step size or covariance CMA-ES never
  /// produces (not finite, not positive, not symmetric).
  static Cmaes deserialize(const nlohmann::ordered_json& state, int dimension);

 private:
  void checkDistribution() const;
  void setStrategyParameters(int lambda);
  void startRun();
  void updateEigen();
  Eigen::VectorXd toParameters(const Eigen::VectorXd& u) const;
  std::vector<double> penalizedFitness(const std::vector<double>& fitness);
  void updateBoundWeights(const Eigen::VectorXd& oldMean);
  void updateDistribution(const std::vector<size_t>& order);
  void recordHistory(const std::vector<double>& fitness);
  CmaesStop stallReason() const;
  void checkStop();

  CmaesDef def_;
  int n_ = 0;
  Eigen::VectorXd origin_;  // x at u = 0
  Eigen::VectorXd scale_;   // per-parameter sigmas
  Eigen::VectorXd lower_, upper_;
  bool bounded_ = false;

  // Strategy parameters (functions of n and lambda).
  int lambda_ = 0;
  int mu_ = 0;
  Eigen::VectorXd weights_;
  double mueff_ = 0, cs_ = 0, ds_ = 0, cc_ = 0, c1_ = 0, cmu_ = 0, chiN_ = 0;
  double eigenGap_ = 0;  // generations between eigendecompositions

  // Distribution (normalised coordinates).
  Eigen::VectorXd mean_;
  double sigma_ = 1;
  Eigen::MatrixXd C_, B_;
  Eigen::VectorXd D_;  // square roots of C's eigenvalues
  Eigen::VectorXd pc_, ps_;
  int generationsSinceEigen_ = 0;

  // Counters.
  int run_ = 0;
  int generation_ = 0;
  int runGeneration_ = 0;
  int64_t evaluations_ = 0;
  int64_t nanCount_ = 0;
  std::vector<double> bestHistory_;  // best raw fitness per generation of this run, newest last

  // Boundary handling (cmaes.m).
  Eigen::VectorXd boundWeights_;
  std::vector<double> fitnessRangeHistory_;
  bool validFitnessRange_ = false;
  bool boundInitPhase_ = true;

  CmaesBest best_;
  CmaesStop stop_ = CmaesStop::None;
  Random random_;

  // Pending population between ask() and tell().
  bool asked_ = false;
  Eigen::MatrixXd samples_;  // columns: unrepaired y = (u - mean) / sigma
  std::vector<std::vector<double>> candidates_;
};

/// Something to minimise; called concurrently when evaluated with a pool.
using Objective = std::function<double(const std::vector<double>&)>;

/// Evaluates every candidate, in parallel on `pool` when given; results by index.
std::vector<double> evaluatePopulation(const std::vector<std::vector<double>>& candidates,
                                       const Objective& objective, ThreadPool* pool = nullptr);

/// Runs CMA-ES until it stops (set a stop condition: maxEvaluations, stopFitness, ...).
/// Returns the final optimizer (best(), evaluations(), stopReason(), ...).
Cmaes minimize(const CmaesDef& def, const Objective& objective, ThreadPool* pool = nullptr);

}  // namespace scl
