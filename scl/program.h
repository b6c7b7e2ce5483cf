// The bound program: what the binder produces and the runtime executes.
//
// Every name is resolved to a link or joint index of the program's character, groups are
// expanded, `[symm]` and mirrored phases `(b) : (a)` are expanded into plain primitives,
// and `backto` is a phase index. All quantities are in internal units (radians, metres,
// newtons, seconds). The runtime never sees tokens or strings; names are kept only for
// display (phase names, parameter names).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "scl/character.h"
#include "scl/clip.h"
#include "scl/push.h"
#include "scl/scene_body.h"
#include "scl/source_location.h"

namespace scl {

/// A number of the script. When written with `@` it is an optimizer slot: `slot` indexes
/// `Program::parameters` and `value` is recomputed by `Program::setParameters`.
struct Number {
  /// What a script unit is in internal units.
  enum class Unit : std::uint8_t {
    Plain,    ///< the same (metres, newtons, seconds)
    Degrees,  ///< pi/180 radians
  };
  /// The value in internal units (radians, metres, newtons, seconds).
  double value = 0.0;
  /// Index into Program::parameters, or -1 for a plain number.
  std::int32_t slot = -1;
  /// The unit the number was written in (16 bytes in all: a program holds many).
  Unit unit = Unit::Plain;
  /// Internal units per script unit (pi/180 for degrees, 1 otherwise).
  double unitFactor() const { return unit == Unit::Degrees ? 3.14159265358979323846 / 180.0 : 1.0; }
  bool operator==(const Number&) const = default;
};

/// A free parameter (`@` number) the optimizer can set by index.
struct Parameter {
  /// Derived from phase and primitive, e.g. "lean.pd.waist" or "propel.vf.fx".
  std::string name;
  /// Value as written in the script, in script units (degrees, metres, ...).
  double initial = 0.0;
  /// Current value in script units.
  double value = 0.0;
  /// Where the `@` number was written.
  SourceLocation location;
};

/// How a PD item's angle is interpreted (docs/primitives.md, PD).
enum class TargetFrame {
  Local,   ///< the joint angle itself
  Child,   ///< world angle of the joint's child link
  Parent,  ///< world angle of the joint's parent link
};

/// A clip a script declared (`clip NAME: "FILE"`, docs/clips.md, Control by clips): read
/// once when the script is bound and bound to the program's character; shared, immutable.
struct ScriptClip {
  /// Its name in the script.
  std::string name;
  /// The clip (seconds, radians, metres inside).
  std::shared_ptr<const Clip> clip;
  /// The clip's column of each of the character's joints (by joint index), -1 where the
  /// clip has no angles of it.
  std::vector<int> columnOf;
};

/// How a primitive plays clips: `clip: NAME speed: S from: T0 loop nearest` (docs/clips.md,
/// Control by clips). The clip's playback time is T0 + S × the time since the phase began.
struct ClipPlayback {
  /// The clips followed; more than one only with `nearest` (a library). Empty: no clip.
  std::vector<std::shared_ptr<const ScriptClip>> clips;
  /// Clip seconds per phase second (dimensionless), > 0.
  Number speed{1.0};
  /// The clip's playback time when the phase begins, seconds.
  Number from;
  /// `loop`: playback wraps around at the clip's end even when the clip does not loop.
  bool loop = false;
  /// `nearest`: each step the frame nearest the current joint angles and velocities, of
  /// any of the clips, is the target, whatever the time (Abe's nearest-posture selection).
  bool nearest = false;
  /// A mirrored copy (`[symm]`, a mirrored phase): each joint follows its mirror image's
  /// angles in the clip.
  bool mirror = false;
  bool active() const { return !clips.empty(); }
};

/// One `joint angle [child|parent]` item of a PD primitive.
struct PdTarget {
  /// Index into kJoints.
  int joint = 0;
  /// Target angle, radians.
  Number angle;
  TargetFrame frame = TargetFrame::Local;
};

/// `[j1 a1, j2 a2 child ... time: T]`, or `[clip NAME joints: ...]`: each target joint's
/// angle read from a clip every step (when `clip.active()`; the targets' angles unused).
struct PdPrimitive {
  std::vector<PdTarget> targets;
  /// Interpolation time, seconds; 0 (or absent) jumps to the target at once.
  Number duration;
  /// The clip the targets follow (local joint angles), when active.
  ClipPlayback clip;
};

/// `[vf (fx, fy) on: LINK by: JOINT]` or `[vf sb(kp, kd) on: LINK by: JOINT]`.
struct VirtualForcePrimitive {
  /// Force, newtons (unused for stance balance).
  Number fx, fy;
  /// True for `sb(kp, kd)`: the horizontal force comes from stance-balance feedback.
  bool stanceBalance = false;
  /// Stance-balance gains, N/m and N·s/m.
  Number kp, kd;
  /// Link the force acts on (at its centre of mass), index into kLinks.
  int link = 0;
  /// First joint of the chain from the base link, index into kJoints.
  int byJoint = 0;
};

/// `[gc]` / `[gc by: JOINT]` with optional `strength`.
struct GravityCompPrimitive {
  /// Base joint (index into kJoints), or -1: the foot or feet in contact.
  int byJoint = -1;
  /// Scale of the compensated weight, 1 = full.
  Number strength{1.0};
};

/// `[ik (x1,y1), ... on: EFFECTOR rel: JOINT time: T]`.
struct IkPrimitive {
  /// Effector offsets from the `rel:` joint's position at phase start, metres.
  std::vector<std::pair<Number, Number>> targets;
  /// Effector joints (wrists or ankles), index into kJoints; two for a group.
  std::vector<int> effectors;
  /// Reference joint, or -1: the chain's base joint (shoulder or hip) of each effector.
  int relJoint = -1;
  /// Time to reach the last target, seconds.
  Number duration;
};

/// `[relax j1, j2 strength s]`: tau = -s kd thetadot.
struct RelaxPrimitive {
  std::vector<int> joints;
  Number strength;
};

/// What every feature (a task of the whole-body QP, docs/features.md) takes: `weight W`
/// and `priority N`.
struct TaskOptions {
  /// Weight of the task's squared error within its priority level.
  Number weight{1.0};
  /// Strict priority level, 1 the highest; 0 when not written (the task then belongs to
  /// level 1; a posture without it, to the lowest level of the phase).
  int priority = 0;
};

/// `[com (x, y) kp K kd D time: T ...]`: the whole-body centre of mass tracks a point
/// given from the middle of the feet (docs/features.md, Frames).
struct ComPrimitive {
  /// Target from the feet's middle point, in units of `scale` (metres unless `legs`).
  Number x, y;
  /// Metres per unit of the target: 1, or the character's leg length (`legs`).
  double scale = 1.0;
  /// `standing`: the target is measured from the standing pose's centre-of-mass height
  /// over the middle of the feet (standingComHeight(), resolved by the feature).
  bool fromStanding = false;
  /// `com x NUM`, `com y NUM`: that coordinate alone ('x' or 'y'), the other free (one
  /// row); 0: both.
  char axis = 0;
  /// `velocity: (vx, vy)`: the target's end velocity, units of `scale` per second; the way
  /// there is then a cubic Hermite curve from the start's position and velocity (when
  /// `hasEndVelocity`): a take-off.
  bool hasEndVelocity = false;
  Number vx, vy;
  /// Acceleration gains, 1/s² and 1/s.
  Number kp{100.0}, kd{20.0};
  /// Time to move the target from where the centre of mass was at phase start, seconds.
  Number duration;
  TaskOptions task;
};

/// `[angmom L kd K ...]`: the centroidal angular momentum's rate tracks kd (L − L_now).
struct AngularMomentumPrimitive {
  /// Target angular momentum about the centre of mass, kg·m²/s (counter-clockwise).
  Number target;
  /// Rate gain, 1/s.
  Number kd{10.0};
  TaskOptions task;
};

/// `[track NAME (x, y) ...]` (a joint's position, a link's centre of mass or a held
/// body's), `[track NAME ANGLE ...]` (a link's or a held body's world angle) or `[track
/// NAME BODY]` (a point toward a movable body's centre, at its velocity).
struct TrackPrimitive {
  enum class Target : std::uint8_t {
    JointPosition,
    LinkPosition,
    LinkAngle,
    BodyPosition,  ///< a movable scene body's centre of mass, while a link holds it
    BodyAngle,     ///< a movable scene body's angle, while a link holds it
  };
  Target target = Target::JointPosition;
  /// The joint (JointPosition), link (LinkPosition, LinkAngle) or scene body (BodyPosition,
  /// BodyAngle: index into Program::scene.bodies, named `bodyName`).
  int index = 0;
  std::string bodyName;
  /// Position target from the feet's middle point, in units of `scale` (metres unless
  /// `legs`); for an angle, `x` is the world angle, radians.
  Number x, y;
  /// Metres per unit of a position target: 1, or the character's leg length (`legs`).
  double scale = 1.0;
  /// `velocity: (vx, vy)`: the position target's end velocity, units of `scale` per
  /// second; the way there is then a cubic Hermite curve from the start's position and
  /// velocity (when `hasEndVelocity`).
  bool hasEndVelocity = false;
  Number vx, vy;
  /// `[track NAME BODY]`: the target is this movable scene body's centre of mass, moving
  /// at its velocity (index into Program::scene.bodies, named `toBodyName`); -1: none.
  int toBody = -1;
  std::string toBodyName;
  /// `[track LINK clip: NAME]` (a LinkPosition target; when `clip.active()`): the link
  /// follows the clip's path of it from where it is when the phase begins, at the playback's
  /// time. The path is the clip's root (the link's origin) when `clipEffector` is -1, else
  /// its effector `clipEffector` (index into the clip's effectors: the link's tip).
  ClipPlayback clip;
  int clipEffector = -1;
  Number kp{100.0}, kd{20.0};
  Number duration;
  TaskOptions task;
};

/// `[swing FOOT (x, y) lift: H feedback: (cd, cv) time: T ...]`: the foot's sole middle
/// goes from where it was at phase start to a landing point over T seconds, lifted H on the
/// way, the landing point moved by cd·d + cv·v (d, v: the centre of mass's place and
/// velocity ahead of the frame origin, each step), and the foot turned as when standing
/// (docs/features.md, Swing).
struct SwingPrimitive {
  /// The swinging link (a foot), index into the character's links.
  int link = 0;
  /// The landing point from the frame origin, units of `scale` (metres unless `legs`).
  Number x, y;
  /// Metres per unit of the landing point and the lift: 1, or the leg length (`legs`).
  double scale = 1.0;
  /// The way's highest point above the straight line from start to landing, units of
  /// `scale`.
  Number lift{0.08};
  /// Foot placement feedback: metres of landing point per metre of the centre of mass
  /// ahead of the frame origin (cd) and per m/s of its velocity (cv, seconds).
  Number cd, cv;
  Number kp{100.0}, kd{20.0};
  /// The swing's duration, seconds: the way ends on the landing point, descending.
  Number duration{0.4};
  TaskOptions task;
};

/// `[posture kp K kd D ...]`: the gains and weight of the posture task, which tracks the
/// phase's PD targets, or with `clip:` a clip's angles and velocities.
struct PosturePrimitive {
  Number kp{100.0}, kd{20.0};
  /// The clip whose angles (and their rates) are the targets of the joints it has, when
  /// active; the other joints keep the phase's PD targets.
  ClipPlayback clip;
  TaskOptions task{Number{0.01}, 0};
};

/// A grasp's reach when the script gives none, metres, and the largest it may give.
inline constexpr double kDefaultGraspReach = 0.05;
inline constexpr double kMaxGraspReach = 0.5;

/// `[support LINK [heel|toe], ...]`: the links whose contacts the QP may use (default:
/// every link touching the environment), or one end of a link (docs/features.md, Heel
/// and toe).
struct SupportPrimitive {
  /// What of a link may carry: the whole link, or its rear (heel) or front (toe) end alone.
  enum class End : std::uint8_t { Whole, Heel, Toe };
  std::vector<int> links;
  /// Per link, in `links`' order.
  std::vector<End> ends;
};

/// `[grasp LINK, ... BODY reach: D]`: while the phase lasts, each link (a hand) that comes
/// within `reach` of the movable scene body BODY is welded to it where it is, and holds
/// it for as long as the phases that follow grasp BODY with that link; the first phase
/// that does not lets go, the body keeping its velocity (docs/manipulation.md).
struct GraspPrimitive {
  /// The grasping links, indices into the character's (groups expanded).
  std::vector<int> links;
  /// The body, index into Program::scene.bodies (a movable object), and its name.
  int body = -1;
  std::string bodyName;
  /// The largest gap between a link and the body that still grasps, metres.
  Number reach{kDefaultGraspReach};
  /// `grip: N`: the strongest force a hold bears, newtons; pulled harder it breaks, and is
  /// not taken again while the grasp lasts (when `hasGrip`; otherwise it never breaks).
  bool hasGrip = false;
  Number grip;
};

/// `[force LINK (fx, fy) max: N ...]`: a force task of the feature QP. LINK pushes on what
/// it touches with the force (fx, fy), and never with more than `max` (docs/manipulation.md,
/// Force tasks).
struct ForcePrimitive {
  /// The pushing link, index into the character's.
  int link = 0;
  /// The force the link exerts on what it touches, world newtons (x forward, y up).
  Number fx, fy;
  /// The largest force it may press with (the sum of its normal forces), newtons; without
  /// `max:`, the target force's magnitude.
  bool hasMax = false;
  Number max;
  TaskOptions task;
};

using Primitive = std::variant<PdPrimitive, VirtualForcePrimitive, GravityCompPrimitive,
                               IkPrimitive, RelaxPrimitive, ComPrimitive, AngularMomentumPrimitive,
                               TrackPrimitive, PosturePrimitive, SupportPrimitive, GraspPrimitive,
                               ForcePrimitive, SwingPrimitive>;

/// True for the primitives the whole-body QP solves together (com, angmom, track,
/// posture, support) rather than a PrimitiveInstance.
bool isFeature(const Primitive& primitive);
/// True when a phase holds a feature: its torques then come from the QP.
bool hasFeatures(const std::vector<Primitive>& primitives);

enum class ContactEvent { Established, Lost, Changed };
enum class ContactQuantifier { Any, All };

/// What `when com` compares (docs/language.md, Transitions): the centre of mass's position
/// from the origin of the phase's frame, its velocity relative to the frame, or the x of
/// its capture point.
enum class ComQuantity : std::uint8_t { X, Y, Vx, Vy, Capture };
/// The quantities as scripts write them, in the enum's order.
inline constexpr std::array<std::string_view, 5> kComQuantityWords = {"x", "y", "vx", "vy",
                                                                      "capture"};
inline std::string_view comQuantityWord(ComQuantity quantity) {
  return kComQuantityWords[static_cast<size_t>(quantity)];
}

/// The condition that ends a phase (docs/language.md, Transitions).
struct Transition {
  /// Fires after this many seconds in the phase (when `hasTime`).
  bool hasTime = false;
  Number time;
  /// A condition (when `hasContact`: a contact, `holding`, `released` or `com`); both must
  /// hold when both are present.
  bool hasContact = false;
  /// The contact condition's fallback (`when contact ... or after T`): fires after this
  /// many seconds in the phase when the condition has not (when `hasTimeout`).
  bool hasTimeout = false;
  Number timeout;
  ContactEvent event = ContactEvent::Established;
  ContactQuantifier quantifier = ContactQuantifier::Any;
  /// Links watched for contact, indices into kLinks (groups expanded).
  std::vector<int> links;
  /// `with BODY`: the scene body the links must touch, by its name (SceneBodyDef::name);
  /// empty: any scene body (LinkState::contact).
  std::string body;
  /// `when holding BODY` (with hasContact): the condition is that a link holds `body` (a
  /// grasp has welded it), rather than a contact of `links`.
  bool holding = false;
  /// `when released BODY` (with hasContact): the condition is that no link holds `body`
  /// now while one did at some step since the phase began (its first included).
  bool released = false;
  /// `when com QUANTITY < VALUE` (with hasContact): the condition is that the centre of
  /// mass's `comQuantity`, in the phase's frame, is below `comValue` (above it when
  /// `comAbove`), rather than a contact of `links`.
  bool com = false;
  ComQuantity comQuantity = ComQuantity::X;
  bool comAbove = false;
  /// The threshold in units of `comScale`: metres or m/s, leg lengths (per second) after
  /// `legs` (`comInLegs`; `comScale` then the character's mean leg length).
  Number comValue;
  double comScale = 1.0;
  bool comInLegs = false;
  /// That body as its bit in LinkState::touching: bit i for Scene::bodies[i] of the scene
  /// the program runs in (bound against Program::scene; pointContactBodies() for another
  /// scene); 0 when `body` is empty.
  std::uint64_t bodyMask = 0;
  /// Phase that follows, index into Program::phases.
  int next = 0;
  /// A counted cycle (`backto NAME N times`): the first `cycles` − 1 times this transition
  /// fires it leads back to phase `cycleStart`, the next time to `next` (and the count
  /// starts again); `cycles` 0: none.
  int cycleStart = -1;
  int cycles = 0;
  SourceLocation location;
};

struct Phase {
  /// Name for display; empty when the script gives none.
  std::string name;
  std::vector<Primitive> primitives;
  /// What ends this phase; nullopt for a last phase that stays active forever.
  std::optional<Transition> exit;
  SourceLocation location;
};

/// The initial state a script starts from (docs/language.md, Scene header).
struct Scene {
  /// Initial pose, a pose of the program's character (Character::poses).
  std::string pose = "standing";
  /// What surrounds the character, in the order the simulation creates it: flat ground
  /// and perhaps a chair (environmentBodies()); checked by sceneBodyIssues().
  std::vector<SceneBodyDef> bodies = {groundBody()};
  /// Default run duration, seconds; nullopt: decided by the runner.
  std::optional<double> duration;
  /// The chair's shape, or nullptr when the scene has no chair.
  const ChairDef* chair() const;
  ChairDef* chair();
  bool operator==(const Scene&) const = default;
};

struct Program {
  std::vector<Phase> phases;
  std::vector<Parameter> parameters;
  Scene scene;
  /// The scene bodies' numbers written `@x` (world statements), set with the parameters.
  std::vector<SceneBodyParameter> sceneParameters;
  /// The pushes the script carries (`push` statements), in order.
  std::vector<ScriptPush> pushes;
  /// The character the program was bound for (its names, ranges and body); shared and
  /// immutable. Never null in a bound program.
  std::shared_ptr<const Character> character;

  /// Sets every `@` parameter (script units, in slot order) and the Numbers and scene body
  /// numbers using it.
  void setParameters(const std::vector<double>& values);
  /// Current parameter values, script units, in slot order.
  std::vector<double> parameterValues() const;
  /// Visits every Number of the program (for updating parameters).
  void forEachNumber(const std::function<void(Number&)>& visit);
};

/// Points every `when contact ... with BODY` of `program` at BODY's place in `bodies` (found
/// by its name), for a run in a scene other than the one the program was bound in: `scl
/// run --env chair` puts the chair second and the world's bodies after it, an objective
/// file's scene another chair. Throws std::invalid_argument when `bodies` lacks one (`--env
/// flat` under a script that waits for contact with the chair).
void pointContactBodies(Program& program, std::span<const SceneBodyDef> bodies);

}  // namespace scl
