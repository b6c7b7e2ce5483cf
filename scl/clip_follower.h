// Following a clip each control step (docs/clips.md, Control by clips): the targets a
// `[posture clip: ...]` task or a `[clip NAME]` PD item takes from a ClipPlayback
// (scl/program.h), either at the playback's time (from + speed × the phase's time) or,
// with `nearest`, at the frame of its clips nearest the character's current joint angles
// and velocities (Abe's nearest-posture selection).
//
// Everything is sized and tabulated when the follower is made; update() allocates nothing.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "scl/character.h"
#include "scl/clip.h"
#include "scl/program.h"

namespace scl {

/// The time constant that weighs joint velocities against angles in the nearest-posture
/// distance, seconds: d = Σ (θ − θ_f)² + τ² Σ (θ̇ − θ̇_f)², over the clip's joints, divided by
/// their count (so that clips of different joints compare).
inline constexpr double kNearestVelocityWeight = 0.1;

/// How far apart in clip time (seconds) a clip's samples are taken for its rates (and a
/// path's acceleration): finite differences over 1 ms.
inline constexpr double kClipRateStep = 1e-3;

/// The playback time of a timed (not `nearest`) playback `phaseTime` seconds into the phase,
/// seconds on the clip's playback axis (sampleClip's): from + speed × phaseTime, wrapped into
/// the clip when `loop` is written and the clip itself does not loop.
double clipPlaybackTime(const ClipPlayback& playback, double phaseTime);

class ClipFollower {
 public:
  /// `playback` (copied) must be active; `character` (the program's) sizes the targets.
  ClipFollower(const ClipPlayback& playback, const Character& character);

  /// This step's targets: at the playback's time `phaseTime` seconds into the phase, or with
  /// `nearest` at the frame nearest `angles` (radians) and `velocities` (rad/s), one per
  /// character joint. Allocates nothing.
  void update(double phaseTime, std::span<const double> angles, std::span<const double> velocities);

  /// Whether the clip gives joint `joint` (a character joint index) a target.
  bool has(int joint) const { return has_[static_cast<size_t>(joint)] != 0; }
  /// The joint's target angle (radians) and rate (rad/s) of the last update().
  double angle(int joint) const { return angle_[static_cast<size_t>(joint)]; }
  double velocity(int joint) const { return velocity_[static_cast<size_t>(joint)]; }
  /// Which clip (index into ClipPlayback::clips) and playback time (s) the last update()
  /// chose.
  int chosenClip() const { return chosenClip_; }
  double chosenTime() const { return chosenTime_; }

 private:
  // One clip of a nearest-posture library: its frames as columns of (angles, τ × rates).
  struct Table {
    std::vector<int> joints;     // character joints, in the table's row order
    std::ptrdiff_t rows = 0;     // a frame's length: 2 × joints, padded to kNearestBlock
    std::vector<double> frames;  // per frame (contiguous): the angles, then τ × the rates
    std::vector<float> keys;     // the same in single precision: what the search reads
    std::vector<double> times;   // each frame's playback time, s
    // Runs of kRunFrames consecutive frames: each run's middle frame and the largest
    // distance from it to a frame of the run (in `keys` space, with a margin for rounding).
    std::vector<std::ptrdiff_t> runMiddle;
    std::vector<double> runRadius;
    std::vector<double> toMiddle;  // per frame: its distance to its run's middle
  };
  // Nearest-posture distances are summed this many rows at a time.
  static constexpr std::ptrdiff_t kNearestBlock = 8;
  // Frames per run: at 120 Hz a run spans 133 ms (measured: 8 and 32 were slower).
  static constexpr std::ptrdiff_t kRunFrames = 16;
  static double squaredDistance(const Table& table, std::ptrdiff_t frame, const float* query,
                                double limit);
  void sampleAt(double time);
  void nearest(std::span<const double> angles, std::span<const double> velocities);

  ClipPlayback playback_;
  // Timed playback: the clip's column per character joint (mirror applied), -1: none.
  std::vector<int> column_;
  ClipPose pose_, ahead_;
  std::vector<Table> tables_;
  std::vector<char> has_;
  std::vector<float> query_;
  // Per run of the table searched: the bound on its frames' squared distances.
  std::vector<double> runBound_;
  std::vector<double> runMiddleDistance_;  // and the distance to its middle
  std::vector<double> angle_, velocity_;
  int chosenClip_ = 0;
  double chosenTime_ = 0.0;
  // The last choice's frame, and whether there was one (nearest).
  std::ptrdiff_t chosenFrame_ = 0;
  bool chosen_ = false;
};

}  // namespace scl
