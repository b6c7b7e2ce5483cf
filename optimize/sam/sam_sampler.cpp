#include "optimize/sam/sam_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/thread_pool.h"
#include "optimize/checkpoint_json.h"

namespace scl {

namespace {

// |diag(scale)·(p − q)|
double scaledDistance(const std::vector<double>& p, const std::vector<double>& q,
                      const std::vector<double>& scale) {
  double sum = 0.0;
  for (size_t d = 0; d < p.size(); ++d) {
    const double delta = scale[d] * (p[d] - q[d]);
    sum += delta * delta;
  }
  return std::sqrt(sum);
}

// The largest standard deviation of the path's distribution over the coordinates, each
// multiplied by its scale.
double largestScaledDeviation(const Cmaes& cmaes, const std::vector<double>& scale) {
  const std::vector<double> deviations = cmaes.standardDeviations();
  double largest = 0.0;
  for (size_t d = 0; d < deviations.size(); ++d)
    largest = std::max(largest, scale[d] * deviations[d]);
  return largest;
}

void check(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument("state-action sampler: " + message);
}

}  // namespace

std::vector<double> samObjectives(const std::vector<std::vector<double>>& points,
                                  const std::vector<bool>& compatible,
                                  const std::vector<std::vector<double>>& best, int m,
                                  const SamSamplerDef& def, int& bestIndex) {
  const size_t count = points.size();
  const std::vector<double>& scale = def.scale;
  // Eq. 6.1, depth: d_i = Σ_{j≠m} |p_i − best_j| + K min_{j≠m} |p_i − best_j| − C (1 − J(p_i)).
  // With one path there are no others: depth is the distance from the path's own best.
  std::vector<double> depth(count);
  for (size_t i = 0; i < count; ++i) {
    double sum = 0.0, nearest = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < best.size(); ++j) {
      if (static_cast<int>(j) == m && best.size() > 1) continue;
      const double distance = scaledDistance(points[i], best[j], scale);
      sum += distance;
      nearest = std::min(nearest, distance);
    }
    depth[i] = sum + def.depthWeight * nearest - (compatible[i] ? 0.0 : def.incompatiblePenalty);
  }
  bestIndex = -1;
  for (size_t i = 0; i < count; ++i)
    if (compatible[i] && (bestIndex < 0 || depth[i] > depth[static_cast<size_t>(bestIndex)]))
      bestIndex = static_cast<int>(i);
  // Eq. 6.2, breadth: against the path's direction, the line from its last best point to
  // this generation's best (no line yet when none is compatible or they coincide: then
  // the projection is the last best point itself).
  const std::vector<double>& from = best[static_cast<size_t>(m)];
  const std::vector<double>& to = bestIndex >= 0 ? points[static_cast<size_t>(bestIndex)] : from;
  std::vector<double> direction(from.size());
  double length2 = 0.0;
  for (size_t d = 0; d < from.size(); ++d) {
    direction[d] = scale[d] * (to[d] - from[d]);
    length2 += direction[d] * direction[d];
  }
  std::vector<double> objective(count);
  for (size_t i = 0; i < count; ++i) {
    if (static_cast<int>(i) == bestIndex) {
      objective[i] = depth[i];
      continue;
    }
    if (!compatible[i]) {
      objective[i] = -scaledDistance(points[i], to, scale);
      continue;
    }
    // In scaled coordinates relative to `from`: the projection's parameter t along the
    // line, the point's distance from the line and the projection's distance from `to`.
    double along = 0.0;
    std::vector<double> offset(from.size());
    for (size_t d = 0; d < from.size(); ++d) {
      offset[d] = scale[d] * (points[i][d] - from[d]);
      along += offset[d] * direction[d];
    }
    const double t = length2 > 0.0 ? along / length2 : 0.0;
    double breadth2 = 0.0, behind2 = 0.0;
    for (size_t d = 0; d < from.size(); ++d) {
      const double projected = t * direction[d];
      breadth2 += (offset[d] - projected) * (offset[d] - projected);
      behind2 += (projected - direction[d]) * (projected - direction[d]);
    }
    objective[i] = std::max(0.0, depth[i] + def.breadthWeight * std::sqrt(breadth2) - behind2);
  }
  return objective;
}

SamSampler::SamSampler(SamSamplerDef def) : def_(std::move(def)) {
  const size_t n = def_.start.size();
  check(n >= 1, "no dimensions");
  check(def_.scale.size() == n && def_.lower.size() == n && def_.upper.size() == n,
        "start, scale and range need one value per dimension");
  for (size_t d = 0; d < n; ++d) {
    check(def_.scale[d] > 0.0 && std::isfinite(def_.scale[d]), "a scale must be positive");
    check(def_.lower[d] < def_.upper[d], "a range must have lower < upper");
    check(def_.start[d] >= def_.lower[d] && def_.start[d] <= def_.upper[d],
          "the start must lie inside the range");
  }
  check(def_.paths >= 1, "at least one path");
  check(def_.population >= 2, "at least 2 points per generation");
  check(def_.initialStep > 0.0, "the initial step must be positive");
  check(def_.minimumStep >= 0.0, "the minimum step must be at least 0");
  for (int m = 0; m < def_.paths; ++m) {
    cmaes_.push_back(std::make_unique<Cmaes>(cmaesDef(m, def_.start)));
    best_.push_back(def_.start);
  }
}

