// The character as a value: a planar biped's links, joints, mirror pairs, groups and
// reference poses, loaded from a character file (docs/character.md) and passed down
// explicitly — front end, bound program, runtime, viewer — never read from a global
// table, so characters of different bodies can simulate side by side in threads.
//
// Every character is the same biped in shape: the 16 links and 15 joints that scripts
// name (head, neck, trunk, pelvis, left/right arm, forearm, hand, thigh, shank, foot; the
// joints between them), at the indices of LinkId and JointId. Its body is data: each
// link's length, tip thicknesses and mass, each joint's parent and child, anchor, range,
// gains and torque limit, its groups and its poses.
//
// Conventions (docs/character.md, Conventions): in the zero pose every link lies along
// the x axis, the root (the head) pointing to +x and every other link pointing to -x. A
// link's local frame is the world frame of the zero pose translated to the link's origin
// (its proximal cap centre), so a link's "axis" is +x for the head and -x for the others.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scl {

inline constexpr int kLinkCount = 16;
inline constexpr int kJointCount = 15;

/// Index of a link in Character::links: the biped's links, in this order in every
/// character.
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

/// Index of a joint in Character::joints: the biped's joints, in this order.
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

/// The names scripts use for the biped's links and joints, by LinkId and JointId.
extern const std::array<std::string_view, kLinkCount> kLinkNames;
extern const std::array<std::string_view, kJointCount> kJointNames;

/// The biped's tree: the links each joint joins (parent nearer the head, child), by
/// JointId. Joint j's child is link j + 1.
struct JointWiring {
  LinkId parent;
  LinkId child;
};
extern const std::array<JointWiring, kJointCount> kBipedWiring;

/// One rigid link: a trapezoid with a semicircular cap at each end.
struct LinkDef {
  std::string name;
  /// Distance between the two cap centres, metres.
  double length = 0.0;
  /// Diameter of the proximal cap (at the link's origin), metres.
  double proximalThickness = 0.0;
  /// Diameter of the distal cap, metres.
  double distalThickness = 0.0;
  /// Mass, kilograms.
  double mass = 0.0;
  /// Direction of the link's axis in the zero pose: +1 for the root (head), -1 otherwise.
  double axisSign = -1.0;
  /// The joint that attaches this link to its parent; -1 for the root (head).
  int parentJoint = -1;
  /// The mirror-image link (left <-> right); itself for the links on the midline.
  int mirror = 0;
  /// From the shape and mass (finishCharacter()): the centre of mass's distance from the
  /// origin along the axis, metres, and the moment of inertia about it, kg·m².
  double comOffset = 0.0;
  double inertia = 0.0;
};

/// One revolute joint. Angle = child world angle - parent world angle.
struct JointDef {
  std::string name;
  /// Link nearer the root (head).
  int parentLink = 0;
  /// Link farther from the root.
  int childLink = 0;
  /// Position of the joint along the parent's axis, metres from the parent's origin
  /// (0 = the parent's proximal cap centre, length = its distal cap centre).
  double anchorOnParent = 0.0;
  /// Lower and upper joint limits, degrees.
  double minDeg = 0.0;
  double maxDeg = 0.0;
  /// Proportional gain, N·m/rad.
  double kp = 0.0;
  /// Derivative gain, N·m·s/rad.
  double kd = 0.0;
  /// Largest torque the joint may apply, N·m.
  double maxTorque = 0.0;
  /// The mirror-image joint; itself for the joints on the midline.
  int mirror = 0;
};

/// A plural name standing for several links or joints (`knees`, `feet`).
struct GroupDef {
  std::string name;
  /// Members, indices into Character::links or Character::joints.
  std::vector<int> members;
};

/// What a pose rests on.
enum class PoseSupport {
  Ground,  ///< the lowest points rest on the ground
  Seat,    ///< the pelvis rests on the chair's seat, the feet on the ground when they reach
};

/// A named initial pose.
struct PoseDef {
  std::string name;
  /// One line for help and error messages.
  std::string description;
  /// World angle of the head (the root), degrees; the other links follow from the joints.
  double headAngleDeg = 0.0;
  /// Joint angles, degrees, in JointId order.
  std::array<double, kJointCount> jointDeg{};
  PoseSupport support = PoseSupport::Ground;
  /// Whether the pose settles onto its support under PD before t = 0. Lying, seated and
  /// crouching poses do (hanging limbs sag onto the ground, bent knees sag); standing,
  /// which PD alone balances only on the edge of its heels, starts as placed.
  bool settles = false;
};

