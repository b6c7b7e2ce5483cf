#include "scl/scene_body.h"

#include <algorithm>

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

}  // namespace

double terrainHeight(std::span<const SceneBodyDef> bodies, double left, double right) {
  double height = 0.0;
  for (const SceneBodyDef& body : bodies) height = std::max(height, topOver(body, left, right));
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
