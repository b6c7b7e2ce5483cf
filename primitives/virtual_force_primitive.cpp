#include "primitives/virtual_force_primitive.h"

namespace scl {

VirtualForceInstance::VirtualForceInstance(const VirtualForcePrimitive& definition,
                                           const Character& character)
    : link_(definition.link),
      force_(definition.fx.value, definition.fy.value),
      chain_(virtualForceChain(character, definition.link, definition.byJoint)) {}

void VirtualForceInstance::apply(const CharacterState& state, double, ControlFrame& out) {
  const Vec2& point = state.links[link_].com;
  addVirtualForceTorques(state, chain_, point, force_, out.addedTorque);
  out.forces.push_back({link_, point, force_, ForceKind::Virtual});
}

}  // namespace scl
