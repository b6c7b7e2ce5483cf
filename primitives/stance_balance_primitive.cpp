#include "primitives/stance_balance_primitive.h"

namespace scl {

double stanceBalanceTargetX(const CharacterState& state) {
  const LinkState& left = state.links[kLeftFoot];
  const LinkState& right = state.links[kRightFoot];
  if (left.contact && right.contact) return 0.5 * (left.contactPoint.x() + right.contactPoint.x());
  return 0.5 * (left.com.x() + right.com.x());
}

StanceBalanceInstance::StanceBalanceInstance(const VirtualForcePrimitive& definition)
    : link_(definition.link),
      kp_(definition.kp.value),
      kd_(definition.kd.value),
      chain_(virtualForceChain(definition.link, definition.byJoint)) {}

void StanceBalanceInstance::apply(const CharacterState& state, double, ControlFrame& out) {
  double fx = kp_ * (stanceBalanceTargetX(state) - state.com.x()) - kd_ * state.comVelocity.x();
  Vec2 force(fx, 0.0);
  const Vec2& point = state.links[link_].com;
  addVirtualForceTorques(state, chain_, point, force, out.addedTorque);
  out.forces.push_back({link_, point, force, ForceKind::StanceBalance});
}

}  // namespace scl
