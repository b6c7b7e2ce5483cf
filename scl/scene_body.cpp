#include "scl/scene_body.h"

namespace scl {

SceneBodyDef groundBody() { return {SceneBodyKind::Ground, {}}; }

SceneBodyDef chairBody(const ChairDef& chair) { return {SceneBodyKind::Chair, chair}; }

std::string_view sceneBodyKindName(SceneBodyKind kind) {
  switch (kind) {
    case SceneBodyKind::Ground:
      return "ground";
    case SceneBodyKind::Chair:
      return "chair";
  }
  return "unknown";  // an out-of-range value cast to the enum
}

const SceneBodyDef* findSceneBody(std::span<const SceneBodyDef> bodies, SceneBodyKind kind) {
  for (const SceneBodyDef& body : bodies)
    if (body.kind == kind) return &body;
  return nullptr;
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
