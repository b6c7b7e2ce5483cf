// Initial poses as data: joint angles plus how the root is placed (docs/character.md, Initial
// states).
//
// The runtime turns a pose into link transforms (forward kinematics from the head) and
// places it so that it rests on its support without interpenetration and without a
// drop. A new pose is a new row of `kPoses`, not new code.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>

#include "scl/character_table.h"

namespace scl {

/// What a pose rests on.
enum class PoseSupport {
  Ground,  ///< the lowest points rest on the ground
  Seat,    ///< the pelvis rests on the chair's seat, the feet on the ground when they reach
};

struct PoseDef {
  std::string_view name;
  /// One line for `--help` and error messages.
  std::string_view description;
  /// World angle of the head (the root), degrees; the other links follow from the joints.
  double headAngleDeg;
  /// Joint angles, degrees, in kJoints order.
  std::array<double, kJointCount> jointDeg;
  PoseSupport support;
  /// Whether the pose settles onto its support under PD before t = 0. Lying, seated and
  /// crouching poses do (hanging limbs sag onto the ground, bent knees sag; a crouch stops
  /// settling at the end of its sag); standing, which PD alone balances only on the edge
  /// of its heels, starts as placed.
  bool settles;
};

/// World angle of a foot lying flat on the ground, degrees: the foot's bottom is tangent
/// to its two caps (8 and 5.2 cm), so it is flat at 180° minus asin((r1 - r2) / length).
double footFlatAngleDeg();

/// All named poses: standing, supine, prone, sitting, crouching.
std::span<const PoseDef> poses();
/// A pose by name; nullptr when there is none.
const PoseDef* findPose(std::string_view name);

/// Environments a scene can name.
inline constexpr std::array<std::string_view, 2> kEnvironments = {"flat", "chair"};

}  // namespace scl
