// `[gc]` / `[gc by: JOINT]` with optional `strength` (docs/language.md and
// docs/primitives.md, Gravity compensation; thesis §3.3): a virtual force -m_i g (upward) on
// the centre of mass of every compensated link i, realised through the chain from the base
// link, summed per joint.
//
// Which links, through which base:
// - `[gc by: JOINT]`: the base is JOINT's child link (the far side from the head); every
//   link outside the base's subtree is compensated through the chain from the base.
// - `[gc]` with one foot in contact: that foot is the base; every other link (the other
//   foot included) is compensated through it.
// - `[gc]` with both feet in contact: each leg's thigh and shank go through their own
//   foot; every other link but the feet (head, neck, trunk, pelvis, arms) is split
//   evenly, half of its weight through each foot.
// - `[gc]` with no foot in contact: nothing.
#pragma once

#include <vector>

#include "primitives/joint_chain.h"
#include "primitives/primitive.h"

namespace scl {

class GravityCompensationInstance final : public PrimitiveInstance {
 public:
  GravityCompensationInstance(const GravityCompPrimitive& definition, const Character& character);
  void begin(const CharacterState&) override {}
  void apply(const CharacterState& state, double phaseTime, ControlFrame& out) override;

  /// One share of one link's weight carried through one chain.
  struct Load {
    int link = 0;
    /// Fraction of the link's weight carried by this chain.
    double share = 1.0;
    JointChain chain;
    /// The link's mass, kilograms.
    double mass = 0.0;
  };
  /// The loads for a base configuration (for tests and documentation).
  const std::vector<Load>& loads(bool leftFootDown, bool rightFootDown) const;

 private:
  bool byJoint_ = false;
  double strength_ = 1.0;
  std::array<int, 2> feet_{};    // left and right foot links
  std::vector<Load> fixedBase_;  // `by: JOINT`
  std::vector<Load> leftOnly_, rightOnly_, bothFeet_, none_;
};

}  // namespace scl
