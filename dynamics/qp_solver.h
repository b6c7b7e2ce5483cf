// A dense strictly convex quadratic program solver (docs/dynamics.md, The QP solver):
//
//   minimize ½ xᵀ G x + aᵀ x   subject to   Cₑ x = bₑ,   Cᵢ x ≥ bᵢ,
//
// G symmetric positive definite, by the dual active-set method of Goldfarb and Idnani
// ("A numerically stable dual method for solving strictly convex quadratic programs",
// Mathematical Programming 27, 1983): start from the unconstrained minimum, add violated
// constraints one at a time (dropping those whose multipliers would turn negative), keep
// the active set's factor J = L⁻ᵀQ up to date with Givens rotations. J is formed only when
// a second constraint is to be added; until then its products are triangular solves.
//
// A QpSolver keeps its workspace between solves: once it has solved a problem of some size,
// solving another of the same size allocates nothing (one QP per controller step).
#pragma once

#include <Eigen/Core>
#include <vector>

namespace scl {

/// The problem's data. Sizes: G n×n, a n, Cₑ mₑ×n, bₑ mₑ, Cᵢ mᵢ×n, bᵢ mᵢ (mₑ, mᵢ may be 0).
struct QpProblem {
  /// G: symmetric positive definite (only its lower triangle is read).
  Eigen::MatrixXd objectiveMatrix;
  /// a.
  Eigen::VectorXd objectiveVector;
  /// Cₑ: one equality constraint per row.
  Eigen::MatrixXd equalityMatrix;
  /// bₑ.
  Eigen::VectorXd equalityVector;
  /// Cᵢ: one inequality constraint (row · x ≥ bound) per row.
  Eigen::MatrixXd inequalityMatrix;
  /// bᵢ.
  Eigen::VectorXd inequalityVector;

  /// An empty problem of the given sizes (every entry zero).
  static QpProblem zero(int variables, int equalities, int inequalities);
  int variableCount() const { return static_cast<int>(objectiveVector.size()); }
  int equalityCount() const { return static_cast<int>(equalityVector.size()); }
  int inequalityCount() const { return static_cast<int>(inequalityVector.size()); }
};

enum class QpStatus {
  /// x is the minimizer: the KKT conditions hold.
  Optimal,
  /// No x satisfies the constraints (contradictory inequalities, inconsistent
  /// equalities): the dual is unbounded. x is the last iterate.
  Infeasible,
  /// The iteration cap was reached first; x is the last iterate.
  IterationLimit,
  /// G is not (numerically) positive definite: its Cholesky factor fails or has a pivot
  /// below n·ε·max Gₖₖ. Nothing is solved; x is zero.
  NotPositiveDefinite,
  /// A number of the problem is NaN or infinite. Nothing is solved; x is zero.
  InvalidInput,
};

/// How a solve decides; the defaults suit well-scaled problems in double precision.
struct QpSettings {
  /// Most iterations (each adds or drops one constraint) before giving up with
  /// IterationLimit; 0: 10 · (variables + constraints) + 10.
  int maxIterations = 0;
  /// A constraint counts as satisfied when its residual Cx − b is at least
  /// −feasibilityTolerance · (|b| + ‖row‖‖x‖) (relative; rounding in Cx is ε times that).
  double feasibilityTolerance = 1e-10;
  /// A constraint's normal counts as a combination of the active ones when the part of
  /// L⁻¹·normal outside their span is below this fraction of its length (relative).
  double dependenceTolerance = 1e-10;
};

struct QpResult {
  QpStatus status = QpStatus::Optimal;
  /// The minimizer (Optimal), else the last iterate.
  Eigen::VectorXd x;
  /// ½ xᵀ G x + aᵀ x at x.
  double objective = 0.0;
  /// Lagrange multipliers λₑ, one per equality (any sign), with
  /// G x + a = Cₑᵀ λₑ + Cᵢᵀ λᵢ at the optimum; 0 for an equality found redundant.
  Eigen::VectorXd equalityMultipliers;
  /// λᵢ, one per inequality: ≥ 0, and 0 for an inactive one.
  Eigen::VectorXd inequalityMultipliers;
  /// The active constraints at x in the order they were added: equality e as e,
  /// inequality i as mₑ + i.
  std::vector<int> activeSet;
  /// Constraints added and dropped.
  int iterations = 0;
};

class QpSolver {
 public:
  explicit QpSolver(const QpSettings& settings = {}) : settings_(settings) {}

