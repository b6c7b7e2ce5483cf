// The dense QP solver (dynamics/qp_solver.h): closed forms, the KKT conditions on random
// problems, degenerate and infeasible problems, and a brute-force solver on tiny ones.
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "dynamics/qp_solver.h"

namespace {

using namespace scl;
using Eigen::MatrixXd;
using Eigen::VectorXd;

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform(double low, double high) {
    double unit = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return low + (high - low) * unit;
  }
  int integer(int low, int high) {  // in [low, high]
    return low + static_cast<int>(engine_() % static_cast<std::uint64_t>(high - low + 1));
  }
  MatrixXd matrix(int rows, int cols) {
    MatrixXd m(rows, cols);
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < rows; ++r) m(r, c) = uniform(-1.0, 1.0);
    return m;
  }
  VectorXd vector(int size) { return matrix(size, 1); }

 private:
  std::mt19937_64 engine_;
};

// B Bᵀ + δ I: symmetric positive definite, condition number in the hundreds.
MatrixXd randomSpd(Random& random, int n) {
  MatrixXd b = random.matrix(n, n);
  return b * b.transpose() + 0.1 * n * MatrixXd::Identity(n, n);
}

// A feasible problem around a known point x₀: every equality holds there, every
// inequality holds with a slack that is zero for about a third of them.
QpProblem randomFeasibleProblem(Random& random, int n, int equalities, int inequalities) {
  QpProblem problem;
  problem.objectiveMatrix = randomSpd(random, n);
  problem.objectiveVector = 3.0 * random.vector(n);
  VectorXd x0 = random.vector(n);
  problem.equalityMatrix = random.matrix(equalities, n);
  problem.equalityVector = problem.equalityMatrix * x0;
  problem.inequalityMatrix = random.matrix(inequalities, n);
  problem.inequalityVector = problem.inequalityMatrix * x0;
  for (int i = 0; i < inequalities; ++i)
    if (random.uniform(0.0, 1.0) > 1.0 / 3.0)
      problem.inequalityVector[i] -= random.uniform(0.0, 1.0);
  return problem;
}

struct KktErrors {
  double stationarity = 0.0;     // ‖Gx + a − Cₑᵀλₑ − Cᵢᵀλᵢ‖∞
  double equality = 0.0;         // ‖Cₑx − bₑ‖∞
  double inequality = 0.0;       // max(0, −(Cᵢx − bᵢ))
  double dual = 0.0;             // max(0, −λᵢ)
  double complementarity = 0.0;  // max |λᵢ (Cᵢx − bᵢ)|
};

KktErrors kktErrors(const QpProblem& p, const QpResult& r) {
  KktErrors e;
  VectorXd gradient = p.objectiveMatrix * r.x + p.objectiveVector;
  if (p.equalityCount() > 0) gradient -= p.equalityMatrix.transpose() * r.equalityMultipliers;
  if (p.inequalityCount() > 0) gradient -= p.inequalityMatrix.transpose() * r.inequalityMultipliers;
  e.stationarity = gradient.lpNorm<Eigen::Infinity>();
  if (p.equalityCount() > 0)
    e.equality = (p.equalityMatrix * r.x - p.equalityVector).lpNorm<Eigen::Infinity>();
  if (p.inequalityCount() > 0) {
    VectorXd slack = p.inequalityMatrix * r.x - p.inequalityVector;
    e.inequality = std::max(0.0, -slack.minCoeff());
    e.dual = std::max(0.0, -r.inequalityMultipliers.minCoeff());
    e.complementarity = r.inequalityMultipliers.cwiseProduct(slack).lpNorm<Eigen::Infinity>();
  }
  return e;
}

// The scale the errors are relative to: the size of the gradient terms.
double problemScale(const QpProblem& p, const QpResult& r) {
  return 1.0 + p.objectiveMatrix.lpNorm<Eigen::Infinity>() * r.x.lpNorm<Eigen::Infinity>() +
         p.objectiveVector.lpNorm<Eigen::Infinity>();
}

