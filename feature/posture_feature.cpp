// `[posture]`: every held joint's acceleration toward the phase's PD target, one unit row
// per joint (docs/features.md, Posture). Present in every phase with features (with the
// default gains and weight when not written); the last one written wins. Its priority
// defaults to the phase's lowest level. With `clip:` the joints the clip has take its angles
// and their rates as targets instead (docs/clips.md, Control by clips):
// q̈_j = kp (θ*_j − q_j) + kd (θ̇*_j − q̇_j).
#include <array>
#include <optional>

#include "dynamics/character_coordinates.h"
#include "feature/feature_kind.h"
#include "scl/clip_follower.h"

namespace scl {

namespace {

struct PostureTask {
  PosturePrimitive definition;
  int priority = kLowestPriority;
  int level = 0;
};

class PostureFeature final : public TaskFeatureKind<PostureTask> {
 public:
  PostureFeature(std::span<const Primitive> phase, const Character& character) {
    PosturePrimitive posture;
    forEachFeature<PosturePrimitive>(phase, [&](const PosturePrimitive& p) { posture = p; });
    const int priority = posture.task.priority > 0 ? posture.task.priority : kLowestPriority;
    if (posture.clip.active()) clip_.emplace(posture.clip, character);
    tasks_.push_back({posture, priority});
    angles_.fill(0.0);
    velocities_.fill(0.0);
  }

  int rowCapacity() const override { return kMaxJoints; }

  // q̈_j = kp (target − q_j) − kd q̇_j; a relaxed joint's row has weight 0.
  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    const PostureTask& task = tasks_.front();
    const PosturePrimitive& posture = task.definition;
    const auto joints = static_cast<size_t>(step.state.jointCount);
    if (clip_) {
      for (size_t j = 0; j < joints; ++j) {
        const int coordinate = characterJointCoordinate(static_cast<int>(j));
        angles_[j] = step.q[coordinate];
        velocities_[j] = step.qd[coordinate];
      }
      clip_->update(step.phaseTime, std::span(angles_.data(), joints),
                    std::span(velocities_.data(), joints));
    }
    for (int j = 0; j < step.state.jointCount; ++j) {
      const int coordinate = characterJointCoordinate(j);
      const bool fromClip = clip_ && clip_->has(j);
      const double target = fromClip ? clip_->angle(j) : step.input.postureTargets[j];
      const double rate = fromClip ? clip_->velocity(j) : 0.0;
      const double desired = posture.kp.value * (target - step.q[coordinate]) +
                             posture.kd.value * (rate - step.qd[coordinate]);
      rows.addUnit(coordinate - kRootCoordinates, desired, task.level,
                   fromClip || step.input.postureHeld[j] ? posture.task.weight.value : 0.0);
    }
  }

 private:
  std::optional<ClipFollower> clip_;
  std::array<double, kMaxJoints> angles_{}, velocities_{};
};

}  // namespace

std::unique_ptr<FeatureKind> makePostureFeature(std::span<const Primitive> phase,
                                                const FeatureContext& context) {
  return std::make_unique<PostureFeature>(phase, context.character);
}

}  // namespace scl
