#include "scl/scene_body.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace scl {

SceneBodyDef groundBody() {
  SceneBodyDef ground;
  ground.kind = SceneBodyKind::Ground;
  ground.name = "ground";
  return ground;
}

SceneBodyDef chairBody(const ChairDef& chair) {
  SceneBodyDef body;
  body.kind = SceneBodyKind::Chair;
  body.name = "chair";
  body.chair = chair;
  return body;
}

bool SceneBodyDef::movable() const {
  switch (kind) {
    case SceneBodyKind::Box:
    case SceneBodyKind::Ball:
    case SceneBodyKind::Capsule:
    case SceneBodyKind::Chain:
      return true;
    default:
      return false;
  }
}

double* sceneBodyNumber(SceneBodyDef& body, std::string_view key, size_t component) {
  const auto of = [&](std::array<double, 2>& pair) {
    return component < pair.size() ? &pair[component] : nullptr;
  };
  const auto moving = [&]() -> MoveDef& {
    if (!body.move) body.move = MoveDef{};
    return *body.move;
  };
  if (key == "at") return body.movable() ? of(body.at) : &body.x;
  if (key == "size") return of(body.size);
  if (key == "from") return of(body.from);
  if (key == "to") return of(body.to);
  if (key == "velocity") return of(body.velocity);
  if (key == "move") return of(moving().amplitude);
  if (component != 0) return nullptr;
  if (key == "friction") return &body.friction;
  if (key == "restitution") return &body.restitution;
  if (key == "rise") return &body.rise;
  if (key == "run") return &body.run;
  if (key == "landing") return &body.landing;
  if (key == "radius") return &body.radius;
  if (key == "length") return &body.length;
  if (key == "angle") return &body.angle;
  if (key == "mass") return &body.mass;
  if (key == "density") return &body.density;
  if (key == "spin") return &body.spin;
  if (key == "frequency") return &moving().frequency;
  if (key == "start") return &moving().start;
  if (key == "ramp") return &moving().ramp;
  if (key == "launch") {
    if (!body.launch) body.launch = 0.0;
    return &*body.launch;
  }
  return nullptr;
}

std::string_view sceneBodyKindName(SceneBodyKind kind) {
  switch (kind) {
    case SceneBodyKind::Ground:
      return "ground";
    case SceneBodyKind::Chair:
      return "chair";
    case SceneBodyKind::Platform:
      return "platform";
    case SceneBodyKind::Wall:
      return "wall";
    case SceneBodyKind::Table:
      return "table";
    case SceneBodyKind::Stairs:
      return "stairs";
    case SceneBodyKind::Slope:
      return "slope";
    case SceneBodyKind::Box:
      return "box";
    case SceneBodyKind::Ball:
      return "ball";
    case SceneBodyKind::Capsule:
      return "capsule";
    case SceneBodyKind::Chain:
      return "chain";
  }
  return "unknown";  // an out-of-range value cast to the enum
}

const SceneBodyDef* findSceneBody(std::span<const SceneBodyDef> bodies, SceneBodyKind kind) {
  for (const SceneBodyDef& body : bodies)
    if (body.kind == kind) return &body;
  return nullptr;
}

const SceneBodyDef* findSceneBody(std::span<const SceneBodyDef> bodies, std::string_view name) {
  for (const SceneBodyDef& body : bodies)
    if (body.name == name) return &body;
  return nullptr;
}

