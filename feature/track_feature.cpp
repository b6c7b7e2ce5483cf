// `[track]`: a joint's position, a link's centre of mass or a link's world angle tracks a
// target, interpolated from its value at phase start (docs/features.md, Tracking).
#include "dynamics/character_coordinates.h"
#include "feature/feature_kind.h"
#include "feature/feature_math.h"

namespace scl {

namespace {

struct TrackTask {
  TrackPrimitive definition;
  int priority = 1;
  int level = 0;
  int body = 0;
  Vec2 local = Vec2::Zero();  // the tracked point in the body's frame
  Vec2 start = Vec2::Zero();  // position from the frame origin, or (angle, 0), at phase start
};

class TrackFeature final : public TaskFeatureKind<TrackTask> {
 public:
  TrackFeature(std::span<const Primitive> phase, const FeatureContext& context)
      : angleRow_(context.dynamics.dofCount()) {
    forEachFeature<TrackPrimitive>(phase, [&](const TrackPrimitive& track) {
      TrackTask task{track, priorityOf(track.task)};
      if (track.target == TrackPrimitive::Target::JointPosition) {
        task.body = context.character.joints[track.index].childLink;
      } else {
        task.body = track.index;
        if (track.target == TrackPrimitive::Target::LinkPosition)
          task.local = context.dynamics.model().bodies[task.body].comOffset;
      }
      tasks_.push_back(task);
    });
  }

  void begin(const PlanarDynamics& dynamics, const Vec2& frameOrigin) override {
    for (TrackTask& task : tasks_) task.start = value(task, dynamics, frameOrigin);
  }

  int rowCapacity() const override { return 2 * static_cast<int>(tasks_.size()); }

  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    for (const TrackTask& task : tasks_) {
      if (task.definition.target == TrackPrimitive::Target::LinkAngle) {
        addAngleRow(task, step, rows);
      } else {
        addPointRows(task, step, rows);
      }
    }
  }

 private:
  // The tracked quantity now: position from the frame origin, or (angle, 0).
  static Vec2 value(const TrackTask& task, const PlanarDynamics& dynamics, const Vec2& origin) {
    if (task.definition.target == TrackPrimitive::Target::LinkAngle)
      return Vec2(dynamics.bodies()[task.body].angle, 0.0);
    return dynamics.pointPosition(task.body, task.local) - origin;
  }

  // One row: the body's angular acceleration, the root's plus every joint's on its path.
  void addAngleRow(const TrackTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const TrackPrimitive& def = task.definition;
    const PlanarDynamics& dynamics = step.dynamics;
    auto [angle, rate] =
        interpolate(task.start.x(), def.x.value, def.duration.value, step.phaseTime);
    const BodyMotion& body = dynamics.bodies()[task.body];
    const double desired =
        def.kp.value * (angle - body.angle) + def.kd.value * (rate - body.angularVelocity);
    angleRow_.setZero();
    angleRow_[kRootAngle] = 1.0;
    for (int b = task.body; b > 0; b = dynamics.model().bodies[b].parent)
      angleRow_[jointCoordinate(b)] = 1.0;
    rows.add(angleRow_, desired, task.level, def.task.weight.value);
  }

  // Two rows: the point's acceleration toward a_des from the gains.
  static void addPointRows(const TrackTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const TrackPrimitive& def = task.definition;
    const Vec2 goal = def.scale * Vec2(def.x.value, def.y.value);  // metres
    auto [relative, rate] = interpolate(task.start, goal, def.duration.value, step.phaseTime);
    const Vec2 position = step.dynamics.pointPosition(task.body, task.local);
    const Vec2 velocity = step.dynamics.pointVelocity(task.body, task.local);
    const Vec2 desired = def.kp.value * (step.frameOrigin + relative - position) +
                         def.kd.value * (rate + step.frameVelocity - velocity);
    rows.addPoint(task.body, task.local, desired, task.level, def.task.weight.value);
  }

  Eigen::RowVectorXd angleRow_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeTrackFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context) {
  return std::make_unique<TrackFeature>(phase, context);
}

}  // namespace scl