  /// Solves `problem` into `result` (resized when needed). Allocates only when the sizes
  /// differ from the previous solve's (or the result's). Deterministic: the same problem
  /// gives bit-identical results.
  QpStatus solve(const QpProblem& problem, QpResult& result);

 private:
  // mostViolatedInequality's answer when a residual is not finite.
  static constexpr int kNonFinite = -2;

  void resize(int variables, int equalities, int inequalities);
  // G, a, Cₑ and bₑ hold no NaN or infinity (the inequalities are checked by residual).
  static bool finiteObjectiveAndEqualities(const QpProblem& problem);
  // Cholesky G = LLᵀ; false when G is not (numerically) positive definite.
  bool factorObjective(const QpProblem& problem);
  // v ← L⁻¹v and v ← L⁻ᵀv.
  void solveLower(Eigen::VectorXd& v) const;
  void solveLowerTransposed(Eigen::VectorXd& v) const;
  // x = −G⁻¹a by two triangular solves with L.
  void unconstrainedMinimum(const QpProblem& problem);
  // J = L⁻ᵀQ into basis_ (with the first addition's deferred rotations), kept from then on.
  void makeJExplicit();
  // L⁻¹n⁺ of the constraint in normal_ (for the implicit products).
  void prepareConstraint();
  int iterationCap() const;
  // The step toward satisfying the constraint in normal_: d = Jᵀn⁺, primal direction
  // z = J₂d₂, dual direction r = R⁻¹d₁. False when n⁺ is (numerically) a combination of
  // the active normals, so that z = 0.
  bool computeStepDirections();
  double residual(const Eigen::MatrixXd& rows, const Eigen::VectorXd& bounds, int row) const;
  bool satisfied(double residual, double bound, double rowNorm, double xNorm) const;
  // The position of the active inequality whose multiplier the dual step zeroes first
  // (-1: none) and that step's length (infinite: none).
  int blockingConstraint(double& step) const;
  void takeDualStep(double step);
  void addConstraint(int constraint);
  void dropConstraint(int position);
  QpStatus addEqualities(const QpProblem& problem);
  // The most violated inactive inequality, -1 when none is, kNonFinite when a residual
  // is NaN or infinite.
  int mostViolatedInequality(const QpProblem& problem);
  QpStatus addViolatedInequalities(const QpProblem& problem);
  void fillResult(const QpProblem& problem, QpStatus status, QpResult& result);

  QpSettings settings_;
  int variables_ = -1, equalities_ = -1, inequalities_ = -1;
  Eigen::MatrixXd factor_;           // L of G = LLᵀ (lower triangle)
  Eigen::VectorXd inverseDiagonal_;  // 1 / Lₖₖ
  Eigen::MatrixXd upper_;            // Lᵀ (upper triangle)
  // J = L⁻ᵀQ once explicit (explicitJ_): its first q columns J₁ span the active normals.
  // Before, Q = I (then turned by the first addition's pending rotations) and basis_ is
  // unused.
  Eigen::MatrixXd basis_;
  // The first addition's d₂ (entries cascadeStart_ on), whose rotations are not yet
  // applied (cascadePending_).
  Eigen::VectorXd cascade_;
  int cascadeStart_ = 0;
  bool cascadePending_ = false;
  Eigen::MatrixXd r_;  // R (upper triangular, q×q used): L⁻¹ N = Q [R; 0].
  Eigen::VectorXd x_;
  Eigen::VectorXd normal_;             // the constraint being added, n⁺
  Eigen::VectorXd transformedNormal_;  // L⁻¹n⁺
  Eigen::VectorXd d_;                  // Jᵀ n⁺
  Eigen::VectorXd z_;                  // primal step direction
  Eigen::VectorXd dualDirection_;      // r = R⁻¹ d₁
  Eigen::VectorXd multipliers_;        // u: of the active constraints, then of n⁺
  Eigen::VectorXd inequalityResiduals_;
  Eigen::VectorXd inequalityRowNorms_;  // -1 until needed in this solve
  std::vector<int> active_;             // constraint numbers (as QpResult::activeSet)
  std::vector<char> inequalityActive_;  // by inequality
  int activeCount_ = 0;                 // q
  bool explicitJ_ = false;              // basis_ holds J
  int iterations_ = 0;
};

/// One solve with a fresh solver (allocates): for tests and one-off use.
QpResult solveQp(const QpProblem& problem, const QpSettings& settings = {});

}  // namespace scl
