#include "tools/viewer/world_picture.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scl {

namespace {

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

Vec2 rotate(const Vec2& v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

double distanceToSegment(const Vec2& point, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double lengthSquared = ab.squaredNorm();
  const double t =
      lengthSquared > 0.0 ? std::clamp((point - a).dot(ab) / lengthSquared, 0.0, 1.0) : 0.0;
  return (point - (a + t * ab)).norm();
}

// The polygon's corners pushed out by `skin` along each corner's bisector, so that its
// edges move out by `skin` (a corner sharper than about 40° moves out by at most 3 skins).
std::vector<Vec2> pushedOut(const std::vector<Vec2>& corners, double skin) {
  const size_t n = corners.size();
  if (n < 3) return corners;
  // Outward normals of the edges; the corners are counter-clockwise, but say so by area.
  double area = 0.0;
  for (size_t i = 0; i < n; ++i) area += cross(corners[i], corners[(i + 1) % n]);
  const double sign = area >= 0.0 ? 1.0 : -1.0;
  std::vector<Vec2> normals(n);
  for (size_t i = 0; i < n; ++i) {
    const Vec2 edge = corners[(i + 1) % n] - corners[i];
    const double length = edge.norm();
    normals[i] =
        length > 0.0 ? Vec2(Vec2(sign * edge.y(), -sign * edge.x()) / length) : Vec2(Vec2::Zero());
  }
  std::vector<Vec2> out(n);
  for (size_t i = 0; i < n; ++i) {
    const Vec2& before = normals[(i + n - 1) % n];
    const Vec2& after = normals[i];
    const double denominator = 1.0 + before.dot(after);
    Vec2 offset =
        denominator > 1e-6 ? Vec2(skin * (before + after) / denominator) : Vec2(skin * after);
    if (offset.norm() > 3.0 * skin) offset *= 3.0 * skin / offset.norm();
    out[i] = corners[i] + offset;
  }
  return out;
}

Vec2 centroidOf(const WorldShape& shape) {
  if (shape.corners.empty()) return shape.centre;
  Vec2 sum = Vec2::Zero();
  for (const Vec2& corner : shape.corners) sum += corner;
  return sum / static_cast<double>(shape.corners.size());
}

// `shape` moved from the frame of a part at (centre, angle) into the world.
WorldShape placed(const WorldShape& local, const Vec2& centre, double angle) {
  WorldShape shape = local;
  for (Vec2& corner : shape.corners) corner = centre + rotate(corner, angle);
  shape.centre = centre + rotate(local.centre, angle);
  return shape;
}

}  // namespace

WorldPicture::WorldPicture(const Simulation& simulation) {
  const std::vector<WorldBodyState>& parts = simulation.worldBodies();
  const std::vector<SceneBodyDef>& bodies = simulation.definition().scene.bodies;
  for (WorldShape shape : simulation.worldShapes()) {
    if (!shape.corners.empty()) shape.corners = pushedOut(shape.corners, kPolygonSkin);
    // The part it belongs to: of its scene body's parts, the one whose centre is nearest
    // (a chain's link is centred on its own part).
    const Vec2 centroid = centroidOf(shape);
    int slot = -1;
    double nearest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].sceneBody != shape.sceneBody) continue;
      const double distance = (parts[i].position - centroid).norm();
      if (distance < nearest) {
        nearest = distance;
        slot = static_cast<int>(i);
      }
    }
    if (slot < 0) {
      terrain_.push_back({std::move(shape), std::nullopt, -1});
      continue;
    }
    const WorldBodyState& part = parts[static_cast<size_t>(slot)];
    MovingShape moving;
    moving.slot = slot;
    const auto body = static_cast<size_t>(shape.sceneBody);
    moving.grabbable = body < bodies.size() && bodies[body].movable();
    moving.ball = body < bodies.size() && bodies[body].kind == SceneBodyKind::Ball;
    moving.local = shape;
    for (Vec2& corner : moving.local.corners) corner = rotate(corner - part.position, -part.angle);
    moving.local.centre = rotate(shape.centre - part.position, -part.angle);
    moving_.push_back(std::move(moving));
  }
}

std::vector<WorldOutline> WorldPicture::outlines(std::span<const WorldBodyState> parts) const {
  std::vector<WorldOutline> out = terrain_;
  out.reserve(terrain_.size() + moving_.size());
  for (const MovingShape& moving : moving_) {
    if (static_cast<size_t>(moving.slot) >= parts.size()) continue;
    const WorldBodyState& part = parts[static_cast<size_t>(moving.slot)];
    WorldOutline outline{placed(moving.local, part.position, part.angle), std::nullopt,
                         moving.slot};
    if (moving.ball && moving.local.corners.empty())
      outline.rim =
          part.position + rotate(moving.local.centre + Vec2(moving.local.radius, 0.0), part.angle);
    out.push_back(std::move(outline));
  }
  return out;
}

std::optional<ObjectPoint> WorldPicture::pick(std::span<const WorldBodyState> parts,
                                              const Vec2& point, double tolerance) const {
  std::optional<ObjectPoint> best;
  double bestScore = std::numeric_limits<double>::infinity();
  for (const MovingShape& moving : moving_) {
    if (!moving.grabbable || static_cast<size_t>(moving.slot) >= parts.size()) continue;
    const WorldBodyState& part = parts[static_cast<size_t>(moving.slot)];
    const WorldShape shape = placed(moving.local, part.position, part.angle);
    const double gap = outsideDistance(shape, point);
    if (gap > tolerance) continue;
    // Inside beats near; among those, the part whose centre is nearest.
    const double score = gap * 1000.0 + (point - part.position).norm();
    if (score < bestScore) {
      bestScore = score;
      best = ObjectPoint{part.sceneBody, part.part, moving.slot,
                         rotate(point - part.position, -part.angle)};
    }
  }
  return best;
}

Vec2 toWorld(const ObjectPoint& point, std::span<const WorldBodyState> parts) {
  const WorldBodyState& part = parts[static_cast<size_t>(point.slot)];
  return part.position + rotate(point.local, part.angle);
}

Vec2 pointVelocity(const ObjectPoint& point, std::span<const WorldBodyState> parts) {
  const WorldBodyState& part = parts[static_cast<size_t>(point.slot)];
  const Vec2 arm = rotate(point.local, part.angle);
  return part.velocity + part.spin * Vec2(-arm.y(), arm.x());
}

bool contains(const WorldShape& shape, const Vec2& point) {
  if (shape.corners.empty()) return (point - shape.centre).norm() <= shape.radius;
  int positive = 0, negative = 0;
  const size_t n = shape.corners.size();
  for (size_t i = 0; i < n; ++i) {
    const double side =
        cross(shape.corners[(i + 1) % n] - shape.corners[i], point - shape.corners[i]);
    if (side > 0.0) ++positive;
    if (side < 0.0) ++negative;
  }
  return positive == 0 || negative == 0;
}

double outsideDistance(const WorldShape& shape, const Vec2& point) {
  if (shape.corners.empty()) return std::max(0.0, (point - shape.centre).norm() - shape.radius);
  if (contains(shape, point)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  const size_t n = shape.corners.size();
  for (size_t i = 0; i < n; ++i)
    best = std::min(best, distanceToSegment(point, shape.corners[i], shape.corners[(i + 1) % n]));
  return best;
}

}  // namespace scl
