// The bodies a scene holds besides the character, as typed data: the ground, the chair,
// terrain (slopes, stairs, platforms, tables, walls) and movable objects (boxes, balls,
// capsules, chains). One place per step of a body's life: its kind and parameters here,
// its validation in sceneBodyIssues() (scl/scene.h), its syntax and binding in scl/world.h,
// its Box2D bodies in runtime/simulation.cpp (one function per kind). The scene header's
// `env:` names a list of them (Environment); a script's world statements and a world file
// add more (docs/scene.md).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scl {

/// Seat heights a chair can have, metres: below, the legs cannot fold to sit; above, the
/// seat is out of every character's reach.
inline constexpr double kMinChairHeight = 0.05;
inline constexpr double kMaxChairHeight = 1.5;
inline constexpr double kDefaultChairHeight = 0.45;
/// Seat depths a chair can have, metres, front edge to back.
inline constexpr double kMinSeatDepth = 0.05;
inline constexpr double kMaxSeatDepth = 1.5;
inline constexpr double kDefaultSeatDepth = 0.45;

/// The most bodies a scene holds (the ground and the chair included): contacts are kept
/// as one bit per body (LinkState::touching).
inline constexpr size_t kMaxSceneBodies = 64;
/// The most links a chain has, and steps a flight of stairs.
inline constexpr int kMaxChainLinks = 100;
inline constexpr int kMaxStairs = 50;
/// How far from x = 0 a body may be placed, metres (the ground reaches 500 m each way).
inline constexpr double kMaxSceneReach = 100.0;
/// The tallest a body may stand or be placed, metres.
inline constexpr double kMaxSceneHeight = 50.0;
/// The smallest and largest size of a body, metres (below, Box2D's 1 cm polygon skin
/// would swallow it).
inline constexpr double kMinBodySize = 0.025;
inline constexpr double kMaxBodySize = 20.0;
/// The mass a movable body (each link of a chain) may have, kilograms.
inline constexpr double kMinBodyMass = 0.01;
inline constexpr double kMaxBodyMass = 5000.0;
/// Friction coefficients and restitutions a body may have.
inline constexpr double kMaxFriction = 2.0;
/// The fastest a body may be set moving, m/s, and spinning, rad/s.
inline constexpr double kMaxBodySpeed = 100.0;
inline constexpr double kMaxBodySpin = 100.0;
/// A moving platform's largest amplitude, metres, and frequency, Hz.
inline constexpr double kMaxMoveAmplitude = 5.0;
inline constexpr double kMaxMoveFrequency = 10.0;
/// A moving platform's longest ramp, seconds.
inline constexpr double kMaxMoveRamp = 60.0;
/// The friction of a body that does not give its own (the character's, by default).
inline constexpr double kDefaultBodyFriction = 0.9;
/// The friction of a movable object that does not give its own.
inline constexpr double kDefaultObjectFriction = 0.6;

/// What a scene body is. Each kind has its parameters in SceneBodyDef, its bounds in
/// sceneBodyIssues() and its Box2D shapes in the simulation.
enum class SceneBodyKind {
  Ground,    ///< flat ground: the line y = 0, solid below
  Chair,     ///< a chair: a solid box from the ground up to its seat
  Platform,  ///< a solid box from the ground up (a step, a block); may move (`move:`)
  Wall,      ///< a solid box from the ground up, usually tall and thin
  Table,     ///< a top slab on two legs, room below it
  Stairs,    ///< a flight of steps up in +x, then a landing
  Slope,     ///< solid below the segment `from` – `to`
  Box,       ///< a movable box
  Ball,      ///< a movable disc
  Capsule,   ///< a movable capsule (a rectangle with round ends), lying along its angle
  Chain,     ///< movable links joined end to end by pins
};

/// A chair's shape. Its place is the pose's: the seat's front edge is under a sitting
/// character's hips (x = 0), or 0.6 m behind a character that does not sit.
struct ChairDef {
  /// Height of the seat's top above the ground, metres, from kMinChairHeight to
  /// kMaxChairHeight.
  double seatHeight = kDefaultChairHeight;
  /// Depth of the seat, front edge to back, metres, from kMinSeatDepth to kMaxSeatDepth.
  double seatDepth = kDefaultSeatDepth;
  bool operator==(const ChairDef&) const = default;
};

