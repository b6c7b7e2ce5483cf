// The bodies a scene holds besides the character (flat ground, a chair), as typed data.
// One place per step of a body's life: its kind and parameters here, its validation in
// sceneBodyIssues() (scl/scene.h), its Box2D bodies in runtime/simulation.cpp (one
// function per kind). The scene header's `env:` names a list of them (Environment).
#pragma once

#include <array>
#include <span>
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

/// What a scene body is. Each kind has its parameters in SceneBodyDef (none for the
/// ground), its bounds in sceneBodyIssues() and its Box2D shapes in the simulation.
enum class SceneBodyKind {
  Ground,  ///< flat ground: the line y = 0, solid below
  Chair,   ///< a chair: a solid box from the ground up to its seat
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

/// One body of a scene: static, touching the character with SimulationDef::friction.
struct SceneBodyDef {
  /// What the body is; it says which of the parameters below apply.
  SceneBodyKind kind = SceneBodyKind::Ground;
  /// The chair's shape (kind Chair).
  ChairDef chair;
  bool operator==(const SceneBodyDef&) const = default;
};

/// Flat ground.
SceneBodyDef groundBody();
/// A chair of this shape.
SceneBodyDef chairBody(const ChairDef& chair);

/// The kind's name, for messages ("ground", "chair").
std::string_view sceneBodyKindName(SceneBodyKind kind);

/// The first body of this kind in `bodies`, or nullptr.
const SceneBodyDef* findSceneBody(std::span<const SceneBodyDef> bodies, SceneBodyKind kind);

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
