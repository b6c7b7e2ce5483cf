// BVH (Biovision Hierarchy), the interchange format of motion capture and of
// Blender/Maya/MotionBuilder, in and out of clips (docs/clips.md, BVH import and export):
//
// - parseBvh reads a BVH file (its hierarchy and motion) with located diagnostics;
// - writeBvh writes a clip of a character as BVH: one BVH joint per link, rooted at the
//   clip's root link, its rest pose the character standing straight (every link at 90°),
//   rotations about the BVH z axis (the character moves in the BVH x–y plane);
// - a mapping file (`*.bvhmap`) says which BVH joint's rotation, projected on which axis,
//   with which sign and offset, gives which joint of a character (several BVH joints may
//   add up to one joint), and how the BVH root's position lies in the character's plane;
//   parseBvhMapping reads it with the shared lexer and line parser;
// - importBvh projects a BVH motion through a mapping onto a character's sagittal plane:
//   a clip.
//
// BVH names need not be SCL identifiers (`mixamorig:Hips`), so BVH files have a reader of
// their own (whitespace-separated words, with lines and columns); a mapping file writes
// such a name as a "string".
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/character.h"
#include "scl/clip.h"
#include "scl/diagnostics.h"

namespace scl {

/// A BVH channel: a translation along, or a rotation about, an axis of the joint's parent
/// frame (Euler angles in degrees, applied in the order the joint lists them).
enum class BvhChannel { Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation };

/// "Xposition", ... as BVH writes them.
std::string_view bvhChannelName(BvhChannel channel);

/// One joint of a BVH hierarchy.
struct BvhJoint {
  std::string name;
  /// The parent joint (index into Bvh::joints); -1 for the root.
  int parent = -1;
  /// Where the joint lies from its parent's in the rest pose, BVH length units.
  std::array<double, 3> offset{};
  /// Its channels in the file's order.
  std::vector<BvhChannel> channels;
  /// The index of its first channel's value in a frame.
  int firstChannel = 0;
  /// The offset of its `End Site`, BVH length units, when it has one.
  std::optional<std::array<double, 3>> endSite;
  /// Where its name is written.
  SourceLocation location;
};

/// A BVH file's contents.
struct Bvh {
  /// The joints, the root first, each after its parent (the file's order).
  std::vector<BvhJoint> joints;
  /// Values of every frame: the sum of the joints' channels.
  int channelCount = 0;
  /// Seconds between frames (`Frame Time:`).
  double frameTime = 0.0;
  int frameCount = 0;
  /// frameCount × channelCount values, frame after frame: translations in BVH length units,
  /// rotations in degrees.
  std::vector<double> values;

  /// The joint named `name`, or -1.
  int findJoint(std::string_view name) const;
  /// Value `channel` of frame `frame`.
  double value(int frame, int channel) const {
    return values[static_cast<size_t>(frame) * static_cast<size_t>(channelCount) +
                  static_cast<size_t>(channel)];
  }
};

/// Most joints, and channels per joint, a BVH file may have.
inline constexpr int kMaxBvhJoints = 1024;
inline constexpr int kMaxBvhChannels = 6;

struct BvhParse {
  Bvh bvh;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return !hasErrors(diagnostics); }
};

/// bvh := "HIERARCHY" joint "MOTION" "Frames:" INT "Frame" "Time:" NUM { NUM }
/// joint := ( "ROOT" | "JOINT" ) NAME "{" "OFFSET" NUM NUM NUM [ "CHANNELS" INT { CHANNEL } ]
///          { joint | "End" "Site" "{" "OFFSET" NUM NUM NUM "}" } "}"
/// (keywords in any case). Reports each error where it is: a missing keyword or brace, an
/// unknown channel (with "did you mean"), a name twice, a frame count or value count that
/// does not match.
BvhParse parseBvh(std::string_view text, std::string_view fileName);