/// A platform's prescribed motion: it stands where it is written until `start`, then its
/// place is that plus envelope(s) · amplitude · sin(2π · frequency · s), s = t − start:
/// ± the amplitude about its written place. With no ramp the envelope is 1 and the
/// platform sets off at full speed (2π · frequency · amplitude); with a ramp it grows
/// smoothly from 0 to 1 over the ramp's time, so the platform sets off from rest, as a
/// real one does.
struct MoveDef {
  /// Amplitude (x, y), metres.
  std::array<double, 2> amplitude{};
  /// Frequency, Hz.
  double frequency = 0.0;
  /// When the motion starts, seconds (the platform stands still before).
  double start = 0.0;
  /// Time over which the amplitude grows from 0 to full (smoothstep), seconds; 0: none.
  double ramp = 0.0;
  bool operator==(const MoveDef&) const = default;
};

/// One body of a scene. Which fields apply depends on `kind` (docs/scene.md lists them):
/// - Platform, Wall: `x` (left edge), `size` (width, height of the top above the ground),
///   `move` (Platform).
/// - Table: `x` (left edge), `size` (width, height of the top).
/// - Stairs: `x` (first riser), `rise`, `run` (metres per step), `count`, `landing`.
/// - Slope: `from`, `to` (the surface's ends; solid down to the ground).
/// - Box: `size`; Ball: `radius`; Capsule: `length` (between the caps' centres), `radius`;
///   Chain: `count` links of `size` (length, thickness) each. Every movable body: `at`
///   (centre; a chain: its first link's free end), `angle`, `mass` or `density`,
///   `velocity`, `spin`, `restitution`, `launch`; a chain may be `fixed` at its start.
/// Every body but the chair has `friction`.
struct SceneBodyDef {
  /// What the body is; it says which of the parameters below apply.
  SceneBodyKind kind = SceneBodyKind::Ground;
  /// Its name in the scene (contacts, outputs, objectives); the kind's name for the ground
  /// and the chair.
  std::string name;
  /// The chair's shape (kind Chair).
  ChairDef chair;
  /// Left edge (Platform, Wall, Table) or first riser (Stairs), metres.
  double x = 0.0;
  /// (width, height) of a platform, wall, table or box; (length, thickness) of a chain
  /// link; metres.
  std::array<double, 2> size{};
  /// Stairs: the height of each step, metres, and its depth, metres.
  double rise = 0.0;
  double run = 0.0;
  /// Stairs: the depth of the landing at the top, metres.
  double landing = 1.0;
  /// Steps of the stairs, links of a chain.
  int count = 0;
  /// Slope: its surface's left and right ends (x, y), metres.
  std::array<double, 2> from{};
  std::array<double, 2> to{};
  /// Ball and capsule radius; capsule length between its caps' centres; metres.
  double radius = 0.0;
  double length = 0.0;
  /// A movable body's centre (a chain's start), metres.
  std::array<double, 2> at{};
  /// A movable body's angle, degrees counter-clockwise (a chain's direction from its start).
  double angle = 0.0;
  /// A movable body's mass (a chain's per link), kilograms; or, when 0, from `density`.
  double mass = 0.0;
  /// Mass per area, kg/m², used when `mass` is 0.
  double density = 0.0;
  /// Initial velocity (at the launch, if launched), m/s, and angular velocity, rad/s.
  std::array<double, 2> velocity{};
  double spin = 0.0;
  /// Coulomb friction coefficient; a contact uses the smaller of its two bodies'.
  double friction = kDefaultBodyFriction;
  /// Restitution (bounce), 0 to 1; a contact uses the larger of its two bodies'.
  double restitution = 0.0;
  /// A movable body held still where it is placed until this time, seconds from the start,
  /// then let go with `velocity` and `spin`.
  std::optional<double> launch;
  /// A platform that moves on a prescribed path.
  std::optional<MoveDef> move;
  /// A chain whose start is pinned to the world.
  bool fixed = false;
  bool operator==(const SceneBodyDef&) const = default;