namespace {

// The top of one terrain body over [left, right], or -infinity where it has none.
double topOver(const SceneBodyDef& body, double left, double right) {
  constexpr double kNone = -1e300;
  auto overlaps = [&](double from, double to) { return from < right && to > left; };
  switch (body.kind) {
    case SceneBodyKind::Ground:
      return 0.0;
    case SceneBodyKind::Platform:
    case SceneBodyKind::Wall:
    case SceneBodyKind::Table:
      return overlaps(body.x, body.x + body.size[0]) ? body.size[1] : kNone;
    case SceneBodyKind::Stairs: {
      double top = kNone;
      for (int step = 1; step <= body.count; ++step) {
        const double start = body.x + (step - 1) * body.run;
        const double end = step == body.count ? start + body.landing : start + body.run;
        if (overlaps(start, end)) top = std::max(top, step * body.rise);
      }
      return top;
    }
    case SceneBodyKind::Slope: {
      const double from = std::max(left, body.from[0]), to = std::min(right, body.to[0]);
      if (from > to) return kNone;
      auto heightAt = [&](double x) {
        const double t = (x - body.from[0]) / (body.to[0] - body.from[0]);
        return body.from[1] + t * (body.to[1] - body.from[1]);
      };
      return std::max(heightAt(from), heightAt(to));  // linear: highest at an end
    }
    default:  // the chair stands where the pose says; objects are not terrain
      return kNone;
  }
}

constexpr double kNoTop = -1e300;

// The top of a convex polygon over [left, right]: at a corner within, or where an edge
// crosses an end of the interval.
double polygonTopOver(const std::array<std::array<double, 2>, 4>& corners, double left,
                      double right) {
  double top = kNoTop;
  for (size_t i = 0; i < corners.size(); ++i) {
    const auto& a = corners[i];
    const auto& b = corners[(i + 1) % corners.size()];
    if (a[0] >= left && a[0] <= right) top = std::max(top, a[1]);
    for (double x : {left, right}) {
      const double low = std::min(a[0], b[0]), high = std::max(a[0], b[0]);
      if (x < low || x > high || high - low < 1e-12) continue;
      top = std::max(top, a[1] + (x - a[0]) / (b[0] - a[0]) * (b[1] - a[1]));
    }
  }
  return top;
}

// The top of a disc over [left, right].
double discTopOver(double x, double y, double radius, double left, double right) {
  const double nearest = std::clamp(x, left, right);
  const double dx = nearest - x;
  return std::abs(dx) >= radius ? kNoTop : y + std::sqrt(radius * radius - dx * dx);
}

// A box, ball or capsule as placed: its extent and its top over an x interval.
class ObjectShape {
 public:
  explicit ObjectShape(const SceneBodyDef& body) : body_(body) {
    const double angle = body.angle * std::numbers::pi / 180.0;
    cos_ = std::cos(angle);
    sin_ = std::sin(angle);
  }

  double topOver(double left, double right) const {
    switch (body_.kind) {
      case SceneBodyKind::Box:
        return polygonTopOver(corners(0.5 * body_.size[0], 0.5 * body_.size[1]), left, right);
      case SceneBodyKind::Ball:
        return discTopOver(body_.at[0], body_.at[1], body_.radius, left, right);
      case SceneBodyKind::Capsule: {
        const auto [a, b] = capCentres();
        return std::max({discTopOver(a[0], a[1], body_.radius, left, right),
                         discTopOver(b[0], b[1], body_.radius, left, right),
                         polygonTopOver(corners(0.5 * body_.length, body_.radius), left, right)});
      }
      default:
        return kNoTop;
    }
  }

  // Its lowest point's height and its x extent (left, right).
  std::array<double, 3> bottomAndExtent() const {
    double bottom = 0.0, left = 0.0, right = 0.0;
    auto take = [&](const std::array<double, 2>& point, double radius, bool first) {
      bottom = first ? point[1] - radius : std::min(bottom, point[1] - radius);
      left = first ? point[0] - radius : std::min(left, point[0] - radius);
      right = first ? point[0] + radius : std::max(right, point[0] + radius);
    };
    if (body_.kind == SceneBodyKind::Box) {
      const auto box = corners(0.5 * body_.size[0], 0.5 * body_.size[1]);
      for (size_t i = 0; i < box.size(); ++i) take(box[i], 0.0, i == 0);
    } else if (body_.kind == SceneBodyKind::Capsule) {
      const auto [a, b] = capCentres();
      take(a, body_.radius, true);
      take(b, body_.radius, false);
    } else {
      take(body_.at, body_.radius, true);
    }
    return {bottom, left, right};
  }

