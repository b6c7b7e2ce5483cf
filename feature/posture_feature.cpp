// `[posture]`: every held joint's acceleration toward the phase's PD target, one unit row
// per joint (docs/features.md, Posture). Present in every phase with features (with the
// default gains and weight when not written); the last one written wins. Its priority
// defaults to the phase's lowest level.
#include "dynamics/character_coordinates.h"
#include "feature/feature_kind.h"

namespace scl {

namespace {

struct PostureTask {
  PosturePrimitive definition;
  int priority = kLowestPriority;
  int level = 0;
};

class PostureFeature final : public TaskFeatureKind<PostureTask> {
 public:
  explicit PostureFeature(std::span<const Primitive> phase) {
    PosturePrimitive posture;
    forEachFeature<PosturePrimitive>(phase, [&](const PosturePrimitive& p) { posture = p; });
    const int priority = posture.task.priority > 0 ? posture.task.priority : kLowestPriority;
    tasks_.push_back({posture, priority});
  }

  int rowCapacity() const override { return kMaxJoints; }

  // q̈_j = kp (target − q_j) − kd q̇_j; a relaxed joint's row has weight 0.
  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    const PostureTask& task = tasks_.front();
    const PosturePrimitive& posture = task.definition;
    for (int j = 0; j < step.state.jointCount; ++j) {
      const int coordinate = characterJointCoordinate(j);
      const double desired =
          posture.kp.value * (step.input.postureTargets[j] - step.q[coordinate]) -
          posture.kd.value * step.qd[coordinate];
      rows.addUnit(coordinate - kRootCoordinates, desired, task.level,
                   step.input.postureHeld[j] ? posture.task.weight.value : 0.0);
    }
  }
};

}  // namespace

std::unique_ptr<FeatureKind> makePostureFeature(std::span<const Primitive> phase,
                                                const FeatureContext& /*context*/) {
  return std::make_unique<PostureFeature>(phase);
}

}  // namespace scl
