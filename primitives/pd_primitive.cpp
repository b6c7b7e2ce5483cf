#include "primitives/pd_primitive.h"

#include <algorithm>

namespace scl {

double pdFrameValue(const Character& character, const CharacterState& state, int joint,
                    TargetFrame frame) {
  switch (frame) {
    case TargetFrame::Child:
      return state.links[character.joints[joint].childLink].angle;
    case TargetFrame::Parent:
      return state.links[character.joints[joint].parentLink].angle;
    case TargetFrame::Local:
      break;
  }
  return state.jointAngles[joint];
}

double pdLocalTarget(const Character& character, const CharacterState& state, int joint,
                     TargetFrame frame, double value) {
  switch (frame) {
    case TargetFrame::Child:
      return value - state.links[character.joints[joint].parentLink].angle;
    case TargetFrame::Parent:
      return state.links[character.joints[joint].childLink].angle - value;
    case TargetFrame::Local:
      break;
  }
  return value;
}

PdInstance::PdInstance(const PdPrimitive& definition, const Character& character)
    : character_(&character), duration_(definition.duration.value) {
  if (definition.clip.active()) clip_.emplace(definition.clip, character);
  items_.reserve(definition.targets.size());
  for (const PdTarget& target : definition.targets)
    items_.push_back({target.joint, target.frame, target.angle.value, 0.0});
}

void PdInstance::begin(const CharacterState& atPhaseStart) {
  for (Item& item : items_)
    item.start = pdFrameValue(*character_, atPhaseStart, item.joint, item.frame);
}

void PdInstance::apply(const CharacterState& state, double phaseTime, ControlFrame& out) {
  if (clip_) {
    const auto joints = static_cast<size_t>(state.jointCount);
    clip_->update(phaseTime, std::span(state.jointAngles.data(), joints),
                  std::span(state.jointVelocities.data(), joints));
    for (const Item& item : items_)
      if (clip_->has(item.joint)) out.track(item.joint, clip_->angle(item.joint));
    return;
  }
  // No time (or time 0) jumps at once; otherwise linear from the phase-start value.
  double progress = duration_ > 0.0 ? std::clamp(phaseTime / duration_, 0.0, 1.0) : 1.0;
  for (const Item& item : items_) {
    double value = item.start + (item.goal - item.start) * progress;
    out.track(item.joint, pdLocalTarget(*character_, state, item.joint, item.frame, value));
  }
}

}  // namespace scl
