// The state–action sampler (optimize/sam/sam_sampler.h, thesis §6.1) on compatibility
// regions whose boundary is known, so that what it samples can be checked exactly.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "base/thread_pool.h"
#include "optimize/sam/sam_sampler.h"

namespace {

using scl::SamPoint;
using scl::SamSampler;
using scl::SamSamplerDef;

// A ball of radius 0.3 around (0.5, 0.5, 0.5) in the unit cube.
bool inBall(const std::vector<double>& p) {
  double r2 = 0.0;
  for (double x : p) r2 += (x - 0.5) * (x - 0.5);
  return r2 < 0.09;
}

SamSamplerDef ballDef() {
  SamSamplerDef def;
  def.start = {0.5, 0.5, 0.5};
  def.scale = {1.0, 1.0, 1.0};
  def.lower = {0.0, 0.0, 0.0};
  def.upper = {1.0, 1.0, 1.0};
  def.paths = 4;
  def.population = 7;
  def.initialStep = 0.05;
  def.seed = 3;
  return def;
}

std::vector<SamPoint> sample(const SamSamplerDef& def, int generations, int threads) {
  scl::ThreadPool pool(threads);
  SamSampler sampler(def);
  std::vector<SamPoint> all;
  for (int g = 0; g < generations; ++g)
    for (SamPoint& point : sampler.generation(inBall, pool)) all.push_back(std::move(point));
  return all;
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (size_t d = 0; d < a.size(); ++d) sum += (a[d] - b[d]) * (a[d] - b[d]);
  return std::sqrt(sum);
}

}  // namespace

TEST_CASE("sam objectives: Eq. 6.1 and 6.2 on a case worked by hand", "[sam]") {
  SamSamplerDef def;
  def.scale = {1.0, 1.0};
  // Path 0 at the origin, path 1 at (1, 0); path 0's generation has three points.
  const std::vector<std::vector<double>> best = {{0.0, 0.0}, {1.0, 0.0}};
  const std::vector<std::vector<double>> points = {{-1.0, 0.0}, {0.0, 1.0}, {0.5, 0.0}};
  int bestIndex = -2;
  const std::vector<double> j =
      scl::samObjectives(points, {true, true, false}, best, 0, def, bestIndex);
  // d = Σ|p − best_1| + 5 min|p − best_1|: 2 + 10 = 12, √2 + 5√2, and 3 − C.
  REQUIRE(bestIndex == 0);
  CHECK(j[0] == Approx(12.0));
  // The direction runs from (0, 0) to (−1, 0); (0, 1) projects onto (0, 0): breadth 1,
  // 1 behind the best: 6√2 + 2·1 − 1².
  CHECK(j[1] == Approx(6.0 * std::sqrt(2.0) + 1.0));
  // Incompatible: minus its distance to the best point.
  CHECK(j[2] == Approx(-1.5));
  // Nothing compatible: no best, and the path's location stays.
  scl::samObjectives(points, {false, false, false}, best, 0, def, bestIndex);
  CHECK(bestIndex == -1);
}

TEST_CASE("sam sampler: paths spread out and sample both sides of the boundary", "[sam]") {
  const SamSamplerDef def = ballDef();
  scl::ThreadPool pool(2);
  SamSampler sampler(def);
  std::vector<SamPoint> all;
  for (int g = 0; g < 40; ++g)
    for (SamPoint& point : sampler.generation(inBall, pool)) all.push_back(std::move(point));
  REQUIRE(all.size() == size_t{40} * 4 * 7);
  int compatible = 0, nearBoundary = 0;
  for (const SamPoint& point : all) {
    CHECK(point.compatible == inBall(point.point));
    for (size_t d = 0; d < 3; ++d) CHECK((point.point[d] >= 0.0 && point.point[d] <= 1.0));
    compatible += point.compatible ? 1 : 0;
    if (std::abs(distance(point.point, def.start) - 0.3) < 0.1) ++nearBoundary;
  }
  // Both labels, and many points within 0.1 of the boundary (where a classifier needs them).
  CHECK(compatible > 0.2 * static_cast<double>(all.size()));
  CHECK(compatible < 0.95 * static_cast<double>(all.size()));
  CHECK(nearBoundary > 0.3 * static_cast<double>(all.size()));
  // Each path's location is compatible, has travelled toward the boundary, and the
  // paths went apart.
  const auto& bests = sampler.bestPoints();
  REQUIRE(bests.size() == 4);
  for (size_t m = 0; m < 4; ++m) {
    INFO("path " << m);
    CHECK(inBall(bests[m]));
    CHECK(distance(bests[m], def.start) > 0.15);
    for (size_t k = m + 1; k < 4; ++k) CHECK(distance(bests[m], bests[k]) > 0.15);
  }
}

