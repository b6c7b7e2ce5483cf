// CMA-ES on the standard test functions (budgets about twice the published evaluation
// counts), determinism, bound handling, NaN fitness, restarts and checkpoints.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>
#include <stdexcept>

#include "base/thread_pool.h"
#include "optimize/checkpoint_json.h"
#include "optimize/cmaes.h"
#include "optimize/random.h"

using namespace scl;

namespace {

double sphere(const std::vector<double>& x) {
  double sum = 0;
  for (double v : x) sum += v * v;
  return sum;
}

// Condition number 1e6: axis scales 10^(3 i / (n - 1)).
double ellipsoid(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double sum = 0;
  for (size_t i = 0; i < x.size(); ++i)
    sum += std::pow(1e6, static_cast<double>(i) / (n - 1)) * x[i] * x[i];
  return sum;
}

double rosenbrock(const std::vector<double>& x) {
  double sum = 0;
  for (size_t i = 0; i + 1 < x.size(); ++i) {
    const double a = x[i] * x[i] - x[i + 1], b = x[i] - 1;
    sum += 100 * a * a + b * b;
  }
  return sum;
}

// Hansen's standard start: x0 = 0.5 * 1, sigma0 = 0.5.
CmaesDef standardStart(int n, uint64_t seed, double target, int64_t budget) {
  CmaesDef def;
  def.mean.assign(static_cast<size_t>(n), 0.5);
  def.sigma = 0.5;
  def.seed = seed;
  def.stopFitness = target;
  def.maxEvaluations = budget;
  return def;
}

struct Benchmark {
  const char* name;
  Objective objective;
  int n;
  double target;
  int64_t budget;  // about twice the published figure
  int seeds;
  int mustSucceed;  // of `seeds`
  int restarts;
};

void runBenchmark(const Benchmark& b) {
  int successes = 0;
  int64_t totalEvaluations = 0;
  for (int seed = 1; seed <= b.seeds; ++seed) {
    CmaesDef def = standardStart(b.n, static_cast<uint64_t>(seed), b.target, b.budget);
    def.restarts = b.restarts;
    const Cmaes cmaes = minimize(def, b.objective);
    CHECK(cmaes.evaluations() <= b.budget);
    if (cmaes.best().fitness < b.target) {
      ++successes;
      totalEvaluations += cmaes.evaluations();
    }
  }
  std::printf("cmaes %-10s n=%2d: %d/%d reached %.0e, mean %.0f evaluations (budget %lld)\n",
              b.name, b.n, successes, b.seeds, b.target,
              successes ? double(totalEvaluations) / successes : 0.0, (long long)b.budget);
  CHECK(successes >= b.mustSucceed);
}

// The serialized state as text: comparing it compares every double bit for bit.
std::string serialized(const Cmaes& cmaes) { return cmaes.serialize().dump(); }

// Through text, as a checkpoint file holds it.
Cmaes deserialized(const std::string& text) {
  const nlohmann::ordered_json state = nlohmann::ordered_json::parse(text);
  return Cmaes::deserialize(state, static_cast<int>(state["definition"]["mean"].size()));
}

// Runs `generations` generations of ask/tell on the objective.
void step(Cmaes& cmaes, const Objective& objective, int generations) {
  for (int g = 0; g < generations && !cmaes.stopped(); ++g)
    cmaes.tell(evaluatePopulation(cmaes.ask(), objective));
}

}  // namespace

TEST_CASE("Random: the sequence depends only on the seed, normals are standard", "[cmaes]") {
  Random a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.next();
    CHECK(x == b.next());
    differs = differs || x != c.next();
  }
  CHECK(differs);

  Random r(7);
  double sum = 0, sumSquares = 0, uniformMin = 1, uniformMax = 0;
  const int count = 200000;
  for (int i = 0; i < count; ++i) {
    const double z = r.normal();
    sum += z;
    sumSquares += z * z;
    const double u = r.uniform();
    uniformMin = std::min(uniformMin, u);
    uniformMax = std::max(uniformMax, u);
  }
  CHECK(std::abs(sum / count) < 0.01);
  CHECK(std::abs(sumSquares / count - 1) < 0.01);
  CHECK(uniformMin >= 0);
  CHECK(uniformMax < 1);

  // Restoring a state (mid-pair) continues the same sequence.
  Random s(9);
  s.normal();
  const RandomState saved = s.state();
  const double next = s.normal(), after = s.normal();
  Random t(1);
  t.setState(saved);
  CHECK(t.normal() == next);
  CHECK(t.normal() == after);
}

