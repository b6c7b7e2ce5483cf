#include "optimize/sam/sam_query.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "optimize/cmaes.h"
#include "optimize/random.h"

namespace scl {

double scaledDistance(const std::vector<double>& p, const std::vector<double>& q,
                      const std::vector<double>& scale, size_t first, size_t count) {
  double sum = 0.0;
  for (size_t d = first; d < first + count; ++d) {
    const double delta = scale[d] * (p[d] - q[d]);
    sum += delta * delta;
  }
  return std::sqrt(sum);
}

namespace {

// C(s, a): 0 where the model predicts compatible (beyond the margin) at the point and at
// its neighbours `clearance` away along each action axis (scaled; the state is given), else the
// penalty plus the worst shortfall, so that CMA-ES still ranks incompatible points by how far out
// they are. Counts its evaluations.
struct Compatibility {
  const SamModel& model;
  const SamSpace& space;
  const SamQueryDef& def;
  long evaluations = 0;

  double decisionNear(const std::vector<double>& point) {
    double worst = model.decision(point);
    ++evaluations;
    // Already failing (or no clearance asked): the neighbours cannot change the verdict.
    if (def.clearance <= 0.0 || worst <= def.margin) return worst;
    std::vector<double> neighbour = point;
    for (size_t d = space.stateDimensions; d < point.size(); ++d) {
      for (const double sign : {-1.0, 1.0}) {
        neighbour[d] = point[d] + sign * def.clearance / space.scale[d];
        // Beyond the sampled range the model knows nothing: no clearance there.
        // Beyond it by x (scaled) counts as a decision of −x.
        const double beyond =
            std::max(space.lower[d] - neighbour[d], neighbour[d] - space.upper[d]);
        if (beyond >= 0.0) return std::min(worst, -beyond * space.scale[d]);
        worst = std::min(worst, model.decision(neighbour));
        ++evaluations;
        if (worst <= def.margin) return worst;
      }
      neighbour[d] = point[d];
    }
    return worst;
  }

  double operator()(const std::vector<double>& point) {
    const double decision = decisionNear(point);
    if (decision > def.margin) return 0.0;
    return def.incompatiblePenalty + (def.margin - decision);
  }
};

// Step 1's seed: a random compatible support vector whose state is within the radius of
// s0, else the nearest.
std::vector<double> seedSupportVector(const SamModel& model, const SamSpace& space,
                                      const std::vector<double>& state, const SamQueryDef& def,
                                      bool& supported) {
  const std::vector<std::vector<double>> vectors = model.compatibleSupportVectors();
  if (vectors.empty())
    throw std::invalid_argument("the model has no compatible support vector to start from");
  std::vector<double> padded(space.scale.size(), 0.0);
  std::copy(state.begin(), state.end(), padded.begin());
  std::vector<size_t> near;
  size_t nearest = 0;
  double nearestDistance = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < vectors.size(); ++i) {
    const double distance =
        scaledDistance(vectors[i], padded, space.scale, 0, space.stateDimensions);
    if (distance < def.nearRadius) near.push_back(i);
    if (distance < nearestDistance) nearestDistance = distance, nearest = i;
  }
  supported = !near.empty();
  if (near.empty()) return vectors[nearest];
  Random random(def.seed);
  return vectors[near[static_cast<size_t>(random.next() % near.size())]];
}

CmaesDef queryCmaes(const std::vector<double>& mean, const SamSpace& space, size_t first,
                    const SamQueryDef& def, uint64_t seed) {
  CmaesDef cmaes;
  cmaes.mean = mean;
  for (size_t d = 0; d < mean.size(); ++d) {
    cmaes.sigmas.push_back(def.initialStep / space.scale[first + d]);
    cmaes.lower.push_back(space.lower[first + d]);
    cmaes.upper.push_back(space.upper[first + d]);
  }
  cmaes.seed = seed;
  cmaes.tolFun = 0.0;
  cmaes.tolX = 0.0;
  return cmaes;
}

// Path i's share of D for action `a` at state s0 against the others' current actions.
double diversityShare(const std::vector<double>& a, size_t i,
                      const std::vector<std::vector<double>>& actions, const SamSpace& space,
                      const SamQueryDef& def, double compatibility) {
  const size_t first = space.stateDimensions;
  const size_t count = space.scale.size() - first;
  double sum = 0.0, nearest = std::numeric_limits<double>::infinity();
  for (size_t j = 0; j < actions.size(); ++j) {
    if (j == i) continue;
    const double distance = scaledDistance(a, actions[j], space.scale, first, count);
    sum += distance;
    nearest = std::min(nearest, distance);
  }
  if (!std::isfinite(nearest)) nearest = 0.0;  // a single action: no neighbour
  return compatibility - sum - def.diversityWeight * nearest;
}

}  // namespace

