#include "dynamics/qp_solver.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>

#include "dynamics/dense_kernels.h"

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

// (column i, column k) <- (c·i + s·k, −s·i + c·k): the same rotation as applied to
// (a, b). A contiguous loop, which the compiler vectorizes.
void rotateColumns(Eigen::MatrixXd& m, int i, int k, const Givens& g) {
  double* a = m.col(i).data();
  double* b = m.col(k).data();
  const int rows = static_cast<int>(m.rows());
  for (int r = 0; r < rows; ++r) {
    const double x = a[r], y = b[r];
    a[r] = g.c * x + g.s * y;
    b[r] = g.c * y - g.s * x;
  }
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
  // An even number of rows (the factorization goes in lane pairs), the padding zero.
  factor_.setZero(variables + (variables & 1), variables);
  inverseDiagonal_.resize(variables);
  upper_.resize(variables, variables);
  basis_.resize(variables, variables);
  cascade_.resize(variables);
  r_.resize(variables, variables);
  x_.resize(variables);
  normal_.resize(variables);
  transformedNormal_.resize(variables);
  d_.resize(variables);
  z_.resize(variables);
  dualDirection_.resize(variables);
  multipliers_.resize(variables + 1);
  inequalityResiduals_.resize(inequalities);
  inequalityRowNorms_.resize(inequalities);
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
  explicitJ_ = false;
  cascadePending_ = false;
  std::fill(inequalityActive_.begin(), inequalityActive_.end(), 0);
  inequalityRowNorms_.setConstant(-1.0);  // not yet computed
  x_.setZero();

  QpStatus status = QpStatus::Optimal;
  if (!finiteObjectiveAndEqualities(problem)) {
    status = QpStatus::InvalidInput;
  } else if (!factorObjective(problem)) {
    status = QpStatus::NotPositiveDefinite;
  } else {
    // Step 0: the unconstrained minimum, x = −G⁻¹a = −L⁻ᵀL⁻¹a, with no constraint active.
    unconstrainedMinimum(problem);
    status = addEqualities(problem);
    if (status == QpStatus::Optimal) status = addViolatedInequalities(problem);
    if (status == QpStatus::InvalidInput) {
      // A NaN or infinity in the inequalities, found in their residuals: nothing solved.
      x_.setZero();
      activeCount_ = 0;
      iterations_ = 0;
    }
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

bool QpSolver::finiteObjectiveAndEqualities(const QpProblem& problem) {
  // The inequalities are checked through their residuals Cx − b, which are finite, for a
  // finite x, exactly when C's row and b's entry are (an infinite entry times 0 is NaN):
  // m numbers instead of m·n.
  return finiteEntries(problem.objectiveMatrix) && finiteEntries(problem.objectiveVector) &&
         finiteEntries(problem.equalityMatrix) && finiteEntries(problem.equalityVector);
}

bool QpSolver::factorObjective(const QpProblem& problem) {
  // Written out rather than Eigen's LLT: at the controller's sizes (20–40 unknowns) its
  // per-column dispatch cost more than the arithmetic.
  const Eigen::MatrixXd& g = problem.objectiveMatrix;
  const int n = static_cast<int>(g.rows());
  factor_.topLeftCorner(n, n).triangularView<Eigen::Lower>() = g.triangularView<Eigen::Lower>();
  // A pivot this small means G is singular to working precision: its inverse, which the
  // method steps with, would be noise.
  const double threshold = static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                           g.diagonal().cwiseAbs().maxCoeff();
  // Cholesky G = LLᵀ, left-looking, in place in factor_'s lower triangle, in two passes.
  // First the unscaled columns vₖ = Lₖ·√pₖ: column k of G less Σⱼ vⱼ[k]/pⱼ · vⱼ, its
  // pivot pₖ = vₖ[k]; then each column scaled by 1/√pₖ. Scaling as one goes would put a
  // square root and a division on the chain from one column to the next; this way only
  // the division 1/pₖ is. The earlier columns are taken four at a time, so column k is
  // loaded and stored once per four, and rows go in lane pairs from an even row: factor_
  // has an even number of rows (the padding row is zero), and a pair starting one row
  // above k writes a finite number into the strict upper triangle, which nothing reads.
  const int stride = static_cast<int>(factor_.outerStride());
  double* base = factor_.data();
  double* reciprocal = inverseDiagonal_.data();  // 1/pₖ until the second pass
  for (int k = 0; k < n; ++k) {
    double* column = base + static_cast<ptrdiff_t>(k) * stride;
    const int first = k & ~1;
    int j = 0;
    for (; j + 4 <= k; j += 4) {
      const double* c0 = base + static_cast<ptrdiff_t>(j) * stride;
      const double* c1 = c0 + stride;
      const double* c2 = c1 + stride;
      const double* c3 = c2 + stride;
      const double m0 = c0[k] * reciprocal[j], m1 = c1[k] * reciprocal[j + 1];
      const double m2 = c2[k] * reciprocal[j + 2], m3 = c3[k] * reciprocal[j + 3];
      const DoublePair a0 = {m0, m0}, a1 = {m1, m1}, a2 = {m2, m2}, a3 = {m3, m3};
      for (int i = first; i < stride; i += 2) {
        DoublePair v = loadPair(column + i);
        v -= (a0 * loadPair(c0 + i) + a1 * loadPair(c1 + i)) +
             (a2 * loadPair(c2 + i) + a3 * loadPair(c3 + i));
        storePair(column + i, v);
      }
    }
    for (; j < k; ++j) {
      const double* source = base + static_cast<ptrdiff_t>(j) * stride;
      const double m = source[k] * reciprocal[j];
      const DoublePair a = {m, m};
      for (int i = first; i < stride; i += 2)
        storePair(column + i, loadPair(column + i) - a * loadPair(source + i));
    }
    const double pivot = column[k];
    if (!(pivot > threshold)) return false;  // also false for NaN
    reciprocal[k] = 1.0 / pivot;
  }
  for (int k = 0; k < n; ++k) {
    double* column = base + static_cast<ptrdiff_t>(k) * stride;
    const double diagonal = std::sqrt(column[k]);
    column[k] = diagonal;
    const double inverse = 1.0 / diagonal;
    inverseDiagonal_[k] = inverse;
    for (int i = k + 1; i < n; ++i) column[i] *= inverse;
    // Lᵀ's column k is L's row k: the backward solves run down contiguous columns.
    double* transposed = upper_.col(k).data();
    for (int i = 0; i <= k; ++i) transposed[i] = base[static_cast<ptrdiff_t>(i) * stride + k];
  }
  return true;
}

void QpSolver::solveLower(Eigen::VectorXd& v) const {
  // L y = v by columns: each solved entry is subtracted down its column of L (a
  // contiguous axpy, vectorized). Multiplying by the pivots' reciprocals keeps divisions,
  // whose latency the next entry waits for, off the chain.
  const int n = variables_;
  double* x = v.data();
  const double* inverse = inverseDiagonal_.data();
  for (int k = 0; k < n; ++k) {
    const double* column = factor_.col(k).data();
    const double value = x[k] * inverse[k];
    x[k] = value;
    for (int i = k + 1; i < n; ++i) x[i] -= value * column[i];
  }
}

void QpSolver::solveLowerTransposed(Eigen::VectorXd& v) const {
  // Lᵀ x = v backward by Lᵀ's columns: each solved entry is subtracted up its column (an
  // axpy in lane pairs). A dot product per row instead put a whole reduction on the chain
  // from one entry to the next.
  const int n = variables_;
  double* x = v.data();
  const double* inverse = inverseDiagonal_.data();
  for (int k = n - 1; k >= 0; --k) {
    const double value = x[k] * inverse[k];
    x[k] = value;
    const double* column = upper_.col(k).data();
    const DoublePair scale = {value, value};
    int i = 0;
    for (; i + 2 <= k; i += 2) storePair(x + i, loadPair(x + i) - scale * loadPair(column + i));
    if (i < k) x[i] -= value * column[i];
  }
}
void QpSolver::unconstrainedMinimum(const QpProblem& problem) {
  x_ = problem.objectiveVector;
  solveLower(x_);
  solveLowerTransposed(x_);
  x_ = -x_;
}

void QpSolver::makeJExplicit() {
  // J = L⁻ᵀQ, formed once a second constraint is to be added: past the first, the
  // implicit products' two triangular solves per step cost more than forming J once
  // (n³/6 flops). Until then Q = I turned by the first addition's rotations (deferred:
  // computed here from its d₂, from the last pair up, as addConstraint does for later
  // additions). L⁻ᵀ = (Lᵀ)⁻¹ column by column: Lᵀx = e_k backward, each solved entry
  // subtracted up Lᵀ's column (upper triangular: x is zero below k).
  explicitJ_ = true;
  const int n = variables_;
  const double* inverse = inverseDiagonal_.data();
  basis_.setZero();
  for (int k = 0; k < n; ++k) {
    double* x = basis_.col(k).data();
    x[k] = 1.0;
    for (int j = k; j >= 0; --j) {
      const double value = x[j] * inverse[j];
      x[j] = value;
      const double* column = upper_.col(j).data();
      for (int i = 0; i < j; ++i) x[i] -= value * column[i];
    }
  }
  if (!cascadePending_) return;
  cascadePending_ = false;
  double* w = cascade_.data();
  for (int k = n - 1; k > cascadeStart_; --k) {
    if (w[k] == 0.0) continue;
    const Givens g = givensFor(w[k - 1], w[k]);
    w[k - 1] = g.rho;
    w[k] = 0.0;
    rotateColumns(basis_, k - 1, k, g);
  }
}

void QpSolver::prepareConstraint() {
  // L⁻¹n⁺ for the implicit products: fixed while n⁺ is being added, whatever is dropped
  // meanwhile.
  if (explicitJ_) return;
  transformedNormal_ = normal_;
  solveLower(transformedNormal_);
}

bool QpSolver::computeStepDirections() {
  // d = Jᵀn⁺, z = J₂d₂. While J is implicit Q = I (no constraint has been added yet, or
  // J would be explicit): d = L⁻¹n⁺ and z = L⁻ᵀ(0, d₂).
  const int n = variables_, q = activeCount_;
  if (explicitJ_) {
    d_.noalias() = basis_.transpose() * normal_;
    z_.noalias() = basis_.rightCols(n - q) * d_.tail(n - q);
  } else {
    assert(!cascadePending_);
    d_ = transformedNormal_;
    z_.head(q).setZero();
    z_.tail(n - q) = d_.tail(n - q);
    solveLowerTransposed(z_);
  }
  // r = R⁻¹d₁ by back substitution (q is small: a few active constraints).
  for (int i = q - 1; i >= 0; --i) {
    double sum = d_[i];
    for (int c = i + 1; c < q; ++c) sum -= r_(i, c) * dualDirection_[c];
    dualDirection_[i] = sum / r_(i, i);
  }
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
  if (!explicitJ_) {
    // The first addition (Q = I): its rotations are needed only if J is, which a solve
    // that stops at one constraint never forms. Keep d₂ to compute them then
    // (makeJExplicit); R needs only ‖d₂‖, one vectorized norm instead of a chain of
    // square roots and divisions.
    assert(!cascadePending_);
    cascadeStart_ = q;
    cascade_.tail(n - q) = d_.tail(n - q);
    cascadePending_ = true;
    d_[q] = d_.tail(n - q).norm();
    d_.tail(n - q - 1).setZero();
  }
  for (int k = n - 1; k > q; --k) {
    if (d_[k] == 0.0) continue;
    Givens g = givensFor(d_[k - 1], d_[k]);
    d_[k - 1] = g.rho;
    d_[k] = 0.0;
    rotateColumns(basis_, k - 1, k, g);
  }
  r_.col(q).head(q + 1) = d_.head(q + 1);
  active_[q] = constraint;
  if (constraint >= equalities_) inequalityActive_[constraint - equalities_] = 1;
  activeCount_ = q + 1;
}

void QpSolver::dropConstraint(int position) {
  // Only a constraint added before the one being added can be dropped: J is explicit.
  assert(explicitJ_);
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
  // Rotations of rows c, c + 1 (and of Q's columns alike) make R triangular again.
  for (int c = position; c < q - 1; ++c) {
    if (r_(c + 1, c) == 0.0) continue;
    Givens g = givensFor(r_(c, c), r_(c + 1, c));
    for (int col = c; col < q - 1; ++col) {
      double a = r_(c, col), b = r_(c + 1, col);
      r_(c, col) = g.c * a + g.s * b;
      r_(c + 1, col) = -g.s * a + g.c * b;
    }
    r_(c + 1, c) = 0.0;
    rotateColumns(basis_, c, c + 1, g);
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
  for (int e = 0; e < equalities_; ++e) {
    if (iterations_ >= iterationCap()) return QpStatus::IterationLimit;
    ++iterations_;
    if (activeCount_ > 0 && !explicitJ_) makeJExplicit();
    normal_ = problem.equalityMatrix.row(e).transpose();
    prepareConstraint();
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
  // row does not change the choice. A row's norm is needed only when its residual is
  // negative (a row with s ≥ 0 is satisfied whatever its norm): computed then, once per
  // solve.
  inequalityResiduals_.noalias() = problem.inequalityMatrix * x_;
  inequalityResiduals_ -= problem.inequalityVector;
  if (!finiteEntries(inequalityResiduals_)) return kNonFinite;
  const double xNorm = x_.norm();
  int worst = -1;
  double worstDistance = 0.0;
  for (int i = 0; i < inequalities_; ++i) {
    const double s = inequalityResiduals_[i];
    if (s >= 0.0 || inequalityActive_[i]) continue;
    double& norm = inequalityRowNorms_[i];
    if (norm < 0.0) norm = problem.inequalityMatrix.row(i).norm();
    if (satisfied(s, problem.inequalityVector[i], norm, xNorm)) continue;
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
  if (inequalities_ == 0) return QpStatus::Optimal;
  // Step 1: pick a violated constraint p; none left means x is optimal.
  for (int p = mostViolatedInequality(problem); p != -1; p = mostViolatedInequality(problem)) {
    if (p == kNonFinite) return QpStatus::InvalidInput;
    if (activeCount_ > 0 && !explicitJ_) makeJExplicit();
    normal_ = problem.inequalityMatrix.row(p).transpose();
    prepareConstraint();
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
  // ½ xᵀGx = ½ ‖Lᵀx‖², Lᵀx summed from Lᵀ's columns (axpys in lane pairs; d_ is free).
  double* product = d_.data();
  d_.setZero();
  for (int k = 0; k < variables_; ++k) {
    const double* column = upper_.col(k).data();
    const DoublePair scale = {x_[k], x_[k]};
    int i = 0;
    for (; i + 2 <= k + 1; i += 2)
      storePair(product + i, loadPair(product + i) + scale * loadPair(column + i));
    if (i <= k) product[i] += x_[k] * column[i];
  }
  result.objective = 0.5 * d_.squaredNorm() + problem.objectiveVector.dot(x_);
}

}  // namespace scl
