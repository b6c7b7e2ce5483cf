#include "primitives/gravity_compensation_primitive.h"

namespace scl {

namespace {

using Loads = std::vector<GravityCompensationInstance::Load>;

// Every link outside the base's subtree, carried wholly through the base.
Loads loadsThrough(const Character& character, int base) {
  Loads loads;
  for (int link = 0; link < kLinkCount; ++link)
    if (!inSubtree(character, link, base))
      loads.push_back({link, 1.0, chainBetween(character, base, link)});
  return loads;
}

bool isLegLink(int link, int side) {
  return side == 0 ? (link == kLeftThigh || link == kLeftShank)
                   : (link == kRightThigh || link == kRightShank);
}

Loads loadsThroughBothFeet(const Character& character) {
  Loads loads;
  for (int link = 0; link < kLinkCount; ++link) {
    if (link == kLeftFoot || link == kRightFoot) continue;
    if (isLegLink(link, 0)) {
      loads.push_back({link, 1.0, chainBetween(character, kLeftFoot, link)});
    } else if (isLegLink(link, 1)) {
      loads.push_back({link, 1.0, chainBetween(character, kRightFoot, link)});
    } else {
      loads.push_back({link, 0.5, chainBetween(character, kLeftFoot, link)});
      loads.push_back({link, 0.5, chainBetween(character, kRightFoot, link)});
    }
  }
  return loads;
}

}  // namespace

GravityCompensationInstance::GravityCompensationInstance(const GravityCompPrimitive& definition,
                                                         const Character& character)
    : byJoint_(definition.byJoint >= 0), strength_(definition.strength.value) {
  if (byJoint_) {
    fixedBase_ = loadsThrough(character, character.joints[definition.byJoint].childLink);
  } else {
    leftOnly_ = loadsThrough(character, kLeftFoot);
    rightOnly_ = loadsThrough(character, kRightFoot);
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
  const Loads& active = loads(state.links[kLeftFoot].contact, state.links[kRightFoot].contact);
  int lastDrawn = -1;
  for (const Load& load : active) {
    const Vec2& point = state.links[load.link].com;
    double weight = strength_ * load.mass * kGravityAcceleration;
    addVirtualForceTorques(state, load.chain, point, Vec2(0.0, load.share * weight),
                           out.addedTorque);
    // A link split over two feet has consecutive loads; draw its whole weight once.
    if (load.link != lastDrawn)
      out.forces.push_back({load.link, point, Vec2(0.0, weight), ForceKind::Gravity});
    lastDrawn = load.link;
  }
}

}  // namespace scl
