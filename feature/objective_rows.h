// The rows of the feature QP's objective over x = (q̈, f), before the root is eliminated:
// each asks row · x ≈ target, with a weight, in one priority level. Each step the
// contacts, then every feature kind (feature_kinds.cpp, in the table's order) append
// theirs; the unit rows (posture) come last.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dynamics/planar_dynamics.h"

namespace scl {

/// The floating root's coordinates (x, y, angle): the first of q, eliminated from the
/// QP's unknowns y = (q̈_j, f).
inline constexpr int kRootCoordinates = 3;

/// The level of a row that is an equality of every level (hard contacts).
inline constexpr int kHardRow = -1;

/// What one row of the objective asks besides its coefficients and target.
struct RowInfo {
  /// Its priority level (0 the first), or kHardRow.
  int level = 0;
  /// Weight of its squared error, in the row's units⁻² ((m/s²)⁻², (rad/s²)⁻², ...).
  double weight = 0.0;
  /// The row is the unit vector of this column of y (a posture row), or -1. Such a row
  /// adds only to G's diagonal: no rank update.
  int unitColumn = -1;
};

/// Whether level `level` holds the row near its value at its own level's optimum.
inline bool isHeld(const RowInfo& row, int level) {
  return row.level >= 0 && row.level < level && row.weight > 0.0;
}

class ObjectiveRows {
 public:
  /// Rows over the accelerations of `dynamics` (which must outlive this) and the forces.
  explicit ObjectiveRows(const PlanarDynamics& dynamics);

  /// Starts a step's rows: room for `capacity` of them over `variables` unknowns (the
  /// dofs' accelerations, then the forces).
  void clear(int capacity, int variables);
  /// Appends a row over q̈ only (its force columns zero).
  void add(const Eigen::RowVectorXd& accelerationRow, double target, int level, double weight);
  /// Appends the two rows of a 2×n Jacobian (x, then y) with their targets.
  void addPair(const Eigen::Matrix2Xd& jacobian, const Vec2& targets, int level, double weight);
  /// Appends a row over the forces only (`forceRow`: one coefficient per force unknown).
  void addForces(const Eigen::RowVectorXd& forceRow, double target, int level, double weight);
  /// Appends a unit row (y's column `unitColumn` ≈ target). Its row of rows() is never
  /// written or read: the unit column says it all.
  void addUnit(int unitColumn, double target, int level, double weight);
  /// Appends a body point's rows, J q̈ = a_des − J̇q̇ (`desired`: a_des, m/s²), both
  /// components or only the one along `direction`. Returns the point's Jacobian J, valid
  /// until the next call.
  const Eigen::Matrix2Xd& addPoint(int body, const Vec2& local, const Vec2& desired, int level,
                                   double weight, const Vec2* direction = nullptr);

  int count() const { return static_cast<int>(info_.size()); }
  /// The rows (the first count() are this step's) and their targets and infos.
  const Eigen::MatrixXd& rows() const { return rows_; }
  const Eigen::VectorXd& targets() const { return targets_; }
  const std::vector<RowInfo>& info() const { return info_; }

 private:
  const PlanarDynamics& dynamics_;
  int dofs_ = 0;
  Eigen::MatrixXd rows_;
  Eigen::VectorXd targets_;
  std::vector<RowInfo> info_;
  Eigen::Matrix2Xd pointJacobian_;
  Eigen::RowVectorXd rowBuffer_;
};

}  // namespace scl
