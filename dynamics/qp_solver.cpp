#include "dynamics/qp_solver.h"

#include <Eigen/Jacobi>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>

namespace scl {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The plane rotation taking (a, b) to (rho, 0), rho >= 0.
struct Givens {
  double c = 1.0, s = 0.0, rho = 0.0;
};

Givens givensFor(double a, double b) {
  // Not std::hypot: its guard against overflow (entries beyond 1e154, which J and R never
  // reach) was a fifth of a solve's time.
  double rho = std::sqrt(a * a + b * b);
  if (rho == 0.0) return {};
  return {a / rho, b / rho, rho};
}

// (column i, column k) <- (c·i + s·k, −s·i + c·k): the same rotation as applied to (a, b).
// Eigen's plane rotation is vectorized; its (c, −s), transposed on the right, is ours.
void rotateColumns(Eigen::MatrixXd& m, int i, int k, const Givens& g) {
  m.applyOnTheRight(i, k, Eigen::JacobiRotation<double>(g.c, -g.s));
}

}  // namespace

QpProblem QpProblem::zero(int variables, int equalities, int inequalities) {
  QpProblem problem;
  problem.objectiveMatrix.setZero(variables, variables);
  problem.objectiveVector.setZero(variables);
  problem.equalityMatrix.setZero(equalities, variables);
  problem.equalityVector.setZero(equalities);
  problem.inequalityMatrix.setZero(inequalities, variables);
  problem.inequalityVector.setZero(inequalities);
  return problem;
}

QpResult solveQp(const QpProblem& problem, const QpSettings& settings) {
  QpSolver solver(settings);
  QpResult result;
  solver.solve(problem, result);
  return result;
}

void QpSolver::resize(int variables, int equalities, int inequalities) {
  if (variables == variables_ && equalities == equalities_ && inequalities == inequalities_) return;
  variables_ = variables;
  equalities_ = equalities;
  inequalities_ = inequalities;
  factor_.resize(variables, variables);
  j_.resize(variables, variables);
  r_.resize(variables, variables);
  x_.resize(variables);
  normal_.resize(variables);
  d_.resize(variables);
  z_.resize(variables);
  dualDirection_.resize(variables);
  multipliers_.resize(variables + 1);
  inequalityResiduals_.resize(inequalities);
  inequalityRowNorms_.resize(inequalities);
  gradient_.resize(variables);
  active_.assign(variables, -1);
  inequalityActive_.assign(inequalities, 0);
}

int QpSolver::iterationCap() const {
  if (settings_.maxIterations > 0) return settings_.maxIterations;
  return 10 * (variables_ + equalities_ + inequalities_) + 10;
}

QpStatus QpSolver::solve(const QpProblem& problem, QpResult& result) {
  const int n = problem.variableCount();
  assert(n > 0 && problem.objectiveMatrix.rows() == n && problem.objectiveMatrix.cols() == n);
  assert(problem.equalityMatrix.rows() == problem.equalityCount() &&
         (problem.equalityCount() == 0 || problem.equalityMatrix.cols() == n));
  assert(problem.inequalityMatrix.rows() == problem.inequalityCount() &&
         (problem.inequalityCount() == 0 || problem.inequalityMatrix.cols() == n));
  resize(n, problem.equalityCount(), problem.inequalityCount());
  activeCount_ = 0;
  iterations_ = 0;
  std::fill(inequalityActive_.begin(), inequalityActive_.end(), 0);
  x_.setZero();

  QpStatus status = QpStatus::Optimal;
  if (!allFinite(problem)) {
    status = QpStatus::InvalidInput;
  } else if (!factorObjective(problem)) {
    status = QpStatus::NotPositiveDefinite;
  } else {
    // Step 0: the unconstrained minimum, x = −G⁻¹a = −L⁻ᵀL⁻¹a, with no constraint active.
    unconstrainedMinimum(problem);
    if (problem.inequalityCount() > 0)
      inequalityRowNorms_ = problem.inequalityMatrix.rowwise().norm();
    status = addEqualities(problem);
    if (status == QpStatus::Optimal) status = addViolatedInequalities(problem);
  }
  fillResult(problem, status, result);
  return status;
}

namespace {
// x·0 is 0 for a finite x and NaN for an infinite or NaN one, so the sum is 0 exactly when
// every entry is finite (one vectorized pass; Eigen's allFinite makes two).
template <typename Derived>
bool finiteEntries(const Eigen::DenseBase<Derived>& m) {
  return (m.derived().array() * 0.0).sum() == 0.0;
}
}  // namespace

