#include "feature/objective_rows.h"

#include "feature/feature_math.h"

namespace scl {

ObjectiveRows::ObjectiveRows(const PlanarDynamics& dynamics)
    : dynamics_(dynamics),
      dofs_(dynamics.dofCount()),
      pointJacobian_(2, dofs_),
      rowBuffer_(dofs_) {}

void ObjectiveRows::clear(int capacity, int variables) {
  fit(rows_, capacity, variables);
  fit(targets_, capacity);
  info_.clear();
  info_.reserve(static_cast<size_t>(capacity));  // allocates only when the capacity grows
}

void ObjectiveRows::add(const Eigen::RowVectorXd& accelerationRow, double target, int level,
                        double weight) {
  const int r = count();
  rows_.row(r).head(dofs_) = accelerationRow;
  rows_.row(r).tail(rows_.cols() - dofs_).setZero();
  targets_[r] = target;
  info_.push_back({level, weight});
}

void ObjectiveRows::addForces(const Eigen::RowVectorXd& forceRow, double target, int level,
                              double weight) {
  const int r = count();
  rows_.row(r).head(dofs_).setZero();
  rows_.row(r).tail(rows_.cols() - dofs_) = forceRow;
  targets_[r] = target;
  info_.push_back({level, weight});
}

void ObjectiveRows::addPair(const Eigen::Matrix2Xd& jacobian, const Vec2& targets, int level,
                            double weight) {
  rowBuffer_ = jacobian.row(0);
  add(rowBuffer_, targets.x(), level, weight);
  rowBuffer_ = jacobian.row(1);
  add(rowBuffer_, targets.y(), level, weight);
}

void ObjectiveRows::addUnit(int unitColumn, double target, int level, double weight) {
  targets_[count()] = target;
  info_.push_back({level, weight, unitColumn});
}

const Eigen::Matrix2Xd& ObjectiveRows::addPoint(int body, const Vec2& local, const Vec2& desired,
                                                int level, double weight, const Vec2* direction) {
  dynamics_.pointJacobian(body, local, pointJacobian_);
  const Vec2 rhs = desired - dynamics_.pointBiasAcceleration(body, local);
  if (direction) {
    rowBuffer_.noalias() = direction->transpose() * pointJacobian_;
    add(rowBuffer_, direction->dot(rhs), level, weight);
  } else {
    addPair(pointJacobian_, rhs, level, weight);
  }
  return pointJacobian_;
}

}  // namespace scl
