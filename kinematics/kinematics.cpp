#include <algorithm>
#include <cmath>
#include <limits>

#include "kinematics/character_state.h"

namespace scl {

Vec2 linkAxis(const Character& character, int link, double worldAngle) {
  double sign = character.links[link].axisSign;
  return Vec2(sign * std::cos(worldAngle), sign * std::sin(worldAngle));
}

double lowestPoint(const Character& character, const CharacterState& state) {
  double lowest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < character.linkCount(); ++i) {
    const LinkState& link = state.links[static_cast<size_t>(i)];
    const LinkDef& def = character.links[static_cast<size_t>(i)];
    lowest = std::min(lowest, link.origin.y() - def.proximalThickness / 2.0);
    lowest = std::min(lowest, (link.origin + def.length * linkAxis(character, i, link.angle)).y() -
                                  def.distalThickness / 2.0);
  }
  return lowest;
}

double standingComHeight(const Character& character) {
  const PoseDef* standing = character.findPose("standing");
  if (!standing) return 0.0;
  std::array<double, kMaxJoints> joints{};
  for (size_t j = 0; j < standing->jointDeg.size(); ++j)
    joints[j] = degToRad(standing->jointDeg[j]);
  const CharacterState state =
      forwardKinematics(character, Vec2::Zero(), degToRad(standing->headAngleDeg), joints);
  return state.com.y() - lowestPoint(character, state);
}

FootPoints footPoints(const LinkDef& def, const LinkState& at) {
  const Vec2 axis(def.axisSign * std::cos(at.angle), def.axisSign * std::sin(at.angle));
  const Vec2 distal = at.origin + def.length * axis;
  return {at.origin - Vec2(0.0, 0.5 * def.proximalThickness),
          distal - Vec2(0.0, 0.5 * def.distalThickness)};
}

FootPoints footPoints(const Character& character, const CharacterState& state, int link) {
  return footPoints(character.links[static_cast<size_t>(link)],
                    state.links[static_cast<size_t>(link)]);
}

std::array<double, kMaxLinks> worldAnglesFromJoints(
    const Character& character, double headAngle,
    const std::array<double, kMaxJoints>& jointAngles) {
  std::array<double, kMaxLinks> angles{};
  angles[static_cast<size_t>(character.root)] = headAngle;
  for (int j : character.treeOrder) {
    const JointDef& joint = character.joints[j];
    angles[joint.childLink] = angles[joint.parentLink] + jointAngles[j];
  }
  return angles;
}

CharacterState forwardKinematics(const Character& character, const Vec2& headOrigin,
                                 double headAngle,
                                 const std::array<double, kMaxJoints>& jointAngles) {
  CharacterState state;
  state.linkCount = character.linkCount();
  state.jointCount = character.jointCount();
  std::array<double, kMaxLinks> angles = worldAnglesFromJoints(character, headAngle, jointAngles);
  for (int i = 0; i < character.linkCount(); ++i) state.links[i].angle = angles[i];
  state.links[static_cast<size_t>(character.root)].origin = headOrigin;
  for (int j : character.treeOrder) {
    const JointDef& joint = character.joints[j];
    const LinkState& parent = state.links[joint.parentLink];
    state.links[joint.childLink].origin =
        parent.origin + joint.anchorOnParent * linkAxis(character, joint.parentLink, parent.angle);
  }
  for (int i = 0; i < character.linkCount(); ++i) {
    LinkState& link = state.links[i];
    link.com = link.origin + character.links[i].comOffset * linkAxis(character, i, link.angle);
  }
  completeDerivedState(character, state);
  return state;
}

std::pair<Vec2, Vec2> comWithHeld(const Character& character, const CharacterState& state) {
  double held = 0.0;
  Vec2 position = Vec2::Zero(), velocity = Vec2::Zero();
  for (int i = 0; i < character.linkCount(); ++i) {
    const LinkState& link = state.links[static_cast<size_t>(i)];
    held += link.heldMass;
    position += link.heldMass * link.heldCom;
    velocity += link.heldMass * link.heldVelocity;
  }
  if (held <= 0.0) return {state.com, state.comVelocity};
  const double total = character.totalMass + held;
  return {(character.totalMass * state.com + position) / total,
          (character.totalMass * state.comVelocity + velocity) / total};
}

void completeDerivedState(const Character& character, CharacterState& state) {
  state.linkCount = character.linkCount();
  state.jointCount = character.jointCount();
  Vec2 weightedPosition = Vec2::Zero(), weightedVelocity = Vec2::Zero();
  for (int i = 0; i < character.linkCount(); ++i) {
    weightedPosition += character.links[i].mass * state.links[i].com;
    weightedVelocity += character.links[i].mass * state.links[i].comVelocity;
  }
  state.com = weightedPosition / character.totalMass;
  state.comVelocity = weightedVelocity / character.totalMass;
  for (int j = 0; j < character.jointCount(); ++j) {
    const JointDef& joint = character.joints[j];
    const LinkState& parent = state.links[joint.parentLink];
    const LinkState& child = state.links[joint.childLink];
    state.jointPositions[j] = child.origin;
    state.jointAngles[j] = child.angle - parent.angle;
    state.jointVelocities[j] = child.angularVelocity - parent.angularVelocity;
  }
}

}  // namespace scl
