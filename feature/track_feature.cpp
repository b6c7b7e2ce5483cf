// `[track]`: a joint's position, a link's centre of mass or a link's world angle tracks a
// target, interpolated from its value at phase start (docs/features.md, Tracking); a held
// body's centre or angle, through the link holding it; a point toward a movable body, at
// its velocity (docs/manipulation.md, Object targets); or a link along a clip's path of it
// (docs/clips.md, Control by clips).
#include "dynamics/character_coordinates.h"
#include "feature/feature_kind.h"
#include "feature/feature_math.h"
#include "scl/clip.h"
#include "scl/clip_follower.h"

namespace scl {

namespace {

using Target = TrackPrimitive::Target;

struct TrackTask {
  TrackPrimitive definition;
  int priority = 1;
  int level = 0;
  int body = 0;                   // the moving body: the tracked link, or the holder of a body
  Vec2 local = Vec2::Zero();      // the tracked point in the body's frame
  Vec2 start = Vec2::Zero();      // position from the frame origin, or (angle, 0), at the start
  Vec2 startRate = Vec2::Zero();  // its rate then (the Hermite curve's first tangent)
  // A held body's target starts when a link first holds it: then, seconds into the phase.
  bool started = false;
  double startTime = 0.0;
  double angleOffset = 0.0;    // a held body's angle less its holder's, radians
  Vec2 anchor = Vec2::Zero();  // a pursuing point's place at the phase start, world metres
  // A clip path: samples (sized once), and the path's point when the phase began.
  ClipPose pose, ahead;
  Vec2 clipStart = Vec2::Zero();
};

// The clip's point of the tracked path at playback time `time` (world metres as the clip
// wrote them; a looping clip's root carried on from cycle to cycle, its effectors with it).
Vec2 clipPathPoint(const TrackPrimitive& track, double time, ClipPose& pose) {
  const Clip& clip = *track.clip.clips.front()->clip;
  sampleClip(clip, time, pose);
  Vec2 point = track.clipEffector < 0
                   ? Vec2(pose.root.x, pose.root.y)
                   : Vec2(pose.effectors[static_cast<size_t>(track.clipEffector)].x,
                          pose.effectors[static_cast<size_t>(track.clipEffector)].y);
  if (pose.loops != 0 && clip.hasRoot()) {
    const ClipRoot& first = clip.frames.front().root;
    const ClipRoot& last = clip.frames.back().root;
    point += static_cast<double>(pose.loops) * Vec2(last.x - first.x, last.y - first.y);
  }
  return point;
}

bool isBodyTarget(const TrackPrimitive& track) {
  return track.target == Target::BodyPosition || track.target == Target::BodyAngle;
}

class TrackFeature final : public TaskFeatureKind<TrackTask> {
 public:
  TrackFeature(std::span<const Primitive> phase, const FeatureContext& context)
      : angleRow_(context.dynamics.dofCount()) {
    forEachFeature<TrackPrimitive>(phase, [&](const TrackPrimitive& track) {
      TrackTask task;
      task.definition = track;
      task.priority = priorityOf(track.task);
      if (track.target == Target::JointPosition) {
        task.body = context.character.joints[track.index].childLink;
      } else if (!isBodyTarget(track)) {
        task.body = track.index;
        if (track.target == Target::LinkPosition)
          task.local = context.dynamics.model().bodies[task.body].comOffset;
      }
      if (track.clip.active()) {
        // The root's path is its link's origin; an effector's, its link's tip.
        const LinkDef& link = context.character.links[static_cast<size_t>(track.index)];
        task.local = track.clipEffector < 0 ? Vec2::Zero() : Vec2(link.axisSign * link.length, 0.0);
        task.pose = makeClipPose(*track.clip.clips.front()->clip);
        task.ahead = task.pose;
      }
      tasks_.push_back(std::move(task));
    });
  }

  void begin(const PlanarDynamics& dynamics, const Vec2& frameOrigin) override {
    for (TrackTask& task : tasks_) {
      task.started = !isBodyTarget(task.definition);
      if (!task.started) continue;
      task.start = value(task, dynamics, frameOrigin);
      task.anchor = task.start + frameOrigin;
      if (task.definition.clip.active())
        task.clipStart =
            clipPathPoint(task.definition, clipPlaybackTime(task.definition.clip, 0.0), task.pose);
      if (task.definition.target != Target::LinkAngle)
        task.startRate = dynamics.pointVelocity(task.body, task.local);
    }
  }

