// The SCL syntax tree: what the parser read, names kept as written.
//
// Plain structs; every node carries the SourceLocation of its first token. The binder
// resolves names against the script's character and turns the tree into a scl::Program.
// Equality (`==`) compares locations too; use `withoutLocations` to compare structure only.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "scl/program.h"

namespace scl::syntax {

/// A name as written: a link, joint, group, phase, pose or environment.
struct Name {
  std::string text;
  SourceLocation location;
  bool operator==(const Name&) const = default;
};

/// A number as written, in script units (degrees, metres, newtons, seconds).
struct NumberLit {
  double value = 0.0;
  /// Written with `@`: a free parameter for the optimizer.
  bool parameter = false;
  /// Location of the first character (the `@` of a parameter).
  SourceLocation location;
  bool operator==(const NumberLit&) const = default;
};

struct Vec {
  NumberLit x, y;
  SourceLocation location;
  bool operator==(const Vec&) const = default;
};

enum class Frame { Local, Child, Parent };

/// `joint-or-group NUM [child|parent]`
struct PdItem {
  Name joint;
  NumberLit angle;
  Frame frame = Frame::Local;
  bool operator==(const PdItem&) const = default;
};

/// `[pd-item, ... time: NUM]`
struct Pd {
  std::vector<PdItem> items;
  std::optional<NumberLit> time;
  bool operator==(const Pd&) const = default;
};

/// `[vf (fx, fy) on: LINK by: JOINT]` or `[vf sb(kp, kd) on: LINK by: JOINT]`
struct Vf {
  bool stanceBalance = false;
  /// (fx, fy) for a force, (kp, kd) for stance balance.
  Vec values;
  Name on;
  Name by;
  bool operator==(const Vf&) const = default;
};

/// `[ik vec, ... on: JOINT rel: JOINT time: NUM]`
struct Ik {
  std::vector<Vec> targets;
  Name on;
  std::optional<Name> rel;
  std::optional<NumberLit> time;
  bool operator==(const Ik&) const = default;
};

/// `[relax joint-or-group, ... strength NUM]`
struct Relax {
  std::vector<Name> joints;
  NumberLit strength;
  bool operator==(const Relax&) const = default;
};

/// `[gc [by: JOINT] [strength NUM]]`
struct Gc {
  std::optional<Name> by;
  std::optional<NumberLit> strength;
  bool operator==(const Gc&) const = default;
};

/// `[symm]`
struct Symm {
  bool operator==(const Symm&) const = default;
};

/// The options of a feature, each at most once and in any order: `kp NUM`, `kd NUM`,
/// `time: NUM`, `weight NUM`, `priority NUM` (each kind takes some of them).
struct TaskArgs {
  std::optional<NumberLit> kp, kd, time, weight, priority;
  /// `velocity: (vx, vy)`: a position target's end velocity (track).
  std::optional<Vec> velocity;
  bool operator==(const TaskArgs&) const = default;
};

/// `[com vec ["legs"] task-args]`
struct Com {
  Vec target;
  /// `legs`: the target is in the character's leg lengths, not metres.
  bool inLegs = false;
  /// `standing [vec ["legs"]]`: where the standing pose holds the centre of mass, moved by
  /// `target` when one follows.
  bool standing = false;
  bool hasOffset = false;
  /// `com x NUM` or `com y NUM`: one coordinate alone ('x' or 'y', in `target`'s own), the
  /// other free; 0: both.
  char axis = 0;
  TaskArgs args;
  bool operator==(const Com&) const = default;
};

/// `[angmom NUM task-args]`
struct AngMom {
  NumberLit target;
  TaskArgs args;
  bool operator==(const AngMom&) const = default;
};

/// What follows a clip (docs/clips.md, Control by clips), each at most once, in any order:
/// `clip: NAME {"," NAME}`, `speed: NUM`, `from: NUM`, `loop`, `nearest`.
struct ClipArgs {
  /// The clips named (declared by `clip NAME: "FILE"`); empty: none.
  std::vector<Name> clips;
  std::optional<NumberLit> speed, from;
  /// The words `loop` and `nearest` where written.
  std::optional<Name> loop, nearest;
  bool operator==(const ClipArgs&) const = default;
};

/// `[track NAME ( vec | NUM ) task-args]`: a position (a joint's, or a link's centre of
/// mass) or a link's world angle.
struct Track {
  Name on;
  /// `[track LINK BODY]`: the target is a movable body's centre, moving with it.
  std::optional<Name> toBody;
  std::optional<Vec> position;
  /// `legs` after the position: it is in the character's leg lengths.
  bool inLegs = false;
  /// `standing` instead of an angle: the link's world angle in the standing pose.
  bool standing = false;
  std::optional<NumberLit> angle;
  /// `clip: NAME ...` instead of a target: the link follows the clip's path of it (its
  /// root's origin or its effector's tip), from where the link is when the phase begins.
  ClipArgs clip;
  TaskArgs args;
  bool operator==(const Track&) const = default;
};

/// `[posture { clip-arg | task-arg }]`
struct Posture {
  TaskArgs args;
  ClipArgs clip;
  bool operator==(const Posture&) const = default;
};

/// `[clip NAME { "joints:" joint-or-group {"," joint-or-group} | "speed:" NUM | "from:" NUM
/// | "loop" }]`: PD targets read from a clip (`args.clips` holds NAME).
struct ClipItem {
  ClipArgs args;
  /// The joints it drives; empty: every joint the clip has.
  std::vector<Name> joints;
  bool operator==(const ClipItem&) const = default;
};

/// `[support link-or-group, ...]`
struct Support {
  std::vector<Name> links;
  /// Per link: 'h' (`heel`: its rear end alone), 't' (`toe`: its front end alone) or 0
  /// (the whole link).
  std::vector<char> ends;
  bool operator==(const Support&) const = default;
};

/// `[grasp LINK, ... BODY reach: D]`.
struct Grasp {
  std::vector<Name> links;
  Name body;
  std::optional<NumberLit> reach;
  /// `grip: N`: the strongest force the hold bears, newtons.
  std::optional<NumberLit> grip;
  bool operator==(const Grasp&) const = default;
};

/// `[force LINK (fx, fy) max: N weight W priority P]`.
struct Force {
  Name link;
  Vec force;
  std::optional<NumberLit> max;
  TaskArgs args;
  bool operator==(const Force&) const = default;
};

/// `[swing FOOT (x, y) [legs] lift: H feedback: (cd, cv) ...]`: a swing foot's way to its
/// landing point (docs/features.md, Swing).
struct Swing {
  Name foot;
  Vec target;
  bool inLegs = false;
  std::optional<NumberLit> lift;
  std::optional<Vec> feedback;
  TaskArgs args;
  bool operator==(const Swing&) const = default;
};

/// `[NAME]`: the primitives of the block `define NAME { ... }`, in this place.
struct Use {
  Name block;
  bool operator==(const Use&) const = default;
};

struct Primitive {
  std::variant<Pd, Vf, Ik, Relax, Gc, Symm, Com, AngMom, Track, Posture, Support, Grasp, Force,
               Swing, ClipItem, Use>
      node;
  /// Location of the `[`.
  SourceLocation location;
  bool operator==(const Primitive&) const = default;
};

enum class ContactEvent { Established, Lost, Changed };
enum class ContactQuantifier { Any, All };

/// `after NUM` | `when contact ... [or after NUM]` | `and when contact ... after NUM`
/// `com QUANTITY ( "<" | ">" ) NUM [ "legs" ]`: a condition on the centre of mass's state.
struct ComCondition {
  ComQuantity quantity = ComQuantity::X;
  /// `>` (else `<`).
  bool above = false;
  NumberLit value;
  /// `legs`: the number is in the character's leg lengths (per second for vx, vy).
  bool legs = false;
  bool operator==(const ComCondition&) const = default;
};

struct Transition {
  bool contact = false;
  /// As written; absent means the default (established, any).
  std::optional<ContactEvent> event;
  std::optional<ContactQuantifier> quantifier;
  std::vector<Name> targets;
  /// `with NAME`: the scene body the links must touch (absent: any scene body).
  std::optional<Name> body;
  /// `when holding NAME`: a link holds that scene body (a grasp, docs/manipulation.md).
  std::optional<Name> holding;
  /// `when released NAME`: no link holds that scene body any more.
  std::optional<Name> released;
  /// `when com ...` (or `and when com ... after NUM`): the centre of mass's state.
  std::optional<ComCondition> com;
  /// The `after` time: alone, or with `and when contact` or `and when com`.
  std::optional<NumberLit> after;
  /// `when ... or after NUM`: the fallback time, when the condition never comes.
  std::optional<NumberLit> timeout;
  /// `... backto NAME N times` between phases: the cycle back to NAME runs N times in
  /// all, then the next phase follows.
  std::optional<Name> backto;
  std::optional<NumberLit> times;
  /// Location of the first keyword (`after`, `when` or `and`).
  SourceLocation location;
  bool operator==(const Transition&) const = default;
};

struct Phase {
  std::optional<Name> name;
  /// `(b) : (a)`: the phase mirrored at the start of this one.
  std::optional<Name> mirrorOf;
  std::vector<Primitive> primitives;
  /// The transition written after this phase (absent for the last phase).
  std::optional<Transition> exit;
  /// The parser skipped something in this phase (so `[symm]` may refer to a lost primitive).
  bool recovered = false;
  /// Location of the `{`.
  SourceLocation location;
  /// Location of the closing `}`; unset (line 0) when it is missing.
  SourceLocation end;
  bool operator==(const Phase&) const = default;
};

/// `define NAME { primitive* }`: primitives written once and used in any phase as `[NAME]`.
struct Define {
  Name name;
  std::vector<Primitive> primitives;
  /// The parser skipped something in the block.
  bool recovered = false;
  /// Location of `define`.
  SourceLocation location;
  /// Location of the closing `}`; unset (line 0) when it is missing.
  SourceLocation end;
  bool operator==(const Define&) const = default;
};

/// `finally transition backto NAME`
struct Finally {
  Transition transition;
  Name backto;
  /// `backto NAME N times`: the cycle runs N times in all, then the last phase stays.
  std::optional<NumberLit> times;
  /// Location of `finally`.
  SourceLocation location;
  bool operator==(const Finally&) const = default;
};

/// `scene character: NAME|"FILE" pose: NAME env: NAME height: NUM duration: NUM
/// world: "FILE"` (every argument optional).
struct SceneHeader {
  /// A built-in character's name or a character file's path (without its quotes).
  std::optional<Name> character;
  /// A world file's path (without its quotes): bodies added to the scene.
  std::optional<Name> world;
  std::optional<Name> pose;
  std::optional<Name> environment;
  std::optional<NumberLit> height;
  std::optional<NumberLit> duration;
  SourceLocation location;
  bool operator==(const SceneHeader&) const = default;
};

/// One `key: value` of a world statement: exactly one of the values is set.
struct WorldArgument {
  Name key;
  std::optional<NumberLit> number;
  std::optional<Vec> vec;
  std::optional<Name> word;
  bool operator==(const WorldArgument&) const = default;
};

/// `KIND NAME { key: value }`: one body of the scene's world (scl/world.h; docs/scene.md),
/// written in a script after its scene header or in a world file. The ground has no name:
/// `ground friction: 0.3`. A script's `push NAME force: (FX, FY) at: T for: D` is one too.
struct WorldStatement {
  Name kind;
  std::optional<Name> name;
  /// The arguments, in the kind's canonical order.
  std::vector<WorldArgument> arguments;
  SourceLocation location;
  bool operator==(const WorldStatement&) const = default;
};

/// `clip NAME: "FILE"`: a clip file the script's phases may follow by NAME (a path relative
/// to the script's folder).
struct ClipDecl {
  Name name;
  /// The file's path, without its quotes (its location: the string's).
  Name file;
  /// Location of `clip`.
  SourceLocation location;
  bool operator==(const ClipDecl&) const = default;
};

struct Script {
  std::optional<SceneHeader> scene;
  /// The world statements after the scene header.
  std::vector<WorldStatement> world;
  /// The clips declared (after the world statements, before the blocks).
  std::vector<ClipDecl> clips;
  /// The primitive blocks, in order (written after the scene header, before the phases).
  std::vector<Define> defines;
  std::vector<Phase> phases;
  std::optional<Finally> finally;
  bool operator==(const Script&) const = default;
};

/// A copy with every location (and the parser's `recovered` marks) cleared, for
/// structural comparison.
Script withoutLocations(Script script);

}  // namespace scl::syntax
