// The character's single data table: names, tree, mirror pairs, geometry and gains.
//
// Every other part of scl reads the character from here: the binder resolves names
// against it, the runtime builds Box2D bodies from it, the viewer draws it. It is pure
// data (no physics library), so the language front end can depend on it.
//
// Conventions (docs/character.md, Conventions): in the zero pose every link lies along the x axis,
// the head pointing to +x and every other link pointing to -x. A link's local frame is the world
// frame of the zero pose translated to the link's origin (its proximal cap centre), so
// a link's "axis" is +x for the head and -x for every other link.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace scl {

inline constexpr int kLinkCount = 16;
inline constexpr int kJointCount = 15;

/// Index of a link in `kLinks`.
enum LinkId : int {
  kHead,
  kNeck,
  kTrunk,
  kPelvis,
  kLeftArm,
  kRightArm,
  kLeftForearm,
  kRightForearm,
  kLeftHand,
  kRightHand,
  kLeftThigh,
  kRightThigh,
  kLeftShank,
  kRightShank,
  kLeftFoot,
  kRightFoot,
};

/// Index of a joint in `kJoints`.
enum JointId : int {
  kNeckTop,
  kNeckBottom,
  kWaist,
  kLeftShoulder,
  kRightShoulder,
  kLeftElbow,
  kRightElbow,
  kLeftWrist,
  kRightWrist,
  kLeftHip,
  kRightHip,
  kLeftKnee,
  kRightKnee,
  kLeftAnkle,
  kRightAnkle,
};

/// One rigid link: a trapezoid with a semicircular cap at each end (thesis Table 4.1).
struct LinkDef {
  std::string_view name;
  /// Distance between the two cap centres, metres.
  double length;
  /// Diameter of the proximal cap (at the link's origin), metres.
  double proximalThickness;
  /// Diameter of the distal cap, metres.
  double distalThickness;
  /// Mass, kilograms.
  double mass;
  /// Direction of the link's axis in the zero pose: +1 (head) or -1 (every other link).
  double axisSign;
  /// The joint that attaches this link to its parent; -1 for the root (head).
  int parentJoint;
  /// The mirror-image link (left <-> right); itself for the links on the midline.
  int mirror;
};

/// One revolute joint (thesis Table 4.2). Angle = child world angle - parent world angle.
struct JointDef {
  std::string_view name;
  /// Link nearer the head.
  int parentLink;
  /// Link farther from the head.
  int childLink;
  /// Position of the joint along the parent's axis, metres from the parent's origin
  /// (0 = the parent's proximal cap centre, length = its distal cap centre).
  double anchorOnParent;
  /// Lower joint limit, degrees.
  double minDeg;
  /// Upper joint limit, degrees.
  double maxDeg;
  /// Proportional gain, N·m/rad.
  double kp;
  /// Derivative gain, N·m·s/rad.
  double kd;
  /// Largest torque the joint may apply, N·m.
  double maxTorque;
  /// The mirror-image joint; itself for the joints on the midline.
  int mirror;
};

/// A plural name standing for several links or joints (docs/character.md, Links and joints).
struct GroupDef {
  std::string_view name;
  /// Members, indices into kLinks or kJoints.
  std::array<int, 2> members;
};

extern const std::array<LinkDef, kLinkCount> kLinks;
extern const std::array<JointDef, kJointCount> kJoints;
extern const std::array<GroupDef, 6> kLinkGroups;
extern const std::array<GroupDef, 7> kJointGroups;

/// Total mass of the character, kilograms (89.49 kg).
double totalMass();

/// Index of a link or joint by its script name; nullopt when there is none.
std::optional<int> findLink(std::string_view name);
std::optional<int> findJoint(std::string_view name);
/// Members of a link or joint group, empty when `name` is no group.
std::span<const int> findLinkGroup(std::string_view name);
std::span<const int> findJointGroup(std::string_view name);

/// Degrees to radians and back.
inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double degToRad(double deg) { return deg * kPi / 180.0; }
inline constexpr double radToDeg(double rad) { return rad * 180.0 / kPi; }

}  // namespace scl
