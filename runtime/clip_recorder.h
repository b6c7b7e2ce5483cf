// Recording a run as a motion clip (docs/clips.md, Recording a run): `scl run --clip` and
// `--bvh` sample the run's pose into a Clip at a fixed rate.
#pragma once

#include <string>

#include "kinematics/character_state.h"
#include "runtime/run_session.h"
#include "scl/clip.h"

namespace scl {

/// The default rate of a recorded clip, frames per second (`scl run --clip-rate`).
inline constexpr double kDefaultClipRate = 120.0;

/// A clip of `character` without frames, with the columns a recording fills: every joint,
/// the pelvis role as its root, and the feet's and hands' roles as its effectors (a body
/// without hands has only feet).
Clip recordingClip(const Character& character, std::string name);

/// The frame of `clip` (made by recordingClip for `character`) that `state` shows at
/// `time`, seconds: joint angles, the root link's origin and world angle, the effectors'
/// tips (distal cap centres).
ClipFrame clipFrameOf(const Character& character, const Clip& clip, const CharacterState& state,
                      double time);

/// Samples a run into a clip at a fixed rate: at t = k / rate for k = 0, 1, ... (the first
/// step reaching each time), the initial state included, as the trajectory CSV is sampled.
class ClipRecorder {
 public:
  /// `character`: the run's body (it must outlive this); `rate`: frames per second, Hz (at
  /// most 1 / timeStep); `timeStep`: the run's step, seconds; `name`: the clip's name.
  ClipRecorder(const Character& character, double rate, double timeStep, std::string name)
      : character_(&character),
        rate_(rate),
        timeStep_(timeStep),
        clip_(recordingClip(character, std::move(name))) {}
  void observe(const StepView& step);
  const Clip& clip() const { return clip_; }

 private:
  const Character* character_;
  double rate_;
  double timeStep_;
  long nextFrame_ = 0;
  Clip clip_;
};

}  // namespace scl