void checkKkt(const QpProblem& problem, const QpResult& result, double tolerance = 1e-9) {
  REQUIRE(result.status == QpStatus::Optimal);
  KktErrors e = kktErrors(problem, result);
  double scale = problemScale(problem, result);
  CHECK(e.stationarity < tolerance * scale);
  CHECK(e.equality < tolerance * scale);
  CHECK(e.inequality < tolerance * scale);
  CHECK(e.dual == 0.0);
  CHECK(e.complementarity < tolerance * scale);
  VectorXd x = result.x;
  double objective = 0.5 * x.dot(problem.objectiveMatrix * x) + problem.objectiveVector.dot(x);
  CHECK(result.objective == Approx(objective).epsilon(1e-12).margin(1e-12));
}

// Every choice of active inequalities (with every equality): solve the KKT system of that
// face; the optimum is the feasible face minimizer of least objective (for a strictly
// convex objective that is the QP's unique minimizer). Nothing feasible: infeasible.
struct BruteForce {
  bool feasible = false;
  VectorXd x;
  double objective = std::numeric_limits<double>::infinity();
};

BruteForce bruteForce(const QpProblem& p) {
  const int n = p.variableCount(), me = p.equalityCount(), mi = p.inequalityCount();
  BruteForce best;
  for (int mask = 0; mask < (1 << mi); ++mask) {
    std::vector<int> rows;
    for (int i = 0; i < mi; ++i)
      if (mask & (1 << i)) rows.push_back(i);
    const int m = me + static_cast<int>(rows.size());
    MatrixXd constraints(m, n);
    VectorXd bounds(m);
    constraints.topRows(me) = p.equalityMatrix;
    bounds.head(me) = p.equalityVector;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      constraints.row(me + static_cast<int>(k)) = p.inequalityMatrix.row(rows[k]);
      bounds[me + static_cast<int>(k)] = p.inequalityVector[rows[k]];
    }
    MatrixXd kkt = MatrixXd::Zero(n + m, n + m);
    kkt.topLeftCorner(n, n) = p.objectiveMatrix;
    kkt.topRightCorner(n, m) = constraints.transpose();
    kkt.bottomLeftCorner(m, n) = constraints;
    VectorXd rhs(n + m);
    rhs << -p.objectiveVector, bounds;
    Eigen::FullPivLU<MatrixXd> lu(kkt);
    if (!lu.isInvertible()) continue;
    VectorXd x = lu.solve(rhs).head(n);
    bool feasible = (p.equalityMatrix * x - p.equalityVector).lpNorm<Eigen::Infinity>() < 1e-9 &&
                    (mi == 0 || (p.inequalityMatrix * x - p.inequalityVector).minCoeff() > -1e-9);
    if (!feasible) continue;
    double objective = 0.5 * x.dot(p.objectiveMatrix * x) + p.objectiveVector.dot(x);
    if (objective < best.objective) best = {true, x, objective};
  }
  return best;
}

}  // namespace

TEST_CASE("Unconstrained: x = −G⁻¹a", "[qp]") {
  Random random(1);
  for (int n : {1, 2, 7, 30}) {
    QpProblem problem = QpProblem::zero(n, 0, 0);
    problem.objectiveMatrix = randomSpd(random, n);
    problem.objectiveVector = random.vector(n);
    QpResult result = solveQp(problem);
    REQUIRE(result.status == QpStatus::Optimal);
    VectorXd expected = -problem.objectiveMatrix.llt().solve(problem.objectiveVector);
    CHECK((result.x - expected).norm() < 1e-12 * (1.0 + expected.norm()));
    CHECK(result.objective == Approx(0.5 * problem.objectiveVector.dot(expected)).epsilon(1e-12));
    CHECK(result.activeSet.empty());
    CHECK(result.iterations == 0);
  }
}

