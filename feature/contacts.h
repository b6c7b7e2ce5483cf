// The contacts of the feature QP (docs/features.md, Contacts): each step, the support
// links' contact points (at most two per link: a flat foot's heel and toe), the force
// unknowns at them, their rows (a contact point does not accelerate; a moving one is
// braked), their columns of J_cᵀ, and the inequalities every level keeps: the friction
// cone, the centre of pressure off a line's ends, each link's minimum load.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dynamics/planar_dynamics.h"
#include "feature/feature_controller.h"
#include "feature/objective_rows.h"
#include "feature/support.h"
#include "kinematics/character_state.h"

namespace scl {

/// The level of the contact rows: the first, or an equality of every level (hardContacts).
inline int contactRowLevel(const FeatureSettings& settings) {
  return settings.hardContacts ? kHardRow : 0;
}

class ContactSet {
 public:
  /// Everything must outlive the set.
  ContactSet(const Character& character, const PlanarDynamics& dynamics, const SupportSet& support,
             const FeatureSettings& settings);

  /// This step's contact points and force unknowns; `dynamics` is at `state`.
  void gather(const CharacterState& state);
  /// Force unknowns this step (columns of the QP after the joints' accelerations).
  int forceCount() const { return static_cast<int>(forceUnknowns_.size()); }
  /// Most rows addRows() appends: three per touching link.
  static int rowCapacity() { return 3 * kMaxLinks; }
  /// Appends the contact rows, and writes each force unknown's generalized force (its
  /// column of J_cᵀ, dofs × forceCount()) into jacobian().
  void addRows(ObjectiveRows& rows);
  const Eigen::MatrixXd& jacobian() const { return jacobian_; }

  /// Number of inequalities addInequalities() writes.
  int inequalityCount() const;
  /// Adds the tangential forces' weight to the diagonal of G (over y; `first`: the first
  /// force's column).
  void addTangentialWeight(Eigen::MatrixXd& g, int first) const;
  /// Writes the inequalities C y ≥ b from row `row` (C's rows zero there): f_n ≥ 0, the
  /// friction cone, the pressure margin, the minimum load. Returns the next row.
  int addInequalities(Eigen::MatrixXd& c, Eigen::VectorXd& b, int row, int first) const;
  /// Writes into `row` (over the force unknowns) the total contact force on `link` along
  /// `axis` (a world unit vector): each of its unknowns' direction · axis. False when the
  /// link has no contact point this step (`row` is then zero).
  bool linkForceRow(int link, const Vec2& axis, Eigen::RowVectorXd& row) const;
  /// The planned contact forces at the solution `y`, for drawing.
  void plan(const Eigen::VectorXd& y, int first, std::vector<PlannedContactForce>& planned) const;

 private:
  // One contact point the QP may push on, after merging a link's points.
  struct Point {
    int link = 0;
    Vec2 point = Vec2::Zero();
    Vec2 local = Vec2::Zero();
    Vec2 normal = Vec2::UnitY();
    Vec2 tangent = Vec2::UnitX();
    /// μ of its contact (FeatureSettings::bodyFriction), times the friction margin.
    double friction = 0.0;
    /// What it stands on: velocity, m/s, and acceleration, m/s² (LinkState's).
    Vec2 supportVelocity = Vec2::Zero();
    Vec2 supportAcceleration = Vec2::Zero();
  };
  // A force unknown: the normal force at one contact point, or a contact's tangential
  // force (one per link touching along a line, at the line's middle: tangential forces
  // along one line differ only in where the total is split, which the dynamics cannot
  // tell apart), newtons along `direction`.
  struct ForceUnknown {
    int link = 0;
    Vec2 local = Vec2::Zero();
    Vec2 direction = Vec2::UnitY();
  };

  void gatherLink(int link, const LinkState& linkState);
  // μ of the link's contacts: the least of the bodies it touches.
  double frictionOf(const LinkState& linkState) const;
  void assignForceUnknowns();
  // Whether contact point i and the next are the two ends of one link's line contact.
  bool linePairAt(size_t i) const {
    return i + 1 < points_.size() && points_[i + 1].link == points_[i].link;
  }
  void writeForceColumn(int unknown, const Eigen::Matrix2Xd& pointJacobian);
  // The acceleration a contact row asks of a point of the contact's link (body-frame
  // `local`), m/s²: that of what it stands on, less its braked velocity relative to it.
  Vec2 heldAcceleration(const Point& contact, const Vec2& local) const;

  const Character& character_;
  const PlanarDynamics& dynamics_;
  const SupportSet& support_;
  const FeatureSettings& settings_;
  std::vector<Point> points_;
  std::vector<ForceUnknown> forceUnknowns_;
  // Per contact point: the index among the force unknowns of its normal force and of its
  // (possibly shared) tangential force.
  std::vector<int> normalUnknown_, tangentUnknown_;
  Eigen::MatrixXd jacobian_;
  Eigen::Matrix2Xd pushJacobian_;
};

}  // namespace scl
