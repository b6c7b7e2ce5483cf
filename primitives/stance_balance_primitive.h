// `[vf sb(kp, kd) on: LINK, by: JOINT]` (docs/primitives.md, Stance balance; thesis §3.4): a
// horizontal virtual force f = kp (x_d - x_com) - kd xdot_com that keeps the whole-body centre of
// mass over the middle of the feet, applied like any virtual force.
#pragma once

#include "primitives/joint_chain.h"
#include "primitives/primitive.h"

namespace scl {

/// x_d, metres: the mean of the two soles' midpoints (each halfway between its foot's cap
/// centres), whether or not the feet touch the environment.
double stanceBalanceTargetX(const Character& character, const CharacterState& state);

class StanceBalanceInstance final : public PrimitiveInstance {
 public:
  /// `character` must outlive the instance (the controller's program holds it).
  StanceBalanceInstance(const VirtualForcePrimitive& definition, const Character& character);
  void begin(const CharacterState&) override {}
  void apply(const CharacterState& state, double phaseTime, ControlFrame& out) override;

 private:
  const Character* character_;
  int link_ = 0;
  double kp_ = 0.0;
  double kd_ = 0.0;
  JointChain chain_;
};

}  // namespace scl