  int rowCapacity() const override { return 2 * static_cast<int>(tasks_.size()); }

  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    for (TrackTask& task : tasks_) {
      const TrackPrimitive& def = task.definition;
      if (def.toBody >= 0) {
        addPursuitRows(task, step, rows);
        continue;
      }
      if (def.clip.active()) {
        addClipPathRows(task, step, rows);
        continue;
      }
      if (isBodyTarget(def) && !followHolder(task, step)) continue;
      if (def.target == Target::LinkAngle || def.target == Target::BodyAngle) {
        addAngleRow(task, step, rows);
      } else {
        addPointRows(task, step, rows);
      }
    }
  }

 private:
  // The tracked quantity now: position from the frame origin, or (angle, 0).
  static Vec2 value(const TrackTask& task, const PlanarDynamics& dynamics, const Vec2& origin) {
    if (task.definition.target == Target::LinkAngle || task.definition.target == Target::BodyAngle)
      return Vec2(dynamics.bodies()[task.body].angle + task.angleOffset, 0.0);
    return dynamics.pointPosition(task.body, task.local) - origin;
  }

  static const SceneObjectState* objectOf(const FeatureStep& step, int index) {
    const auto at = static_cast<size_t>(index);
    if (index < 0 || at >= step.input.objects.size() || !step.input.objects[at].movable)
      return nullptr;
    return &step.input.objects[at];
  }

  // A held body's target moves its holder: finds the link holding it (the first), where
  // the body sits on it, and on the first held step where its curve starts. False while no
  // link holds it (the task then adds no rows).
  static bool followHolder(TrackTask& task, const FeatureStep& step) {
    const int index = task.definition.index;
    const SceneObjectState* object = objectOf(step, index);
    int holder = -1;
    for (int link = 0; object && holder < 0 && link < kMaxLinks; ++link)
      if ((step.state.links[static_cast<size_t>(link)].holding >> index) & 1u) holder = link;
    if (holder < 0) {
      task.started = false;
      return false;
    }
    const BodyMotion& frame = step.dynamics.bodies()[static_cast<size_t>(holder)];
    task.body = holder;
    task.local = toBodyFrame(frame, object->position - frame.origin);
    task.angleOffset = object->angle - frame.angle;
    if (!task.started) {
      task.started = true;
      task.startTime = step.phaseTime;
      task.start = value(task, step.dynamics, step.frameOrigin);
      task.startRate = step.dynamics.pointVelocity(task.body, task.local) - step.frameVelocity;
    }
    return true;
  }

  // One row: the body's angular acceleration, the root's plus every joint's on its path.
  void addAngleRow(const TrackTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const TrackPrimitive& def = task.definition;
    const PlanarDynamics& dynamics = step.dynamics;
    auto [angle, rate] = interpolate(task.start.x(), def.x.value, def.duration.value,
                                     step.phaseTime - task.startTime);
    const BodyMotion& body = dynamics.bodies()[task.body];
    const double desired = def.kp.value * (angle - body.angle - task.angleOffset) +
                           def.kd.value * (rate - body.angularVelocity);
    angularAccelerationRow(dynamics, task.body, angleRow_);
    rows.add(angleRow_, desired, task.level, def.task.weight.value);
  }

  // Two rows: the point's acceleration toward a_des from the gains (with the curve's own
  // acceleration when it is a Hermite curve).
  static void addPointRows(const TrackTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const TrackPrimitive& def = task.definition;
    const Vec2 goal = def.scale * Vec2(def.x.value, def.y.value);  // metres
    const double time = step.phaseTime - task.startTime;
    CurvePoint<Vec2> target{};
    if (def.hasEndVelocity) {
      const Vec2 endRate = def.scale * Vec2(def.vx.value, def.vy.value);  // m/s
      target = hermite(task.start, task.startRate, goal, endRate, def.duration.value, time);
    } else {
      auto [relative, rate] = interpolate(task.start, goal, def.duration.value, time);
      target = {relative, rate, Vec2::Zero()};
    }
    const Vec2 position = step.dynamics.pointPosition(task.body, task.local);
    const Vec2 velocity = step.dynamics.pointVelocity(task.body, task.local);
    Vec2 desired = def.kp.value * (step.frameOrigin + target.value - position) +
                   def.kd.value * (target.rate + step.frameVelocity - velocity);
    if (def.hasEndVelocity) desired += target.acceleration;
    rows.addPoint(task.body, task.local, desired, task.level, def.task.weight.value);
  }

