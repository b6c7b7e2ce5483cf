#include "runtime/placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace scl {

namespace {

struct Cap {
  Vec2 centre;
  double radius;
};

// The two cap circles of every link. A link's outline is the hull of its caps, so its
// lowest point (and its contact with a flat surface) is always on a cap.
std::vector<Cap> capsOf(const Character& character, const CharacterState& state) {
  std::vector<Cap> caps;
  caps.reserve(2 * character.links.size());
  for (int i = 0; i < character.linkCount(); ++i) {
    const LinkState& link = state.links[i];
    const LinkDef& def = character.links[i];
    caps.push_back({link.origin, def.proximalThickness / 2.0});
    caps.push_back(
        {link.origin + def.length * linkAxis(character, i, link.angle), def.distalThickness / 2.0});
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
  for (const Cap& cap : caps)
    lowest = std::min(lowest, rotated(cap.centre - com, turn).y() - cap.radius);
  double left = std::numeric_limits<double>::infinity(), right = -left;
  for (const Cap& cap : caps) {
    Vec2 centre = rotated(cap.centre - com, turn);
    if (centre.y() - cap.radius > lowest + kTouchTolerance) continue;
    left = std::min(left, centre.x());
    right = std::max(right, centre.x());
  }
  // The COM must be a little inside the span. (Standing with every link upright has its
  // COM only 3 mm ahead of the heels, so a larger margin would tilt the standing pose.)
  constexpr double kMargin = 0.002;
  return left + kMargin < 0.0 && 0.0 < right - kMargin;
}

// Smallest turn (radians, either sign) that lets the pose rest on flat ground.
double restingTurn(const Character& character, const CharacterState& state) {
  std::vector<Cap> caps = capsOf(character, state);
  constexpr double kStep = degToRad(0.01);
  constexpr int kSteps = 6000;  // up to 60°
  for (int i = 0; i <= kSteps; ++i) {
    for (double turn : {i * kStep, -i * kStep})
      if (restsWhenTurned(caps, state.com, turn)) return turn;
  }
  return 0.0;
}

// Thigh slope below horizontal (radians) that puts the hip joint on `side` at `hipHeight`
// while the shank keeps its world angle and the foot rests flat on the ground.
double thighSlopeForHipHeight(const Character& character, int side, double hipHeight,
                              double shankWorldAngle) {
  const SideRoles& leg = character.roles.sides[static_cast<size_t>(side)];
  const LinkDef& thigh = character.links[static_cast<size_t>(leg.thigh)];
  const LinkDef& shank = character.links[static_cast<size_t>(leg.shank)];
  const LinkDef& foot = character.links[static_cast<size_t>(leg.foot)];
  double kneeHeight = foot.proximalThickness / 2.0 + shank.length * std::sin(shankWorldAngle);
  double sine = std::clamp((hipHeight - kneeHeight) / thigh.length, -0.5, 0.5);
  return std::asin(sine);
}

// The seat's front edge is this far in front of the hip joint: it carries the buttocks
// (the hip cap), not the thighs: people sit with their thighs free of the seat edge.
constexpr double kSeatAheadOfHip = 0.05;

// How far the hip joint is above the lowest point of the pelvis and thighs over the seat
// (x <= its front edge): the caps and the trapezoid's lower edge, which a sloping thigh
// carries below its hip cap.
double hipClearanceOverSeat(const Character& character, const CharacterState& state) {
  const CharacterRoles& roles = character.roles;
  const Vec2 hip = state.jointPositions[static_cast<size_t>(roles.left().hip)];
  double bottom = std::numeric_limits<double>::infinity();
  for (int link : {roles.pelvis, roles.left().thigh, roles.right().thigh}) {
    const LinkState& s = state.links[link];
    const LinkDef& def = character.links[link];
    Vec2 axis = linkAxis(character, link, s.angle), normal(-axis.y(), axis.x());
    constexpr int kSamples = 64;
    for (int k = 0; k <= kSamples; ++k) {
      double along = def.length * k / kSamples;
      double radius =
          (def.proximalThickness + (def.distalThickness - def.proximalThickness) * k / kSamples) /
          2.0;
      for (double side : {-1.0, 1.0}) {
        Vec2 point = s.origin + along * axis + side * radius * normal;
        if (point.x() <= hip.x() + kSeatAheadOfHip) bottom = std::min(bottom, point.y());
      }
    }
    for (auto [centre, radius] :
         {std::pair{s.origin, def.proximalThickness / 2.0},
          std::pair{Vec2(s.origin + def.length * axis), def.distalThickness / 2.0}}) {
      if (centre.x() <= hip.x() + kSeatAheadOfHip) bottom = std::min(bottom, centre.y() - radius);
    }
  }
  return hip.y() - bottom;
}

// Hip and knee angles for sitting on a seat of this height: the shanks keep the pose's
// world angle and the feet stay flat; the thighs slope so the pelvis and thighs rest on
// the seat. The clearance depends on the slope, so iterate to the fixed point.
void fitLegsToSeat(const Character& character, Placement& placement, double seatHeight) {
  std::array<double, kMaxLinks> angles =
      worldAnglesFromJoints(character, placement.headAngle, placement.jointAngles);
  const CharacterRoles& roles = character.roles;
  double clearance =
      character.links[static_cast<size_t>(roles.left().thigh)].proximalThickness / 2.0;
  for (int iteration = 0; iteration < 6; ++iteration) {
    for (int side = 0; side < 2; ++side) {
      const SideRoles& leg = roles.sides[static_cast<size_t>(side)];
      double shankAngle = angles[static_cast<size_t>(leg.shank)];
      double thighAngle =
          kPi - thighSlopeForHipHeight(character, side, seatHeight + clearance, shankAngle);
      placement.jointAngles[static_cast<size_t>(leg.hip)] =
          thighAngle - angles[static_cast<size_t>(roles.pelvis)];
      placement.jointAngles[static_cast<size_t>(leg.knee)] = shankAngle - thighAngle;
    }
    clearance = hipClearanceOverSeat(
        character,
        forwardKinematics(character, Vec2::Zero(), placement.headAngle, placement.jointAngles));
  }
}

}  // namespace

Placement placePose(const Character& character, const PoseDef& pose, const ChairDef* chair,
                    const std::vector<double>& jointOffsets) {
  if (pose.support == PoseSupport::Seat && !chair)
    throw std::invalid_argument("pose '" + pose.name + "' sits: it needs a chair");
  Placement placement;
  placement.headAngle = degToRad(pose.headAngleDeg);
  for (int j = 0; j < character.jointCount(); ++j)
    placement.jointAngles[j] = degToRad(pose.jointDeg[j]);

  if (pose.support == PoseSupport::Seat) fitLegsToSeat(character, placement, chair->seatHeight);
  for (size_t j = 0; j < jointOffsets.size() && j < character.joints.size(); ++j)
    placement.jointAngles[j] += jointOffsets[j];

  CharacterState state =
      forwardKinematics(character, Vec2::Zero(), placement.headAngle, placement.jointAngles);
  if (pose.support == PoseSupport::Ground) {
    double turn = restingTurn(character, state);
    placement.headAngle += turn;
    state = forwardKinematics(character, Vec2::Zero(), placement.headAngle, placement.jointAngles);
    placement.headOrigin = Vec2(-state.com.x(), -lowestPoint(character, state));
    placement.seatFront = -0.6;  // a chair stands behind the character, out of its way
    return placement;
  }

  // Seat: the pelvis and thighs rest on the seat, the feet on the ground (or hang).
  const CharacterRoles& roles = character.roles;
  const Vec2 hip = state.jointPositions[static_cast<size_t>(roles.left().hip)];
  double seatedBottom = hip.y() - hipClearanceOverSeat(character, state);
  double feetBottom = std::numeric_limits<double>::infinity();
  for (int link :
       {roles.left().foot, roles.right().foot, roles.left().shank, roles.right().shank}) {
    const LinkState& s = state.links[link];
    const LinkDef& def = character.links[link];
    feetBottom = std::min({feetBottom, s.origin.y() - def.proximalThickness / 2.0,
                           (s.origin + def.length * linkAxis(character, link, s.angle)).y() -
                               def.distalThickness / 2.0});
  }
  double lift = std::max(chair->seatHeight - seatedBottom, -feetBottom);
  placement.headOrigin = Vec2(-(hip.x() + kSeatAheadOfHip), lift);
  placement.seatFront = 0.0;
  return placement;
}

void raiseOntoTerrain(const Character& character, Placement& placement,
                      std::span<const SceneBodyDef> bodies) {
  const CharacterState placed = forwardKinematics(character, placement.headOrigin,
                                                  placement.headAngle, placement.jointAngles);
  constexpr double kResting = 0.02;  // m: the caps this close to the ground stand on it
  const double lowest = lowestPoint(character, placed);
  double left = std::numeric_limits<double>::infinity(), right = -left;
  for (const Cap& cap : capsOf(character, placed))
    if (cap.centre.y() - cap.radius < lowest + kResting) {
      left = std::min(left, cap.centre.x() - cap.radius);
      right = std::max(right, cap.centre.x() + cap.radius);
    }
  if (left <= right) placement.headOrigin.y() += standingHeight(bodies, left, right);
}

}  // namespace scl
