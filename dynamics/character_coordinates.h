// The character's state (kinematics/character_state.h) in the dynamics' generalized
// coordinates and back (planar_model.h, Coordinates; docs/dynamics.md, Coordinates).
// The model must be the character's (planarModelFromCharacter(), or one laid out
// like it): body i is link i, body b >= 1 hangs from joint b - 1.
#pragma once

#include <Eigen/Core>

#include "dynamics/planar_model.h"
#include "kinematics/character_state.h"

namespace scl {

/// Index in q of a character joint's angle.
inline constexpr int characterJointCoordinate(int joint) { return jointCoordinate(joint + 1); }

/// q and q̇ (n = dofCount() each) of a state: the head's origin, world angle and joint
/// angles, and their rates. Reads only the per-link fields (origin, angle, com, comVelocity,
/// angularVelocity); the head's origin velocity follows from its COM's by the rigid-body
/// rule. Exact inverse of stateFromCoordinates(); for a state from Box2D, whose joints
/// separate slightly, it is the configuration that places the head as Box2D does.
void coordinatesFromState(const PlanarModel& model, const CharacterState& state,
                          Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd);

/// The state at (q, q̇): every link's origin, world angle, centre of mass and velocities,
/// the joint positions, angles and rates, the whole-body COM and its velocity (no contact,
/// time 0). Positions agree with scl::forwardKinematics(). No allocation.
CharacterState stateFromCoordinates(const PlanarModel& model,
                                    const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& qd);

}  // namespace scl