TEST_CASE("CMA-ES default strategy parameters follow Hansen's tutorial", "[cmaes]") {
  CmaesDef def;
  def.mean.assign(10, 0.0);
  Cmaes cmaes(def);
  CHECK(cmaes.populationSize() == 10);  // 4 + floor(3 ln 10)
  def.mean.assign(30, 0.0);
  CHECK(Cmaes(def).populationSize() == 14);
  def.mean.assign(2, 0.0);
  CHECK(Cmaes(def).populationSize() == 6);
  def.populationSize = 19;
  CHECK(Cmaes(def).populationSize() == 19);
  CHECK(Cmaes(def).ask().size() == 19);
}

TEST_CASE("CMA-ES solves the sphere within the published budget", "[cmaes][benchmark]") {
  runBenchmark({"sphere", sphere, 10, 1e-10, 3000, 5, 5, 0});
  runBenchmark({"sphere", sphere, 30, 1e-10, 9000, 3, 3, 0});
}

TEST_CASE("CMA-ES solves the ellipsoid (condition 1e6) within the published budget",
          "[cmaes][benchmark]") {
  runBenchmark({"ellipsoid", ellipsoid, 10, 1e-10, 12000, 5, 5, 0});
  runBenchmark({"ellipsoid", ellipsoid, 30, 1e-10, 80000, 2, 2, 0});
}

TEST_CASE("CMA-ES solves Rosenbrock within the published budget", "[cmaes][benchmark]") {
  runBenchmark({"rosenbrock", rosenbrock, 10, 1e-8, 16000, 5, 4, 2});
  runBenchmark({"rosenbrock", rosenbrock, 30, 1e-8, 100000, 3, 2, 2});
}

TEST_CASE("CMA-ES per-parameter step sizes make badly scaled problems easy", "[cmaes]") {
  // sphere in u = x / s with scales from 1e-3 to 1e3.
  const int n = 10;
  std::vector<double> scales(n);
  for (int i = 0; i < n; ++i) scales[i] = std::pow(10.0, -3 + 6.0 * i / (n - 1));
  const Objective scaled = [&](const std::vector<double>& x) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += (x[i] / scales[i]) * (x[i] / scales[i]);
    return sum;
  };
  CmaesDef def = standardStart(n, 3, 1e-10, 3000);
  for (int i = 0; i < n; ++i) def.mean[i] = 0.5 * scales[i];
  def.sigmas = scales;
  const Cmaes withScales = minimize(def, scaled);
  CHECK(withScales.best().fitness < 1e-10);  // as fast as the plain sphere

  def.sigmas.clear();
  def.sigma = 0.5 * scales[n / 2];
  const Cmaes without = minimize(def, scaled);
  CHECK(without.best().fitness > 1e-10);  // the same budget is not enough unscaled
}

TEST_CASE("CMA-ES is deterministic: same seed, same trajectory bit for bit", "[cmaes]") {
  const CmaesDef def = standardStart(8, 11, -1, 0);
  Cmaes a(def), b(def);
  CmaesDef other = def;
  other.seed = 12;
  Cmaes c(other);
  for (int g = 0; g < 40; ++g) {
    const auto candidates = a.ask();
    CHECK(candidates == b.ask());
    if (g == 0) CHECK(candidates != c.ask());
    a.tell(evaluatePopulation(candidates, rosenbrock));
    b.tell(evaluatePopulation(candidates, rosenbrock));
  }
  CHECK(serialized(a) == serialized(b));
  CHECK(a.mean() == b.mean());
  CHECK(a.best().fitness == b.best().fitness);
  step(c, rosenbrock, 39);
  CHECK(a.mean() != c.mean());
}