  // `[track LINK clip: NAME]`: two rows, the link's point toward where the clip's path has
  // moved since the phase began (from the point's own place then), at the path's rate and
  // with its acceleration (central differences; at an end of a clip that does not loop,
  // the rate one-sided and no acceleration; neither once playback has passed that end).
  static void addClipPathRows(TrackTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const TrackPrimitive& def = task.definition;
    const Clip& clip = *def.clip.clips.front()->clip;
    const double time = clipPlaybackTime(def.clip, step.phaseTime);
    const double h = kClipRateStep, speed = def.clip.speed.value;
    const Vec2 point = clipPathPoint(def, time, task.pose);
    const bool outside = task.pose.outside;
    const bool wraps = clip.loop || def.clip.loop;
    const bool before = wraps || time - h >= 0.0, after = wraps || time + h <= clip.duration();
    const Vec2 earlier = clipPathPoint(def, before ? time - h : time, task.ahead);
    const Vec2 later = clipPathPoint(def, after ? time + h : time, task.ahead);
    Vec2 rate = Vec2::Zero(), acceleration = Vec2::Zero();
    if (!outside && (before || after))
      rate = (later - earlier) * (speed / ((before ? h : 0.0) + (after ? h : 0.0)));
    if (!outside && before && after)
      acceleration = (later - 2.0 * point + earlier) * (speed * speed / (h * h));
    const Vec2 target = task.anchor + (point - task.clipStart);
    const Vec2 position = step.dynamics.pointPosition(task.body, task.local);
    const Vec2 velocity = step.dynamics.pointVelocity(task.body, task.local);
    const Vec2 desired =
        acceleration + def.kp.value * (target - position) + def.kd.value * (rate - velocity);
    rows.addPoint(task.body, task.local, desired, task.level, def.task.weight.value);
  }

  // `[track NAME BODY]`, as a hand meets a ball to catch it: the point goes to where the
  // body's path comes nearest the point's place at the phase start, to arrive when the
  // body does and at the body's velocity (a Hermite curve from the point's position and
  // velocity, planned afresh each step);
  // once the body is that near in time, the point follows it at its velocity, with the
  // gains. A body in flight is predicted under gravity, any other at its velocity.
  static void addPursuitRows(const TrackTask& task, const FeatureStep& step, ObjectiveRows& rows) {
    const SceneObjectState* object = objectOf(step, task.definition.toBody);
    if (!object) return;
    const TrackPrimitive& def = task.definition;
    const Vec2 position = step.dynamics.pointPosition(task.body, task.local);
    const Vec2 velocity = step.dynamics.pointVelocity(task.body, task.local);
    const Vec2 gravity = object->inFlight ? step.dynamics.model().gravity : Vec2::Zero();
    auto along = [&](double t) {
      return Vec2(object->position + t * object->velocity + 0.5 * t * t * gravity);
    };
    double arrival = 0.0, nearest = (object->position - task.anchor).squaredNorm();
    for (int i = 1; i <= kPathSamples; ++i) {
      const double t = i * kPathSampleTime;
      const double distance = (along(t) - task.anchor).squaredNorm();
      if (distance < nearest) nearest = distance, arrival = t;
    }
    Vec2 desired;
    if (arrival < kFollowTime) {
      desired = gravity + def.kp.value * (object->position - position) +
                def.kd.value * (object->velocity - velocity);
    } else {
      const Vec2 meet = along(arrival), meetVelocity = object->velocity + arrival * gravity;
      desired = hermite(position, velocity, meet, meetVelocity, arrival, 0.0).acceleration;
    }
    rows.addPoint(task.body, task.local, desired, task.level, def.task.weight.value);
  }

  // How far ahead a pursued body's path is searched, in samples and seconds per sample;
  // how near in time it must be for the point to follow it rather than meet it, seconds.
  static constexpr int kPathSamples = 150;
  static constexpr double kPathSampleTime = 0.01;
  static constexpr double kFollowTime = 0.05;

  Eigen::RowVectorXd angleRow_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeTrackFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context) {
  return std::make_unique<TrackFeature>(phase, context);
}

}  // namespace scl