 private:
  // A point of the body's frame (along its angle, across it) in the world.
  std::array<double, 2> world(double along, double across) const {
    return {body_.at[0] + cos_ * along - sin_ * across, body_.at[1] + sin_ * along + cos_ * across};
  }
  std::array<std::array<double, 2>, 4> corners(double halfAlong, double halfAcross) const {
    return {world(-halfAlong, -halfAcross), world(halfAlong, -halfAcross),
            world(halfAlong, halfAcross), world(-halfAlong, halfAcross)};
  }
  std::array<std::array<double, 2>, 2> capCentres() const {
    return {world(-0.5 * body_.length, 0.0), world(0.5 * body_.length, 0.0)};
  }

  const SceneBodyDef& body_;
  double cos_ = 1.0, sin_ = 0.0;
};

// An object a character may be placed on: a box, a ball or a capsule set at rest (no
// velocity, no spin) on the terrain (its lowest point on the terrain's top under it). A
// chain's links, a moving object, one held in the air or stacked on another are not.
bool restsOnTerrain(const SceneBodyDef& body, std::span<const SceneBodyDef> bodies) {
  constexpr double kResting = 0.02;  // m: an object this close to the terrain rests on it
  if (body.kind != SceneBodyKind::Box && body.kind != SceneBodyKind::Ball &&
      body.kind != SceneBodyKind::Capsule)
    return false;
  if (body.velocity != std::array<double, 2>{} || body.spin != 0.0) return false;
  const auto [bottom, left, right] = ObjectShape(body).bottomAndExtent();
  return bottom <= terrainHeight(bodies, left, right) + kResting;
}

}  // namespace

std::array<double, 2> moveOffset(const MoveDef& move, double time) {
  const double moving = time - move.start;
  if (moving <= 0.0) return {0.0, 0.0};
  double envelope = 1.0;
  if (move.ramp > 0.0 && moving < move.ramp) {
    const double u = moving / move.ramp;
    envelope = u * u * (3.0 - 2.0 * u);
  }
  const double swing = envelope * std::sin(2.0 * std::numbers::pi * move.frequency * moving);
  return {swing * move.amplitude[0], swing * move.amplitude[1]};
}

std::array<double, 2> moveAcceleration(const MoveDef& move, double time) {
  const double moving = time - move.start;
  if (moving <= 0.0) return {0.0, 0.0};
  // envelope(s) · sin(ωs), the envelope smoothstep(s / ramp) during the ramp, 1 after.
  double envelope = 1.0, rate = 0.0, curvature = 0.0;
  if (move.ramp > 0.0 && moving < move.ramp) {
    const double u = moving / move.ramp;
    envelope = u * u * (3.0 - 2.0 * u);
    rate = 6.0 * u * (1.0 - u) / move.ramp;
    curvature = (6.0 - 12.0 * u) / (move.ramp * move.ramp);
  }
  const double omega = 2.0 * std::numbers::pi * move.frequency;
  const double sine = std::sin(omega * moving), cosine = std::cos(omega * moving);
  const double swing =
      curvature * sine + 2.0 * rate * omega * cosine - envelope * omega * omega * sine;
  return {swing * move.amplitude[0], swing * move.amplitude[1]};
}

double terrainHeight(std::span<const SceneBodyDef> bodies, double left, double right) {
  double height = 0.0;
  for (const SceneBodyDef& body : bodies) height = std::max(height, topOver(body, left, right));
  return height;
}

double standingHeight(std::span<const SceneBodyDef> bodies, double left, double right) {
  double height = terrainHeight(bodies, left, right);
  for (const SceneBodyDef& body : bodies)
    if (restsOnTerrain(body, bodies))
      height = std::max(height, ObjectShape(body).topOver(left, right));
  return height;
}

std::vector<SceneBodyDef> environmentBodies(Environment environment, const ChairDef& chair) {
  std::vector<SceneBodyDef> bodies = {groundBody()};
  if (environment == Environment::Chair) bodies.push_back(chairBody(chair));
  return bodies;
}

Environment environmentOf(std::span<const SceneBodyDef> bodies) {
  return findSceneBody(bodies, SceneBodyKind::Chair) ? Environment::Chair : Environment::Flat;
}

std::string_view environmentName(Environment environment) {
  return kEnvironments[static_cast<size_t>(environment)];
}

}  // namespace scl
