#include "runtime/placement.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scl {

namespace {

struct Cap {
  Vec2 centre;
  double radius;
};

// The two cap circles of every link. A link's outline is the hull of its caps, so its
// lowest point (and its contact with a flat surface) is always on a cap.
std::vector<Cap> capsOf(const CharacterState& state) {
  std::vector<Cap> caps;
  caps.reserve(2 * kLinkCount);
  for (int i = 0; i < kLinkCount; ++i) {
    const LinkState& link = state.links[i];
    const LinkDef& def = kLinks[i];
    caps.push_back({link.origin, def.proximalThickness / 2.0});
    caps.push_back({link.origin + def.length * linkAxis(i, link.angle), def.distalThickness / 2.0});
  }
  return caps;
}

Vec2 rotated(const Vec2& v, double angle) {
  double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

// Does the pose, turned by `turn` about its centre of mass, rest on flat ground: is the
// centre of mass above the span of the caps that touch?
bool restsWhenTurned(const std::vector<Cap>& caps, const Vec2& com, double turn) {
  constexpr double kTouchTolerance = 5e-4;
  double lowest = std::numeric_limits<double>::infinity();
  for (const Cap& cap : caps) lowest = std::min(lowest, rotated(cap.centre - com, turn).y() - cap.radius);
  double left = std::numeric_limits<double>::infinity(), right = -left;
  for (const Cap& cap : caps) {
    Vec2 centre = rotated(cap.centre - com, turn);
    if (centre.y() - cap.radius > lowest + kTouchTolerance) continue;
    left = std::min(left, centre.x());
    right = std::max(right, centre.x());
  }
  constexpr double kMargin = 0.002;  // the COM must be this far inside the span
  return left + kMargin < 0.0 && 0.0 < right - kMargin;
}

// Smallest turn (radians, either sign) that lets the pose rest on flat ground.
double restingTurn(const CharacterState& state) {
  std::vector<Cap> caps = capsOf(state);
  constexpr double kStep = degToRad(0.01);
  constexpr int kSteps = 6000;  // up to 60°
  for (int i = 0; i <= kSteps; ++i) {
    for (double turn : {i * kStep, -i * kStep})
      if (restsWhenTurned(caps, state.com, turn)) return turn;
  }
  return 0.0;
}

// Thigh slope below horizontal (radians) that puts the hips on a seat of this height
// with vertical shanks and flat feet.
double thighSlopeForSeat(double seatHeight) {
  const LinkDef& thigh = kLinks[kLeftThigh];
  const LinkDef& shank = kLinks[kLeftShank];
  const LinkDef& foot = kLinks[kLeftFoot];
  double hipHeight = seatHeight + thigh.proximalThickness / 2.0;
  double kneeHeight = foot.proximalThickness / 2.0 + shank.length;
  double sine = std::clamp((hipHeight - kneeHeight) / thigh.length, -0.5, 0.5);
  return std::asin(sine);
}

}  // namespace

double lowestPoint(const CharacterState& state) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const Cap& cap : capsOf(state)) lowest = std::min(lowest, cap.centre.y() - cap.radius);
  return lowest;
}

Placement placePose(const PoseDef& pose, bool onChair, double seatHeight,
                    const std::vector<double>& jointOffsets) {
  Placement placement;
  placement.headAngle = degToRad(pose.headAngleDeg);
  for (int j = 0; j < kJointCount; ++j) placement.jointAngles[j] = degToRad(pose.jointDeg[j]);

  if (pose.support == PoseSupport::Seat) {
    // Shanks vertical, feet flat: the thigh slopes so the hips reach the seat.
    double slope = thighSlopeForSeat(seatHeight);
    for (int hip : {kLeftHip, kRightHip}) placement.jointAngles[hip] = kPi / 2.0 - slope;
    for (int knee : {kLeftKnee, kRightKnee}) placement.jointAngles[knee] = slope - kPi / 2.0;
  }
  for (size_t j = 0; j < jointOffsets.size() && j < kJointCount; ++j)
    placement.jointAngles[j] += jointOffsets[j];

  CharacterState state = forwardKinematics(Vec2::Zero(), placement.headAngle, placement.jointAngles);
  if (pose.support == PoseSupport::Ground) {
    double turn = restingTurn(state);
    placement.headAngle += turn;
    state = forwardKinematics(Vec2::Zero(), placement.headAngle, placement.jointAngles);
    placement.headOrigin = Vec2(-state.com.x(), -lowestPoint(state));
    if (onChair) {
      placement.hasChair = true;
      placement.seatHeight = seatHeight;
      placement.seatFront = -0.6;  // behind the character, out of its way
    }
    return placement;
  }

  // Seat: the hips' lowest cap rests on the seat; the seat's front edge is 12 cm in
  // front of the hip joint, so it carries the buttocks but not the knees.
  const Vec2 hip = state.jointPositions[kLeftHip];
  double hipCapBottom = hip.y() - kLinks[kLeftThigh].proximalThickness / 2.0;
  double feetBottom = std::numeric_limits<double>::infinity();
  for (int link : {kLeftFoot, kRightFoot, kLeftShank, kRightShank}) {
    const LinkState& s = state.links[link];
    const LinkDef& def = kLinks[link];
    feetBottom = std::min({feetBottom, s.origin.y() - def.proximalThickness / 2.0,
                           (s.origin + def.length * linkAxis(link, s.angle)).y() - def.distalThickness / 2.0});
  }
  double lift = std::max(seatHeight - hipCapBottom, -feetBottom);
  constexpr double kSeatAheadOfHip = 0.12;
  placement.headOrigin = Vec2(-(hip.x() + kSeatAheadOfHip), lift);
  placement.hasChair = true;
  placement.seatHeight = seatHeight;
  placement.seatFront = 0.0;
  return placement;
}

}  // namespace scl
