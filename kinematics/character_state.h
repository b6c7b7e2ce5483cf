// A read-only view of the character's state, as primitives, the dynamics and the feature
// controller see it: no Box2D, no names.
//
// The runtime fills one of these from the Box2D bodies every step; tests and pose
// placement fill one from forward kinematics. Angles are radians; world angles follow
// docs/character.md, Conventions (0 in the zero pose, counter-clockwise positive);
// positions are metres.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <limits>
#include <utility>

#include "scl/character.h"

namespace scl {

using Vec2 = Eigen::Vector2d;

/// Most contact points a link reports (LinkState::contactPoints).
inline constexpr int kMaxContactPoints = 4;

struct LinkState {
  /// Position of the link's origin (its proximal cap centre), metres.
  Vec2 origin = Vec2::Zero();
  /// World angle, radians (continuous, not wrapped).
  double angle = 0.0;
  /// Centre of mass, metres.
  Vec2 com = Vec2::Zero();
  /// Velocity of the centre of mass, m/s.
  Vec2 comVelocity = Vec2::Zero();
  /// Angular velocity, rad/s.
  double angularVelocity = 0.0;
  /// Touching a body of the scene (terrain or a movable object) this step.
  bool contact = false;
  /// Touching the terrain (the ground, the chair, platforms, stairs, slopes, walls, tables;
  /// not a movable object) this step.
  bool terrainContact = false;
  /// The scene bodies it touches: bit i for Scene::bodies[i].
  std::uint64_t touching = 0;
  /// The scene bodies it holds (welded to it by a grasp): bit i for Scene::bodies[i].
  std::uint64_t holding = 0;
  /// What it holds, all together: mass, kg (0: nothing), centre of mass, metres, and
  /// moment of inertia about that centre, kg·m².
  double heldMass = 0.0;
  Vec2 heldCom = Vec2::Zero();
  double heldInertia = 0.0;
  /// The velocity of that centre of mass, m/s.
  Vec2 heldVelocity = Vec2::Zero();
  /// Mean of the contact points with the scene's bodies when `contact`, metres.
  Vec2 contactPoint = Vec2::Zero();
  /// Mean velocity, at those contact points, of the scene bodies it touches, m/s: zero on
  /// still terrain, a moving platform's velocity on one (what carries a foot standing on it).
  Vec2 supportVelocity = Vec2::Zero();
  /// Mean acceleration of the bodies it touches that move on a prescribed path (moving
  /// platforms), m/s², over its contact points; zero on everything else.
  Vec2 supportAcceleration = Vec2::Zero();
  /// The contact points with the scene's bodies (the first kMaxContactPoints the physics
  /// reports), metres, and at each the unit normal of the environment's surface, pointing
  /// into the link. Points past `contactPointCount` are unused.
  int contactPointCount = 0;
  std::array<Vec2, kMaxContactPoints> contactPoints{};
  std::array<Vec2, kMaxContactPoints> contactNormals{};
};

/// A movable scene body as the controller sees it each step (object targets,
/// docs/manipulation.md): one per scene body, by its index into Scene::bodies (terrain's
/// entries stay at their defaults); a chain is seen as its last link, its far end.
struct SceneObjectState {
  /// Whether this scene body is a movable object (the rest of the entry is meaningful).
  bool movable = false;
  /// Centre of mass, metres; its velocity, m/s.
  Vec2 position = Vec2::Zero();
  Vec2 velocity = Vec2::Zero();
  /// Angle, radians (continuous), and angular velocity, rad/s.
  double angle = 0.0;
  double spin = 0.0;
  /// Touching nothing (no contact; a weld is not one): in flight, accelerating with gravity.
  bool inFlight = false;
};

/// A link asking to hold a movable scene body (`[grasp]`, docs/manipulation.md).
struct GraspRequest {
  /// The grasping link, index into the character's.
  int link = 0;
  /// The body, index into Scene::bodies (a movable object; a chain: its nearest link).
  int sceneBody = 0;
  /// The largest gap between the link and the body that still grasps, metres.
  double reach = 0.05;
  /// The strongest force the hold bears, newtons: pulled harder, it breaks (and is not
  /// taken again until a phase without this grasp); infinity: it never breaks.
  double grip = std::numeric_limits<double>::infinity();
  bool operator==(const GraspRequest&) const = default;
};

/// Holds kMaxLinks links and kMaxJoints joints; the character's own are the first
/// linkCount and jointCount (the rest stay at their defaults: no contact, zero).
struct CharacterState {
  int linkCount = 0;
  int jointCount = 0;
  std::array<LinkState, kMaxLinks> links;
  /// World position of each joint, metres.
  std::array<Vec2, kMaxJoints> jointPositions;
  /// Joint angle = child world angle - parent world angle, radians.
  std::array<double, kMaxJoints> jointAngles{};
  /// Joint angular velocity (child - parent), rad/s.
  std::array<double, kMaxJoints> jointVelocities{};
  /// Whole-body centre of mass and its velocity.
  Vec2 com = Vec2::Zero();
  Vec2 comVelocity = Vec2::Zero();
  /// Simulation time, seconds.
  double time = 0.0;
};

/// Unit vector of a link's axis (from its origin toward its distal cap) at world angle.
Vec2 linkAxis(const Character& character, int link, double worldAngle);

/// Link world angles from the root's world angle and the joint angles (radians).
std::array<double, kMaxLinks> worldAnglesFromJoints(
    const Character& character, double headAngle,
    const std::array<double, kMaxJoints>& jointAngles);

/// A static state (zero velocities, no contact) from the root's origin and angle and the
/// joint angles: link origins, joint positions, centres of mass, whole-body COM.
CharacterState forwardKinematics(const Character& character, const Vec2& headOrigin,
                                 double headAngle,
                                 const std::array<double, kMaxJoints>& jointAngles);

/// Recomputes joint positions, joint angles/velocities and the whole-body COM and its
/// velocity from the per-link fields (origin, angle, com, velocities).
void completeDerivedState(const Character& character, CharacterState& state);

/// The centre of mass, metres, and its velocity, m/s, of the character together with what
/// its links hold (LinkState::heldMass): CharacterState::com and comVelocity themselves
/// when it holds nothing.
std::pair<Vec2, Vec2> comWithHeld(const Character& character, const CharacterState& state);

/// The height of the body's lowest point in `state` (the lowest of its caps), metres.
double lowestPoint(const Character& character, const CharacterState& state);

/// How high the character's `standing` pose holds its centre of mass above the body's
/// lowest point, metres (`[com standing]`); 0 without a standing pose.
double standingComHeight(const Character& character);

/// What of a foot touches flat ground: the lowest point of its proximal cap (the heel,
/// under the ankle) and of its distal cap (the toe, at the ball of the foot), metres.
struct FootPoints {
  Vec2 heel = Vec2::Zero();
  Vec2 toe = Vec2::Zero();
};

/// A foot's heel and toe (any link's two caps' lowest points) in `state`.
FootPoints footPoints(const Character& character, const CharacterState& state, int link);
/// The same of a link of shape `def` in pose `at`.
FootPoints footPoints(const LinkDef& def, const LinkState& at);

}  // namespace scl
