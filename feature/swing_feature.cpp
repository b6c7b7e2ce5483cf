// `[swing]`: a swing foot's way to its landing point (docs/features.md, Swing). The foot's
// sole middle follows a Hermite curve from where it was at phase start to the landing
// point, lifted on the way by a bump that leaves both ends' velocities as they are, and
// reaches it descending at the swing's landing speed; the landing point moves each step
// with the centre of mass (SIMBICON's foot placement, d·cd + v·cv), so a push is answered by a
// longer or shorter step. The foot is turned as when standing, so that it lands flat.
#include <algorithm>

#include "feature/feature_kind.h"
#include "feature/feature_math.h"
#include "scl/scene_body.h"

namespace scl {

namespace {

struct SwingTask {
  SwingPrimitive definition;
  int priority = 1;
  int level = 0;
  Vec2 sole = Vec2::Zero();       // the sole's middle in the foot's frame
  Vec2 start = Vec2::Zero();      // the sole's middle from the frame origin at phase start
  Vec2 startRate = Vec2::Zero();  // its velocity then
  double standingAngle = 0.0;     // the foot's world angle in the standing pose, radians
  double halfLength = 0.0;        // half the foot's length, heel to toe, metres
  double stanceTop = 0.0;         // the terrain's top under the frame origin, world metres
};

// The lift's bump over the way, s = t/T in [0, 1]: 16 s²(1−s)², which peaks at 1 halfway
// and has zero slope at both ends (so the curve still starts and lands at the Hermite
// curve's velocities); its value, rate and acceleration in time.
CurvePoint<double> liftBump(double time, double duration) {
  if (!(duration > 0.0) || time <= 0.0 || time >= duration) return {0.0, 0.0, 0.0};
  const double s = time / duration, u = 1.0 - s;
  return {16.0 * s * s * u * u, 32.0 * s * u * (1.0 - 2.0 * s) / duration,
          32.0 * (1.0 - 6.0 * s + 6.0 * s * s) / (duration * duration)};
}

class SwingFeature final : public TaskFeatureKind<SwingTask> {
 public:
  SwingFeature(std::span<const Primitive> phase, const FeatureContext& context)
      : landingSpeed_(context.settings.swingLandingSpeed),
        bodies_(context.settings.sceneBodies),
        angleRow_(context.dynamics.dofCount()) {
    forEachFeature<SwingPrimitive>(phase, [&](const SwingPrimitive& swing) {
      SwingTask task{swing, priorityOf(swing.task)};
      const LinkDef& link = context.character.links[swing.link];
      task.sole = Vec2(0.5 * link.axisSign * link.length, 0.0);
      task.halfLength =
          0.5 * link.length + 0.5 * std::max(link.proximalThickness, link.distalThickness);
      task.standingAngle = degToRad(context.character.standingAngleDeg(swing.link));
      tasks_.push_back(task);
    });
  }

  void begin(const PlanarDynamics& dynamics, const Vec2& frameOrigin) override {
    for (SwingTask& task : tasks_) {
      task.start = dynamics.pointPosition(task.definition.link, task.sole) - frameOrigin;
      task.startRate = dynamics.pointVelocity(task.definition.link, task.sole);
      task.stanceTop = topOver(frameOrigin.x(), frameOrigin.x(), task.halfLength);
    }
  }

  // Three rows each: the sole's middle (two) and the foot's angle.
  int rowCapacity() const override { return 3 * static_cast<int>(tasks_.size()); }

  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    for (const SwingTask& task : tasks_) {
      addSoleRows(task, step, rows);
      addAngleRow(task, step, rows);
    }
  }

 private:
  // The terrain's top over [left, right] widened by `margin` each side, world metres (the
  // flat ground's 0 without a scene).
  double topOver(double left, double right, double margin) const {
    return bodies_.empty() ? 0.0 : terrainHeight(bodies_, left - margin, right + margin);
  }

  // Where the foot lands from the frame origin, metres: the written point moved by the
  // feedback on the centre of mass's place and velocity ahead of the origin, and raised or
  // lowered with the terrain's top there against the stance foot's (on a stair, a step up).
  Vec2 landingPoint(const SwingTask& task, const FeatureStep& step) const {
    const SwingPrimitive& def = task.definition;
    const double ahead = step.dynamics.com().x() - step.frameOrigin.x();
    const double speed = step.dynamics.comVelocity().x() - step.frameVelocity.x();
    Vec2 landing = def.scale * Vec2(def.x.value, def.y.value) +
                   Vec2(def.cd.value * ahead + def.cv.value * speed, 0.0);
    const double x = step.frameOrigin.x() + landing.x();
    landing.y() += topOver(x, x, task.halfLength) - task.stanceTop;
    return landing;
  }

  // How much higher than the written lift the way must rise: by as much as the terrain
  // between start and landing stands above the lower of the two (a stair's riser).
  double clearance(const SwingTask& task, const FeatureStep& step, const Vec2& landing) const {
    const double x0 = step.frameOrigin.x() + task.start.x(),
                 x1 = step.frameOrigin.x() + landing.x();
    const double top =
        topOver(std::min(x0, x1), std::max(x0, x1), task.halfLength) - task.stanceTop;
    return std::max(0.0, top - std::min(task.start.y(), landing.y()));
  }

  void addSoleRows(const SwingTask& task, const FeatureStep& step, ObjectiveRows& rows) const {
    const SwingPrimitive& def = task.definition;
    const double duration = def.duration.value, time = step.phaseTime;
    const Vec2 landing = landingPoint(task, step);
    const Vec2 descending(0.0, -landingSpeed_);
    CurvePoint<Vec2> target{};
    if (time < duration) {
      target = hermite(task.start, task.startRate, landing, descending, duration, time);
      const CurvePoint<double> bump = liftBump(time, duration);
      const double lift = def.scale * def.lift.value + clearance(task, step, landing);
      target.value.y() += lift * bump.value;
      target.rate.y() += lift * bump.rate;
      target.acceleration.y() += lift * bump.acceleration;
    }
    const Vec2 position = step.dynamics.pointPosition(def.link, task.sole);
    const Vec2 velocity = step.dynamics.pointVelocity(def.link, task.sole);
    if (time >= duration) {
      // Past the landing time the foot goes on down at the landing speed until it lands, as
      // a support foot is set down: no height to reach, so a foot held up by the ground
      // is not pressed into it harder and harder.
      target = {landing, descending, Vec2::Zero()};
      target.value.y() = position.y() - step.frameOrigin.y();
    }
    const Vec2 desired = def.kp.value * (step.frameOrigin + target.value - position) +
                         def.kd.value * (target.rate + step.frameVelocity - velocity) +
                         target.acceleration;
    rows.addPoint(def.link, task.sole, desired, task.level, def.task.weight.value);
  }

  void addAngleRow(const SwingTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const SwingPrimitive& def = task.definition;
    const BodyMotion& foot = step.dynamics.bodies()[def.link];
    const double desired =
        def.kp.value * (task.standingAngle - foot.angle) - def.kd.value * foot.angularVelocity;
    angularAccelerationRow(step.dynamics, def.link, angleRow_);
    rows.add(angleRow_, desired, task.level, def.task.weight.value);
  }

  double landingSpeed_;
  const std::vector<SceneBodyDef>& bodies_;
  Eigen::RowVectorXd angleRow_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeSwingFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context) {
  return std::make_unique<SwingFeature>(phase, context);
}

}  // namespace scl