TEST_CASE("CMA-ES keeps candidates in bounds and finds a constrained optimum", "[cmaes]") {
  // Sphere centred at (2, ..., 2), box [-1, 1]^n: the optimum is the corner (1, ..., 1).
  const int n = 6;
  const Objective shifted = [](const std::vector<double>& x) {
    double sum = 0;
    for (double v : x) sum += (v - 2) * (v - 2);
    return sum;
  };
  CmaesDef def;
  def.mean.assign(n, 0.0);
  def.sigma = 0.6;
  def.lower.assign(n, -1.0);
  def.upper.assign(n, 1.0);
  def.maxEvaluations = 6000;
  def.seed = 5;
  Cmaes cmaes(def);
  bool allInside = true, someClamped = false;
  while (!cmaes.stopped()) {
    const auto& candidates = cmaes.ask();
    for (const auto& x : candidates)
      for (double v : x) {
        allInside = allInside && v >= -1.0 && v <= 1.0;
        someClamped = someClamped || v == 1.0;
      }
    cmaes.tell(evaluatePopulation(candidates, shifted));
  }
  CHECK(allInside);
  CHECK(someClamped);
  CHECK(cmaes.best().fitness == Approx(n * 1.0).epsilon(1e-9));
  for (double v : cmaes.best().x) CHECK(v == Approx(1.0).margin(1e-8));
  // The mean must not drift far outside the box (the penalty pulls it back).
  for (double m : cmaes.mean()) CHECK(m < 1.5);

  SECTION("one-sided bounds and a start outside the box") {
    CmaesDef oneSided;
    oneSided.mean.assign(4, 5.0);  // outside: starts from 3
    oneSided.upper.assign(4, 3.0);
    oneSided.sigma = 1;
    oneSided.maxEvaluations = 4000;
    const Objective target = [](const std::vector<double>& x) {  // optimum at 4 > upper
      double sum = 0;
      for (double v : x) sum += (v - 4) * (v - 4);
      return sum;
    };
    Cmaes bounded(oneSided);
    CHECK(bounded.mean() == std::vector<double>(4, 3.0));
    while (!bounded.stopped()) {
      for (const auto& x : bounded.ask())
        for (double v : x) REQUIRE(v <= 3.0);
      bounded.tell(evaluatePopulation(bounded.ask(), target));
    }
    for (double v : bounded.best().x) CHECK(v == Approx(3.0).margin(1e-8));
  }
}

TEST_CASE("CMA-ES treats NaN fitness as worst, counts it and still converges", "[cmaes]") {
  // Half the space (x0 < 0) is "infeasible"; the optimum (0.5, 0, ...) is feasible.
  std::atomic<int64_t> nans{0};
  const Objective partial = [&](const std::vector<double>& x) {
    if (x[0] < 0) {
      ++nans;
      return std::numeric_limits<double>::quiet_NaN();
    }
    double sum = (x[0] - 0.5) * (x[0] - 0.5);
    for (size_t i = 1; i < x.size(); ++i) sum += x[i] * x[i];
    return sum;
  };
  CmaesDef def = standardStart(5, 2, 1e-10, 5000);
  def.mean.assign(5, 0.0);
  def.sigma = 1;
  const Cmaes cmaes = minimize(def, partial);
  CHECK(nans > 0);
  CHECK(cmaes.nanCount() == nans);
  CHECK(cmaes.best().fitness < 1e-10);
  CHECK(!std::isnan(cmaes.best().fitness));

  SECTION("an all-NaN generation leaves the distribution in place") {
    Cmaes c(standardStart(3, 1, -1, 0));
    const std::vector<double> meanBefore = c.mean();
    const double sigmaBefore = c.sigma();
    c.ask();
    c.tell(std::vector<double>(c.populationSize(), std::numeric_limits<double>::quiet_NaN()));
    CHECK(c.nanCount() == c.populationSize());
    CHECK(c.mean() == meanBefore);
    CHECK(c.sigma() == sigmaBefore);
    CHECK(c.best().evaluation == 0);
    CHECK(c.generation() == 1);
    step(c, sphere, 5);  // and it goes on
    CHECK(c.best().fitness < 0.75);
  }
}

TEST_CASE("CMA-ES IPOP restarts double the population on a stall", "[cmaes]") {
  // Rastrigin: many local optima, small populations stall in them.
  const Objective rastrigin = [](const std::vector<double>& x) {
    double sum = 10.0 * static_cast<double>(x.size());
    for (double v : x) sum += v * v - 10 * std::cos(2 * std::numbers::pi * v);
    return sum;
  };
  CmaesDef def;
  def.mean.assign(4, 3.0);
  def.sigma = 2;
  def.restarts = 3;
  def.tolFun = 1e-9;
  def.seed = 4;
  const Cmaes cmaes = minimize(def, rastrigin);
  CHECK(cmaes.restartsDone() == 3);
  CHECK(cmaes.populationSize() == 8 * 8);  // 4 + floor(3 ln 4) = 8, doubled three times
  CHECK(cmaes.stopReason() != CmaesStop::None);
  CHECK(cmaes.best().fitness < rastrigin(def.mean));
}