bool QpSolver::allFinite(const QpProblem& problem) {
  return finiteEntries(problem.objectiveMatrix) && finiteEntries(problem.objectiveVector) &&
         finiteEntries(problem.equalityMatrix) && finiteEntries(problem.equalityVector) &&
         finiteEntries(problem.inequalityMatrix) && finiteEntries(problem.inequalityVector);
}

bool QpSolver::factorObjective(const QpProblem& problem) {
  // Written out rather than Eigen's LLT and triangular solves: at the controller's sizes
  // (20–40 unknowns) their per-column dispatch cost more than the arithmetic. Every inner
  // loop is a contiguous axpy down a column, which the compiler vectorizes.
  jReady_ = false;
  const Eigen::MatrixXd& g = problem.objectiveMatrix;
  const int n = static_cast<int>(g.rows());
  factor_.triangularView<Eigen::Lower>() = g.triangularView<Eigen::Lower>();
  // A pivot this small means G is singular to working precision: its inverse, which the
  // method steps with, would be noise.
  const double threshold = static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                           g.diagonal().cwiseAbs().maxCoeff();
  // Cholesky G = LLᵀ, left-looking, in place in factor_'s lower triangle: column k less
  // the earlier columns' contributions, then scaled by its pivot. The earlier columns are
  // taken four at a time, so column k is loaded and stored once per four (the loops are
  // contiguous and vectorize; at these sizes the bookkeeping, not the arithmetic, costs).
  const int stride = static_cast<int>(factor_.outerStride());
  double* base = factor_.data();
  for (int k = 0; k < n; ++k) {
    double* column = base + static_cast<ptrdiff_t>(k) * stride;
    int j = 0;
    for (; j + 4 <= k; j += 4) {
      const double* c0 = base + static_cast<ptrdiff_t>(j) * stride;
      const double* c1 = c0 + stride;
      const double* c2 = c1 + stride;
      const double* c3 = c2 + stride;
      const double a0 = c0[k], a1 = c1[k], a2 = c2[k], a3 = c3[k];
      for (int i = k; i < n; ++i)
        column[i] -= (a0 * c0[i] + a1 * c1[i]) + (a2 * c2[i] + a3 * c3[i]);
    }
    for (; j < k; ++j) {
      const double* source = base + static_cast<ptrdiff_t>(j) * stride;
      const double a = source[k];
      for (int i = k; i < n; ++i) column[i] -= a * source[i];
    }
    const double pivot = column[k];
    if (!(pivot > threshold)) return false;  // also false for NaN
    const double diagonal = std::sqrt(pivot);
    column[k] = diagonal;
    const double inverse = 1.0 / diagonal;
    for (int i = k + 1; i < n; ++i) column[i] *= inverse;
  }
  return true;
}

void QpSolver::unconstrainedMinimum(const QpProblem& problem) {
  // L y = a by columns (forward), then Lᵀ x = y by rows of Lᵀ, i.e. L's columns (backward).
  const int n = variables_;
  double* x = x_.data();
  for (int i = 0; i < n; ++i) x[i] = problem.objectiveVector[i];
  for (int k = 0; k < n; ++k) {
    const double* column = factor_.col(k).data();
    const double value = x[k] / column[k];
    x[k] = value;
    for (int i = k + 1; i < n; ++i) x[i] -= value * column[i];
  }
  for (int k = n - 1; k >= 0; --k) {
    const double* column = factor_.col(k).data();
    double sum = x[k];
    for (int i = k + 1; i < n; ++i) sum -= column[i] * x[i];
    x[k] = sum / column[k];
  }
  x_ = -x_;
}

void QpSolver::ensureFactorInverse() {
  // Most of a controller's QPs end at the unconstrained minimum: J is formed only when a
  // constraint is to be added. With no constraint active, Q = I: J = L⁻ᵀ, upper
  // triangular. Row c of J is column c of L⁻¹, zero above c: forward substitution from
  // e_c over L's trailing columns.
  if (jReady_) return;
  jReady_ = true;
  const int n = variables_;
  j_.setZero();
  for (int c = 0; c < n; ++c) {
    double* x = normal_.data();  // workspace
    for (int i = c; i < n; ++i) x[i] = 0.0;
    x[c] = 1.0;
    for (int k = c; k < n; ++k) {
      const double* column = factor_.col(k).data();
      const double value = x[k] / column[k];
      x[k] = value;
      for (int i = k + 1; i < n; ++i) x[i] -= value * column[i];
    }
    for (int k = c; k < n; ++k) j_(c, k) = x[k];
  }
}

