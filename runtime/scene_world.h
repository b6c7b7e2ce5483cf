// The scene's bodies in a Box2D world (scl/scene_body.h): terrain as fixtures of one
// static body, a moving platform as a kinematic body on its prescribed path, every object
// a dynamic body (a chain one per link), a launched object held still until its launch.
// Internal to the simulation (runtime/simulation.cpp): the one place besides it that sees
// Box2D.
#pragma once

#include <box2d/box2d.h>

#include <cstdint>
#include <vector>

#include "runtime/simulation.h"
#include "scl/scene_body.h"

namespace scl {

class SceneWorld {
 public:
  /// Builds `bodies` in `world`; `seatFront`: where the chair's seat has its front edge, x
  /// (metres). `characterFriction`: the friction of the character's links.
  SceneWorld(b2World& world, const std::vector<SceneBodyDef>& bodies, double seatFront,
             double characterFriction);
  SceneWorld(const SceneWorld&) = delete;
  SceneWorld& operator=(const SceneWorld&) = delete;

  /// The static body holding every terrain fixture.
  b2Body* ground() const { return ground_; }
  /// The scene body a fixture belongs to, or -1 (a link of the character).
  static int sceneBodyOf(const b2Fixture* fixture);
  /// Whether scene body `index` is terrain (static or moving on its path), not an object.
  bool isTerrain(int index) const;
  /// The acceleration of scene body `index` at `time`, m/s², when it moves on a prescribed
  /// path (a moving platform); zero for every other body.
  Vec2 pathAcceleration(int index, double time) const;

  /// Before a step from `time` of length `dt`, seconds: launches what is due and sets the
  /// moving platforms' velocities so they reach their path's next point.
  void beforeStep(double time, double dt);
  /// The Box2D bodies of scene body `index`'s parts (a chain's links, one for an object).
  std::vector<b2Body*> partBodies(int index) const;
  /// Applies a force to scene body `index`'s part `part` at a world point.
  void applyForce(int index, int part, const b2Vec2& force, const b2Vec2& point);

  /// Refreshes states() from Box2D.
  void refresh();
  const std::vector<WorldBodyState>& states() const { return states_; }
  std::vector<WorldShape> shapes() const;
  const std::vector<EnvironmentBox>& boxes() const { return boxes_; }
  /// Adds every movable body's position, angle and velocities to an FNV-1a hash.
  void hash(std::uint64_t& hash) const;

 private:
  struct Part {
    int sceneBody = 0;
    int part = 0;
    b2Body* body = nullptr;
    b2MassData mass{};
    bool launched = true;
  };
  // Friction of a contact: the smaller of its two fixtures' (Box2D's mix is their
  // geometric mean); contacts of equal frictions keep Box2D's own value.
  class FrictionRule : public b2ContactListener {
    void PreSolve(b2Contact* contact, const b2Manifold* oldManifold) override;
  };

  void addGround(const SceneBodyDef& body, int index);
  void addChair(const SceneBodyDef& body, int index, double seatFront);
  void addBlock(const SceneBodyDef& body, int index);
  void addTable(const SceneBodyDef& body, int index);
  void addStairs(const SceneBodyDef& body, int index);
  void addSlope(const SceneBodyDef& body, int index);
  void addMovingPlatform(const SceneBodyDef& body, int index);
  void addObject(const SceneBodyDef& body, int index);
  void addChain(const SceneBodyDef& body, int index);
  // A box of the terrain, its collision outline exactly [centre ± halfWidth] × [bottom, top].
  void addTerrainBox(int index, double centre, double halfWidth, double bottom, double top);
  b2Fixture* addTerrainFixture(int index, const b2Shape& shape, double friction);
  Part& addPart(int index, int part, b2BodyType type, const b2Vec2& position, float angle);

  b2World& world_;
  std::vector<SceneBodyDef> bodies_;
  b2Body* ground_ = nullptr;
  std::vector<Part> parts_;
  std::vector<WorldBodyState> states_;
  std::vector<EnvironmentBox> boxes_;
  FrictionRule frictionRule_;
  bool needsFrictionRule_ = false;
  double characterFriction_ = 0.0;
};

}  // namespace scl