/// The BVH text of `clip`, a clip of `character` (its joint names bound to it, scl/clip_file.h):
/// a hierarchy of the character's links rooted at the clip's root link (the character's
/// root link when the clip has none, at the origin), their offsets from the rest pose
/// (every link at 90°: standing straight, limbs hanging), in metres; a frame every
/// 1 / rate seconds from the clip's start to its end (sampleClip; rate in Hz, > 0), each
/// the root's position (x, y, 0) and every link's rotation about z from its BVH parent, in
/// degrees (a joint the clip lacks reads 0). Each link's channels are `Zrotation Xrotation
/// Yrotation` (the latter two 0), the root's three positions first.
std::string writeBvh(const Clip& clip, const Character& character, double rate);

/// The number of frames writeBvh writes of `clip` at `rate` Hz: one at every multiple of
/// 1 / rate from 0 to the clip's duration.
int bvhFrameCount(const Clip& clip, double rate);

/// One line of a mapping: a BVH joint's rotation projected on an axis, giving (part of) a
/// joint's angle or the root link's world angle.
struct BvhMapLine {
  /// The character's joint (or, for the root line, link) it gives.
  std::string target;
  /// The BVH joint whose rotation it reads.
  std::string source;
  /// The BVH axis the rotation is projected on (its twist about it): 0 x, 1 y, 2 z.
  int axis = 0;
  /// +1 or -1: whether a positive rotation about `axis` is a positive angle.
  double sign = 1.0;
  /// Added to the projected angle, degrees (the rest pose's angle of the joint).
  double offsetDeg = 0.0;
  SourceLocation targetAt;
  SourceLocation sourceAt;
};

/// A mapping file (see the file comment; docs/clips.md, The mapping file).
struct BvhMapping {
  std::string name;
  /// The character it maps onto (its name).
  std::string character;
  SourceLocation characterAt;
  SourceLocation headerAt;
  /// Metres per BVH length unit.
  double scale = 1.0;
  /// The BVH axis the character faces (0 x, 1 y, 2 z) and its sign: the plane's +x.
  int forwardAxis = 0;
  double forwardSign = 1.0;
  /// The BVH axis that is up and its sign: the plane's +y.
  int upAxis = 1;
  double upSign = 1.0;
  /// The root line: the clip's root link from the BVH root's rotation and position.
  std::optional<BvhMapLine> root;
  /// The joint lines, in the file's order (lines of one joint add up).
  std::vector<BvhMapLine> joints;
};

struct BvhMappingParse {
  BvhMapping mapping;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return !hasErrors(diagnostics); }
};

/// The statements of a mapping file.
inline constexpr std::array<std::string_view, 7> kBvhMappingStatements = {
    "mapping", "character", "scale", "forward", "up", "root", "joint"};

/// mapping-file := "mapping" NAME { statement }   (one a line)
/// statement := "character" NAME | "scale" NUM | ( "forward" | "up" ) AXIS [ "sign:" NUM ]
///            | "root" LINK "from" BVHNAME map-args | "joint" JOINT "from" BVHNAME map-args
/// map-args  := { "axis:" AXIS | "sign:" NUM | "offset:" NUM }   (AXIS: x, y or z; sign ±1)
/// BVHNAME   := NAME | "string"
BvhMappingParse parseBvhMapping(std::string_view text, std::string_view fileName);

/// The clip named `name` that `bvh` makes through `mapping` on `character`: one frame per
/// BVH frame (at frame × frameTime s), a joint column per joint the mapping gives (in the
/// character's order), the root link's pose when it has a root line; linear, not looping.
/// Each angle is the sum of its lines' sign × twist + offset, unwrapped from frame to frame
/// (the first frame's within 180° of the middle of the joint's range, the root's of its
/// standing angle). Reports into `sink`, located in the mapping file: another character,
/// an unknown joint or link of the character or BVH joint of the file (with "did you
/// mean"), a root line whose BVH joint is not the file's root, a BVH joint without
/// rotation channels. nullopt after an error.
std::optional<Clip> importBvh(const Bvh& bvh, const BvhMapping& mapping, const Character& character,
                              DiagnosticSink& sink, std::string name);

}  // namespace scl
