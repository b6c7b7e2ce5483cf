// The physics side: a Box2D world holding the scene's bodies (runtime/scene_world.h) and
// the character.
//
// A Simulation owns its world, so many can run side by side in threads. Each step it
// applies the joint torques it was given (clamped to each joint's max torque, +tau to
// the child link and -tau to the parent) and any external forces, advances Box2D by one
// fixed step, and refreshes the CharacterState view (including per-link contact).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "kinematics/character_state.h"
#include "scl/program.h"

namespace scl {

/// The time steps a simulation accepts, seconds: below 10 µs a run of seconds takes hours;
/// above 10 ms the character's stiff joints are no longer simulated credibly.
inline constexpr double kMinTimeStep = 1e-5;
inline constexpr double kMaxTimeStep = 0.01;
/// The thesis's step (§4.5), seconds.
inline constexpr double kDefaultTimeStep = 0.00025;
/// Box2D's velocity- and position-constraint iterations per step (Box2D's recommended
/// 8 and 3; docs/stepping.md, Box2D's cost).
inline constexpr int kDefaultVelocityIterations = 8;
inline constexpr int kDefaultPositionIterations = 3;

class SettleCache;

/// How to build a simulation. Defaults are the thesis's (§4.5).
struct SimulationDef {
  /// Fixed time step, seconds.
  double timeStep = kDefaultTimeStep;
  /// Box2D velocity-constraint iterations per step (at least 1).
  int velocityIterations = kDefaultVelocityIterations;
  /// Box2D position-constraint iterations per step (at least 1).
  int positionIterations = kDefaultPositionIterations;
  /// Box2D's continuous collision (time of impact, b2World::SetContinuousPhysics), which
  /// stops fast bodies tunnelling through thin ones between steps. Off by default (Box2D's
  /// is on): the links move millimetres per step against a 2 m thick ground, every motion
  /// runs bit for bit the same without it, and it cost 30-45 % of the physics step
  /// (docs/stepping.md, Box2D's cost).
  bool continuousPhysics = false;
  /// Initial pose and environment.
  Scene scene;
  /// The character: its body and its poses (never null).
  std::shared_ptr<const Character> character = humanCharacter();
  /// Initial joint angles added to the pose's, radians (for perturbation studies);
  /// empty: none.
  std::vector<double> jointOffsets;
  /// Friction coefficient between the character and the environment.
  double friction = 0.9;
  /// Before t = 0 a pose that settles (PoseDef::settles: lying, seated) settles for at
  /// most this long, seconds, with every joint held at its pose angle by its default PD,
  /// so the initial state is at rest (limbs that hang have sagged onto their support);
  /// 0 starts from the placed pose as it is.
  double settleTime = 1.0;
  /// Settled poses shared by simulations of the same scene (an optimizer's candidates):
  /// the first settles, the others reuse its pose. Null: each settles on its own. The
  /// initial state is bit for bit the same either way.
  std::shared_ptr<SettleCache> settleCache;
};

/// Where every link rests after the settle, as Box2D holds it (single precision): origin
/// x, y (m) and angle (rad) per link. Velocities are zero.
struct SettledPose {
  std::array<std::array<float, 3>, kMaxLinks> links{};
};

/// Settled poses by scene: everything the settle depends on (character, pose,
/// environment, chair, joint offsets, settle time and step, solver settings, friction).
/// Safe to share between threads; a scene asked for by several at once settles once.
class SettleCache {
 public:
  /// The number of scenes it holds.
  int size() const;

