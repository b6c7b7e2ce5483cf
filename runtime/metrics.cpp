#include "runtime/metrics.h"

#include <algorithm>
#include <cmath>

#include "runtime/placement.h"

namespace scl {

double uprightTrunkAngle(const Character& character) {
  const PoseDef* standing = character.findPose("standing");
  if (!standing) return kPi / 2.0;
  std::array<double, kMaxJoints> joints{};
  for (size_t j = 0; j < standing->jointDeg.size(); ++j)
    joints[j] = degToRad(standing->jointDeg[j]);
  const double trunk = worldAnglesFromJoints(character, degToRad(standing->headAngleDeg),
                                             joints)[static_cast<size_t>(character.roles.trunk)];
  return std::round(trunk / (kPi / 2.0)) * (kPi / 2.0);
}

namespace {

// A level body's reference heights: its standing pose as placed on the ground.
ReferenceHeights standingPoseHeights(const Character& character) {
  const Placement placement = placePose(character, *character.findPose("standing"), nullptr, {});
  const CharacterState state = forwardKinematics(character, placement.headOrigin,
                                                 placement.headAngle, placement.jointAngles);
  const double ground = lowestPoint(character, state);
  const auto head = static_cast<size_t>(character.roles.head);
  const LinkDef& def = character.links[head];
  const Vec2 distal =
      state.links[head].origin +
      def.length * linkAxis(character, character.roles.head, state.links[head].angle);
  const double top = std::max(state.links[head].origin.y() + def.proximalThickness / 2.0,
                              distal.y() + def.distalThickness / 2.0);
  return {state.jointPositions[static_cast<size_t>(character.headJoint())].y() - ground,
          state.jointPositions[static_cast<size_t>(character.roles.left().hip)].y() - ground,
          top - ground};
}

}  // namespace

ReferenceHeights referenceHeights(const Character& character) {
  // An upright body is measured straight up (docs/marks.md, Reference heights); a level
  // one, whose neck and tail would hang in one line that way, as it stands.
  if (std::abs(uprightTrunkAngle(character) - kPi / 2.0) > 1e-9 && character.findPose("standing"))
    return standingPoseHeights(character);
  std::array<double, kMaxJoints> joints{};
  const CharacterRoles& roles = character.roles;
  for (int side = 0; side < 2; ++side)
    joints[static_cast<size_t>(roles.sides[static_cast<size_t>(side)].ankle)] =
        degToRad(character.footFlatAngleDeg(side) - 90.0);
  const CharacterState state = forwardKinematics(character, Vec2::Zero(), degToRad(90.0), joints);
  const double ground = lowestPoint(character, state);
  const auto head = static_cast<size_t>(roles.head);
  const LinkDef& headDef = character.links[head];
  // The head's far end: its distal cap, or its origin's cap when it points down (a head
  // hanging from the body points -x in the zero pose, so upright it points down).
  const double headTop =
      std::max(state.links[head].origin.y() + headDef.proximalThickness / 2.0,
               (state.links[head].origin +
                headDef.length * linkAxis(character, roles.head, state.links[head].angle))
                       .y() +
                   headDef.distalThickness / 2.0);
  return {state.jointPositions[static_cast<size_t>(character.headJoint())].y() - ground,
          state.jointPositions[static_cast<size_t>(roles.left().hip)].y() - ground,
          headTop - ground};
}

MetricsDef metricsFor(const Character& character) {
  MetricsDef def;
  const double scale = referenceHeights(character).head / referenceHeights(*humanCharacter()).head;
  def.feet = {character.links[static_cast<size_t>(character.roles.left().foot)],
              character.links[static_cast<size_t>(character.roles.right().foot)]};
  def.roles = character.roles;
  def.headJoint = character.headJoint();
  def.linkCount = character.linkCount();
  def.uprightTrunkAngle = uprightTrunkAngle(character);
  if (scale == 1.0) return def;
  def.standingHeadHeight *= scale;
  def.riseHeadHeight *= scale;
  return def;
}

MetricsDef metricsFor(const Character& character, const Scene& scene) {
  MetricsDef def = metricsFor(character);
  def.uprightFromStart = scene.pose == "standing";
  if (const ChairDef* chair = scene.chair()) def.seatHeight = chair->seatHeight;
  return def;
}

MotionMetrics::MotionMetrics(const MetricsDef& def) : def_(def) {}

double MotionMetrics::headHeight(const Character& character, const CharacterState& state) {
  return state.jointPositions[static_cast<size_t>(character.headJoint())].y();
}

bool MotionMetrics::isFootOrHand(const CharacterRoles& roles, int link) {
  for (const SideRoles& side : roles.sides)
    if (link == side.foot || (link == side.hand && side.hand >= 0)) return true;
  return false;
}

bool MotionMetrics::bodyTouches(const Character& character, const CharacterState& state) {
  for (int link = 0; link < character.linkCount(); ++link)
    if (state.links[link].terrainContact && !isFootOrHand(character.roles, link)) return true;
  return false;
}

bool MotionMetrics::sitsOnSeat(const CharacterState& state, int link, double seatHeight) const {
  const CharacterRoles& roles = def_.roles;
  if (link != roles.pelvis && link != roles.left().thigh && link != roles.right().thigh)
    return false;
  const LinkState& at = state.links[static_cast<size_t>(link)];
  if (!at.terrainContact || at.contactPointCount == 0) return false;
  for (int i = 0; i < at.contactPointCount; ++i)
    if (std::abs(at.contactPoints[static_cast<size_t>(i)].y() - seatHeight) > kSeatContactTolerance)
      return false;
  return true;
}

namespace {

// Whether every foot that touches the environment lies within `tolerance` (radians) of
// flat: its heel-to-toe line's slope. `feet`: the left and right foot's shapes.
bool touchingFeetFlat(const std::vector<LinkDef>& feet, const std::array<int, 2>& links,
                      const CharacterState& state, double tolerance) {
  if (feet.size() != 2) return true;
  for (size_t side = 0; side < 2; ++side) {
    const LinkState& at = state.links[static_cast<size_t>(links[side])];
    if (!at.terrainContact) continue;
    const FootPoints points = footPoints(feet[side], at);
    const Vec2 sole = points.toe - points.heel;
    if (std::abs(std::atan2(sole.y(), std::abs(sole.x()))) > tolerance) return false;
  }
  return true;
}

}  // namespace

void MotionMetrics::observe(const CharacterState& state,
                            const std::array<double, kMaxJoints>& torques, double dt, int phase) {
  MotionSummary& s = summary_;
  const CharacterRoles& roles = def_.roles;
  const auto pelvis = static_cast<size_t>(roles.pelvis);
  double pelvisX = state.links[pelvis].com.x();
  const bool firstObservation = !started_;
  if (!started_) {
    started_ = true;
    startPelvisX_ = pelvisX;
    lastPhase_ = phase;
  }
  double t = state.time;
  s.duration = t;

  bool anyContact = false, nonFootContact = false, bodyContact = false;
  s.heldAtEnd = 0;
  for (int i = 0; i < def_.linkCount; ++i) {
    s.heldAtEnd |= state.links[i].holding;
    s.touchedBodies[i] |= state.links[i].touching;
    s.touchingAtEnd[i] = state.links[i].touching;
    if (!state.links[i].terrainContact) continue;  // a ball's hit is no fall
    s.touched[i] = true;
    anyContact = true;
    nonFootContact = nonFootContact || (i != roles.left().foot && i != roles.right().foot);
    const bool sitting = def_.seatHeight && sitsOnSeat(state, i, *def_.seatHeight);
    bodyContact = bodyContact || (!isFootOrHand(roles, i) && !sitting);
  }
  if (nonFootContact) lastNonFootContact_ = t;

  s.headHeight = state.jointPositions[static_cast<size_t>(def_.headJoint)].y();
  double trunkAngle = state.links[static_cast<size_t>(roles.trunk)].angle;
  bool trunkUpright = std::abs(trunkAngle - def_.uprightTrunkAngle) <= def_.standingTrunkTolerance;
  s.standing = t - lastNonFootContact_ >= def_.standingWindow - 1e-9 && !nonFootContact &&
               s.headHeight >= def_.standingHeadHeight && trunkUpright &&
               touchingFeetFlat(def_.feet, roles.feet(), state, def_.standingFootTolerance);
  if (s.standing && !s.firstStanding) s.firstStanding = t;
  if (!s.standing)
    s.standingSince.reset();
  else if (!s.standingSince)
    s.standingSince = t;
  // A motion that starts with the head up (standing, walking) has no rise.
  if (firstObservation) startedHigh_ = s.headHeight >= def_.riseHeadHeight;
  if (!s.riseTime && !startedHigh_ && s.headHeight >= def_.riseHeadHeight) s.riseTime = t;

  bool meantUpright = def_.uprightFromStart || s.firstStanding.has_value();
  if (meantUpright && bodyContact && !s.fell) s.fell = t;

  double pelvisHeight = state.links[pelvis].com.y();
  s.maxPelvisHeight = std::max(s.maxPelvisHeight, pelvisHeight);
  // An interval counts from the step that left the ground: dt per step, as airborneTime.
  if (!anyContact && !airborne_) airborneSince_ = t - dt;
  airborne_ = !anyContact;
  if (airborne_) s.longestAirborne = std::max(s.longestAirborne, t - airborneSince_);
  if (!anyContact) {
    s.airborneTime += dt;
    s.maxAirbornePelvisHeight =
        std::max(s.maxAirbornePelvisHeight.value_or(pelvisHeight), pelvisHeight);
  }
  double sumSquares = 0.0;
  for (double torque : torques) sumSquares += torque * torque;
  s.energy += dt * sumSquares;
  s.distance = pelvisX - startPelvisX_;
  s.farthest = std::max(s.farthest, s.distance);
  if (phase != lastPhase_) {
    ++s.phaseChanges;
    lastPhase_ = phase;
  }
}

}  // namespace scl
