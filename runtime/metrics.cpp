#include "runtime/metrics.h"

#include <algorithm>
#include <cmath>

#include "runtime/placement.h"

namespace scl {

ReferenceHeights referenceHeights(const Character& character) {
  std::array<double, kJointCount> joints{};
  const double flatAnkle = degToRad(character.footFlatAngleDeg() - 90.0);
  joints[kLeftAnkle] = flatAnkle;
  joints[kRightAnkle] = flatAnkle;
  const CharacterState state = forwardKinematics(character, Vec2::Zero(), degToRad(90.0), joints);
  const double ground = lowestPoint(character, state);
  const double headTop = state.links[kHead].origin.y() + character.links[kHead].length +
                         character.links[kHead].distalThickness / 2.0;
  return {state.jointPositions[kNeckTop].y() - ground, state.jointPositions[kLeftHip].y() - ground,
          headTop - ground};
}

MetricsDef metricsFor(const Character& character) {
  MetricsDef def;
  const double scale = referenceHeights(character).head / referenceHeights(*humanCharacter()).head;
  def.feet = {character.links[kLeftFoot], character.links[kRightFoot]};
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

double MotionMetrics::headHeight(const CharacterState& state) {
  return state.jointPositions[kNeckTop].y();
}

bool MotionMetrics::isFootOrHand(int link) {
  return link == kLeftFoot || link == kRightFoot || link == kLeftHand || link == kRightHand;
}

bool MotionMetrics::bodyTouches(const CharacterState& state) {
  for (int link = 0; link < kLinkCount; ++link)
    if (state.links[link].contact && !isFootOrHand(link)) return true;
  return false;
}

bool MotionMetrics::sitsOnSeat(const CharacterState& state, int link, double seatHeight) {
  if (link != kPelvis && link != kLeftThigh && link != kRightThigh) return false;
  const LinkState& at = state.links[static_cast<size_t>(link)];
  if (!at.contact || at.contactPointCount == 0) return false;
  for (int i = 0; i < at.contactPointCount; ++i)
    if (std::abs(at.contactPoints[static_cast<size_t>(i)].y() - seatHeight) > kSeatContactTolerance)
      return false;
  return true;
}

namespace {

// Whether every foot that touches the environment lies within `tolerance` (radians) of
// flat: its heel-to-toe line's slope. `feet`: the left and right foot's shapes.
bool touchingFeetFlat(const std::vector<LinkDef>& feet, const CharacterState& state,
                      double tolerance) {
  if (feet.size() != 2) return true;
  const std::array<int, 2> links = {kLeftFoot, kRightFoot};
  for (size_t side = 0; side < 2; ++side) {
    const LinkState& at = state.links[static_cast<size_t>(links[side])];
    if (!at.contact) continue;
    const FootPoints points = footPoints(feet[side], at);
    const Vec2 sole = points.toe - points.heel;
    if (std::abs(std::atan2(sole.y(), std::abs(sole.x()))) > tolerance) return false;
  }
  return true;
}

}  // namespace

void MotionMetrics::observe(const CharacterState& state,
                            const std::array<double, kJointCount>& torques, double dt, int phase) {
  MotionSummary& s = summary_;
  double pelvisX = state.links[kPelvis].com.x();
  const bool firstObservation = !started_;
  if (!started_) {
    started_ = true;
    startPelvisX_ = pelvisX;
    lastPhase_ = phase;
  }
  double t = state.time;
  s.duration = t;

  bool anyContact = false, nonFootContact = false, bodyContact = false;
  for (int i = 0; i < kLinkCount; ++i) {
    if (!state.links[i].contact) continue;
    s.touched[i] = true;
    anyContact = true;
    nonFootContact = nonFootContact || (i != kLeftFoot && i != kRightFoot);
    const bool sitting = def_.seatHeight && sitsOnSeat(state, i, *def_.seatHeight);
    bodyContact = bodyContact || (!isFootOrHand(i) && !sitting);
  }
  if (nonFootContact) lastNonFootContact_ = t;

  s.headHeight = headHeight(state);
  double trunkAngle = state.links[kTrunk].angle;
  bool trunkUpright = std::abs(trunkAngle - kPi / 2.0) <= def_.standingTrunkTolerance;
  s.standing = t - lastNonFootContact_ >= def_.standingWindow - 1e-9 && !nonFootContact &&
               s.headHeight >= def_.standingHeadHeight && trunkUpright &&
               touchingFeetFlat(def_.feet, state, def_.standingFootTolerance);
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

  double pelvisHeight = state.links[kPelvis].com.y();
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
