#include "primitives/ik_primitive.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace scl {

LimbChain limbChain(const Character& character, int effectorJoint) {
  const auto& joints = character.joints;
  const auto& links = character.links;
  if (!character.isLimbEnd(effectorJoint))
    throw std::invalid_argument("ik: the effector must be a wrist or an ankle, not '" +
                                std::string(joints[effectorJoint].name) + "'");
  LimbChain limb;
  limb.effectorJoint = effectorJoint;
  int lowerLink = joints[effectorJoint].parentLink;
  limb.middleJoint = links[lowerLink].parentJoint;
  limb.upperLink = joints[limb.middleJoint].parentLink;
  limb.baseJoint = links[limb.upperLink].parentJoint;
  limb.upperLength = joints[limb.middleJoint].anchorOnParent;
  limb.lowerLength = joints[effectorJoint].anchorOnParent;
  // The middle joint's range says which way it bends: elbows [0, 160], knees [-160, 0].
  limb.bendSign = joints[limb.middleJoint].maxDeg > 0.0 ? 1.0 : -1.0;
  limb.upperAxisSign = links[limb.upperLink].axisSign;
  limb.trunkSideLink = joints[limb.baseJoint].parentLink;
  return limb;
}

TwoLinkSolution solveTwoLink(const LimbChain& limb, const Vec2& base, const Vec2& target,
                             double nearUpperAngle) {
  const double l1 = limb.upperLength, l2 = limb.lowerLength;
  Vec2 toTarget = target - base;
  double distance = toTarget.norm();
  double towardTarget = std::atan2(toTarget.y(), toTarget.x());
  TwoLinkSolution solution;
  double upperDirection = towardTarget;
  if (distance >= l1 + l2) {
    solution.reachable = distance == l1 + l2;
  } else {
    // Law of cosines: the angle at the base between the target line and the upper link,
    // and the interior angle at the middle joint. Clamped for targets too close to reach.
    double cosBase =
        (l1 * l1 + distance * distance - l2 * l2) / (2.0 * l1 * std::max(distance, 1e-12));
    double cosMiddle = (l1 * l1 + l2 * l2 - distance * distance) / (2.0 * l1 * l2);
    solution.reachable = distance >= std::abs(l1 - l2);
    double baseAngle = std::acos(std::clamp(cosBase, -1.0, 1.0));
    double interior = std::acos(std::clamp(cosMiddle, -1.0, 1.0));
    // Bending the lower link by +b (counter-clockwise) puts the upper link clockwise of
    // the target line, and the other way round for a negative bend.
    upperDirection = towardTarget - limb.bendSign * baseAngle;
    solution.middleAngle = limb.bendSign * (kPi - interior);
  }
  // A link's axis is axisSign·(cos, sin) of its world angle: limbs point along -x at 0.
  double upperAngle = limb.upperAxisSign > 0 ? upperDirection : upperDirection - kPi;
  solution.upperAngle = nearUpperAngle + std::remainder(upperAngle - nearUpperAngle, 2.0 * kPi);
  return solution;
}

IkInstance::IkInstance(const IkPrimitive& definition, const Character& character)
    : relJoint_(definition.relJoint), duration_(definition.duration.value) {
  if (definition.targets.empty()) throw std::invalid_argument("ik: no target positions");
  for (int effector : definition.effectors) effectors_.push_back({limbChain(character, effector)});
  for (const auto& [x, y] : definition.targets) offsets_.emplace_back(x.value, y.value);
}

void IkInstance::begin(const CharacterState& atPhaseStart) {
  for (Effector& effector : effectors_) {
    int reference = relJoint_ >= 0 ? relJoint_ : effector.limb.baseJoint;
    effector.reference = atPhaseStart.jointPositions[reference];
    effector.start = atPhaseStart.jointPositions[effector.limb.effectorJoint];
  }
}

Vec2 IkInstance::effectorTarget(int index, double phaseTime) const {
  const Effector& effector = effectors_[index];
  const int count = static_cast<int>(offsets_.size());
  if (duration_ <= 0.0 || phaseTime >= duration_) return effector.reference + offsets_.back();
  // The k-th of n targets is reached at k·T/n; between them the target moves linearly.
  double segments = std::max(phaseTime, 0.0) / duration_ * count;
  int k = std::min(static_cast<int>(segments), count - 1);
  double fraction = segments - k;
  Vec2 from = k == 0 ? effector.start : effector.reference + offsets_[k - 1];
  Vec2 to = effector.reference + offsets_[k];
  return from + fraction * (to - from);
}

void IkInstance::apply(const CharacterState& state, double phaseTime, ControlFrame& out) {
  for (int i = 0; i < static_cast<int>(effectors_.size()); ++i) {
    const LimbChain& limb = effectors_[i].limb;
    TwoLinkSolution solution =
        solveTwoLink(limb, state.jointPositions[limb.baseJoint], effectorTarget(i, phaseTime),
                     state.links[limb.upperLink].angle);
    // The upper link is a `child` world-frame target of the shoulder/hip.
    out.track(limb.baseJoint, solution.upperAngle - state.links[limb.trunkSideLink].angle);
    out.track(limb.middleJoint, solution.middleAngle);
  }
}

}  // namespace scl
