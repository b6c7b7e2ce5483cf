// Kinematic chains through the character's tree, for virtual forces (docs/primitives.md,
// Virtual force).
//
// A chain is the list of joints on the tree path from a base link to the link a force
// acts on, each with the sign that turns "torque the link side must receive" into the
// joint's child-positive convention (+1 when the link side is the child, -1 when it is
// the parent, i.e. when the path crosses the joint from child to parent).
#pragma once

#include <array>

#include "kinematics/character_state.h"

namespace scl {

struct ChainJoint {
  /// Index into Character::joints.
  int joint = 0;
  /// +1 when the link side of the joint is its child, -1 when it is its parent.
  double sign = 1.0;
};

/// Joints on a tree path, ordered from the base outward. Fixed capacity, no allocation.
struct JointChain {
  std::array<ChainJoint, kMaxJoints> joints{};
  int size = 0;

  const ChainJoint* begin() const { return joints.data(); }
  const ChainJoint* end() const { return joints.data() + size; }
  bool contains(int joint) const;
};

/// The chain from `baseLink` to `link` (empty when they are the same link).
JointChain chainBetween(const Character& character, int baseLink, int link);

/// The base link of `[vf … on: link, by: byJoint]`: the link of byJoint that is not on
/// the tree path from byJoint to `link`.
int virtualForceBase(const Character& character, int link, int byJoint);

/// The chain of `[vf … on: link, by: byJoint]` (it starts with byJoint).
JointChain virtualForceChain(const Character& character, int link, int byJoint);

/// Adds to `torques` the Jacobian-transpose torques that realise `force` at world point
/// `point` on the far end of `chain`: tau_j = sign_j · ((point - p_j) × force).
void addVirtualForceTorques(const CharacterState& state, const JointChain& chain, const Vec2& point,
                            const Vec2& force, std::array<double, kMaxJoints>& torques);

/// True when `link` lies in the subtree hanging from `root` (root included).
bool inSubtree(const Character& character, int link, int root);

}  // namespace scl