TEST_CASE("Equalities only: the KKT linear system", "[qp]") {
  Random random(2);
  for (int n : {2, 5, 20, 41}) {
    for (int me : {1, n / 2, n - 1}) {
      QpProblem problem = QpProblem::zero(n, me, 0);
      problem.objectiveMatrix = randomSpd(random, n);
      problem.objectiveVector = random.vector(n);
      problem.equalityMatrix = random.matrix(me, n);
      problem.equalityVector = random.vector(me);
      MatrixXd kkt = MatrixXd::Zero(n + me, n + me);
      kkt.topLeftCorner(n, n) = problem.objectiveMatrix;
      kkt.topRightCorner(n, me) = -problem.equalityMatrix.transpose();
      kkt.bottomLeftCorner(me, n) = problem.equalityMatrix;
      VectorXd rhs(n + me);
      rhs << -problem.objectiveVector, problem.equalityVector;
      VectorXd solution = kkt.fullPivLu().solve(rhs);

      QpResult result = solveQp(problem);
      REQUIRE(result.status == QpStatus::Optimal);
      CHECK((result.x - solution.head(n)).norm() < 1e-10 * (1.0 + solution.norm()));
      CHECK((result.equalityMultipliers - solution.tail(me)).norm() <
            1e-10 * (1.0 + solution.norm()));
      CHECK(static_cast<int>(result.activeSet.size()) == me);
    }
  }
}

TEST_CASE("A box: each variable clamped, multipliers from the gradient", "[qp]") {
  // ½ Σ gᵢxᵢ² + aᵢxᵢ on lᵢ ≤ xᵢ ≤ uᵢ: xᵢ = clamp(−aᵢ/gᵢ, lᵢ, uᵢ); the bound's multiplier
  // is gᵢxᵢ + aᵢ at a lower bound and −(gᵢxᵢ + aᵢ) at an upper one.
  Random random(3);
  const int n = 12;
  QpProblem problem = QpProblem::zero(n, 0, 2 * n);
  VectorXd lower(n), upper(n);
  for (int i = 0; i < n; ++i) {
    problem.objectiveMatrix(i, i) = random.uniform(0.5, 3.0);
    problem.objectiveVector[i] = random.uniform(-4.0, 4.0);
    lower[i] = random.uniform(-1.0, 0.0);
    upper[i] = random.uniform(0.0, 1.0);
    const Eigen::Index low = 2 * static_cast<Eigen::Index>(i), high = low + 1;
    problem.inequalityMatrix(low, i) = 1.0;  //  xᵢ ≥ lᵢ
    problem.inequalityVector[low] = lower[i];
    problem.inequalityMatrix(high, i) = -1.0;  // −xᵢ ≥ −uᵢ
    problem.inequalityVector[high] = -upper[i];
  }
  QpResult result = solveQp(problem);
  REQUIRE(result.status == QpStatus::Optimal);
  int clamped = 0;
  for (int i = 0; i < n; ++i) {
    double g = problem.objectiveMatrix(i, i), a = problem.objectiveVector[i];
    double expected = std::clamp(-a / g, lower[i], upper[i]);
    CHECK(result.x[i] == Approx(expected).margin(1e-14));
    double gradient = g * expected + a;
    const Eigen::Index low = 2 * static_cast<Eigen::Index>(i), high = low + 1;
    CHECK(result.inequalityMultipliers[low] ==
          Approx(expected == lower[i] ? gradient : 0.0).margin(1e-13));
    CHECK(result.inequalityMultipliers[high] ==
          Approx(expected == upper[i] ? -gradient : 0.0).margin(1e-13));
    clamped += expected == lower[i] || expected == upper[i];
  }
  CHECK(clamped >= 4);  // the case exercises bounds
  CHECK(static_cast<int>(result.activeSet.size()) == clamped);
  checkKkt(problem, result);
}

