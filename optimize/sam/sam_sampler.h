// Sampling of a state–action compatibility model (thesis §6.1; docs/state-action.md).
//
// A point p = (s, a) joins a situation s (e.g. a chair height) and an action a (a
// script's `@` numbers); it is compatible when the action, simulated in that situation,
// succeeds. From one compatible point, n sampling paths, each its own CMA-ES, explore the
// space round robin: every generation of path m is scored by Eq. 6.1 (depth: far from
// the other paths' best points, incompatible points heavily penalized) and Eq. 6.2
// (breadth: compatible points away from the path's direction rewarded, incompatible ones
// ranked by their distance to the best), and every point is kept, labelled, as training
// data for the classifier. Distances are Euclidean after multiplying each coordinate by
// its scale. The sampler knows nothing of simulation: the caller's test decides
// compatibility, and is run on the thread pool, by index, so a run is the same for any
// thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "optimize/cmaes.h"
#include "optimize/evaluation_farm.h"

namespace scl {

class ThreadPool;

/// Definition of a sampling run.
struct SamSamplerDef {
  /// The compatible starting point, one coordinate per dimension (state, then action).
  std::vector<double> start;
  /// Each coordinate's distance scale (the thesis's (10, 1/40, 1/40) for chair height in
  /// m and two angles in degrees): distance = |diag(scale)·(p − q)|.
  std::vector<double> scale;
  /// Each coordinate's range; every sampled point lies inside it (a candidate outside is
  /// infeasible: CMA-ES would otherwise clamp candidates onto the faces).
  std::vector<double> lower, upper;
  /// Sampling paths n (the thesis: as many as dimensions + 1, 4 for 3 dimensions).
  int paths = 4;
  /// Points per generation of each path (the thesis: 7).
  int population = 7;
  /// Initial standard deviation of each coordinate, in scaled units (σ_d = this / scale_d):
  /// 0.5 is 0.05 m of a height scaled by 10 and 20° of an angle scaled by 1/40.
  double initialStep = 0.5;
  /// A path whose distribution has shrunk so far that every coordinate's standard
  /// deviation, in scaled units, is below this (and below a tenth of `initialStep`)
  /// starts again at its best point with `initialStep`: it has stopped exploring and
  /// would only sample the same point again (0: never). 0.05 is 5 mm of a height scaled
  /// by 10, 2° of an angle scaled by 1/40.
  double minimumStep = 0.05;
  /// K of Eq. 6.1: weight of the minimum distance to the other paths' best points.
  double depthWeight = 5.0;
  /// K2 of Eq. 6.2: weight of a compatible point's distance from the path's direction.
  double breadthWeight = 2.0;
  /// C of Eq. 6.1: the penalty of an incompatible point ("very large").
  double incompatiblePenalty = 1e6;
  /// Seed; path m's CMA-ES uses seed + m.
  uint64_t seed = 1;
};

/// One sampled point.
struct SamPoint {
  /// Sampling path (0-based) and the generation of that path (1-based) it came from.
  int path = 0;
  int generation = 0;
  /// Coordinates (state, then action), in the problem's units.
  std::vector<double> point;
  bool compatible = false;
  /// Its objective j of Eq. 6.2 (higher is better for its path).
  double objective = 0.0;
};

/// Decides whether a point is compatible (e.g. simulates it); called from the pool's
/// threads, each call independent.
using CompatibilityTest = std::function<bool(const std::vector<double>& point)>;

/// Scores one generation of path `m` (Eq. 6.1 and 6.2): `points` with their labels and
/// the best point of every path so far (`best[m]`, path m's own, is p_last, where the
/// path's direction starts). Returns each point's objective j and sets `bestIndex` to the
/// generation's best, the path's new location (−1 when no point is compatible: the path
/// then stays where it is). Exposed for tests.
std::vector<double> samObjectives(const std::vector<std::vector<double>>& points,
                                  const std::vector<bool>& compatible,
                                  const std::vector<std::vector<double>>& best, int m,
                                  const SamSamplerDef& def, int& bestIndex);

/// The round-robin sampler: each call of generation() runs one generation of every path
/// in turn (path 0's points are scored before path 1 samples) and returns its points.
class SamSampler {
 public:
  /// Throws std::invalid_argument for an inconsistent definition (sizes, a start outside
  /// the range, a scale ≤ 0, fewer than 1 path or 2 points per generation).
  explicit SamSampler(SamSamplerDef def);
  /// Continues a serialize()d run of the same definition bit-identically. Throws
  /// std::runtime_error for a malformed state or one that does not fit `def` (paths,
  /// dimensions).
  SamSampler(SamSamplerDef def, const nlohmann::ordered_json& state);
  ~SamSampler();

  /// The run's state (generations, each path's best point and CMA-ES) as one JSON object
  /// with every double exact; between generations.
  nlohmann::ordered_json serialize() const;

  /// One generation of every path, its points' compatibility decided by `test` on
  /// `farm` (on an MPI farm, the other ranks run their own copy of the test): every
  /// candidate inside the range (one outside is infeasible: not tested, not returned,
  /// ranked last). Throws what `test` or the farm throws. When `*interrupt` is set during
  /// the generation, it is abandoned: the result is empty and the sampler must not be
  /// used or serialized again (resume from the last checkpoint instead).
  std::vector<SamPoint> generation(const CompatibilityTest& test, EvaluationFarm& farm,
                                   const std::atomic<bool>* interrupt = nullptr);
  /// The same on the threads of `pool`.
  std::vector<SamPoint> generation(const CompatibilityTest& test, ThreadPool& pool);

  /// Generations run so far.
  int generations() const { return generation_; }
  /// Each path's best point (its location).
  const std::vector<std::vector<double>>& bestPoints() const { return best_; }
  const SamSamplerDef& definition() const { return def_; }

 private:
  CmaesDef cmaesDef(int path, const std::vector<double>& mean) const;

  SamSamplerDef def_;
  std::vector<std::unique_ptr<Cmaes>> cmaes_;
  std::vector<std::vector<double>> best_;  // per path: its best point
  int generation_ = 0;
};

}  // namespace scl
