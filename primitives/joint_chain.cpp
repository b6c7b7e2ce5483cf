#include "primitives/joint_chain.h"

#include <algorithm>
#include <cassert>

namespace scl {

namespace {

// Links from `link` up to the root (head), `link` first.
int ancestors(const Character& character, int link, std::array<int, kMaxLinks>& out) {
  int count = 0;
  for (int current = link;;) {
    out[count++] = current;
    int joint = character.links[current].parentJoint;
    if (joint < 0) break;
    current = character.joints[joint].parentLink;
  }
  return count;
}

}  // namespace

bool JointChain::contains(int joint) const {
  return std::any_of(begin(), end(), [&](const ChainJoint& entry) { return entry.joint == joint; });
}

bool inSubtree(const Character& character, int link, int root) {
  std::array<int, kMaxLinks> up{};
  int count = ancestors(character, link, up);
  return std::find(up.begin(), up.begin() + count, root) != up.begin() + count;
}

JointChain chainBetween(const Character& character, int baseLink, int link) {
  std::array<int, kMaxLinks> fromBase{}, fromLink{};
  int baseCount = ancestors(character, baseLink, fromBase);
  int linkCount = ancestors(character, link, fromLink);
  // Drop the common ancestry; what is left are the two branches below the meeting link.
  while (baseCount > 0 && linkCount > 0 && fromBase[baseCount - 1] == fromLink[linkCount - 1]) {
    --baseCount;
    --linkCount;
  }
  JointChain chain;
  // Up from the base: each crossing goes child -> parent, so the link side is the parent.
  for (int i = 0; i < baseCount; ++i)
    chain.joints[chain.size++] = {character.links[fromBase[i]].parentJoint, -1.0};
  // Down to the link: parent -> child, the link side is the child.
  for (int i = linkCount - 1; i >= 0; --i)
    chain.joints[chain.size++] = {character.links[fromLink[i]].parentJoint, +1.0};
  return chain;
}

int virtualForceBase(const Character& character, int link, int byJoint) {
  const JointDef& joint = character.joints[byJoint];
  // The link lies either below the joint (in the child's subtree) or on the parent side.
  return inSubtree(character, link, joint.childLink) ? joint.parentLink : joint.childLink;
}

JointChain virtualForceChain(const Character& character, int link, int byJoint) {
  JointChain chain = chainBetween(character, virtualForceBase(character, link, byJoint), link);
  assert(chain.size > 0 && chain.joints[0].joint == byJoint);
  return chain;
}

void addVirtualForceTorques(const CharacterState& state, const JointChain& chain, const Vec2& point,
                            const Vec2& force, std::array<double, kMaxJoints>& torques) {
  for (const ChainJoint& entry : chain) {
    Vec2 lever = point - state.jointPositions[entry.joint];
    torques[entry.joint] += entry.sign * (lever.x() * force.y() - lever.y() * force.x());
  }
}

}  // namespace scl
