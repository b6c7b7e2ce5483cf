// `[ik (x1,y1), … on: EFFECTOR rel: JOINT time: T]` (docs/primitives.md, IK; thesis §3.5): analytic
// two-link inverse kinematics for the arms and legs.
#pragma once

#include <vector>

#include "primitives/primitive.h"

namespace scl {

/// The two-link limb ending at an effector joint (a wrist or an ankle).
struct LimbChain {
  /// Shoulder or hip: its child link is the upper link.
  int baseJoint = 0;
  /// Elbow or knee.
  int middleJoint = 0;
  /// Wrist or ankle.
  int effectorJoint = 0;
  /// Upper arm or thigh.
  int upperLink = 0;
  /// Distance base joint -> middle joint, and middle joint -> effector, metres.
  double upperLength = 0.0;
  double lowerLength = 0.0;
  /// +1 when the middle joint bends positive (elbow), -1 when negative (knee).
  double bendSign = 1.0;
  /// The upper link's axis sign (Character: -1 for a limb).
  double upperAxisSign = -1.0;
  /// The link on the trunk side of the base joint (its parent link).
  int trunkSideLink = 0;
};

/// The limb of a wrist or ankle of `character`. Throws std::invalid_argument for any
/// other joint.
LimbChain limbChain(const Character& character, int effectorJoint);

struct TwoLinkSolution {
  /// World angle of the upper link (docs/character.md, Conventions), radians.
  double upperAngle = 0.0;
  /// Local angle of the middle joint, radians; its sign is the limb's bendSign (or 0).
  double middleAngle = 0.0;
  /// False when the target is out of reach (the limb then points straight at it).
  bool reachable = true;
};

/// Places the effector of `limb`, whose base joint is at `base`, at `target`.
/// `nearUpperAngle` picks, among the 2π-equivalent upper angles, the one nearest to it
/// (world angles are continuous, not wrapped).
TwoLinkSolution solveTwoLink(const LimbChain& limb, const Vec2& base, const Vec2& target,
                             double nearUpperAngle);

class IkInstance final : public PrimitiveInstance {
 public:
  IkInstance(const IkPrimitive& definition, const Character& character);
  void begin(const CharacterState& atPhaseStart) override;
  void apply(const CharacterState& state, double phaseTime, ControlFrame& out) override;

  /// The effector target of effector `index` at `phaseTime` (after begin()), metres.
  Vec2 effectorTarget(int index, double phaseTime) const;

 private:
  struct Effector {
    LimbChain limb;
    /// Where the offsets are measured from, and where the effector was, at phase start.
    Vec2 reference = Vec2::Zero();
    Vec2 start = Vec2::Zero();
  };
  std::vector<Effector> effectors_;
  std::vector<Vec2> offsets_;
  int relJoint_ = -1;
  double duration_ = 0.0;
};

}  // namespace scl
