// What a run measures of the world around the character (docs/cli.md, JSON `objects`):
// for every movable object and moving platform, where it began and ended, how far it went
// each way, how it ended moving and which of the character's links touched it. Fed one
// step at a time, like MotionMetrics (runtime/metrics.h).
//
// One rule for what a scene body's place is, used by every output and the objectives: a
// body of one part is that part (its centre of mass); a chain is its links together.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kinematics/character_state.h"
#include "runtime/simulation.h"
#include "scl/scene_body.h"

namespace scl {

/// A scene body's place and motion at one step, from its parts' states.
struct ObjectState {
  /// Centre of mass, metres, and its velocity, m/s. A chain's: its links' (each weighs the
  /// same, so the mean of their centres and of their velocities).
  Vec2 position = Vec2::Zero();
  Vec2 velocity = Vec2::Zero();
  /// Angle, radians (continuous), and angular velocity, rad/s. A chain's: the mean of its
  /// links' (its overall direction when it hangs or lies straight).
  double angle = 0.0;
  double spin = 0.0;
};

/// Where a scene body's parts lie in a world's list of states (Simulation::worldBodies():
/// in scene order, a chain link by link).
struct WorldParts {
  /// The scene body, index into Scene::bodies.
  int sceneBody = 0;
  /// Its first part's index in the list and how many parts follow it.
  int first = 0;
  int count = 0;
};

/// Every scene body that has states in `world` (movable objects and moving platforms), in
/// scene order.
std::vector<WorldParts> worldParts(std::span<const WorldBodyState> world);
/// The parts of scene body `sceneBody` in `world`; count 0 when it has none (terrain that
/// stands still, or an index out of range).
WorldParts partsOf(std::span<const WorldBodyState> world, int sceneBody);

/// The body's state from its parts (one part: that part's; a chain: see ObjectState).
/// `parts` must be a non-empty range of `world`.
ObjectState objectState(std::span<const WorldBodyState> world, const WorldParts& parts);
/// The state of scene body `sceneBody`, or nullopt when `world` holds none of it.
std::optional<ObjectState> objectState(std::span<const WorldBodyState> world, int sceneBody);

/// Whether a scene body has states in a run's world: a movable object or a platform that
/// moves.
bool hasWorldState(const SceneBodyDef& body);

/// One movable object's (or moving platform's) figures over a run.
struct ObjectSummary {
  /// The scene body, index into Scene::bodies; its name and kind.
  int sceneBody = 0;
  std::string name;
  SceneBodyKind kind = SceneBodyKind::Box;
  /// Its place (ObjectState::position) at the first and the last observed step, metres.
  Vec2 start = Vec2::Zero();
  Vec2 final = Vec2::Zero();
  /// The smallest and largest x and y of its place over the run, metres.
  Vec2 min = Vec2::Zero();
  Vec2 max = Vec2::Zero();
  /// Its velocity (m/s) and angle (radians, continuous) at the last observed step.
  Vec2 finalVelocity = Vec2::Zero();
  double finalAngle = 0.0;
  /// Which of the character's links touched it at some step, by link index.
  std::array<bool, kMaxLinks> touchedBy{};
  /// The other scene bodies it touches at the last observed step (bit i for
  /// Scene::bodies[i]; a chain: any of its links).
  std::uint64_t touchingAtEnd = 0;
};

class WorldMetrics {
 public:
  /// `bodies`: the scene's (Scene::bodies, as simulated); `linkCount`: the character's
  /// links.
  WorldMetrics(std::span<const SceneBodyDef> bodies, int linkCount);

  /// Records one step: the character's state (its links' contacts) and the world's states
  /// after it. The first call gives each object its start.
  void observe(const CharacterState& state, std::span<const WorldBodyState> world);

  /// The objects in scene order; empty before the first observe() and in a scene
  /// without movable objects or moving platforms.
  const std::vector<ObjectSummary>& objects() const { return objects_; }

 private:
  std::vector<SceneBodyDef> bodies_;
  int linkCount_;
  std::vector<WorldParts> parts_;
  std::vector<ObjectSummary> objects_;
  bool started_ = false;
};

}  // namespace scl
