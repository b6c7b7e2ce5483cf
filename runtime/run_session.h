// One run of a program, the way every caller runs one: `scl run` (with its recorders),
// `scl bench`, the optimizer's objective trials, the motion trials and the viewer.
//
// A RunSession owns a Runner and adds what a run needs around it: pushes applied at their
// times, the rule that ends the run, the timeline of phase starts and the motion
// metrics of the summary. Observers (a trajectory recorder, a filmstrip sampler, an
// objective's accumulator) see every step through run()'s callback.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/metrics.h"
#include "runtime/runner.h"
#include "runtime/world_metrics.h"

namespace scl {

/// A constant force on one link's centre of mass, or on a movable object's, over a time
/// window (`scl run --push`, or a script's `push` statement: scl/push.h).
struct Push {
  /// The link pushed, index into the character's links (when `sceneBody` is negative).
  int link = 0;
  /// Force, newtons.
  Vec2 force = Vec2::Zero();
  /// Start of the window, seconds; the force acts in every step that starts in
  /// [start, start + duration).
  double start = 0.0;
  /// Length of the window, seconds.
  double duration = 0.0;
  /// When 0 or more, the push acts on this movable scene body (index into Scene::bodies)
  /// instead of on a link: on its part `part` (a chain's link from 0 at its start; 0
  /// otherwise), at that part's centre of mass. An object held until its `launch:` does not
  /// move before it.
  int sceneBody = -1;
  int part = 0;
  /// Carried by the program (a script's `push` statement) rather than given by the caller.
  bool fromScript = false;
};

/// `push` (a script's `push` statement or an objective trial's `push:`) as a Push of a run
/// whose scene bodies are `bodies` (an object found by name). Throws std::invalid_argument
/// when `bodies` lacks the body it pushes.
Push pushOf(const ScriptPush& push, std::span<const SceneBodyDef> bodies);

/// The pushes `program` carries (Program::pushes), on its character's links and the
/// bodies of a run's scene `bodies` (found by name: a run may order them otherwise than the
/// script). Throws std::invalid_argument when `bodies` lacks a body one of them pushes.
std::vector<Push> programPushes(const Program& program, std::span<const SceneBodyDef> bodies);

/// When a run ends.
struct RunLength {
  /// Simulated time of the run, seconds; nullopt: `lastPhaseHold` after the last phase
  /// began, at most `longest`.
  std::optional<double> duration;
  /// Without a duration: how long the last phase runs before the run ends, seconds.
  double lastPhaseHold = 3.0;
  /// Without a duration: the longest run, seconds.
  double longest = 60.0;
  /// Without a duration: the run does not end before this time (e.g. the last filmstrip
  /// frame asked for), seconds.
  double notBefore = 0.0;
  /// Why the run ends when it reaches its length, in words for the summary.
  std::string reason;
};

/// The length `scl run` gives a program unless told otherwise: the script's scene
/// duration, 10 s for a cyclic script, else until its last phase has run 3 s.
RunLength defaultRunLength(const Program& program);

/// What a run observer sees after each step (and once for the initial state).
struct StepView {
  const CharacterState& state;
  /// Phase active in the step (0 for the initial state) and its name.
  int phase;
  std::string_view phaseName;
  /// Torques applied during the step, N·m (zero for the initial state).
  const std::array<double, kMaxJoints>& torques;
  /// Length of the step, seconds (0 for the initial state).
  double timeStep;
  /// The runner's report of the step; nullptr for the initial state.
  const StepReport* report;
  /// The scene's movable and moving bodies after the step (Simulation::worldBodies(): in
  /// scene order, a chain link by link).
  std::span<const WorldBodyState> world;
};

/// A phase that began during the run.
struct PhaseStart {
  /// Simulated time when it began, seconds.
  double time = 0.0;
  /// Its index in the program, and its name ("" when unnamed).
  int index = 0;
  std::string name;
  /// It began because the previous phase's fallback (`or after T`) fired, not its
  /// condition.
  bool timedOut = false;
};

/// How to run.
struct RunSessionDef {
  SimulationDef simulation;
  /// How the controller runs (the feature QP's rate).
  ControllerOptions controller;
  /// The caller's pushes (`--push`); the program's own come first (RunSession::pushes()).
  std::vector<Push> pushes;
  RunLength length;
  /// The summary's measures (the human's thresholds unless set: metricsFor() scales them
  /// to another character) and the world's objects' (WorldMetrics); nullopt: no metrics
  /// are kept (the optimizer's inner loop).
  std::optional<MetricsDef> metrics = MetricsDef{};
  /// The metrics also observe the initial state at t = 0 (`scl run`'s summary measures
  /// distance from it); otherwise they start with the first step.
  bool metricsSeeInitialState = true;
};

class RunSession {
 public:
  /// Builds the simulation and the controller, which keeps `program` (pass an rvalue to
  /// spare a copy; throws std::invalid_argument on a bad definition, a program it cannot
  /// run, or a push on a link or scene body part that does not exist or cannot move).
  RunSession(Program program, RunSessionDef definition);

  /// Every push of the run: the program's (programPushes()), then the definition's.
  const std::vector<Push>& pushes() const { return def_.pushes; }

  /// One step: the pushes of this time applied, the runner stepped, the timeline and the
  /// metrics updated. Throws SimulationDiverged.
  const StepReport& step();
  /// The run has reached its length (or was stopped).
  bool finished() const { return finished_; }
  /// Ends the run now, e.g. when an objective's early stop fires.
  void stop(std::string reason);
  /// Steps until finished(), calling `observe` for the initial state (when no step was
  /// taken yet) and after every step.
  void run(const std::function<void(const StepView&)>& observe = {});

  /// Why the run ended (RunLength::reason, "the 60 s limit" or a stop() reason).
  const std::string& endReason() const { return endReason_; }
  /// Phase starts, the first phase at t = 0 included.
  const std::vector<PhaseStart>& timeline() const { return timeline_; }
  /// The metrics so far (empty summary without metrics).
  MotionSummary summary() const;
  /// The world's movable objects and moving platforms so far (WorldMetrics; empty without
  /// metrics or objects).
  std::vector<ObjectSummary> objects() const;
  long steps() const { return steps_; }
  /// The program running (the controller's copy).
  const Program& program() const { return runner_.controller().program(); }
  const Runner& runner() const { return runner_; }
  /// For external forces of the caller's own (the viewer's mouse spring).
  Runner& runner() { return runner_; }

 private:
  void findPushedParts();
  void applyPushes();
  void updateFinished(const StepReport* report);
  StepView initialView() const;

  RunSessionDef def_;
  Runner runner_;
  /// For each push on an object, its part's index in Simulation::worldBodies(); -1 for a
  /// push on a link.
  std::vector<int> pushedParts_;
  std::optional<MotionMetrics> metrics_;
  std::optional<WorldMetrics> worldMetrics_;
  std::vector<PhaseStart> timeline_;
  std::string endReason_;
  long steps_ = 0;
  bool finished_ = false;
};

}  // namespace scl
