// `[vf (fx, fy) on: LINK, by: JOINT]` (docs/primitives.md, Virtual force; thesis §3.2): a force at
// LINK's centre of mass realised by Jacobian-transpose torques on the joints between the base link
// and LINK.
#pragma once

#include "primitives/joint_chain.h"
#include "primitives/primitive.h"

namespace scl {

class VirtualForceInstance final : public PrimitiveInstance {
 public:
  VirtualForceInstance(const VirtualForcePrimitive& definition, const Character& character);
  void begin(const CharacterState&) override {}
  void apply(const CharacterState& state, double phaseTime, ControlFrame& out) override;

 private:
  int link_ = 0;
  Vec2 force_ = Vec2::Zero();
  JointChain chain_;
};

}  // namespace scl