/// A character: its body as data (see the file comment).
struct Character {
  /// Its name (`human`, `child`, ...), for messages and summaries.
  std::string name;
  /// Where it was loaded from ("built-in" or a file path), for messages.
  std::string source;
  std::array<LinkDef, kLinkCount> links{};
  std::array<JointDef, kJointCount> joints{};
  std::vector<GroupDef> linkGroups;
  std::vector<GroupDef> jointGroups;
  std::vector<PoseDef> poses;
  /// Joints ordered so that each one's parent link is reached from the root before it
  /// (forward kinematics walks them in this order); finishCharacter() sets it.
  std::array<int, kJointCount> treeOrder{};
  /// Sum of the links' masses, kilograms; finishCharacter() sets it.
  double totalMass = 0.0;

  std::optional<int> findLink(std::string_view name) const;
  std::optional<int> findJoint(std::string_view name) const;
  /// Members of a link or joint group, empty when `name` is no group.
  std::span<const int> findLinkGroup(std::string_view name) const;
  std::span<const int> findJointGroup(std::string_view name) const;
  /// A pose by name; nullptr when there is none.
  const PoseDef* findPose(std::string_view name) const;
  /// World angle of a foot lying flat on the ground, degrees: the foot's bottom is tangent
  /// to its two caps, so it is flat at 180° minus asin((r1 - r2) / length).
  double footFlatAngleDeg() const;
};

/// An inclusive range a number of a character file must lie in.
struct PhysicalBounds {
  double min = 0.0;
  double max = 0.0;
  bool contains(double value) const { return value >= min && value <= max; }
};

/// The physical bounds of a character file's numbers, checked where the file is built, so
/// that no file hands Box2D a body it cannot simulate (a polygon thinner than its welding
/// distance, a mass or size that overflows its sums). Generous around any body from a
/// mouse to a giant; each shipped character lies well inside.
inline constexpr PhysicalBounds kLinkLengthBounds{0.01, 10.0};       ///< m
inline constexpr PhysicalBounds kLinkThicknessBounds{0.01, 2.0};     ///< m, each cap
inline constexpr PhysicalBounds kLinkMassBounds{0.01, 1000.0};       ///< kg, also from density
inline constexpr PhysicalBounds kLinkDensityBounds{0.01, 100000.0};  ///< kg/m²
inline constexpr PhysicalBounds kJointAngleBounds{-360.0, 360.0};    ///< deg: ranges, poses
inline constexpr PhysicalBounds kJointKpBounds{0.0, 100000.0};       ///< N·m/rad
inline constexpr PhysicalBounds kJointKdBounds{0.0, 10000.0};        ///< N·m·s/rad
inline constexpr PhysicalBounds kJointTorqueBounds{0.0, 100000.0};   ///< N·m (and > 0)

/// Completes a character whose links, joints, groups and poses are filled in: axis
/// signs, parent joints, the tree order, mass properties and the total mass. The tree
/// must be valid (the character parser checks it first).
void finishCharacter(Character& character);

/// Centre-of-mass offset along the axis (m) and moment of inertia about the centre of mass
/// (kg·m²) of a capped trapezoid of `length` between caps of the given diameters, with
/// `mass` spread uniformly over its area.
struct LinkMassProperties {
  double comOffset = 0.0;
  double inertia = 0.0;
  /// Area of the shape, m².
  double area = 0.0;
};
LinkMassProperties linkMassProperties(double length, double proximalThickness,
                                      double distalThickness, double mass);

/// The thesis human (Shen 2013, Tables 4.1 and 4.2; characters/human.character): the
/// character a script gets unless it names another. Immutable, shared. (Defined with the
/// character files, scl/character_loader.cpp.)
const std::shared_ptr<const Character>& humanCharacter();

/// Degrees to radians and back.
inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double degToRad(double deg) { return deg * kPi / 180.0; }
inline constexpr double radToDeg(double rad) { return rad * 180.0 / kPi; }

}  // namespace scl
