#include <cmath>

#include "primitives/character_state.h"

namespace scl {

namespace {

// Mass properties of a capped trapezoid of unit density along +x: the trapezoid from
// x = 0 (half-width r1) to x = L (half-width r2) and a half-disc beyond each end.
struct ShapeMoments {
  double area = 0.0;
  double firstMoment = 0.0;    // ∫ x dA
  double polarAtOrigin = 0.0;  // ∫ (x² + y²) dA about the origin
};

ShapeMoments cappedTrapezoidMoments(double length, double r1, double r2) {
  ShapeMoments m;
  // Trapezoid: width w(x) = 2 (r1 + (r2 - r1) x / L); integrate by Simpson's rule on
  // polynomials of degree <= 3 (exact for w, x w, x² w; w³ is cubic so also exact).
  auto width = [&](double x) { return 2.0 * (r1 + (r2 - r1) * x / length); };
  auto simpson = [&](auto f) {
    constexpr int kIntervals = 64;
    double h = length / kIntervals, sum = f(0.0) + f(length);
    for (int i = 1; i < kIntervals; ++i) sum += f(i * h) * (i % 2 ? 4.0 : 2.0);
    return sum * h / 3.0;
  };
  m.area += simpson([&](double x) { return width(x); });
  m.firstMoment += simpson([&](double x) { return x * width(x); });
  m.polarAtOrigin += simpson([&](double x) {
    double w = width(x);
    return x * x * w + w * w * w / 12.0;
  });
  // Half-discs: area pi r²/2, centroid 4r/(3 pi) beyond the cap centre, polar moment
  // about the cap centre pi r⁴/4.
  auto addHalfDisc = [&](double centre, double r, double outward) {
    double area = kPi * r * r / 2.0;
    double offset = 4.0 * r / (3.0 * kPi);
    double centroid = centre + outward * offset;
    double polarAtCentroid = kPi * r * r * r * r / 4.0 - area * offset * offset;
    m.area += area;
    m.firstMoment += area * centroid;
    m.polarAtOrigin += polarAtCentroid + area * centroid * centroid;
  };
  addHalfDisc(0.0, r1, -1.0);
  addHalfDisc(length, r2, +1.0);
  return m;
}

ShapeMoments linkMoments(int link) {
  const LinkDef& def = kLinks[link];
  return cappedTrapezoidMoments(def.length, def.proximalThickness / 2.0, def.distalThickness / 2.0);
}

}  // namespace

Vec2 linkAxis(int link, double worldAngle) {
  double sign = kLinks[link].axisSign;
  return Vec2(sign * std::cos(worldAngle), sign * std::sin(worldAngle));
}

double linkComOffset(int link) {
  ShapeMoments m = linkMoments(link);
  return m.firstMoment / m.area;
}

double linkInertia(int link) {
  ShapeMoments m = linkMoments(link);
  double density = kLinks[link].mass / m.area;
  double comOffset = m.firstMoment / m.area;
  return density * (m.polarAtOrigin - m.area * comOffset * comOffset);
}

std::array<double, kLinkCount> worldAnglesFromJoints(
    double headAngle, const std::array<double, kJointCount>& jointAngles) {
  std::array<double, kLinkCount> angles{};
  angles[kHead] = headAngle;
  // kJoints is ordered so that every joint's parent link is placed before it.
  for (int j = 0; j < kJointCount; ++j)
    angles[kJoints[j].childLink] = angles[kJoints[j].parentLink] + jointAngles[j];
  return angles;
}

CharacterState forwardKinematics(const Vec2& headOrigin, double headAngle,
                                 const std::array<double, kJointCount>& jointAngles) {
  CharacterState state;
  std::array<double, kLinkCount> angles = worldAnglesFromJoints(headAngle, jointAngles);
  for (int i = 0; i < kLinkCount; ++i) state.links[i].angle = angles[i];
  state.links[kHead].origin = headOrigin;
  for (int j = 0; j < kJointCount; ++j) {
    const JointDef& joint = kJoints[j];
    const LinkState& parent = state.links[joint.parentLink];
    state.links[joint.childLink].origin =
        parent.origin + joint.anchorOnParent * linkAxis(joint.parentLink, parent.angle);
  }
  for (int i = 0; i < kLinkCount; ++i) {
    LinkState& link = state.links[i];
    link.com = link.origin + linkComOffset(i) * linkAxis(i, link.angle);
  }
  completeDerivedState(state);
  return state;
}

void completeDerivedState(CharacterState& state) {
  Vec2 weightedPosition = Vec2::Zero(), weightedVelocity = Vec2::Zero();
  for (int i = 0; i < kLinkCount; ++i) {
    weightedPosition += kLinks[i].mass * state.links[i].com;
    weightedVelocity += kLinks[i].mass * state.links[i].comVelocity;
  }
  state.com = weightedPosition / totalMass();
  state.comVelocity = weightedVelocity / totalMass();
  for (int j = 0; j < kJointCount; ++j) {
    const JointDef& joint = kJoints[j];
    const LinkState& parent = state.links[joint.parentLink];
    const LinkState& child = state.links[joint.childLink];
    state.jointPositions[j] = child.origin;
    state.jointAngles[j] = child.angle - parent.angle;
    state.jointVelocities[j] = child.angularVelocity - parent.angularVelocity;
  }
}

}  // namespace scl
