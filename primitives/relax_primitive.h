// `[relax j1, j2 strength s]` (docs/primitives.md, Relax; thesis Eq. 4.1-4.2): theta_d = theta each
// step and the PD torque scaled by s, so tau = -s kd thetadot.
#pragma once

#include <vector>

#include "primitives/primitive.h"

namespace scl {

class RelaxInstance final : public PrimitiveInstance {
 public:
  RelaxInstance(const RelaxPrimitive& definition, const Character& character);
  void begin(const CharacterState&) override {}
  void apply(const CharacterState& state, double phaseTime, ControlFrame& out) override;

 private:
  std::vector<int> joints_;
  double strength_ = 0.0;
};

}  // namespace scl