SamSampler::SamSampler(SamSamplerDef def, const nlohmann::ordered_json& state)
    : SamSampler(std::move(def)) {
  const CheckpointFields fields(state, "sampler");
  generation_ = static_cast<int>(fields.integer("generation", 0, 1 << 30));
  const CheckpointJson& best = fields.array("best", def_.paths);
  const CheckpointJson& paths = fields.array("paths", def_.paths);
  const size_t dimensions = def_.start.size();
  for (size_t m = 0; m < static_cast<size_t>(def_.paths); ++m) {
    if (!best[m].is_array() || best[m].size() != dimensions)
      throw std::runtime_error("'sampler.best' must hold a point of " + std::to_string(dimensions) +
                               " numbers per path");
    for (size_t d = 0; d < dimensions; ++d) best_[m][d] = exactDouble(best[m][d]);
    cmaes_[m] = std::make_unique<Cmaes>(Cmaes::deserialize(paths[m], static_cast<int>(dimensions)));
  }
}

SamSampler::~SamSampler() = default;

nlohmann::ordered_json SamSampler::serialize() const {
  CheckpointJson best = CheckpointJson::array(), paths = CheckpointJson::array();
  for (size_t m = 0; m < cmaes_.size(); ++m) {
    best.push_back(exactJson(best_[m]));
    paths.push_back(cmaes_[m]->serialize());
  }
  return {{"generation", generation_}, {"best", std::move(best)}, {"paths", std::move(paths)}};
}

CmaesDef SamSampler::cmaesDef(int path, const std::vector<double>& mean) const {
  CmaesDef def;
  def.mean = mean;
  for (double scale : def_.scale) def.sigmas.push_back(def_.initialStep / scale);
  def.populationSize = def_.population;
  // A restarted path draws new numbers: its seed moves on by the number of paths.
  def.seed = def_.seed + static_cast<uint64_t>(path) +
             static_cast<uint64_t>(def_.paths) * static_cast<uint64_t>(generation_);
  // No bounds: CMA-ES would clamp candidates onto the range's faces and pile samples
  // there. A candidate outside the range is infeasible instead (generation()).
  // A path samples for as long as it is asked to: no convergence stop.
  def.tolFun = 0.0;
  def.tolX = 0.0;
  return def;
}

std::vector<SamPoint> SamSampler::generation(const CompatibilityTest& test, ThreadPool& pool) {
  ThreadFarm farm(pool);
  return generation(test, farm);
}

std::vector<SamPoint> SamSampler::generation(const CompatibilityTest& test, EvaluationFarm& farm,
                                             const std::atomic<bool>* interrupt) {
  ++generation_;
  std::vector<SamPoint> out;
  for (int m = 0; m < def_.paths; ++m) {
    Cmaes& cmaes = *cmaes_[static_cast<size_t>(m)];
    const std::vector<std::vector<double>> points = cmaes.ask();
    // A candidate outside the range is infeasible (thesis §6.4): not simulated, not a
    // sample, ranked below every incompatible point by how far out it is.
    std::vector<double> outside(points.size(), 0.0);
    for (size_t i = 0; i < points.size(); ++i)
      for (size_t d = 0; d < points[i].size(); ++d) {
        const double beyond = std::max(def_.lower[d] - points[i][d], points[i][d] - def_.upper[d]);
        if (beyond > 0.0) outside[i] += def_.scale[d] * beyond;
      }
    std::vector<std::vector<double>> inside;
    for (size_t i = 0; i < points.size(); ++i)
      if (outside[i] == 0.0) inside.push_back(points[i]);
    const std::vector<FarmResult> labels = farm.evaluate(
        inside,
        [&](const std::vector<double>& point) {
          FarmResult result;
          result.value = test(point) ? 1.0 : 0.0;
          return result;
        },
        nullptr, interrupt);
    if (interrupt && interrupt->load()) return {};
    std::vector<bool> compatible(points.size(), false);
    for (size_t i = 0, k = 0; i < points.size(); ++i)
      if (outside[i] == 0.0) compatible[i] = labels[k++].value == 1.0;
    int bestIndex = -1;
    std::vector<double> objective = samObjectives(points, compatible, best_, m, def_, bestIndex);
    std::vector<double> fitness(objective.size());
    for (size_t i = 0; i < objective.size(); ++i) {
      if (outside[i] > 0.0) objective[i] = -def_.incompatiblePenalty - outside[i];
      fitness[i] = -objective[i];  // CMA-ES minimises
    }
    cmaes.tell(fitness);
    if (bestIndex >= 0) best_[static_cast<size_t>(m)] = points[static_cast<size_t>(bestIndex)];
    for (size_t i = 0; i < points.size(); ++i)
      if (outside[i] == 0.0)
        out.push_back({m, generation_, points[i], compatible[i], objective[i]});
    // A path whose distribution degenerated (CMA-ES stopped) or collapsed onto one point
    // starts again at its best.
    const double floor = std::min(def_.minimumStep, def_.initialStep / 10);
    if (cmaes.stopped() || largestScaledDeviation(cmaes, def_.scale) < floor)
      cmaes_[static_cast<size_t>(m)] =
          std::make_unique<Cmaes>(cmaesDef(m, best_[static_cast<size_t>(m)]));
  }
  return out;
}

}  // namespace scl