TEST_CASE("sam sampler: the same seed gives the same points for any thread count", "[sam]") {
  const std::vector<SamPoint> one = sample(ballDef(), 8, 1);
  const std::vector<SamPoint> two = sample(ballDef(), 8, 2);
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].point == two[i].point);
    CHECK(one[i].compatible == two[i].compatible);
    CHECK(one[i].objective == two[i].objective);
  }
  SamSamplerDef other = ballDef();
  other.seed = 4;
  CHECK(sample(other, 1, 1)[0].point != one[0].point);
}

TEST_CASE("sam sampler: an inconsistent definition is rejected", "[sam]") {
  SamSamplerDef def = ballDef();
  def.start = {0.5, 0.5, 1.5};
  CHECK_THROWS_AS(SamSampler(def), std::invalid_argument);
  def = ballDef();
  def.scale = {1.0, 0.0, 1.0};
  CHECK_THROWS_AS(SamSampler(def), std::invalid_argument);
  def = ballDef();
  def.lower.pop_back();
  CHECK_THROWS_AS(SamSampler(def), std::invalid_argument);
  def = ballDef();
  def.population = 1;
  CHECK_THROWS_AS(SamSampler(def), std::invalid_argument);
}

TEST_CASE("sam sampler: candidates outside the range are infeasible, not clamped onto it",
          "[sam]") {
  // Everything compatible in a box the paths soon leave: their mutual repulsion drives
  // them to the corners. Clamped candidates would pile up on the faces (exact bound
  // values); infeasible ones are dropped, so no sample lies on a face and a generation
  // returns fewer than paths x population points once the paths reach the walls.
  SamSamplerDef def = ballDef();
  def.initialStep = 0.2;
  scl::ThreadPool pool(1);
  SamSampler sampler(def);
  size_t sampled = 0, onFace = 0, candidates = 0;
  for (int g = 0; g < 30; ++g) {
    const std::vector<SamPoint> points =
        sampler.generation([](const std::vector<double>&) { return true; }, pool);
    candidates += static_cast<size_t>(def.paths * def.population);
    sampled += points.size();
    for (const SamPoint& point : points)
      for (size_t d = 0; d < point.point.size(); ++d) {
        CHECK(point.point[d] >= def.lower[d]);
        CHECK(point.point[d] <= def.upper[d]);
        onFace += point.point[d] == def.lower[d] || point.point[d] == def.upper[d] ? 1 : 0;
      }
  }
  CHECK(onFace == 0);
  CHECK(sampled < candidates);
  CHECK(sampled > candidates / 4);
}

namespace {

// The smallest spread (largest scaled standard deviation over the coordinates) of any
// path's generation in `points`, from generation `from` on.
double smallestSpread(const std::vector<SamPoint>& points, const SamSamplerDef& def, int from) {
  std::map<std::pair<int, int>, std::vector<const SamPoint*>> groups;
  for (const SamPoint& point : points)
    if (point.generation >= from) groups[{point.path, point.generation}].push_back(&point);
  double smallest = std::numeric_limits<double>::infinity();
  for (const auto& [key, members] : groups) {
    if (members.size() < 4) continue;  // most of it fell outside the range
    double largest = 0.0;
    for (size_t d = 0; d < def.scale.size(); ++d) {
      double mean = 0.0, square = 0.0;
      for (const SamPoint* point : members) mean += point->point[d];
      mean /= static_cast<double>(members.size());
      for (const SamPoint* point : members)
        square += (point->point[d] - mean) * (point->point[d] - mean);
      largest =
          std::max(largest, def.scale[d] * std::sqrt(square / static_cast<double>(members.size())));
    }
    smallest = std::min(smallest, largest);
  }
  return smallest;
}

}  // namespace

TEST_CASE("sam sampler: a path that collapsed onto a point starts again from its best", "[sam]") {
  // Everything compatible: the paths run to the cube's corners and, left alone, shrink
  // there onto a point, sampling it over and over (the 10,000-point sit-to-stand run had
  // three of its four paths at a standard deviation below 0.002).
  SamSamplerDef def = ballDef();
  def.initialStep = 0.2;
  def.minimumStep = 0.0;
  const auto always = [](const std::vector<double>&) { return true; };
  const auto run = [&](const SamSamplerDef& definition) {
    scl::ThreadPool pool(1);
    SamSampler sampler(definition);
    std::vector<SamPoint> all;
    for (int g = 0; g < 150; ++g)
      for (SamPoint& point : sampler.generation(always, pool)) all.push_back(std::move(point));
    return all;
  };
  const double floor = 0.02;                              // a tenth of the initial step
  CHECK(smallestSpread(run(def), def, 20) < floor / 10);  // collapsed without the floor
  def.minimumStep = 0.05;
  // With it, a generation's sample spread stays near the floor or above (7 draws of a
  // distribution whose deviation is at least the floor).
  CHECK(smallestSpread(run(def), def, 20) > floor / 4);
}
