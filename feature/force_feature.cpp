// `[force]`: a link pushes on what it touches with a given force (docs/manipulation.md,
// Force tasks). Its rows ask the link's contact forces, the QP's own unknowns, to sum to
// minus the force (what the link exerts is what it receives, reversed), at the contacts'
// level, so that the levels below plan the body around that force (it is the balance's
// to bear, not to lean on); the link's contacts and the bound on how hard it presses are
// the contact set's (contacts.cpp, SupportSet::pushing). A link that touches nothing moves
// along the force to find what to push on, at kApproachSpeed, at the task's own level.
#include "feature/feature_kind.h"

namespace scl {

namespace {

struct ForceTask {
  ForcePrimitive definition;
  int priority = 1;
  int level = 0;
};

class ForceFeature final : public TaskFeatureKind<ForceTask> {
 public:
  ForceFeature(std::span<const Primitive> phase, const FeatureSettings& settings)
      : level_(contactRowLevel(settings)) {
    forEachFeature<ForcePrimitive>(phase, [&](const ForcePrimitive& force) {
      tasks_.push_back({force, priorityOf(force.task)});
    });
  }

  int rowCapacity() const override { return 2 * static_cast<int>(tasks_.size()); }

  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    for (const ForceTask& task : tasks_) {
      const ForcePrimitive& def = task.definition;
      // Rows of the force the link exerts: its contact forces along −x and −y.
      if (!step.contacts->linkForceRow(def.link, -Vec2::UnitX(), row_)) {
        approach(task, step, rows);
        continue;
      }
      rows.addForces(row_, def.fx.value, level_, def.task.weight.value);
      step.contacts->linkForceRow(def.link, -Vec2::UnitY(), row_);
      rows.addForces(row_, def.fy.value, level_, def.task.weight.value);
    }
  }

 private:
  // The link's centre of mass moves along the force at kApproachSpeed (relative to the
  // targets' frame), its velocity reached at the rate kApproachGain.
  static void approach(const ForceTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const ForcePrimitive& def = task.definition;
    const Vec2 force(def.fx.value, def.fy.value);
    if (!(force.norm() > 0.0)) return;
    const Vec2 local = step.dynamics.model().bodies[static_cast<size_t>(def.link)].comOffset;
    const Vec2 velocity = step.dynamics.pointVelocity(def.link, local);
    const Vec2 wanted = kApproachSpeed * force.normalized() + step.frameVelocity;
    rows.addPoint(def.link, local, kApproachGain * (wanted - velocity), task.level,
                  def.task.weight.value);
  }

  static constexpr double kApproachSpeed = 0.3;  // m/s
  static constexpr double kApproachGain = 20.0;  // 1/s

  int level_;
  Eigen::RowVectorXd row_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeForceFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context) {
  return std::make_unique<ForceFeature>(phase, context.settings);
}

}  // namespace scl
