// Motion clips as data (docs/clips.md): a time-stamped sequence of joint angles of a
// character, optionally with the pose of one root link and the tips of some links
// (end effectors), played with linear or spline interpolation, once or looping, at a
// time scale. Recorded from a run (`scl run --clip`), written by hand (a few keyframes),
// or imported from BVH (scl/bvh.h); read and printed by scl/clip_file.h, bound to a
// character there.
//
// Plain data and its checks, no text: the clip file's front end reports each issue of
// clipIssues() at the line it is about. Sampling (sampleClip) allocates nothing once the
// caller's ClipPose is sized (makeClipPose), so a controller may sample every step.
//
// Units inside: seconds, radians, metres (a clip file writes degrees, as all SCL text).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/source_location.h"

namespace scl {

/// How a clip's values run between its frames.
enum class ClipInterpolation {
  Linear,  ///< straight lines between frames (continuous values, kinked velocities)
  Spline,  ///< a cubic Hermite (Catmull-Rom) spline through the frames: continuous velocities
};

/// "linear" or "spline", as a clip file writes it.
std::string_view clipInterpolationName(ClipInterpolation interpolation);

/// The pose of the clip's root link (Clip::rootLink) at one instant.
struct ClipRoot {
  /// The link's origin (its proximal cap centre), metres, in the world's x–y plane.
  double x = 0.0;
  double y = 0.0;
  /// The link's world angle, radians (docs/character.md, Conventions; continuous).
  double angle = 0.0;
};

/// A point in the world's x–y plane, metres.
struct ClipPoint {
  double x = 0.0;
  double y = 0.0;
};

/// One frame: the values of every column at one time.
struct ClipFrame {
  /// Time as written, seconds from the clip's time origin (not yet scaled by
  /// Clip::timescale); the first frame's time is where playback starts.
  double time = 0.0;
  /// Joint angles, radians, one per Clip::joints.
  std::vector<double> jointAngles;
  /// The root link's pose; meaningful when Clip::hasRoot().
  ClipRoot root;
  /// The tip of each link of Clip::effectors, metres.
  std::vector<ClipPoint> effectors;
};

/// Where a clip file wrote the clip's parts, for the diagnostics of binding it to a
/// character (scl/clip_file.h). Empty (line 0) for a clip made in code.
struct ClipLocations {
  /// The `clip NAME` line and the `character NAME` statement's name.
  SourceLocation clip;
  SourceLocation character;
  /// The root link's name (`root LINK`).
  SourceLocation root;
  /// Each joint column's and effector column's name (its first column for an effector).
  std::vector<SourceLocation> joints;
  std::vector<SourceLocation> effectors;
  /// Each frame's time.
  std::vector<SourceLocation> frames;
};

/// A motion clip (see the file comment).
struct Clip {
  /// Its name (`clip NAME`), for messages.
  std::string name;
  /// The name of the character it was made for (Character::name); binding it to another
  /// body is an error (scl/clip_file.h, bindClip).
  std::string character;
  /// The joints it gives angles of, by the character's joint names, one column each; any
  /// subset of the character's joints, in any order.
  std::vector<std::string> joints;
  /// The link whose origin and world angle every frame gives (ClipFrame::root), by name;
  /// empty: the clip has no root columns (joint angles only).
  std::string rootLink;
  /// Links whose tips (distal cap centres, metres) every frame gives, by name.
  std::vector<std::string> effectors;
  ClipInterpolation interpolation = ClipInterpolation::Linear;
  /// Whether playback wraps around: after the last frame comes the first again (the first
  /// and last frames are then the same instant of the cycle: write them equal).
  bool loop = false;
  /// Factor on the written times, dimensionless, > 0: 2 plays the clip at half speed
  /// (twice as long), 0.5 at double speed.
  double timescale = 1.0;
  /// The frames, their times strictly increasing.
  std::vector<ClipFrame> frames;
  /// Where a clip file wrote its parts (empty for a clip made in code).
  ClipLocations locations;

  bool hasRoot() const { return !rootLink.empty(); }
  /// How long one playback lasts, seconds: (last time − first time) × timescale; 0 without
  /// frames.
  double duration() const;
  /// The column of joint `name`, or -1 when the clip has no angles of it.
  int jointColumn(std::string_view name) const;
  /// The column of effector link `name`, or -1.
  int effectorColumn(std::string_view name) const;
};

/// A clip's name for the file at `path` (a script recorded, a BVH file imported): its name
/// without directory and extension, made an SCL name (`sit-to-stand.scl`: `sit_to_stand`).
std::string clipNameOf(std::string_view path);

/// A clip's values at one instant (sampleClip). Sized for its clip by makeClipPose(); then
/// sampling into it allocates nothing.
struct ClipPose {
  /// Joint angles, radians, one per Clip::joints.
  std::vector<double> jointAngles;
  /// The root link's pose (meaningful when the clip has a root).
  ClipRoot root;
  /// Effector tips, metres, one per Clip::effectors.
  std::vector<ClipPoint> effectors;
  /// The instant sampled on the clip's written time axis, seconds (within the first and
  /// last frames' times).
  double clipTime = 0.0;
  /// Whole cycles of a looping clip before the instant (negative before its start); 0 for a
  /// clip that does not loop. A looping root's x and y are those of the cycle itself: add
  /// `loops` × (last frame's root − first frame's) to carry it on from cycle to cycle.
  long loops = 0;
  /// The time asked for lay outside a clip that does not loop: the pose is its first or last
  /// frame's (clipTimeError() words it for a message).
  bool outside = false;
};

/// A pose sized for `clip` (every value zero).
ClipPose makeClipPose(const Clip& clip);

/// The clip's pose `time` seconds after its playback started (time 0 is its first frame;
/// the clip's timescale applies): interpolated as the clip says, wrapped around when it
/// loops, held at its first or last frame outside it otherwise (`outside` set). `pose` must
/// be sized for `clip` (makeClipPose); nothing is allocated. The clip must have no
/// clipIssues() (at least one frame, two for a loop, times increasing).
void sampleClip(const Clip& clip, double time, ClipPose& pose);

/// The same, into a new pose.
ClipPose sampleClip(const Clip& clip, double time);

/// What is wrong with sampling `clip` at playback time `time` (seconds), for a message:
/// "t = 3.2 s is after the end of clip 'squat' (it lasts 2 s and does not loop)"; empty
/// when the time lies inside the clip, or the clip loops.
std::string clipTimeError(const Clip& clip, double time);

/// Something wrong with a clip's data, found by clipIssues().
struct ClipIssue {
  /// The frame it is about (index into Clip::frames), or -1 for the clip as a whole.
  int frame = -1;
  /// One sentence, lower case, no trailing period.
  std::string message;
};

/// The largest |value| of a clip's angle, degrees, or of its positions, metres: a larger
/// one is no motion of a body (and would lose the precision of its neighbours).
inline constexpr double kMaxClipAngleDeg = 100000.0;
inline constexpr double kMaxClipPosition = 100000.0;
/// The largest time a clip's frame may have, seconds, and the bounds of its timescale.
inline constexpr double kMaxClipTime = 100000.0;
inline constexpr double kMinClipTimescale = 0.001;
inline constexpr double kMaxClipTimescale = 1000.0;

/// Everything wrong with `clip` as data, in order (the clip file's front end reports each
/// at its line): no frames, a loop of fewer than two, times not increasing or out of
/// [0, kMaxClipTime], a timescale outside its bounds, a frame whose value counts differ
/// from the columns', a value that is not finite or beyond its bound, a name given twice.
std::vector<ClipIssue> clipIssues(const Clip& clip);

}  // namespace scl
