// `[j1 a1, j2 a2 child, j3 a3 parent time: T]` (docs/primitives.md, PD), and `[clip NAME
// joints: ...]`, whose targets a clip gives each step (docs/clips.md, Control by clips).
#pragma once

#include <optional>
#include <vector>

#include "primitives/primitive.h"
#include "scl/clip_follower.h"

namespace scl {

class PdInstance final : public PrimitiveInstance {
 public:
  /// `character` must outlive the instance (the controller's program holds it).
  PdInstance(const PdPrimitive& definition, const Character& character);
  void begin(const CharacterState& atPhaseStart) override;
  void apply(const CharacterState& state, double phaseTime, ControlFrame& out) override;

 private:
  struct Item {
    int joint = 0;
    TargetFrame frame = TargetFrame::Local;
    /// The angle to reach, radians (local, child world or parent world).
    double goal = 0.0;
    /// The same quantity when the phase began, radians.
    double start = 0.0;
  };
  const Character* character_;
  std::vector<Item> items_;
  double duration_ = 0.0;
  /// The clip the targets follow (`[clip NAME]`), when one does.
  std::optional<ClipFollower> clip_;
};

/// The quantity a PD item's angle is compared with: the joint angle, or the child's or
/// parent's world angle.
double pdFrameValue(const Character& character, const CharacterState& state, int joint,
                    TargetFrame frame);

/// The local joint target that realises `value` in `frame` in this state.
double pdLocalTarget(const Character& character, const CharacterState& state, int joint,
                     TargetFrame frame, double value);

}  // namespace scl
