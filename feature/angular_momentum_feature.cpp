// `[angmom]`: the centroidal angular momentum's rate tracks kd (L − L_now)
// (docs/features.md, Angular momentum).
#include "feature/feature_kind.h"

namespace scl {

namespace {

struct AngularMomentumTask {
  AngularMomentumPrimitive definition;
  int priority = 1;
  int level = 0;
};

class AngularMomentumFeature final : public TaskFeatureKind<AngularMomentumTask> {
 public:
  AngularMomentumFeature(std::span<const Primitive> phase, const FeatureContext& context)
      : jacobian_(context.dynamics.dofCount()) {
    forEachFeature<AngularMomentumPrimitive>(phase, [&](const AngularMomentumPrimitive& angmom) {
      tasks_.push_back({angmom, priorityOf(angmom.task)});
    });
  }

  int rowCapacity() const override { return static_cast<int>(tasks_.size()); }

  // One row each: A q̈ = L̇_des − Ȧ q̇.
  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    const PlanarDynamics& dynamics = step.dynamics;
    for (const AngularMomentumTask& task : tasks_) {
      const AngularMomentumPrimitive& def = task.definition;
      dynamics.centroidalMomentumJacobian(jacobian_);
      const double desired =
          def.kd.value * (def.target.value - dynamics.centroidalAngularMomentum());
      rows.add(jacobian_, desired - dynamics.centroidalMomentumBias(), task.level,
               def.task.weight.value);
    }
  }

 private:
  Eigen::RowVectorXd jacobian_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeAngularMomentumFeature(std::span<const Primitive> phase,
                                                        const FeatureContext& context) {
  return std::make_unique<AngularMomentumFeature>(phase, context);
}

}  // namespace scl
