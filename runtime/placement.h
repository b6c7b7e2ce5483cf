// Placing an initial pose so that it rests on its support (docs/language.md, Scene header;
// docs/character.md, Initial states).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "kinematics/character_state.h"
#include "scl/character.h"
#include "scl/scene_body.h"

namespace scl {

/// Where the character starts and what surrounds it.
struct Placement {
  /// World angle of the head, radians.
  double headAngle = 0.0;
  /// World position of the head's origin (the neckTop joint), metres.
  Vec2 headOrigin = Vec2::Zero();
  /// Joint angles, radians.
  std::array<double, kMaxJoints> jointAngles{};
  /// Where the chair's seat has its front edge, x, metres (placed with a chair).
  double seatFront = 0.0;
};

/// Turns a pose into a resting placement.
/// - Ground support: the whole pose is turned by the smallest angle that lets it rest on
///   the ground with its centre of mass above its contact span (a pose that already rests
///   is not turned), lowered until it touches, and centred at x = 0.
/// - Seat support: the shanks keep the pose's world angle and the feet stay flat; the hip
///   and knee angles follow from the seat height so the pelvis and thighs rest on the seat
///   (the feet hang from seats too high for that). The seat's front edge is at x = 0.
///   Throws std::invalid_argument without a chair.
/// A chair a ground-supported pose does not sit on stands behind it, out of its way.
/// `chair`: the scene's chair, or nullptr. `jointOffsets` (radians, may be empty) are added
/// to the pose's joint angles first.
Placement placePose(const Character& character, const PoseDef& pose, const ChairDef* chair,
                    const std::vector<double>& jointOffsets);

/// A placement on the ground raised onto the terrain under it: by the highest top of
/// `bodies`' terrain under the caps it rests on (a platform, a step, a slope at x = 0), or
/// of an object set there at rest (a box: standingHeight()).
void raiseOntoTerrain(const Character& character, Placement& placement,
                      std::span<const SceneBodyDef> bodies);

}  // namespace scl