TEST_CASE("A 2-D problem by hand", "[qp]") {
  // Nocedal & Wright, Numerical Optimization, Example 16.4: min (x−1)² + (y−2.5)² subject
  // to x − 2y ≥ −2, −x − 2y ≥ −6, −x + 2y ≥ −2, x ≥ 0, y ≥ 0. The minimum is the
  // projection of (1, 2.5) on the first constraint's line, (1.4, 1.7), where
  // ∇f = (0.8, −1.6) = 0.8 · (1, −2): multiplier 0.8.
  QpProblem problem = QpProblem::zero(2, 0, 5);
  problem.objectiveMatrix = 2.0 * MatrixXd::Identity(2, 2);
  problem.objectiveVector << -2.0, -5.0;
  problem.inequalityMatrix << 1, -2, -1, -2, -1, 2, 1, 0, 0, 1;
  problem.inequalityVector << -2, -6, -2, 0, 0;
  QpResult result = solveQp(problem);
  REQUIRE(result.status == QpStatus::Optimal);
  CHECK(result.x[0] == Approx(1.4).epsilon(1e-14));
  CHECK(result.x[1] == Approx(1.7).epsilon(1e-14));
  CHECK(result.inequalityMultipliers[0] == Approx(0.8).epsilon(1e-14));
  CHECK(result.inequalityMultipliers.tail(4).isZero(0.0));
  CHECK(result.activeSet == std::vector<int>{0});
  CHECK(result.objective == Approx(0.16 + 0.64 - 1.0 - 6.25).epsilon(1e-14));  // f − 7.25

  // With x = 1.5 imposed, the minimum slides along the active line: y = 1.75.
  problem.equalityMatrix.resize(1, 2);
  problem.equalityMatrix << 1, 0;
  problem.equalityVector.resize(1);
  problem.equalityVector << 1.5;
  result = solveQp(problem);
  REQUIRE(result.status == QpStatus::Optimal);
  CHECK(result.x[0] == Approx(1.5).epsilon(1e-14));
  CHECK(result.x[1] == Approx(1.75).epsilon(1e-14));
  checkKkt(problem, result);
}

TEST_CASE("Random feasible problems meet the KKT conditions", "[qp]") {
  Random random(4);
  int problems = 0;
  for (int n : {1, 2, 3, 5, 8, 13, 20, 30, 41, 60}) {
    for (int repeat = 0; repeat < 12; ++repeat) {
      int me = random.integer(0, std::max(0, n / 3));
      int mi = random.integer(0, std::min(100, 3 * n));
      QpProblem problem = randomFeasibleProblem(random, n, me, mi);
      INFO("n " << n << ", equalities " << me << ", inequalities " << mi);
      QpResult result = solveQp(problem);
      checkKkt(problem, result);
      CHECK(result.iterations <= 2 * (me + mi) + 1);
      ++problems;
    }
  }
  CHECK(problems == 120);
}

TEST_CASE("Whole-body-controller sized problems meet the KKT conditions", "[qp]") {
  // 41 variables (18 accelerations, 15 torques, 8 contact forces), 20 equalities,
  // 40 inequalities; and the largest sizes asked of the solver, 60 and 100.
  Random random(5);
  for (auto [n, me, mi] : {std::array{41, 20, 40}, std::array{60, 20, 100}, std::array{60, 0, 100}})
    for (int repeat = 0; repeat < 10; ++repeat) {
      QpProblem problem = randomFeasibleProblem(random, n, me, mi);
      QpResult result = solveQp(problem);
      checkKkt(problem, result);
    }
}

TEST_CASE("Agrees with brute force over every active set on tiny problems", "[qp]") {
  Random random(6);
  int infeasible = 0, optimal = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int n = random.integer(1, 4), me = random.integer(0, std::min(2, n - 1)),
        mi = random.integer(1, 6);
    // Random bounds (not built around a point): some problems are infeasible.
    QpProblem problem = QpProblem::zero(n, me, mi);
    problem.objectiveMatrix = randomSpd(random, n);
    problem.objectiveVector = 2.0 * random.vector(n);
    problem.equalityMatrix = random.matrix(me, n);
    problem.equalityVector = random.vector(me);
    problem.inequalityMatrix = random.matrix(mi, n);
    problem.inequalityVector = random.vector(mi) + VectorXd::Constant(mi, 0.3);
    INFO("trial " << trial << ": n " << n << ", equalities " << me << ", inequalities " << mi);
    BruteForce expected = bruteForce(problem);
    QpResult result = solveQp(problem);
    if (!expected.feasible) {
      CHECK(result.status == QpStatus::Infeasible);
      ++infeasible;
      continue;
    }
    ++optimal;
    checkKkt(problem, result);
    CHECK((result.x - expected.x).norm() < 1e-9 * (1.0 + expected.x.norm()));
    CHECK(result.objective == Approx(expected.objective).epsilon(1e-10).margin(1e-10));
  }
  CHECK(infeasible > 20);
  CHECK(optimal > 100);
}

