#include "feature/level_cascade.h"

#include <cmath>

#include "dynamics/dense_kernels.h"
#include "feature/feature_math.h"

namespace scl {

struct LevelCascade::Step {
  const ObjectiveRows& objective;
  const ReducedProblem& reduced;
  const ContactSet& contacts;
  const FeatureStepInput& input;
};

LevelCascade::LevelCascade(int levels, const Character& character, const FeatureSettings& settings)
    : character_(character),
      settings_(settings),
      solvers_(static_cast<size_t>(levels)),
      problems_(static_cast<size_t>(levels)),
      results_(static_cast<size_t>(levels)) {}

int LevelCascade::solve(const ObjectiveRows& objective, const ReducedProblem& reduced,
                        const ContactSet& contacts, const FeatureStepInput& input,
                        FeatureStepResult& result) {
  const Step step{objective, reduced, contacts, input};
  const int levels = static_cast<int>(problems_.size());
  fit(rowValue_, objective.count());
  int solved = -1;
  for (int level = 0; level < levels; ++level) {
    buildLevel(level, step);
    QpResult& out = results_[static_cast<size_t>(level)];
    const QpStatus status =
        solvers_[static_cast<size_t>(level)].solve(problems_[static_cast<size_t>(level)], out);
    result.iterations += out.iterations;
    if (status != QpStatus::Optimal) {
      result.qpStatus = status;
      result.failedLevel = level + 1;
      break;
    }
    solved = level;
    ++result.levels;
    if (level + 1 == levels) break;  // no later level holds this one's rows
    holdValues(level, step);
  }
  return solved;
}

// Records the values the solved level's optimum gives its rows, for the later levels.
void LevelCascade::holdValues(int level, const Step& step) {
  const std::vector<RowInfo>& info = step.objective.info();
  const Eigen::VectorXd& x = solution(level);
  for (int r = 0; r < static_cast<int>(info.size()); ++r)
    if (info[r].level == level)
      rowValue_[r] =
          info[r].unitColumn >= 0 ? x[info[r].unitColumn] : step.reduced.rows().row(r).dot(x);
}

// Fills level `level`'s problem over y: its rows' objective, the torque regularization,
// the limits, and the earlier levels' rows held within the tolerance.
void LevelCascade::buildLevel(int level, const Step& step) {
  const int n = step.reduced.unknownCount();
  const std::vector<RowInfo>& info = step.objective.info();
  int held = 0, hard = 0;
  for (const RowInfo& row : info) {
    if (row.level == kHardRow) ++hard;
    if (isHeld(row, level)) ++held;
  }
  const int inequalities = 2 * character_.jointCount() + step.contacts.inequalityCount() + 2 * held;
  QpProblem& problem = problems_[static_cast<size_t>(level)];
  fit(problem.objectiveMatrix, n, n);
  fit(problem.objectiveVector, n);
  fit(problem.equalityMatrix, hard, n);
  fit(problem.equalityVector, hard);
  fit(problem.inequalityMatrix, inequalities, n);
  fit(problem.inequalityVector, inequalities);
  addObjective(level, step, problem);

  // Hard contact rows are equalities (the root's equations are eliminated).
  const Eigen::MatrixXd& rows = step.reduced.rows();
  const Eigen::VectorXd& targets = step.reduced.targets();
  for (int r = 0, e = 0; r < static_cast<int>(info.size()); ++r) {
    if (info[r].level != kHardRow) continue;
    problem.equalityMatrix.row(e) = rows.row(r);
    problem.equalityVector[e++] = targets[r];
  }

  // Torque limits first, as two blocks (column-wise copies): −τ_max ≤ B y + c ≤ τ_max.
  auto& c = problem.inequalityMatrix;
  auto& b = problem.inequalityVector;
  c.setZero();  // one pass (zeroing the rows below the limits was a memset per column)
  b.setZero();
  const Eigen::MatrixXd& torqueRows = step.reduced.torqueRows();
  const Eigen::VectorXd& torqueOffset = step.reduced.torqueOffset();
  c.topRows(character_.jointCount()) = torqueRows;
  c.middleRows(character_.jointCount(), character_.jointCount()) = -torqueRows;
  for (int j = 0; j < character_.jointCount(); ++j) {
    const double limit = character_.joints[j].maxTorque;
    b[j] = -limit - torqueOffset[j];
    b[character_.jointCount() + j] = torqueOffset[j] - limit;
  }
  const int row =
      step.contacts.addInequalities(c, b, 2 * character_.jointCount(), step.reduced.forceStart());
  addEarlierLevels(level, step, problem, row);
}

// Objective: Σ w (row·y − target)² + w_τ |B y + c − τ_added|² + ε |y|². A unit row
// (posture) adds to the diagonal only; the others are stacked for a rank update.
void LevelCascade::addObjective(int level, const Step& step, QpProblem& problem) {
  const int n = step.reduced.unknownCount();
  const int first = step.reduced.forceStart();
  const std::vector<RowInfo>& info = step.objective.info();
  const Eigen::MatrixXd& rows = step.reduced.rows();
  const Eigen::VectorXd& targets = step.reduced.targets();
  auto& g = problem.objectiveMatrix;
  auto& a = problem.objectiveVector;
  g.setZero();
  a.setZero();
  const int total = static_cast<int>(info.size());
  fit(weighted_, total + character_.jointCount(), n);
  fit(weightedTargets_, total + character_.jointCount());
  int count = 0;
  for (int r = 0; r < total; ++r) {
    const RowInfo& row = info[r];
    if (row.level != level || !(row.weight > 0.0)) continue;
    if (row.unitColumn >= 0) {
      g(row.unitColumn, row.unitColumn) += row.weight;
      a[row.unitColumn] -= row.weight * targets[r];
      continue;
    }
    const double root = std::sqrt(row.weight);
    weighted_.row(count) = root * rows.row(r);
    weightedTargets_[count] = root * targets[r];
    ++count;
  }
  // The torque regularization's rows, √w_τ (B y + c − τ_added), join the stack. (The
  // root's accelerations are not regularized: y's own regularization below keeps G
  // positive definite, and their rows were a tenth of G's cost.)
  const double wt = std::sqrt(settings_.torqueWeight);
  Eigen::Map<const Eigen::VectorXd> added(step.input.addedTorques.data(), character_.jointCount());
  weighted_.middleRows(count, character_.jointCount()) = wt * step.reduced.torqueRows();
  weightedTargets_.segment(count, character_.jointCount()) =
      wt * (added - step.reduced.torqueOffset());
  count += character_.jointCount();
  // G's lower triangle only (all the solver reads), as blocks of dot products of the
  // stack's columns: at these sizes (about 30 rows of 20–30 unknowns) a blocked rank
  // update spends more on packing than on arithmetic.
  addLowerGram(weighted_, count, g);
  const auto stack = weighted_.topRows(count);
  a.noalias() -= stack.transpose() * weightedTargets_.head(count);
  g.diagonal().head(first).array() += settings_.accelerationRegularization;
  g.diagonal().tail(n - first).array() += settings_.forceRegularization;
  step.contacts.addTangentialWeight(g, first);
}

// Earlier levels: each row within the tolerance of its value at its level's optimum,
// from inequality row `row` on.
void LevelCascade::addEarlierLevels(int level, const Step& step, QpProblem& problem,
                                    int row) const {
  auto& c = problem.inequalityMatrix;
  auto& b = problem.inequalityVector;
  const std::vector<RowInfo>& info = step.objective.info();
  const Eigen::MatrixXd& rows = step.reduced.rows();
  const double tolerance = settings_.levelTolerance;
  for (int r = 0; r < static_cast<int>(info.size()); ++r) {
    if (!isHeld(info[r], level)) continue;
    if (const int unit = info[r].unitColumn; unit >= 0) {
      c.row(row).setZero();
      c(row, unit) = 1.0;
      b[row++] = rowValue_[r] - tolerance;
      c.row(row).setZero();
      c(row, unit) = -1.0;
      b[row++] = -rowValue_[r] - tolerance;
      continue;
    }
    c.row(row) = rows.row(r);
    b[row++] = rowValue_[r] - tolerance;
    c.row(row) = -rows.row(r);
    b[row++] = -rowValue_[r] - tolerance;
  }
}

}  // namespace scl