SamQueryResult samQuery(const SamModel& model, const SamSpace& space,
                        const std::vector<double>& state, const SamQueryDef& def) {
  const size_t dimensions = space.scale.size();
  if (model.dimensions() != dimensions || space.lower.size() != dimensions ||
      space.upper.size() != dimensions || space.stateDimensions >= dimensions)
    throw std::invalid_argument("state-action query: the model and the space disagree");
  if (state.size() != space.stateDimensions)
    throw std::invalid_argument("state-action query: expected " +
                                std::to_string(space.stateDimensions) + " state values");
  for (size_t d = 0; d < state.size(); ++d)
    if (!(state[d] >= space.lower[d] && state[d] <= space.upper[d]))
      throw std::invalid_argument("state-action query: a state value outside the problem's range");
  if (def.count < 1) throw std::invalid_argument("state-action query: at least one action");

  SamQueryResult result;
  result.state = state;
  Compatibility compatibility{model, space, def};
  result.supportVector = seedSupportVector(model, space, state, def, result.supported);

  // Step 1: walk the support vector into s0, staying compatible.
  {
    CmaesDef cmaesDef = queryCmaes(result.supportVector, space, 0, def, def.seed);
    cmaesDef.maxGenerations = def.seedGenerations;
    cmaesDef.stopFitness = 1e-3;  // scaled: 0.1 mm of a 10-scaled chair height
    Cmaes cmaes(cmaesDef);
    std::vector<double> target = result.supportVector;  // only its state is compared
    std::copy(state.begin(), state.end(), target.begin());
    const auto fitness = [&](const std::vector<double>& point) {
      return scaledDistance(point, target, space.scale, 0, space.stateDimensions) +
             compatibility(point);
    };
    cmaes.offerBest(result.supportVector, fitness(result.supportVector));
    while (!cmaes.stopped()) {
      const std::vector<std::vector<double>>& candidates = cmaes.ask();
      std::vector<double> values(candidates.size());
      for (size_t k = 0; k < candidates.size(); ++k) values[k] = fitness(candidates[k]);
      cmaes.tell(values);
    }
    result.seedPoint = cmaes.best().x;
  }
  std::vector<double> atState = result.seedPoint;
  std::copy(state.begin(), state.end(), atState.begin());
  result.stateReached =
      scaledDistance(result.seedPoint, atState, space.scale, 0, space.stateDimensions) <= 1e-3;

  // Step 2: spread n actions at s0 apart, round robin.
  const size_t first = space.stateDimensions;
  const std::vector<double> a0(atState.begin() + static_cast<long>(first), atState.end());
  const auto pointOf = [&](const std::vector<double>& action) {
    std::vector<double> point = state;
    point.insert(point.end(), action.begin(), action.end());
    return point;
  };
  // The actions in full coordinates (the distances index them from `first`).
  std::vector<std::vector<double>> actions(static_cast<size_t>(def.count), atState);
  std::vector<Cmaes> paths;
  paths.reserve(static_cast<size_t>(def.count));
  for (int i = 0; i < def.count; ++i)
    paths.emplace_back(queryCmaes(a0, space, first, def, def.seed + 1 + static_cast<uint64_t>(i)));
  for (int generation = 0; generation < def.generations; ++generation) {
    for (size_t i = 0; i < paths.size(); ++i) {
      if (paths[i].stopped()) continue;  // its distribution degenerated: the action stays
      const std::vector<std::vector<double>> candidates = paths[i].ask();
      std::vector<double> values;
      size_t bestIndex = 0;
      for (size_t k = 0; k < candidates.size(); ++k) {
        const std::vector<double> point = pointOf(candidates[k]);
        values.push_back(diversityShare(point, i, actions, space, def, compatibility(point)));
        if (values[k] < values[bestIndex]) bestIndex = k;
      }
      paths[i].tell(values);
      // The path's action moves to its generation's best when that beats where it is
      // (both judged against the others' current actions).
      const double current =
          diversityShare(actions[i], i, actions, space, def, compatibility(actions[i]));
      if (values[bestIndex] < current) actions[i] = pointOf(candidates[bestIndex]);
    }
  }
  for (const std::vector<double>& point : actions) {
    result.actions.emplace_back(point.begin() + static_cast<long>(first), point.end());
    const double decision = compatibility.decisionNear(point);
    result.decisions.push_back(decision);
    result.predictedCompatible.push_back(decision > def.margin);
  }
  result.evaluations = compatibility.evaluations;
  return result;
}

}  // namespace scl
