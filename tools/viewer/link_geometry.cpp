#include "tools/viewer/link_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scl {

namespace {

Vec2 leftNormal(const Vec2& axis) { return {-axis.y(), axis.x()}; }

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

double distanceToSegment(const Vec2& point, const Vec2& a, const Vec2& b) {
  Vec2 ab = b - a;
  double lengthSquared = ab.squaredNorm();
  double t = lengthSquared > 0.0 ? std::clamp((point - a).dot(ab) / lengthSquared, 0.0, 1.0) : 0.0;
  return (point - (a + t * ab)).norm();
}

// Distance from `point` to the outline's inside: 0 inside, else an upper bound of the gap.
double outsideDistance(const CappedTrapezoid& shape, const Vec2& point) {
  if (contains(shape, point)) return 0.0;
  double proximalGap = (point - shape.proximal).norm() - shape.proximalRadius;
  double distalGap = (point - shape.distal).norm() - shape.distalRadius;
  double best = std::min(proximalGap, distalGap);
  for (int i = 0; i < 4; ++i)
    best = std::min(best, distanceToSegment(point, shape.corners[i], shape.corners[(i + 1) % 4]));
  return best;
}

}  // namespace

CappedTrapezoid linkShape(const Character& character, int link, const LinkState& state) {
  const LinkDef& def = character.links[link];
  Vec2 axis = linkAxis(character, link, state.angle);
  Vec2 normal = leftNormal(axis);
  CappedTrapezoid shape;
  shape.proximal = state.origin;
  shape.distal = state.origin + def.length * axis;
  shape.proximalRadius = 0.5 * def.proximalThickness;
  shape.distalRadius = 0.5 * def.distalThickness;
  shape.corners = {shape.proximal + shape.proximalRadius * normal,
                   shape.proximal - shape.proximalRadius * normal,
                   shape.distal - shape.distalRadius * normal,
                   shape.distal + shape.distalRadius * normal};
  return shape;
}

bool contains(const CappedTrapezoid& shape, const Vec2& point) {
  if ((point - shape.proximal).norm() <= shape.proximalRadius) return true;
  if ((point - shape.distal).norm() <= shape.distalRadius) return true;
  // Convex quadrilateral: the point is on the same side of every edge.
  int positive = 0, negative = 0;
  for (int i = 0; i < 4; ++i) {
    double side = cross(shape.corners[(i + 1) % 4] - shape.corners[i], point - shape.corners[i]);
    if (side > 0.0) ++positive;
    if (side < 0.0) ++negative;
  }
  return positive == 0 || negative == 0;
}

std::optional<int> pickLink(const Character& character, const CharacterState& state,
                            const Vec2& point, double tolerance) {
  std::optional<int> best;
  double bestScore = std::numeric_limits<double>::infinity();
  for (int link = 0; link < character.linkCount(); ++link) {
    CappedTrapezoid shape = linkShape(character, link, state.links[link]);
    double gap = outsideDistance(shape, point);
    if (gap > tolerance) continue;
    // Inside beats near; among overlapping links, the one whose axis is nearest wins.
    double score = gap * 1000.0 + distanceToSegment(point, shape.proximal, shape.distal);
    if (score < bestScore) {
      bestScore = score;
      best = link;
    }
  }
  return best;
}

LinkPoint toLinkPoint(const Character& character, int link, const LinkState& state,
                      const Vec2& world) {
  Vec2 axis = linkAxis(character, link, state.angle);
  Vec2 offset = world - state.origin;
  return {link, offset.dot(axis), offset.dot(leftNormal(axis))};
}

Vec2 toWorld(const Character& character, const LinkPoint& point, const LinkState& state) {
  Vec2 axis = linkAxis(character, point.link, state.angle);
  return state.origin + point.along * axis + point.across * leftNormal(axis);
}

Vec2 pointVelocity(const LinkState& state, const Vec2& world) {
  Vec2 arm = world - state.com;
  return state.comVelocity + state.angularVelocity * Vec2(-arm.y(), arm.x());
}

Vec2 dragSpringForce(const DragSpringDef& def, const Vec2& grabbed, const Vec2& grabbedVelocity,
                     const Vec2& mouse) {
  Vec2 force = def.stiffness * (mouse - grabbed) - def.damping * grabbedVelocity;
  double magnitude = force.norm();
  if (magnitude > def.maxForce) force *= def.maxForce / magnitude;
  return force;
}

}  // namespace scl