TEST_CASE("Degenerate constraints: repeated, redundant, many through one point", "[qp]") {
  Random random(7);
  const int n = 6;
  QpProblem base = randomFeasibleProblem(random, n, 2, 8);
  // The unconstrained minimum far away, so the constraints matter.
  base.objectiveVector = 20.0 * random.vector(n);

  SECTION("an equality repeated, and one a combination of the others") {
    QpProblem problem = base;
    problem.equalityMatrix.conservativeResize(4, n);
    problem.equalityVector.conservativeResize(4);
    problem.equalityMatrix.row(2) = problem.equalityMatrix.row(0);
    problem.equalityVector[2] = problem.equalityVector[0];
    problem.equalityMatrix.row(3) =
        2.0 * problem.equalityMatrix.row(0) - problem.equalityMatrix.row(1);
    problem.equalityVector[3] = 2.0 * problem.equalityVector[0] - problem.equalityVector[1];
    QpResult result = solveQp(problem);
    checkKkt(problem, result);
    CHECK((result.x - solveQp(base).x).norm() < 1e-9);
  }
  SECTION("an inequality repeated, scaled, and one duplicating an equality") {
    QpProblem problem = base;
    int m = static_cast<int>(problem.inequalityVector.size());
    problem.inequalityMatrix.conservativeResize(m + 3, n);
    problem.inequalityVector.conservativeResize(m + 3);
    for (int k = 0; k < 2; ++k) {
      problem.inequalityMatrix.row(m + k) = (k + 1.0) * problem.inequalityMatrix.row(k);
      problem.inequalityVector[m + k] = (k + 1.0) * problem.inequalityVector[k];
    }
    problem.inequalityMatrix.row(m + 2) = problem.equalityMatrix.row(0);
    problem.inequalityVector[m + 2] = problem.equalityVector[0];
    QpResult result = solveQp(problem);
    checkKkt(problem, result);
    CHECK((result.x - solveQp(base).x).norm() < 1e-9);
  }
  SECTION("more constraints active at the optimum than variables") {
    // 12 planes through one vertex x* of the feasible cone; the objective pulls into it.
    QpProblem problem = QpProblem::zero(3, 0, 12);
    problem.objectiveMatrix = randomSpd(random, 3);
    VectorXd vertex = random.vector(3);
    for (int i = 0; i < 12; ++i) {
      VectorXd normal(3);
      normal << random.uniform(-0.3, 0.3), random.uniform(-0.3, 0.3), 1.0;
      problem.inequalityMatrix.row(i) = normal.transpose();
      problem.inequalityVector[i] = normal.dot(vertex);
    }
    // Unconstrained minimum straight below the vertex: every plane is violated.
    problem.objectiveVector = -problem.objectiveMatrix * (vertex - Eigen::Vector3d(0, 0, 5));
    QpResult result = solveQp(problem);
    checkKkt(problem, result);
  }
}