TEST_CASE("CMA-ES stops on tolX/tolFun when the optimum is reached", "[cmaes]") {
  const Cmaes cmaes = minimize(standardStart(4, 1, -1, 100000), sphere);
  CHECK((cmaes.stopReason() == CmaesStop::TolFun || cmaes.stopReason() == CmaesStop::TolX));
  CHECK(cmaes.best().fitness < 1e-11);

  CmaesDef limited = standardStart(4, 1, -1, 0);
  limited.maxGenerations = 7;
  const Cmaes short_ = minimize(limited, sphere);
  CHECK(short_.stopReason() == CmaesStop::MaxGenerations);
  CHECK(short_.generation() == 7);
  CHECK(short_.evaluations() == 7 * static_cast<int64_t>(short_.populationSize()));
}

TEST_CASE("CMA-ES checkpoints resume bit-identically", "[cmaes]") {
  CmaesDef def = standardStart(7, 21, -1, 0);
  def.lower.assign(7, -0.4);  // exercise the boundary-handling state too
  def.upper.assign(7, 2.0);
  def.sigmas = {1, 0.5, 2, 1, 1, 0.25, 1};
  def.restarts = 1;

  Cmaes straight(def);
  step(straight, rosenbrock, 30);

  Cmaes first(def);
  step(first, rosenbrock, 15);
  const std::string checkpoint = serialized(first);
  Cmaes resumed = deserialized(checkpoint);
  CHECK(serialized(resumed) == checkpoint);
  CHECK(resumed.generation() == 15);
  step(resumed, rosenbrock, 15);

  CHECK(serialized(resumed) == serialized(straight));
  CHECK(resumed.mean() == straight.mean());
  CHECK(resumed.sigma() == straight.sigma());
  CHECK(resumed.best().x == straight.best().x);
  CHECK(resumed.best().fitness == straight.best().fitness);
  CHECK(resumed.ask() == straight.ask());

  SECTION("infinities and a fresh optimizer round-trip too") {
    CmaesDef plain;
    plain.mean = {1e-300, -3.5, 1.0 / 3.0};
    plain.upper = {std::numeric_limits<double>::infinity(), 1, 2};  // +inf; stopFitness -inf
    const Cmaes fresh(plain);
    CHECK(fresh.best().fitness == std::numeric_limits<double>::infinity());
    const std::string text = serialized(fresh);
    CHECK(text.find(R"("fitness":"inf")") != std::string::npos);
    CHECK(text.find(R"("stop_fitness":"-inf")") != std::string::npos);
    const Cmaes copy = deserialized(text);
    CHECK(serialized(copy) == text);
    CHECK(copy.definition().mean == plain.mean);
    CHECK(copy.definition().upper == plain.upper);
    CHECK(copy.definition().stopFitness == -std::numeric_limits<double>::infinity());
    CHECK(copy.best().fitness == std::numeric_limits<double>::infinity());
  }

  SECTION("serialize needs a told population; malformed states are errors") {
    Cmaes pending(def);
    pending.ask();
    CHECK_THROWS_AS(pending.serialize(), std::logic_error);
    CHECK_THROWS_AS(Cmaes::deserialize("not a checkpoint", 7), std::runtime_error);  // a string
    const auto rejects = [&](const auto& edit, const std::string& message) {
      nlohmann::ordered_json state = nlohmann::ordered_json::parse(checkpoint);
      edit(state);
      CHECK_THROWS_AS(Cmaes::deserialize(state, 7), std::runtime_error);
      CHECK_THROWS_WITH(Cmaes::deserialize(state, 7), Catch::Contains(message));
    };
    using Json = nlohmann::ordered_json;
    rejects([](Json& s) { s.erase("random"); }, "missing 'random'");
    rejects([](Json& s) { s["version"] = 1; }, "unsupported version 1");
    rejects([](Json& s) { s["distribution"]["C"].erase(0); },
            "'distribution.C' must have 7 elements, not 6");
    rejects([](Json& s) { s["distribution"]["B"][2].erase(0); },
            "'distribution.B[2]' must be an array of 7 numbers");
    rejects([](Json& s) { s["distribution"]["sigma"] = "big"; }, "'distribution.sigma': expected");
    rejects([](Json& s) { s["random"]["words"][0] = -1; },
            "'random.words[0]' must be an unsigned 64-bit integer");
    rejects([](Json& s) { s["counters"]["generation"] = 1.5; }, "'counters.generation' must be");
    rejects([](Json& s) { s["stop"] = "bored"; }, "unknown stop reason 'bored'");
    rejects([](Json& s) { s["definition"]["sigma"] = 0; }, "sigma must be positive");
    // A state CMA-ES never produces, refused naming the field.
    for (const Json& sigma : {Json("nan"), Json("inf"), Json(-1.0), Json(0.0)})
      rejects([&](Json& s) { s["distribution"]["sigma"] = sigma; },
              "'distribution.sigma' must be a positive finite number, not ");
    rejects(
        [](Json& s) {
          for (Json& row : s["distribution"]["C"])
            for (Json& value : row) value = "nan";
        },
        "'distribution.C' must have a positive diagonal");
    rejects([](Json& s) { s["distribution"]["C"][0][1] = 1e6; },
            "'distribution.C' is no covariance");
    rejects([](Json& s) { s["definition"]["population_size"] = 200000; },
            "'definition.population_size' must be an integer from 0 to 100000");
    rejects([](Json& s) { s["distribution"]["lambda"] = 1000000000; },
            "'distribution.lambda' must be an integer from 2 to 100000");
    rejects([](Json& s) { s["version"] = "2"; },
            "'version' must be an integer (this scl reads version 2)");
    rejects([](Json& s) { s["stop"] = std::string(1 << 20, 'x'); }, "(1048576 bytes)");
    // Another dimension is refused before anything n x n is allocated.
    nlohmann::ordered_json state = nlohmann::ordered_json::parse(checkpoint);
    CHECK_THROWS_WITH(Cmaes::deserialize(state, 5),
                      Catch::Contains("'definition.mean' must have 5 elements, not 7"));
    // A stopped run's distribution is not used again: it is read as it is.
    state["stop"] = "tolx";
    state["distribution"]["sigma"] = 0;
    CHECK(Cmaes::deserialize(state, 7).stopped());
  }
}

