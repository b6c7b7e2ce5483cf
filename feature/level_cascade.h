// The cascade of QPs over y = (q̈_j, f), one per strict priority level (de Lasa et al.
// 2010; docs/features.md, Priorities): level k minimizes its rows' weighted squared
// errors plus the torque regularization, within the torque limits and the contacts'
// inequalities, and holds every earlier level's rows within a tolerance of the values
// that level's optimum gave them.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dynamics/qp_solver.h"
#include "feature/contacts.h"
#include "feature/feature_controller.h"
#include "feature/objective_rows.h"
#include "feature/reduced_problem.h"

namespace scl {

class LevelCascade {
 public:
  /// `levels` levels, for the character's torque limits; both must outlive the cascade.
  LevelCascade(int levels, const Character& character, const FeatureSettings& settings);

  /// Solves level after level until one fails or the last is solved. Sets the result's
  /// iterations, levels, and on a failure its qpStatus and failedLevel. Returns the last
  /// solved level, or -1.
  int solve(const ObjectiveRows& objective, const ReducedProblem& reduced,
            const ContactSet& contacts, const FeatureStepInput& input, FeatureStepResult& result);
  /// The solution y of a solved level.
  const Eigen::VectorXd& solution(int level) const {
    return results_[static_cast<size_t>(level)].x;
  }

 private:
  struct Step;  // what one solve reads
  void buildLevel(int level, const Step& step);
  void addObjective(int level, const Step& step, QpProblem& problem);
  void addEarlierLevels(int level, const Step& step, QpProblem& problem, int row) const;
  void holdValues(int level, const Step& step);

  const Character& character_;
  const FeatureSettings& settings_;
  Eigen::MatrixXd weighted_;  // workspace: √w · rows of one level
  Eigen::VectorXd weightedTargets_;
  Eigen::VectorXd rowValue_;  // each row's value at the optimum of its own level
  std::vector<QpSolver> solvers_;
  std::vector<QpProblem> problems_;
  std::vector<QpResult> results_;
};

}  // namespace scl
