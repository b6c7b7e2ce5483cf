#include "runtime/clip_recorder.h"

#include <cmath>

namespace scl {

Clip recordingClip(const Character& character, std::string name) {
  Clip clip;
  clip.name = std::move(name);
  clip.character = character.name;
  for (const JointDef& joint : character.joints) clip.joints.push_back(joint.name);
  const int root = character.roles.pelvis >= 0 ? character.roles.pelvis : character.root;
  clip.rootLink = character.links[static_cast<size_t>(root)].name;
  for (const SideRoles& side : character.roles.sides)
    if (side.foot >= 0)
      clip.effectors.push_back(character.links[static_cast<size_t>(side.foot)].name);
  for (const SideRoles& side : character.roles.sides)
    if (side.hand >= 0)
      clip.effectors.push_back(character.links[static_cast<size_t>(side.hand)].name);
  return clip;
}

ClipFrame clipFrameOf(const Character& character, const Clip& clip, const CharacterState& state,
                      double time) {
  ClipFrame frame;
  frame.time = time;
  for (const std::string& name : clip.joints)
    frame.jointAngles.push_back(state.jointAngles[static_cast<size_t>(*character.findJoint(name))]);
  if (clip.hasRoot()) {
    const LinkState& root = state.links[static_cast<size_t>(*character.findLink(clip.rootLink))];
    frame.root = {root.origin.x(), root.origin.y(), root.angle};
  }
  for (const std::string& name : clip.effectors) {
    const int link = *character.findLink(name);
    const LinkState& at = state.links[static_cast<size_t>(link)];
    const Vec2 tip = at.origin + character.links[static_cast<size_t>(link)].length *
                                     linkAxis(character, link, at.angle);
    frame.effectors.push_back({tip.x(), tip.y()});
  }
  return frame;
}

void ClipRecorder::observe(const StepView& step) {
  if (step.state.time + 0.5 * timeStep_ < static_cast<double>(nextFrame_) / rate_) return;
  // The time on the recording's grid (a step's end lies within half a step of it), to the
  // microsecond: a clip file writes it exactly in a few digits.
  const double time = std::round(static_cast<double>(nextFrame_) / rate_ * 1e6) / 1e6;
  clip_.frames.push_back(clipFrameOf(*character_, clip_, step.state, time));
  ++nextFrame_;
}

}  // namespace scl