TEST_CASE("checkpoint JSON keeps every double exact, non-finite ones included", "[cmaes]") {
  const auto bits = [](double value) {
    uint64_t word = 0;
    std::memcpy(&word, &value, sizeof word);
    return word;
  };
  const double values[] = {0.0,
                           -0.0,
                           0.1,
                           1.0 / 3.0,
                           -2.5e-308,
                           4.9406564584124654e-324,  // the smallest subnormal
                           std::numeric_limits<double>::max(),
                           9007199254740993.0,
                           1e23,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(),
                           -std::numeric_limits<double>::quiet_NaN()};
  for (double value : values) {
    const std::string text = nlohmann::ordered_json{{"x", exactJson(value)}}.dump();
    INFO(text);
    const double back = exactDouble(nlohmann::ordered_json::parse(text).at("x"));
    if (std::isnan(value)) {
      CHECK(std::isnan(back));
      CHECK(std::signbit(back) == std::signbit(value));
    } else {
      CHECK(bits(back) == bits(value));
    }
  }
  CHECK(exactJson(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(exactJson(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(exactJson(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK_THROWS_AS(exactDouble("Infinity"), std::runtime_error);
  CHECK_THROWS_AS(exactDouble(nullptr), std::runtime_error);

  // Random bit patterns: every finite double reads back as itself.
  Random random(5);
  int mismatches = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t word = random.next();
    double value = 0;
    std::memcpy(&value, &word, sizeof value);
    if (!std::isfinite(value)) continue;
    const double back = exactDouble(nlohmann::ordered_json::parse(exactJson(value).dump()));
    mismatches += bits(back) != word;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("CMA-ES rejects bad definitions and misuse", "[cmaes]") {
  CmaesDef def;
  CHECK_THROWS_AS(Cmaes(def), std::invalid_argument);  // no mean
  def.mean = {0, 0};
  def.sigma = 0;
  CHECK_THROWS_AS(Cmaes(def), std::invalid_argument);
  def.sigma = 1;
  def.sigmas = {1};
  CHECK_THROWS_AS(Cmaes(def), std::invalid_argument);
  def.sigmas = {};
  def.lower = {1, 1};
  def.upper = {0, 2};
  CHECK_THROWS_AS(Cmaes(def), std::invalid_argument);
  def.lower = {};
  def.upper = {};

  Cmaes cmaes(def);
  CHECK_THROWS_AS(cmaes.tell({1, 2, 3}), std::logic_error);  // nothing asked
  const auto first = cmaes.ask();
  CHECK(cmaes.ask() == first);  // asking twice returns the same population
  CHECK_THROWS_AS(cmaes.tell({1, 2}), std::invalid_argument);
}

TEST_CASE("CMA-ES results do not depend on the evaluation thread count", "[cmaes]") {
  const CmaesDef def = standardStart(10, 8, 1e-10, 3000);
  const std::string serial = serialized(minimize(def, ellipsoid));
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    CHECK(serialized(minimize(def, ellipsoid, &pool)) == serial);
  }
}
