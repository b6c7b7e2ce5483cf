#include "primitives/gravity_compensation_primitive.h"

namespace scl {

namespace {

using Loads = std::vector<GravityCompensationInstance::Load>;

// Every link outside the base's subtree, carried wholly through the base.
Loads loadsThrough(const Character& character, int base) {
  Loads loads;
  for (int link = 0; link < character.linkCount(); ++link)
    if (!inSubtree(character, link, base))
      loads.push_back({link, 1.0, chainBetween(character, base, link)});
  return loads;
}

// A link of the leg on `side` above its foot (the human's thigh and shank; a bird's leg
// has a link more).
bool isLegLink(const Character& character, int link, int side) {
  const SideRoles& leg = character.roles.sides[static_cast<size_t>(side)];
  return link != leg.foot && inSubtree(character, link, leg.thigh);
}

Loads loadsThroughBothFeet(const Character& character) {
  Loads loads;
  const auto [leftFoot, rightFoot] = character.roles.feet();
  for (int link = 0; link < character.linkCount(); ++link) {
    if (link == leftFoot || link == rightFoot) continue;
    if (isLegLink(character, link, 0)) {
      loads.push_back({link, 1.0, chainBetween(character, leftFoot, link)});
    } else if (isLegLink(character, link, 1)) {
      loads.push_back({link, 1.0, chainBetween(character, rightFoot, link)});
    } else {
      loads.push_back({link, 0.5, chainBetween(character, leftFoot, link)});
      loads.push_back({link, 0.5, chainBetween(character, rightFoot, link)});
    }
  }
  return loads;
}

}  // namespace

GravityCompensationInstance::GravityCompensationInstance(const GravityCompPrimitive& definition,
                                                         const Character& character)
    : byJoint_(definition.byJoint >= 0),
      strength_(definition.strength.value),
      feet_(character.roles.feet()) {
  if (byJoint_) {
    fixedBase_ = loadsThrough(character, character.joints[definition.byJoint].childLink);
  } else {
    leftOnly_ = loadsThrough(character, character.roles.left().foot);
    rightOnly_ = loadsThrough(character, character.roles.right().foot);
    bothFeet_ = loadsThroughBothFeet(character);
  }
  for (auto* loads : {&fixedBase_, &leftOnly_, &rightOnly_, &bothFeet_})
    for (Load& load : *loads) load.mass = character.links[load.link].mass;
}

const std::vector<GravityCompensationInstance::Load>& GravityCompensationInstance::loads(
    bool leftFootDown, bool rightFootDown) const {
  if (byJoint_) return fixedBase_;
  if (leftFootDown && rightFootDown) return bothFeet_;
  if (leftFootDown) return leftOnly_;
  if (rightFootDown) return rightOnly_;
  return none_;
}

void GravityCompensationInstance::apply(const CharacterState& state, double, ControlFrame& out) {
  const Loads& active = loads(state.links[static_cast<size_t>(feet_[0])].contact,
                              state.links[static_cast<size_t>(feet_[1])].contact);
  int lastDrawn = -1;
  for (const Load& load : active) {
    const Vec2& point = state.links[load.link].com;
    double weight = strength_ * load.mass * kGravityAcceleration;
    addVirtualForceTorques(state, load.chain, point, Vec2(0.0, load.share * weight),
                           out.addedTorque);
    // What the link holds (a grasp) weighs on the same chain, at its own centre of mass.
    const LinkState& link = state.links[static_cast<size_t>(load.link)];
    const double heldWeight = strength_ * link.heldMass * kGravityAcceleration;
    if (heldWeight > 0.0)
      addVirtualForceTorques(state, load.chain, link.heldCom, Vec2(0.0, load.share * heldWeight),
                             out.addedTorque);
    // A link split over two feet has consecutive loads; draw its whole weight once.
    if (load.link != lastDrawn) {
      out.forces.push_back({load.link, point, Vec2(0.0, weight), ForceKind::Gravity});
      if (heldWeight > 0.0)
        out.forces.push_back({load.link, link.heldCom, Vec2(0.0, heldWeight), ForceKind::Gravity});
    }
    lastDrawn = load.link;
  }
}

}  // namespace scl
