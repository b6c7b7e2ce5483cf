// A planar tree of rigid bodies joined by revolute joints: what the dynamics
// (planar_dynamics.h) computes from. Everything in dynamics/ reads a character through
// this struct only; planarModelFromCharacter() is the one place that knows where the
// character comes from (docs/dynamics.md, The model).
//
// Generalized coordinates (docs/dynamics.md, Coordinates), n = bodies + 2:
//   q[0], q[1]   root origin x, y (metres, world)
//   q[2]         root world angle (radians)
//   q[2 + b]     angle of the joint attaching body b (b >= 1) to its parent: body b's world
//                angle minus its parent's (radians)
// and q̇ likewise (m/s, rad/s).
#pragma once

#include <Eigen/Core>
#include <limits>
#include <vector>

#include "scl/character.h"

namespace scl {

using Vec2 = Eigen::Vector2d;

/// Indices of the floating root's coordinates in q.
inline constexpr int kRootX = 0;
inline constexpr int kRootY = 1;
inline constexpr int kRootAngle = 2;

/// Index in q of the joint attaching `body` (>= 1) to its parent.
inline constexpr int jointCoordinate(int body) { return 2 + body; }

/// One rigid body. Its frame has its origin at the joint to its parent (the root's origin
/// is the root's reference point) and turns with the body: a point fixed on the body at
/// `local` is at origin + R(worldAngle) local.
struct PlanarBody {
  /// Mass, kilograms (> 0).
  double mass = 1.0;
  /// Moment of inertia about the centre of mass, kg·m² (> 0).
  double inertia = 1.0;
  /// Centre of mass in the body frame, metres.
  Vec2 comOffset = Vec2::Zero();
  /// Index of the parent body, lower than this body's; -1 for the root (body 0 only).
  int parent = -1;
  /// Position of the joint (this body's origin) in the parent's frame, metres; unused for
  /// the root.
  Vec2 jointAnchor = Vec2::Zero();
  /// Joint angle limits, radians; infinite for a free joint. Descriptive: the dynamics
  /// model no limit forces (a controller may turn them into constraints).
  double jointLowerLimit = -std::numeric_limits<double>::infinity();
  /// Upper joint angle limit, radians.
  double jointUpperLimit = std::numeric_limits<double>::infinity();
};

/// A planar tree: body 0 is the floating root, every other body hangs from its parent by
/// a revolute joint.
struct PlanarModel {
  /// The bodies, the root first and every parent before its children.
  std::vector<PlanarBody> bodies;
  /// Gravitational acceleration, m/s².
  Vec2 gravity = Vec2(0.0, -9.81);

  int bodyCount() const { return static_cast<int>(bodies.size()); }
  /// Number of generalized coordinates: 3 for the root, 1 per joint.
  int dofCount() const { return bodyCount() + 2; }
  /// Total mass, kilograms.
  double totalMass() const;
};

/// True when the model is a tree as described above (root first, parents before children,
/// positive masses and inertias, finite geometry).
bool isValid(const PlanarModel& model);

/// A character (scl/character.h): body i is link i (the head is the root, its origin the
/// root's reference point), body b >= 1 hangs from joint b - 1 (every character is the
/// same biped: joint j's child is link j + 1), so joint j's angle is q[3 + j]. Body frames are the
/// links' frames (docs/character.md, Conventions): their x axis is the zero pose's, so a
/// link's centre of mass lies at (axisSign · comOffset, 0). Masses and inertias are the
/// exact capped-trapezoid ones (docs/character.md); limits are the joint limits.
PlanarModel planarModelFromCharacter(const Character& character);

}  // namespace scl
