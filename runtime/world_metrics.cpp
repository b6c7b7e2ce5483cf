#include "runtime/world_metrics.h"

#include <algorithm>

namespace scl {

std::vector<WorldParts> worldParts(std::span<const WorldBodyState> world) {
  std::vector<WorldParts> out;
  for (size_t i = 0; i < world.size(); ++i) {
    const int index = static_cast<int>(i);
    if (out.empty() || out.back().sceneBody != world[i].sceneBody)
      out.push_back({world[i].sceneBody, index, 0});
    ++out.back().count;
  }
  return out;
}

WorldParts partsOf(std::span<const WorldBodyState> world, int sceneBody) {
  WorldParts parts{sceneBody, 0, 0};
  for (size_t i = 0; i < world.size(); ++i) {
    if (world[i].sceneBody != sceneBody) {
      if (parts.count > 0) break;  // a body's parts follow one another
      continue;
    }
    if (parts.count == 0) parts.first = static_cast<int>(i);
    ++parts.count;
  }
  return parts;
}

ObjectState objectState(std::span<const WorldBodyState> world, const WorldParts& parts) {
  const auto first = static_cast<size_t>(parts.first);
  if (parts.count == 1) {
    const WorldBodyState& part = world[first];
    return {part.position, part.velocity, part.angle, part.spin};
  }
  ObjectState sum;
  for (size_t i = first; i < first + static_cast<size_t>(parts.count); ++i) {
    sum.position += world[i].position;
    sum.velocity += world[i].velocity;
    sum.angle += world[i].angle;
    sum.spin += world[i].spin;
  }
  const double n = parts.count;
  return {sum.position / n, sum.velocity / n, sum.angle / n, sum.spin / n};
}

std::optional<ObjectState> objectState(std::span<const WorldBodyState> world, int sceneBody) {
  const WorldParts parts = partsOf(world, sceneBody);
  if (parts.count == 0) return std::nullopt;
  return objectState(world, parts);
}

bool hasWorldState(const SceneBodyDef& body) { return body.movable() || body.move.has_value(); }

WorldMetrics::WorldMetrics(std::span<const SceneBodyDef> bodies, int linkCount)
    : bodies_(bodies.begin(), bodies.end()), linkCount_(linkCount) {}

void WorldMetrics::observe(const CharacterState& state, std::span<const WorldBodyState> world) {
  if (!started_) {
    started_ = true;
    for (const WorldParts& parts : worldParts(world)) {
      if (parts.sceneBody < 0 || static_cast<size_t>(parts.sceneBody) >= bodies_.size()) continue;
      const SceneBodyDef& body = bodies_[static_cast<size_t>(parts.sceneBody)];
      const Vec2 start = objectState(world, parts).position;
      ObjectSummary summary;
      summary.sceneBody = parts.sceneBody;
      summary.name = body.name;
      summary.kind = body.kind;
      summary.start = summary.final = summary.min = summary.max = start;
      parts_.push_back(parts);
      objects_.push_back(std::move(summary));
    }
  }
  const auto links = static_cast<size_t>(linkCount_);
  for (size_t i = 0; i < objects_.size(); ++i) {
    ObjectSummary& object = objects_[i];
    if (static_cast<size_t>(parts_[i].first) + static_cast<size_t>(parts_[i].count) > world.size())
      continue;
    const ObjectState now = objectState(world, parts_[i]);
    object.final = now.position;
    object.min = object.min.cwiseMin(now.position);
    object.max = object.max.cwiseMax(now.position);
    object.finalVelocity = now.velocity;
    object.finalAngle = now.angle;
    object.touchingAtEnd = 0;
    const auto first = static_cast<size_t>(parts_[i].first);
    for (size_t part = 0; part < static_cast<size_t>(parts_[i].count); ++part)
      object.touchingAtEnd |= world[first + part].touching;
    if (object.sceneBody >= static_cast<int>(kMaxSceneBodies)) continue;
    const std::uint64_t bit = std::uint64_t{1} << static_cast<unsigned>(object.sceneBody);
    for (size_t link = 0; link < links; ++link)
      if (state.links[link].touching & bit) object.touchedBy[link] = true;
  }
}

}  // namespace scl