  /// Whether the body moves under forces (objects) rather than standing or following a
  /// prescribed path (terrain).
  bool movable() const;
};

/// The number a world statement's `key:` sets in `body` (`component` 0 or 1: x or y of a
/// pair; 0 for a number), in script units (metres, degrees, kilograms, seconds): `at:` is a
/// movable body's centre, terrain's left edge or first riser; `move:`, `frequency:`,
/// `start:` and `ramp:` make the body's MoveDef, `launch:` its launch, when it has none.
/// nullptr for a key that holds no number (`count:`, `fixed:`) or that no body has.
double* sceneBodyNumber(SceneBodyDef& body, std::string_view key, size_t component = 0);

/// A body's number written `@x` in a script's world statement (`box crate mass: @2`): the
/// parameter `slot` sets the number sceneBodyNumber(body, key, component) names, in script
/// units (Program::setParameters).
struct SceneBodyParameter {
  /// Index into Program::parameters.
  int slot = -1;
  /// The body's name (SceneBodyDef::name: a scene's bodies may be reordered, `--env chair`).
  std::string body;
  /// The key as a world statement spells it ("mass", "at", ...).
  std::string key;
  /// 0 or 1: x or y of a pair; 0 for a number.
  size_t component = 0;
  bool operator==(const SceneBodyParameter&) const = default;
};

/// Flat ground.
SceneBodyDef groundBody();
/// A chair of this shape.
SceneBodyDef chairBody(const ChairDef& chair);

/// The kind's name as a world statement spells it ("ground", "chair", "box", ...).
std::string_view sceneBodyKindName(SceneBodyKind kind);

/// The first body of this kind in `bodies`, or nullptr.
const SceneBodyDef* findSceneBody(std::span<const SceneBodyDef> bodies, SceneBodyKind kind);
/// The body named `name`, or nullptr.
const SceneBodyDef* findSceneBody(std::span<const SceneBodyDef> bodies, std::string_view name);

/// The height of the terrain's top (ground, platforms, stairs, slopes, tables; not the
/// chair, walls included) over the x interval [left, right], metres: where a character
/// placed there stands. Movable objects are not terrain.
double terrainHeight(std::span<const SceneBodyDef> bodies, double left, double right);

/// Where a moving platform is at `time` (seconds) relative to where it is written,
/// metres (MoveDef says the path).
std::array<double, 2> moveOffset(const MoveDef& move, double time);
/// Its acceleration on that path at `time`, m/s² (the second derivative of moveOffset;
/// zero before the start, whose jump in velocity without a ramp it leaves out).
std::array<double, 2> moveAcceleration(const MoveDef& move, double time);

/// The height of the highest top over [left, right] a character placed there stands on,
/// metres: the terrain's (terrainHeight), or that of a movable object set at rest on the
/// terrain (a box, a ball or a capsule with no velocity and no spin whose lowest point is
/// within 2 cm of the terrain under it; not a chain's links, nor one held in the air or
/// stacked on another).
double standingHeight(std::span<const SceneBodyDef> bodies, double left, double right);

/// The environments a scene names (`env:`, `--env`): lists of bodies.
enum class Environment {
  Flat,   ///< flat ground
  Chair,  ///< flat ground and a chair
};
/// The environments' names as a scene spells them, by Environment.
inline constexpr std::array<std::string_view, 2> kEnvironments = {"flat", "chair"};
/// What each environment holds, for the language server's hover, by Environment.
inline constexpr std::array<std::string_view, 2> kEnvironmentDescriptions = {
    "flat ground", "flat ground and a chair (height: its seat, m)"};

/// The bodies of `environment`, in the order the simulation creates them: the ground, then
/// (Chair) `chair`.
std::vector<SceneBodyDef> environmentBodies(Environment environment, const ChairDef& chair);

/// The environment `bodies` stand for: Chair when they hold a chair, else Flat.
Environment environmentOf(std::span<const SceneBodyDef> bodies);

/// The environment's name (kEnvironments).
std::string_view environmentName(Environment environment);

}  // namespace scl