 private:
  friend struct SettleCacheAccess;
  struct Entry;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const Entry>> entries_;
};

/// An axis-aligned box of the environment (the chair), for drawing and tests.
struct EnvironmentBox {
  /// Centre, metres.
  Vec2 centre = Vec2::Zero();
  /// Half extents, metres.
  Vec2 halfSize = Vec2::Zero();
};

/// The state of one movable or moving body of the scene (an object, a chain's link, a
/// moving platform), after the last step.
struct WorldBodyState {
  /// The scene body it belongs to, index into Scene::bodies.
  int sceneBody = 0;
  /// Which of its parts: a chain's link from 0 at its start; 0 otherwise.
  int part = 0;
  /// Centre of mass, metres; velocity, m/s.
  Vec2 position = Vec2::Zero();
  Vec2 velocity = Vec2::Zero();
  /// Angle, radians (continuous), and angular velocity, rad/s.
  double angle = 0.0;
  double spin = 0.0;
  /// Free and touching nothing (a weld or a chain's pin is not a contact; an object held
  /// for its launch is not free).
  bool inFlight = false;
  /// The other scene bodies it touches: bit i for Scene::bodies[i] (the character's links
  /// are LinkState::touching's).
  std::uint64_t touching = 0;
};

/// One outline of the world as it stands now, for drawing: a polygon or a circle.
struct WorldShape {
  /// The scene body it belongs to, index into Scene::bodies.
  int sceneBody = 0;
  /// A movable object (drawn apart from the terrain).
  bool movable = false;
  /// A polygon's corners, metres, counter-clockwise; empty for a circle.
  std::vector<Vec2> corners;
  /// A circle's centre and radius, metres.
  Vec2 centre = Vec2::Zero();
  double radius = 0.0;
};

/// A force applied to a link (or a scene body's part) at a world point for the next step(s).
struct ExternalForce {
  int link = 0;
  /// Force, newtons.
  Vec2 force = Vec2::Zero();
  /// World point of application, metres.
  Vec2 point = Vec2::Zero();
  /// When 0 or more, the force acts on this scene body (index into Scene::bodies; its part
  /// `link`) instead of on a link.
  int sceneBody = -1;
};

/// Deterministic uniform offsets in [-degrees, degrees] for every joint, radians, for
/// SimulationDef::jointOffsets (robustness studies: `scl run --perturb`, the motion
/// tests and benchmarks). Depends only on the seed.
std::vector<double> perturbationOffsets(double degrees, std::uint64_t seed);

/// Throws std::invalid_argument with a one-line message naming the bad value and the
/// valid choices when a SimulationDef is not usable (unknown pose or environment,
/// non-positive time step, negative chair height, ...).
void validate(const SimulationDef& def);

/// Box2D's own account of the last step (b2World::GetProfile and its contact list), for
/// benchmarks: what the physics does and where its time goes.
struct PhysicsStepStats {
  /// Fixture pairs whose bounding boxes overlap (Box2D's contacts), and of them those
  /// touching, and their manifold points.
  int contacts = 0;
  int touchingContacts = 0;
  int contactPoints = 0;
  /// Wall time of the step and of its parts, milliseconds: the contacts' narrow phase,
  /// the constraint solver (with its broad phase update) and continuous collision.
  double stepMs = 0.0;
  double collideMs = 0.0;
  double solveMs = 0.0;
  double solveToiMs = 0.0;
};

class Simulation {
 public:
  /// Builds the world and places the character in the scene's pose, resting on its
  /// support. Throws std::invalid_argument on a bad definition (see validate()).
  explicit Simulation(const SimulationDef& def);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;

  /// The state after the last step (or the initial state).
  const CharacterState& state() const;
  /// The character simulated.
  const Character& character() const;
  /// Joint angles of the initial pose, radians (the first phase's default PD targets).
  const std::array<double, kMaxJoints>& initialJointAngles() const;

  /// Torques for the next step, N·m per joint; clamped to each joint's max torque.
  void setJointTorques(const std::array<double, kMaxJoints>& torques);
  /// The clamped torques applied in the last step, N·m.
  const std::array<double, kMaxJoints>& appliedTorques() const;
  /// Adds an external force for the next step only.
  void addExternalForce(const ExternalForce& force);
  /// The grasps wanted from the next step on. Before each step, a requested link that
  /// holds nothing of its body and comes within reach of it is welded to the body's
  /// nearest part where both are; a weld no longer requested is removed (the body keeps
  /// its velocity). LinkState::holding reports the welds.
  void setGrasps(std::span<const GraspRequest> grasps);

  /// Advances one fixed step.
  void step();

  double time() const;
  double timeStep() const;
  const SimulationDef& definition() const;
  /// The environment's boxes (empty on flat ground); the ground is the line y = 0.
  const std::vector<EnvironmentBox>& environmentBoxes() const;
  /// The movable and moving bodies of the scene, in scene order (a chain link by link).
  const std::vector<WorldBodyState>& worldBodies() const;
  /// The movable objects as the controller sees them (object targets), by scene index.
  const std::vector<SceneObjectState>& objects() const;
  /// Every outline of the scene's bodies as they stand now but the ground's.
  std::vector<WorldShape> worldShapes() const;

  /// A hash of the exact bits of every body's position, angle and velocities: equal
  /// hashes mean bit-identical states.
  std::uint64_t stateHash() const;

  /// Box2D's counts and timings of the last step.
  PhysicsStepStats physicsStats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scl
