// What the viewer simulates: a RunSession (runtime/run_session.h) executing the current
// program, plus the user's mouse push; the plot series of the run (tools/plot) and its
// history for the time bar: a state per displayed frame to scrub through, and the user's
// inputs (pushes, phase jumps, controller swaps) to replay the run deterministically from
// the start to any earlier step and resume there. No SFML, so it can be tested headless.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "runtime/run_session.h"
#include "tools/plot/plot_data.h"
#include "tools/viewer/link_geometry.h"
#include "tools/viewer/world_picture.h"

namespace scl {

/// The mouse push in progress: a spring from a point on a link, or on a movable object,
/// to the mouse.
struct DragState {
  /// The grabbed point, fixed on its link (when `object` is empty).
  LinkPoint grabbed;
  /// Where the mouse is, world metres.
  Vec2 target = Vec2::Zero();
  /// The grabbed point fixed on an object's part instead of on a link.
  std::optional<ObjectPoint> object;
};

/// What a phase with features shows: the QP's centre-of-mass target and planned contact
/// forces (docs/features.md). Empty in a phase without features.
struct FeatureOverlay {
  std::optional<Vec2> comTarget;
  std::span<const PlannedContactForce> contactForces;
};

/// A state the time bar can show: the state after a step and the phase then.
struct Snapshot {
  /// Steps since the start.
  long step = 0;
  CharacterState state;
  int phase = 0;
  /// Time since that phase began, seconds.
  double phaseTime = 0.0;
  /// The world's moving parts then (Simulation::worldBodies(); empty without any).
  std::vector<WorldBodyState> world;
};

/// How the session keeps its history.
struct HistoryDef {
  /// Snapshots per second of simulated time (the display's frame rate), Hz.
  double snapshotRate = 60.0;
  /// The oldest snapshots beyond this are dropped, seconds of simulated time.
  double snapshotSeconds = 180.0;
  /// Plot samples per second, Hz, and how much the plot keeps, seconds.
  double plotRate = 200.0;
  double plotSeconds = 600.0;
};

class ViewerSession {
 public:
  /// Starts `program` from its scene's initial state. Throws std::invalid_argument when
  /// the program cannot run (bad scene, a primitive the controller cannot drive).
  explicit ViewerSession(const Program& program, const DragSpringDef& spring = {},
                         const HistoryDef& history = {});

  /// Restarts from the initial state with `program` (a fresh simulation; the scene may
  /// have changed). Throws std::invalid_argument, leaving the session as it was.
  void load(const Program& program);
  /// Keeps the physics state and swaps the controller: the new program continues in the
  /// same phase index when it has one, else in phase 0. Throws std::invalid_argument,
  /// leaving the session as it was.
  void continueWith(const Program& program);
  /// Back to the initial state of the current program.
  void restart();
  /// Starts phase `index` (0-based) on the next step; false when there is no such phase.
  bool jumpToPhase(int index);

  /// The snapshot showing simulated time `time` (the last one at or before it); nullptr
  /// when none is kept.
  const Snapshot* snapshotAt(double time) const;
  /// The time of the oldest snapshot kept, seconds.
  double historyStart() const;
  /// Goes back to `time` (at most the current time) by replaying the run from its
  /// initial state with the same inputs, to the step of the snapshot at `time`; the
  /// history after it is forgotten. Returns false (nothing changed) when the run cannot
  /// be replayed (it diverged before that time).
  bool resumeFrom(double time);
  /// The plot series of the run so far.
  const PlotData& plots() const { return plots_.data(); }
  /// Steps since the start.
  long steps() const { return session_->steps(); }

  /// Advances up to `steps` physics steps (fewer when the simulation diverges).
  void advance(int steps);
  /// Steps until the simulated time reaches `time` (to within half a step).
  void advanceTo(double time);

  void setDrag(std::optional<DragState> drag) { drag_ = std::move(drag); }
  const std::optional<DragState>& drag() const { return drag_; }
  /// The spring force of the drag in the last step, newtons (zero without a drag).
  const Vec2& dragForce() const { return dragForce_; }
  /// World position of the grabbed point now.
  std::optional<Vec2> dragPoint() const;
  /// The drag's point and the spring's force on it for the next step (none without a drag).
  std::optional<ExternalForce> dragPush() const;

  const CharacterState& state() const { return runner().state(); }
  /// The character simulated (the running program's).
  const Character& character() const { return runner().simulation().character(); }
  double time() const { return runner().time(); }
  double timeStep() const { return runner().simulation().timeStep(); }
  /// The world's moving parts now (Simulation::worldBodies()).
  const std::vector<WorldBodyState>& worldBodies() const {
    return runner().simulation().worldBodies();
  }
  /// The world's outlines and what the mouse can grab of it, for any state of its parts.
  const WorldPicture& world() const { return world_; }
  /// The world's outlines now.
  std::vector<WorldOutline> worldOutlines() const { return world_.outlines(worldBodies()); }
  const Controller& controller() const { return runner().controller(); }
  /// The run: its timeline of phase starts and its motion summary so far.
  const RunSession& run() const { return *session_; }
  /// Forces realised by the primitives in the last step (none before the first step).
  std::span<const AppliedForce> appliedForces() const;
  /// The feature QP's centre-of-mass target and planned contact forces in the last step.
  FeatureOverlay featureOverlay() const;
  /// Set when the simulation diverged; the session then stands still until a restart.
  const std::optional<std::string>& failure() const { return failure_; }

 private:
  /// A controller swap of continueWith(), replayed at its step.
  struct ProgramSwap {
    long step = 0;
    Program program;
    int startPhase = 0;
  };
  /// A phase jump, replayed at its step.
  struct PhaseJump {
    long step = 0;
    int phase = 0;
  };
  /// A push of the mouse spring, replayed at its step.
  struct PushAt {
    long step = 0;
    ExternalForce force;
  };

  void stepOnce();
  void replayStep(size_t& swap, size_t& jump, size_t& push);
  void record();
  void resetHistory(const Program& program);
  const Runner& runner() const { return session_->runner(); }
  Runner& runner() { return session_->runner(); }

  DragSpringDef spring_;
  std::unique_ptr<RunSession> session_;
  WorldPicture world_;
  std::optional<DragState> drag_;
  Vec2 dragForce_ = Vec2::Zero();
  std::optional<std::string> failure_;
  /// True once the runner has stepped since the last (re)start.
  bool stepped_ = false;
  HistoryDef historyDef_;
  /// The program the run started with, and every input since, by step.
  std::shared_ptr<const Program> initialProgram_;
  std::vector<ProgramSwap> swaps_;
  std::vector<PhaseJump> jumps_;
  std::vector<PushAt> pushes_;
  std::vector<Snapshot> snapshots_;
  PlotRecorder plots_;
};

}  // namespace scl