bool QpSolver::computeStepDirections() {
  const int n = variables_, q = activeCount_;
  d_.noalias() = j_.transpose() * normal_;
  z_.noalias() = j_.rightCols(n - q) * d_.tail(n - q);
  dualDirection_.head(q) = d_.head(q);
  r_.topLeftCorner(q, q).triangularView<Eigen::Upper>().solveInPlace(dualDirection_.head(q));
  return d_.tail(n - q).norm() > settings_.dependenceTolerance * d_.norm();
}

double QpSolver::residual(const Eigen::MatrixXd& rows, const Eigen::VectorXd& bounds,
                          int row) const {
  return rows.row(row).dot(x_) - bounds[row];
}

bool QpSolver::satisfied(double residual, double bound, double rowNorm, double xNorm) const {
  return residual >= -settings_.feasibilityTolerance * (std::abs(bound) + rowNorm * xNorm);
}

int QpSolver::blockingConstraint(double& step) const {
  // Only inequalities' multipliers are bound to stay >= 0; those that the dual step
  // decreases (r > 0) limit it, the first to reach 0 the most.
  int blocking = -1;
  step = kInfinity;
  for (int position = 0; position < activeCount_; ++position) {
    if (active_[position] < equalities_ || !(dualDirection_[position] > 0.0)) continue;
    double ratio = std::max(multipliers_[position], 0.0) / dualDirection_[position];
    if (ratio < step) {
      step = ratio;
      blocking = position;
    }
  }
  return blocking;
}

void QpSolver::addConstraint(int constraint) {
  // Rotate d = Jᵀn⁺ (and J's columns with it) so that d₂ becomes (‖d₂‖, 0, …): then
  // (d₁, ‖d₂‖) is R's new column and J's first q + 1 columns span the active normals.
  const int n = variables_, q = activeCount_;
  for (int k = n - 1; k > q; --k) {
    if (d_[k] == 0.0) continue;
    Givens g = givensFor(d_[k - 1], d_[k]);
    d_[k - 1] = g.rho;
    d_[k] = 0.0;
    rotateColumns(j_, k - 1, k, g);
  }
  r_.col(q).head(q + 1) = d_.head(q + 1);
  active_[q] = constraint;
  if (constraint >= equalities_) inequalityActive_[constraint - equalities_] = 1;
  activeCount_ = q + 1;
}

void QpSolver::dropConstraint(int position) {
  const int q = activeCount_;
  if (active_[position] >= equalities_) inequalityActive_[active_[position] - equalities_] = 0;
  // Remove R's column (R turns upper Hessenberg from it on), the multiplier (the one of
  // the constraint being added, at q, moves down with the others) and the entry.
  for (int c = position; c < q - 1; ++c) {
    r_.col(c).head(q) = r_.col(c + 1).head(q);
    active_[c] = active_[c + 1];
  }
  for (int c = position; c < q; ++c) multipliers_[c] = multipliers_[c + 1];
  r_.col(q - 1).setZero();
  active_[q - 1] = -1;
  // Rotations of rows c, c + 1 (and of J's columns alike) make R triangular again.
  for (int c = position; c < q - 1; ++c) {
    if (r_(c + 1, c) == 0.0) continue;
    Givens g = givensFor(r_(c, c), r_(c + 1, c));
    for (int col = c; col < q - 1; ++col) {
      double a = r_(c, col), b = r_(c + 1, col);
      r_(c, col) = g.c * a + g.s * b;
      r_(c + 1, col) = -g.s * a + g.c * b;
    }
    r_(c + 1, c) = 0.0;
    rotateColumns(j_, c, c + 1, g);
  }
  activeCount_ = q - 1;
}

void QpSolver::takeDualStep(double step) {
  // u⁺ ← u⁺ + t (−r, 1); rounding must not push an inequality's multiplier below 0.
  const int q = activeCount_;
  multipliers_.head(q) -= step * dualDirection_.head(q);
  multipliers_[q] += step;
  for (int position = 0; position < q; ++position)
    if (active_[position] >= equalities_)
      multipliers_[position] = std::max(multipliers_[position], 0.0);
}