TEST_CASE("Infeasible problems are reported promptly", "[qp]") {
  Random random(8);
  const int n = 5;
  QpProblem base = QpProblem::zero(n, 0, 0);
  base.objectiveMatrix = randomSpd(random, n);
  base.objectiveVector = random.vector(n);

  SECTION("contradictory inequalities: x₀ ≥ 1 and x₀ ≤ 0") {
    QpProblem problem = base;
    problem.inequalityMatrix = MatrixXd::Zero(2, n);
    problem.inequalityMatrix(0, 0) = 1.0;
    problem.inequalityMatrix(1, 0) = -1.0;
    problem.inequalityVector = Eigen::Vector2d(1.0, 0.0);
    QpResult result = solveQp(problem);
    CHECK(result.status == QpStatus::Infeasible);
    CHECK(result.iterations <= 3);
  }
  SECTION("inconsistent equalities: x₀ + x₁ = 1 and 2x₀ + 2x₁ = 3") {
    QpProblem problem = base;
    problem.equalityMatrix = MatrixXd::Zero(2, n);
    problem.equalityMatrix.row(0).head(2) << 1.0, 1.0;
    problem.equalityMatrix.row(1).head(2) << 2.0, 2.0;
    problem.equalityVector = Eigen::Vector2d(1.0, 3.0);
    QpResult result = solveQp(problem);
    CHECK(result.status == QpStatus::Infeasible);
    CHECK(result.iterations == 2);
  }
  SECTION("an equality the inequalities exclude") {
    QpProblem problem = base;
    problem.equalityMatrix = MatrixXd::Zero(1, n);
    problem.equalityMatrix(0, 1) = 1.0;  // x₁ = 2
    problem.equalityVector = VectorXd::Constant(1, 2.0);
    problem.inequalityMatrix = MatrixXd::Zero(1, n);
    problem.inequalityMatrix(0, 1) = -1.0;  // x₁ ≤ 1
    problem.inequalityVector = VectorXd::Constant(1, -1.0);
    CHECK(solveQp(problem).status == QpStatus::Infeasible);
  }
  SECTION("a zero row that cannot hold: 0 ≥ 1") {
    QpProblem problem = base;
    problem.inequalityMatrix = MatrixXd::Zero(1, n);
    problem.inequalityVector = VectorXd::Constant(1, 1.0);
    CHECK(solveQp(problem).status == QpStatus::Infeasible);
  }
  SECTION("random inequalities with an empty intersection, many variables") {
    // Farkas: weights y > 0 with Σ yᵢ Cᵢ = 0 but Σ yᵢ bᵢ = 1 > 0 leave no x, since then
    // 0 = Σ yᵢ Cᵢx ≥ Σ yᵢ bᵢ = 1. The last row closes the combination.
    const int big = 30, m = 60;
    QpProblem problem = QpProblem::zero(big, 0, m + 1);
    problem.objectiveMatrix = randomSpd(random, big);
    problem.objectiveVector = random.vector(big);
    problem.inequalityMatrix.topRows(m) = random.matrix(m, big);
    problem.inequalityVector.head(m) = random.vector(m);
    VectorXd weights(m);
    for (int i = 0; i < m; ++i) weights[i] = random.uniform(0.1, 1.0);
    problem.inequalityMatrix.row(m) = -weights.transpose() * problem.inequalityMatrix.topRows(m);
    problem.inequalityVector[m] = 1.0 - weights.dot(problem.inequalityVector.head(m));
    QpResult result = solveQp(problem);
    CHECK(result.status == QpStatus::Infeasible);
    CHECK(result.iterations < 2 * (m + 1));
  }
}

TEST_CASE("A G that is not positive definite is reported, nothing solved", "[qp]") {
  Random random(9);
  const int n = 4;
  QpProblem problem = QpProblem::zero(n, 0, 1);
  problem.objectiveVector = random.vector(n);
  problem.inequalityMatrix.row(0).setOnes();
  problem.inequalityVector[0] = 1.0;
  SECTION("indefinite") { problem.objectiveMatrix = Eigen::Vector4d(1, 2, -1, 3).asDiagonal(); }
  SECTION("zero") { problem.objectiveMatrix.setZero(); }
  SECTION("singular to working precision: B Bᵀ of rank 3") {
    MatrixXd b = random.matrix(n, 3);
    problem.objectiveMatrix = b * b.transpose();
  }
  QpResult result = solveQp(problem);
  CHECK(result.status == QpStatus::NotPositiveDefinite);
  CHECK(result.x.isZero(0.0));
  CHECK(result.iterations == 0);
}

