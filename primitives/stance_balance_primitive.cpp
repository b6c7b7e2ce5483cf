#include "primitives/stance_balance_primitive.h"

namespace scl {

double stanceBalanceTargetX(const Character& character, const CharacterState& state) {
  // The middle of each foot's sole (halfway between its cap centres), averaged over the
  // two feet. Not the mean of the contact points: a foot rolled onto its heel touches at
  // the heel only, and a target there would pull the COM onto the edge of the support and
  // roll the foot further.
  auto soleMiddle = [&](int foot) {
    const LinkState& link = state.links[foot];
    return (link.origin +
            0.5 * character.links[foot].length * linkAxis(character, foot, link.angle))
        .x();
  };
  return 0.5 * (soleMiddle(character.roles.left().foot) + soleMiddle(character.roles.right().foot));
}

StanceBalanceInstance::StanceBalanceInstance(const VirtualForcePrimitive& definition,
                                             const Character& character)
    : character_(&character),
      link_(definition.link),
      kp_(definition.kp.value),
      kd_(definition.kd.value),
      chain_(virtualForceChain(character, definition.link, definition.byJoint)) {}

void StanceBalanceInstance::apply(const CharacterState& state, double, ControlFrame& out) {
  // What the hands hold is balanced with the body (docs/manipulation.md).
  const auto [com, comVelocity] = comWithHeld(*character_, state);
  double fx = kp_ * (stanceBalanceTargetX(*character_, state) - com.x()) - kd_ * comVelocity.x();
  Vec2 force(fx, 0.0);
  const Vec2& point = state.links[link_].com;
  addVirtualForceTorques(state, chain_, point, force, out.addedTorque);
  out.forces.push_back({link_, point, force, ForceKind::StanceBalance});
}

}  // namespace scl
