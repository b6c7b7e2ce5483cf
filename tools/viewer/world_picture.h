// The scene's world as the viewer draws it and the mouse grabs it: the outlines of the
// terrain and of every object (scl/world.h's bodies, runtime Simulation::worldShapes()),
// for any state of the moving parts — the live one or a snapshot's, so that a scrubbed
// moment shows the objects where they were. Pure geometry, no SFML.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "runtime/simulation.h"

namespace scl {

/// Box2D keeps a polygon this much fatter than its vertices (b2_polygonRadius); the
/// simulation shrinks its polygons by it, so the true outline is the vertices pushed out
/// by it, metres.
inline constexpr double kPolygonSkin = 0.01;

/// One outline to draw.
struct WorldOutline {
  /// The outline (polygons already pushed out to their collision outline).
  WorldShape shape;
  /// A circle that turns (a ball): a point on its rim fixed to it, drawn as a spoke so
  /// that rolling shows.
  std::optional<Vec2> rim;
  /// The moving part it belongs to (its place in Simulation::worldBodies()); -1 for the
  /// terrain that stands still. A part's outlines come one after another.
  int slot = -1;
};

/// A point fixed on a movable object's part, in the part's own frame.
struct ObjectPoint {
  /// The scene body (index into Scene::bodies) and its part (a chain's link from 0).
  int sceneBody = 0;
  int part = 0;
  /// The part's place in Simulation::worldBodies().
  int slot = 0;
  /// The point relative to the part's centre of mass, unturned, metres.
  Vec2 local = Vec2::Zero();
};

class WorldPicture {
 public:
  /// No world: flat ground only.
  WorldPicture() = default;
  /// The world of `simulation` as it stands: the terrain's outlines, and each moving
  /// part's outlines in that part's own frame.
  explicit WorldPicture(const Simulation& simulation);

  /// Every outline with the moving parts in the states `parts` (Simulation::worldBodies()
  /// of the same simulation, now or at a snapshot): the terrain first, then the parts in
  /// scene order.
  std::vector<WorldOutline> outlines(std::span<const WorldBodyState> parts) const;
  /// Whether there is anything to draw beyond flat ground.
  bool empty() const { return terrain_.empty() && moving_.empty(); }

  /// The movable object part under `point` (inside one, else within `tolerance` metres of
  /// one; the nearest centre among those), with `parts` the parts' states; nullopt when
  /// none is. Terrain and moving platforms are not grabbed.
  std::optional<ObjectPoint> pick(std::span<const WorldBodyState> parts, const Vec2& point,
                                  double tolerance) const;

 private:
  struct MovingShape {
    /// Index into worldBodies().
    int slot = 0;
    /// The part is an object the mouse may grab (not a moving platform).
    bool grabbable = false;
    /// The part is a ball: its circle turns with it (a spoke is drawn).
    bool ball = false;
    /// The outline in the part's frame (centre of mass at the origin, angle 0).
    WorldShape local;
  };

  std::vector<WorldOutline> terrain_;
  std::vector<MovingShape> moving_;
};

/// Where `point` is now, with `parts` the parts' states.
Vec2 toWorld(const ObjectPoint& point, std::span<const WorldBodyState> parts);
/// Velocity of the point fixed on its part, m/s.
Vec2 pointVelocity(const ObjectPoint& point, std::span<const WorldBodyState> parts);

/// True when `point` lies inside `shape` (polygon or circle).
bool contains(const WorldShape& shape, const Vec2& point);
/// Distance from `point` to `shape`'s inside: 0 inside, metres.
double outsideDistance(const WorldShape& shape, const Vec2& point);

}  // namespace scl
