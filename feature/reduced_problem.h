// The equations of motion, M q̈ + h = Sᵀτ + J_c f, and the objective's rows rewritten
// without the root (docs/features.md, The QP). The root's rows, M_rr q̈_r + M_rj q̈_j −
// J_c,rᵀ f = −h_r, give its accelerations q̈_r = P y + p₀ with y = (q̈_j, f), the QP's
// unknowns: every row over x = (q̈, f) becomes one over y (three fewer unknowns and no
// equalities, which halves the solver's work), and the joints' rows give the torques
// τ = B y + c.
#pragma once

#include <Eigen/Core>

#include "dynamics/planar_dynamics.h"
#include "feature/objective_rows.h"

namespace scl {

class ReducedProblem {
 public:
  /// For the dynamics' model (its workspaces sized once).
  explicit ReducedProblem(const PlanarDynamics& dynamics);

  /// Builds the equations of motion at the dynamics' state, with the contact forces'
  /// columns `contactJacobian` (dofs × forces), and reduces the objective's rows.
  void build(const PlanarDynamics& dynamics, const Eigen::MatrixXd& contactJacobian,
             const ObjectiveRows& objective);

  /// The QP's unknowns y, and the first force among them.
  int unknownCount() const { return static_cast<int>(rootMap_.cols()); }
  int forceStart() const { return dofs_ - kRootCoordinates; }
  /// The objective's rows over y (the unit rows' are never written) and their targets.
  const Eigen::MatrixXd& rows() const { return reducedRows_; }
  const Eigen::VectorXd& targets() const { return reducedTargets_; }
  /// τ = torqueRows() y + torqueOffset(), N·m.
  const Eigen::MatrixXd& torqueRows() const { return reducedTorqueRows_; }
  const Eigen::VectorXd& torqueOffset() const { return reducedTorqueOffset_; }

 private:
  void eliminateRoot(const Eigen::MatrixXd& contactJacobian, const ObjectiveRows& objective);
  void reduceRows(const Eigen::MatrixXd& from, int count, Eigen::MatrixXd& to) const;

  int dofs_ = 0;
  Eigen::VectorXd h_;
  Eigen::MatrixXd massMatrix_;
  Eigen::MatrixXd torqueRows_;  // τ = torqueRows x + torqueOffset
  Eigen::VectorXd torqueOffset_;
  Eigen::Matrix<double, kRootCoordinates, Eigen::Dynamic> rootMap_;  // P
  Eigen::Matrix<double, kRootCoordinates, 1> rootOffset_;            // p₀
  Eigen::MatrixXd reducedRows_;
  Eigen::VectorXd reducedTargets_;
  Eigen::MatrixXd reducedTorqueRows_;
  Eigen::VectorXd reducedTorqueOffset_;
};

}  // namespace scl