TEST_CASE("A NaN or infinite number is reported, nothing solved", "[qp]") {
  Random random(10);
  QpProblem problem = randomFeasibleProblem(random, 4, 1, 3);
  SECTION("in G") { problem.objectiveMatrix(1, 2) = std::numeric_limits<double>::quiet_NaN(); }
  SECTION("in a bound") { problem.inequalityVector[2] = std::numeric_limits<double>::infinity(); }
  QpResult result = solveQp(problem);
  CHECK(result.status == QpStatus::InvalidInput);
  CHECK(result.x.isZero(0.0));
}

TEST_CASE("The iteration cap stops a solve", "[qp]") {
  Random random(11);
  QpProblem problem = randomFeasibleProblem(random, 20, 5, 40);
  QpResult full = solveQp(problem);
  REQUIRE(full.status == QpStatus::Optimal);
  REQUIRE(full.iterations > 8);
  QpSettings settings;
  settings.maxIterations = 8;
  QpResult capped = solveQp(problem, settings);
  CHECK(capped.status == QpStatus::IterationLimit);
  CHECK(capped.iterations == 8);
}

TEST_CASE("A reused solver gives bit-identical results", "[qp]") {
  Random random(12);
  QpProblem first = randomFeasibleProblem(random, 41, 20, 40);
  QpProblem second = randomFeasibleProblem(random, 41, 20, 40);
  QpProblem smaller = randomFeasibleProblem(random, 10, 2, 5);
  QpSolver solver;
  QpResult reused;
  for (const QpProblem* problem : {&first, &second, &smaller, &first}) {
    solver.solve(*problem, reused);
    QpResult fresh = solveQp(*problem);
    REQUIRE(reused.status == fresh.status);
    REQUIRE(reused.x.size() == fresh.x.size());
    CHECK(std::memcmp(reused.x.data(), fresh.x.data(), sizeof(double) * fresh.x.size()) == 0);
    CHECK(std::memcmp(reused.inequalityMultipliers.data(), fresh.inequalityMultipliers.data(),
                      sizeof(double) * fresh.inequalityMultipliers.size()) == 0);
    CHECK(reused.activeSet == fresh.activeSet);
    CHECK(reused.iterations == fresh.iterations);
  }
}

// The stress run docs/dynamics.md reports (about 2 s): 20 000 random feasible problems of
// 1–60 variables and up to 100 inequalities, a quarter with an ill-conditioned
// G = BBᵀ + 10⁻⁴I, one in five with a repeated row, all through one reused solver (its
// switch from implicit to explicit J and its reused workspaces at every size).
TEST_CASE("Stress: 20 000 random feasible problems, one reused solver", "[qp]") {
  Random random(2026);
  QpSolver solver;
  QpResult result;
  double worst = 0.0;
  long iterations = 0;
  int most = 0;
  constexpr int kProblems = 20000;
  for (int i = 0; i < kProblems; ++i) {
    const int n = random.integer(1, 60);
    const int me = random.integer(0, n / 3);
    const int mi = random.integer(0, std::min(100, 3 * n));
    QpProblem problem = randomFeasibleProblem(random, n, me, mi);
    if (i % 4 == 0) {
      const MatrixXd b = random.matrix(n, n);
      problem.objectiveMatrix = b * b.transpose() + 1e-4 * MatrixXd::Identity(n, n);
    }
    if (i % 5 == 0 && mi > 1) {  // a repeated row
      problem.inequalityMatrix.row(mi - 1) = problem.inequalityMatrix.row(0);
      problem.inequalityVector[mi - 1] = problem.inequalityVector[0];
    }
    INFO("problem " << i << ": n " << n << ", equalities " << me << ", inequalities " << mi);
    REQUIRE(solver.solve(problem, result) == QpStatus::Optimal);
    const KktErrors e = kktErrors(problem, result);
    const double scale = problemScale(problem, result);
    const double relative =
        std::max({e.stationarity, e.equality, e.inequality, e.complementarity}) / scale;
    REQUIRE(relative < 1e-9);
    REQUIRE(e.dual == 0.0);
    worst = std::max(worst, relative);
    iterations += result.iterations;
    most = std::max(most, result.iterations);
  }
  WARN("worst KKT residual " << worst << " of the scale; iterations mean "
                             << static_cast<double>(iterations) / kProblems << ", most " << most);
}
