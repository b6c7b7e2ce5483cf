// The character as a value: a planar character's links, joints, mirror pairs, roles,
// groups and reference poses, loaded from a character file (docs/character.md) and passed
// down explicitly — front end, bound program, runtime, viewer — never read from a global
// table, so characters of different bodies can simulate side by side in threads.
//
// A character is any tree of links joined by revolute joints (at most kMaxLinks links),
// with any names. What the runtime, the metrics and the primitives need to know about its
// shape they read from its roles (CharacterRoles: the head, trunk and pelvis, and on each
// side the foot, the hand and the leg's hip, knee and ankle), never from names or indices.
// The thesis biped (the human, child and robot) has the 16 links and 15 joints of LinkId
// and JointId, in that order; those enums name its indices for its own file and for tests.
//
// Conventions (docs/character.md, Conventions): in the zero pose every link lies along
// the x axis, the root (the one link no joint has as its child; the head of every shipped
// body) pointing to +x and every other link pointing to -x. A link's local frame is the
// world frame of the zero pose translated to the link's origin (its proximal cap centre),
// so a link's "axis" is +x for the root and -x for the others.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scl {

/// Most links a character may have (joints: one fewer). The per-step state and torque
/// arrays hold this many; a character uses the first linkCount()/jointCount() of them.
inline constexpr int kMaxLinks = 48;
inline constexpr int kMaxJoints = kMaxLinks - 1;

/// The thesis biped's link and joint counts (the human, child and robot).
inline constexpr int kBipedLinkCount = 16;
inline constexpr int kBipedJointCount = 15;

/// Index of a link of the thesis biped (human, child, robot), in the order of their files.
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

/// Index of a joint of the thesis biped, in the order of their files.
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

/// The thesis biped's link and joint names, by LinkId and JointId: a character file's
/// roles default to the ones of these names it has.
extern const std::array<std::string_view, kBipedLinkCount> kBipedLinkNames;
extern const std::array<std::string_view, kBipedJointCount> kBipedJointNames;

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
  /// Direction of the link's axis in the zero pose: +1 for the root, -1 otherwise.
  double axisSign = -1.0;
  /// The joint that attaches this link to its parent; -1 for the root.
  int parentJoint = -1;
  /// The mirror-image link (left <-> right); itself for the links on the midline.
  int mirror = 0;
  /// 0 on the left side (drawn behind), 1 on the right, -1 on the midline.
  int side = -1;
  /// From the shape and mass (finishCharacter()): the centre of mass's distance from the
  /// origin along the axis, metres, and the moment of inertia about it, kg·m².
  double comOffset = 0.0;
  double inertia = 0.0;
};

/// One revolute joint. Angle = child world angle - parent world angle.
struct JointDef {
  std::string name;
  /// Link nearer the root.
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

/// One side's roles: links and joints of a leg and an arm. -1 where the character has
/// none (a bird has no hand).
struct SideRoles {
  /// The foot: the link that stands on the ground (its two caps are heel and toe).
  int foot = -1;
  /// The hand, or -1.
  int hand = -1;
  /// The leg's upper and lower links (the thigh and the shank: the links below the hip and
  /// the knee joints).
  int thigh = -1;
  int shank = -1;
  /// The leg's joints: pelvis–thigh, thigh–shank and the foot's own joint.
  int hip = -1;
  int knee = -1;
  int ankle = -1;
};

/// What the runtime, the metrics and the primitives need to know of a character's shape
/// (docs/character.md, Roles). Declared in a character file by `role` lines, or taken
/// from the thesis biped's names where the file has them.
struct CharacterRoles {
  /// The head, the trunk (the metrics' upright measure) and the pelvis (what sits on a
  /// seat; the legs hang from it), links.
  int head = -1;
  int trunk = -1;
  int pelvis = -1;
  /// Index 0 the left side, 1 the right.
  std::array<SideRoles, 2> sides{};
  const SideRoles& left() const { return sides[0]; }
  const SideRoles& right() const { return sides[1]; }
  /// Both feet, left first.
  std::array<int, 2> feet() const { return {sides[0].foot, sides[1].foot}; }
};

/// The thesis biped's roles, by LinkId and JointId (what its files' names give).
CharacterRoles bipedRoles();

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
  /// World angle of the root link (the head of the shipped bodies), degrees; the other
  /// links follow from the joints.
  double headAngleDeg = 0.0;
  /// Joint angles, degrees, one per joint in Character::joints order.
  std::vector<double> jointDeg;
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
  /// The links (at most kMaxLinks) and joints (one fewer), in the file's order.
  std::vector<LinkDef> links;
  std::vector<JointDef> joints;
  CharacterRoles roles;
  std::vector<GroupDef> linkGroups;
  std::vector<GroupDef> jointGroups;
  std::vector<PoseDef> poses;
  /// Joints ordered so that each one's parent link is reached from the root before it
  /// (forward kinematics walks them in this order); finishCharacter() sets it.
  std::vector<int> treeOrder;
  /// The root link (no joint has it as its child); finishCharacter() sets it.
  int root = 0;
  /// Sum of the links' masses, kilograms; finishCharacter() sets it.
  double totalMass = 0.0;

  int linkCount() const { return static_cast<int>(links.size()); }
  int jointCount() const { return static_cast<int>(joints.size()); }

  std::optional<int> findLink(std::string_view name) const;
  std::optional<int> findJoint(std::string_view name) const;
  /// Members of a link or joint group, empty when `name` is no group.
  std::span<const int> findLinkGroup(std::string_view name) const;
  std::span<const int> findJointGroup(std::string_view name) const;
  /// A pose by name; nullptr when there is none.
  const PoseDef* findPose(std::string_view name) const;
  /// The role a link (or joint, `ofJoint`) plays, as words ("left foot", "pelvis"), or ""
  /// for none.
  std::string roleOf(int index, bool ofJoint) const;
  /// A link's world angle in the `standing` pose, degrees (the root's angle plus the joint
  /// angles down to it); 90 when there is no standing pose.
  double standingAngleDeg(int link) const;
  /// Whether `joint` ends a limb an IK primitive can drive: an ankle role, or the joint
  /// holding a hand role (the wrist).
  bool isLimbEnd(int joint) const;
  /// The joint whose height is the character's "head height" (docs/marks.md): the one
  /// joining the head to the body (the human's neckTop).
  int headJoint() const;
  /// The joint holding the hand on `side` (the wrist), or -1.
  int wrist(int side) const;

  /// World angle of a foot lying flat on the ground, degrees: the foot's bottom is tangent
  /// to its two caps, so it is flat at 180° minus asin((r1 - r2) / length). `side` 0 is
  /// the left foot, 1 the right (an asymmetric character's feet may differ).
  double footFlatAngleDeg(int side = 0) const;
  /// The leg's length on `side`: hip to ankle along the thigh and shank plus the ankle's
  /// height over a flat foot's sole (its proximal cap's radius), metres. Scripts that
  /// scale with the body measure targets in it (docs/retargeting.md).
  double legLength(int side = 0) const;
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

/// Completes a character whose links, joints, groups and poses are filled in: the root,
/// axis signs, parent joints, the tree order, mass properties and the total mass. The
/// tree must be valid (the character parser checks it first).
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
