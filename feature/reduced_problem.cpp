#include "feature/reduced_problem.h"

#include <Eigen/LU>
#include <algorithm>
#include <cassert>

#include "feature/feature_math.h"

namespace scl {

ReducedProblem::ReducedProblem(const PlanarDynamics& dynamics)
    : dofs_(dynamics.dofCount()), h_(dofs_), massMatrix_(dofs_, dofs_) {}

void ReducedProblem::build(const PlanarDynamics& dynamics, const Eigen::MatrixXd& contactJacobian,
                           const ObjectiveRows& objective) {
  const int forces = static_cast<int>(contactJacobian.cols());
  const int n = dofs_ + forces;
  const int joints = dofs_ - kRootCoordinates;
  dynamics.massMatrix(massMatrix_);
  dynamics.biasForces(h_);
  fit(torqueRows_, joints, n);
  fit(torqueOffset_, joints);
  torqueRows_.leftCols(dofs_) = massMatrix_.bottomRows(joints);
  torqueRows_.rightCols(forces) = -contactJacobian.bottomRows(joints);
  torqueOffset_ = h_.tail(joints);
  eliminateRoot(contactJacobian, objective);
}

// q̈_r = P y + p₀ from the root's rows, then every row over x rewritten over y:
// a·x − b = (a_r P + a_y) y − (b − a_r p₀).
void ReducedProblem::eliminateRoot(const Eigen::MatrixXd& contactJacobian,
                                   const ObjectiveRows& objective) {
  const int forces = static_cast<int>(contactJacobian.cols());
  const int m = dofs_ + forces - kRootCoordinates;
  const int joints = dofs_ - kRootCoordinates;
  // M_rr is 3×3, symmetric positive definite (the whole body's mass and inertia about
  // the root): its inverse, by cofactors, times one column at a time (fixed-size
  // products, inlined; Eigen's solve against the 3×m block took its blocked path).
  const Eigen::Matrix3d rootInertia = massMatrix_.topLeftCorner<3, 3>();
  const Eigen::Matrix3d inverse = rootInertia.inverse();
  rootMap_.resize(kRootCoordinates, m);
  for (int c = 0; c < joints; ++c)
    rootMap_.col(c).noalias() =
        -(inverse * massMatrix_.block<kRootCoordinates, 1>(0, kRootCoordinates + c));
  for (int c = 0; c < forces; ++c)
    rootMap_.col(joints + c).noalias() = inverse * contactJacobian.block<kRootCoordinates, 1>(0, c);
  rootOffset_.noalias() = -(inverse * h_.head<3>());

  const int total = objective.count();
  const std::vector<RowInfo>& info = objective.info();
  fit(reducedRows_, total, m);  // the unit rows' part is never written or read
  fit(reducedTargets_, total);
  // The unit rows (posture) come last (feature_kinds.cpp) and have no root part: only the
  // rows before them change. Inner dimension 3: coefficient-wise products (lazyProduct)
  // beat the blocked ones.
  int general = 0;
  while (general < total && info[general].unitColumn < 0) ++general;
  assert(std::all_of(info.begin() + general, info.end(),
                     [](const RowInfo& row) { return row.unitColumn >= 0; }));
  reducedTargets_ = objective.targets().head(total);
  reduceRows(objective.rows(), general, reducedRows_);
  const auto rootColumns = objective.rows().topLeftCorner(general, kRootCoordinates);
  reducedTargets_.head(general).noalias() -= rootColumns.lazyProduct(rootOffset_);
  fit(reducedTorqueRows_, joints, m);
  fit(reducedTorqueOffset_, joints);
  reduceRows(torqueRows_, joints, reducedTorqueRows_);
  const auto torqueRootColumns = torqueRows_.leftCols<kRootCoordinates>();
  reducedTorqueOffset_ = torqueOffset_;
  reducedTorqueOffset_.noalias() += torqueRootColumns.lazyProduct(rootOffset_);
}

// The first `count` rows of `from` (over x) as rows over y: column c of the result is
// from's column 3 + c plus its three root columns weighted by P's column c. Written as
// column loops (contiguous, vectorized): at 3 inner terms Eigen's products cost more in
// dispatch than in arithmetic.
void ReducedProblem::reduceRows(const Eigen::MatrixXd& from, int count, Eigen::MatrixXd& to) const {
  const double* r0 = from.col(0).data();
  const double* r1 = from.col(1).data();
  const double* r2 = from.col(2).data();
  for (int c = 0; c < static_cast<int>(rootMap_.cols()); ++c) {
    const double p0 = rootMap_(0, c), p1 = rootMap_(1, c), p2 = rootMap_(2, c);
    const double* source = from.col(kRootCoordinates + c).data();
    double* target = to.col(c).data();
    for (int r = 0; r < count; ++r) target[r] = source[r] + (r0[r] * p0 + r1[r] * p1 + r2[r] * p2);
  }
}

}  // namespace scl
