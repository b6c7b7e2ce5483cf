#include "primitives/relax_primitive.h"

namespace scl {

RelaxInstance::RelaxInstance(const RelaxPrimitive& definition, const Character&)
    : joints_(definition.joints), strength_(definition.strength.value) {}

void RelaxInstance::apply(const CharacterState& state, double, ControlFrame& out) {
  for (int joint : joints_) out.relax(joint, strength_, state.jointAngles[joint]);
}

}  // namespace scl