QpStatus QpSolver::addEqualities(const QpProblem& problem) {
  // Equalities first, each with a full step (their multipliers may take any sign, so no
  // dual step is ever blocked); none is dropped afterwards.
  const int n = variables_;
  if (equalities_ > 0) ensureFactorInverse();
  for (int e = 0; e < equalities_; ++e) {
    if (iterations_ >= iterationCap()) return QpStatus::IterationLimit;
    ++iterations_;
    normal_ = problem.equalityMatrix.row(e).transpose();
    double s = residual(problem.equalityMatrix, problem.equalityVector, e);
    if (!computeStepDirections()) {
      // A combination of the equalities already active: consistent with them (skip it,
      // its multiplier stays 0) or contradicting them.
      if (satisfied(-std::abs(s), problem.equalityVector[e], normal_.norm(), x_.norm())) continue;
      return QpStatus::Infeasible;
    }
    const int q = activeCount_;
    double step = -s / d_.tail(n - q).squaredNorm();
    x_ += step * z_;
    multipliers_[q] = 0.0;
    takeDualStep(step);
    addConstraint(e);
  }
  return QpStatus::Optimal;
}

int QpSolver::mostViolatedInequality(const QpProblem& problem) {
  // The largest violation measured as a distance (residual / ‖row‖), so that scaling a
  // row does not change the choice.
  inequalityResiduals_.noalias() = problem.inequalityMatrix * x_;
  inequalityResiduals_ -= problem.inequalityVector;
  const double xNorm = x_.norm();
  int worst = -1;
  double worstDistance = 0.0;
  for (int i = 0; i < inequalities_; ++i) {
    double s = inequalityResiduals_[i], norm = inequalityRowNorms_[i];
    if (inequalityActive_[i] || satisfied(s, problem.inequalityVector[i], norm, xNorm)) continue;
    double distance = norm > 0.0 ? s / norm : -kInfinity;
    if (worst < 0 || distance < worstDistance) {
      worst = i;
      worstDistance = distance;
    }
  }
  return worst;
}

QpStatus QpSolver::addViolatedInequalities(const QpProblem& problem) {
  const int n = variables_;
  // Step 1: pick a violated constraint p; none left means x is optimal.
  for (int p = mostViolatedInequality(problem); p >= 0; p = mostViolatedInequality(problem)) {
    ensureFactorInverse();
    normal_ = problem.inequalityMatrix.row(p).transpose();
    multipliers_[activeCount_] = 0.0;
    // Step 2: move toward satisfying p until it is (add p) or an active inequality's
    // multiplier reaches 0 first (drop that one and go on).
    for (;;) {
      if (iterations_ >= iterationCap()) return QpStatus::IterationLimit;
      ++iterations_;
      const int q = activeCount_;
      bool primalStep = computeStepDirections();
      double dualStep = kInfinity;
      int blocking = blockingConstraint(dualStep);
      if (!primalStep && blocking < 0) return QpStatus::Infeasible;  // the dual is unbounded
      double fullStep = primalStep
                            ? -residual(problem.inequalityMatrix, problem.inequalityVector, p) /
                                  d_.tail(n - q).squaredNorm()
                            : kInfinity;
      double step = std::min(dualStep, fullStep);
      if (primalStep) x_ += step * z_;
      takeDualStep(step);
      if (fullStep <= dualStep) {
        addConstraint(equalities_ + p);
        break;
      }
      multipliers_[blocking] = 0.0;
      dropConstraint(blocking);
    }
  }
  return QpStatus::Optimal;
}

void QpSolver::fillResult(const QpProblem& problem, QpStatus status, QpResult& result) {
  result.status = status;
  result.x = x_;
  result.iterations = iterations_;
  result.equalityMultipliers.setZero(equalities_);
  result.inequalityMultipliers.setZero(inequalities_);
  if (result.activeSet.capacity() < static_cast<std::size_t>(variables_))
    result.activeSet.reserve(variables_);
  result.activeSet.clear();
  for (int position = 0; position < activeCount_; ++position) {
    int constraint = active_[position];
    result.activeSet.push_back(constraint);
    if (constraint < equalities_)
      result.equalityMultipliers[constraint] = multipliers_[position];
    else
      result.inequalityMultipliers[constraint - equalities_] = multipliers_[position];
  }
  if (status == QpStatus::InvalidInput || status == QpStatus::NotPositiveDefinite) {
    result.objective = 0.0;
    return;
  }
  gradient_.noalias() = problem.objectiveMatrix.selfadjointView<Eigen::Lower>() * x_;
  result.objective = 0.5 * x_.dot(gradient_) + problem.objectiveVector.dot(x_);
}

}  // namespace scl
