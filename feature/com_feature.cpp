// `[com]`: the whole-body centre of mass tracks a target from the frame origin,
// interpolated from where it was at phase start (docs/features.md, Centre of mass).
#include "feature/feature_kind.h"
#include "feature/feature_math.h"

namespace scl {

namespace {

struct ComTask {
  ComPrimitive definition;
  int priority = 1;
  int level = 0;
  Vec2 start = Vec2::Zero();      // the centre of mass from the frame origin at phase start
  Vec2 startRate = Vec2::Zero();  // its velocity then (the Hermite curve's first tangent)
  Vec2 base = Vec2::Zero();       // what the target is measured from, metres
};

class ComFeature final : public TaskFeatureKind<ComTask> {
 public:
  ComFeature(std::span<const Primitive> phase, const FeatureContext& context)
      : jacobian_(2, context.dynamics.dofCount()), row_(context.dynamics.dofCount()) {
    forEachFeature<ComPrimitive>(phase, [&](const ComPrimitive& com) {
      ComTask task{com, priorityOf(com.task)};
      if (com.fromStanding) task.base = Vec2(0.0, standingComHeight(context.character));
      tasks_.push_back(task);
    });
  }

  void begin(const PlanarDynamics& dynamics, const Vec2& frameOrigin) override {
    for (ComTask& task : tasks_) {
      task.start = dynamics.com() - frameOrigin;
      task.startRate = dynamics.comVelocity();
    }
  }

  int rowCapacity() const override { return 2 * static_cast<int>(tasks_.size()); }

  // Two rows each (one for `com x`, `com y`): J_com q̈ = a_des − J̇_com q̇, a_des from the gains.
  void addRows(const FeatureStep& step, ObjectiveRows& rows, FeatureStepResult& result) override {
    const PlanarDynamics& dynamics = step.dynamics;
    for (const ComTask& task : tasks_) {
      const ComPrimitive& def = task.definition;
      const Vec2 goal = task.base + def.scale * Vec2(def.x.value, def.y.value);  // metres
      CurvePoint<Vec2> curve{};
      if (def.hasEndVelocity) {
        const Vec2 endRate = def.scale * Vec2(def.vx.value, def.vy.value);  // m/s
        curve =
            hermite(task.start, task.startRate, goal, endRate, def.duration.value, step.phaseTime);
      } else {
        auto [relative, rate] = interpolate(task.start, goal, def.duration.value, step.phaseTime);
        curve = {relative, rate, Vec2::Zero()};
      }
      const Vec2 target = step.frameOrigin + curve.value;
      const Vec2 desired =
          def.kp.value * (target - dynamics.com()) +
          def.kd.value * (curve.rate + step.frameVelocity - dynamics.comVelocity()) +
          curve.acceleration;
      dynamics.comJacobian(jacobian_);
      const Vec2 wanted = desired - dynamics.comBiasAcceleration();
      if (def.axis == 0) {
        rows.addPair(jacobian_, wanted, task.level, def.task.weight.value);
      } else {  // `com x` or `com y`: that row alone, the other coordinate free
        const int axis = def.axis == 'x' ? 0 : 1;
        row_ = jacobian_.row(axis);
        rows.add(row_, wanted[axis], task.level, def.task.weight.value);
      }
      result.hasComTarget = true;
      result.comTarget = target;
      if (def.axis == 'x') result.comTarget.y() = dynamics.com().y();  // drawn where it is
      if (def.axis == 'y') result.comTarget.x() = dynamics.com().x();
    }
  }

 private:
  Eigen::Matrix2Xd jacobian_;
  Eigen::RowVectorXd row_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeComFeature(std::span<const Primitive> phase,
                                            const FeatureContext& context) {
  return std::make_unique<ComFeature>(phase, context);
}

}  // namespace scl
