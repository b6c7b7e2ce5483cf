// The series a motion is plotted from (docs/plot.md): per sample, every joint's angle,
// PD target and torque, the centre of mass against the support region of the feet, the
// centre-of-mass and head heights, which links touch, and the phase boundaries. No SFML:
// `scl plot` writes them as SVG and the viewer's plot panel draws the same data.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinematics/character_state.h"
#include "primitives/control_frame.h"
#include "runtime/run_session.h"
#include "runtime/world_metrics.h"

namespace scl {

/// A phase boundary: where a phase began.
struct PhaseMark {
  /// Simulated time when the phase began, seconds.
  double time = 0.0;
  /// Its index in the program and its name ("" when unnamed).
  int index = 0;
  std::string name;
  /// It began by the previous phase's `or after T` fallback.
  bool timedOut = false;
  /// It began by the user's jump (the viewer's keys 1-9), not by a transition.
  bool jumped = false;
};

/// A movable object or moving platform of the scene over a run: its place (a chain's: its
/// links' together, objectState(), as `scl run --json` and the objectives measure it),
/// metres, and its angle, degrees.
struct PlotObject {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> angleDeg;
};

/// One run's series, sampled at increasing times. Every vector of samples has size().
struct PlotData {
  /// The character's joint and link names (the panels' and strips' titles).
  std::vector<std::string> jointNames;
  std::vector<std::string> linkNames;
  /// Sample times, seconds.
  std::vector<double> time;
  /// Per joint: angle and PD target, degrees; torque applied, N·m.
  std::array<std::vector<double>, kMaxJoints> angleDeg;
  std::array<std::vector<double>, kMaxJoints> targetDeg;
  std::array<std::vector<double>, kMaxJoints> torque;
  /// Per joint: the largest torque it may apply, N·m (from the character).
  std::array<double, kMaxJoints> torqueLimit{};
  /// Whole-body centre of mass: horizontal position and height, metres.
  std::vector<double> comX;
  std::vector<double> comHeight;
  /// Head height (the neckTop joint, as docs/marks.md measures it), metres.
  std::vector<double> headHeight;
  /// Support region: the horizontal extent of the feet touching the environment, metres;
  /// NaN when no foot touches.
  std::vector<double> supportLow;
  std::vector<double> supportHigh;
  /// Per side (0 left, 1 right): the heel's and the toe's height (footPoints()) and the
  /// hand's centre-of-mass height, metres.
  std::array<std::vector<double>, 2> heelHeight;
  std::array<std::vector<double>, 2> toeHeight;
  std::array<std::vector<double>, 2> handHeight;
  /// Per link: 1 when it touches the environment, else 0.
  std::array<std::vector<std::uint8_t>, kMaxLinks> contact;
  /// The scene's movable objects and moving platforms, in scene order (none unless the
  /// recorder tracks them: PlotRecorder::trackObjects()).
  std::vector<PlotObject> objects;
  /// Phase boundaries, the first phase at the first sample's time included.
  std::vector<PhaseMark> phases;
  /// False when the source held no PD targets (a trajectory CSV): targetDeg is empty.
  bool hasTargets = true;

  /// Number of samples.
  size_t size() const { return time.size(); }
  /// Drops the samples and phase marks after `time` seconds (the viewer resuming from an
  /// earlier moment).
  void truncateAfter(double time);
  /// Drops the first `count` samples and the phase marks before the new first sample
  /// (keeping the one in force then).
  void dropFront(size_t count);
};

/// The horizontal extent of the feet in `state` that touch the environment, metres, as
/// {low, high}; {NaN, NaN} when neither does.
std::array<double, 2> supportRegion(const Character& character, const CharacterState& state);

/// One sample of a run, as a recorder sees it.
struct PlotSample {
  const CharacterState& state;
  /// Phase active after the step and whether it began with the step.
  int phase = 0;
  std::string_view phaseName;
  bool phaseStarted = false;
  bool phaseTimedOut = false;
  /// PD targets per joint, radians; nullptr when unknown (the initial state).
  const JointTargets* targets = nullptr;
  /// Torques applied during the step, N·m.
  const std::array<double, kMaxJoints>& torques;
};

/// Samples a run into PlotData at a fixed rate (the first step reaching each time k/rate,
/// the initial state included); phase starts are marked at the step they happen in,
/// whatever the rate.
class PlotRecorder {
 public:
  /// `rate`: samples per second, Hz; `timeStep`: the run's step, seconds. Keeps at most
  /// `maxSeconds` of samples, dropping the oldest (an open-ended viewer run).
  PlotRecorder(const Character& character, double rate, double timeStep, double maxSeconds = 1e300);

  /// Records the place and angle of every movable object and moving platform from now on:
  /// `bodies` are the scene's (Scene::bodies, as simulated), `world` the layout of their
  /// states (Simulation::worldBodies()) that every sample's world has. Call before the
  /// first sample.
  void trackObjects(std::span<const SceneBodyDef> bodies, std::span<const WorldBodyState> world);
  /// Sees a run observer's step (RunSession::run's callback).
  void observe(const StepView& step);
  /// Sees one sample; it is recorded when a sample is due or `force` is set. `world`: the
  /// tracked objects' states after the step (their samples are NaN without).
  void observe(const PlotSample& sample, bool force = false,
               std::span<const WorldBodyState> world = {});
  /// Marks the next phase start as the user's jump.
  void markJump() { jumpPending_ = true; }
  /// Forgets the samples after `time` seconds and records from there again.
  void truncateAfter(double time);
  /// Forgets everything (a restart).
  void clear();

  const PlotData& data() const { return data_; }
  /// Samples per second, Hz.
  double rate() const { return rate_; }

 private:
  void append(const PlotSample& sample, std::span<const WorldBodyState> world);

  const Character* character_;
  double rate_;
  double timeStep_;
  size_t maxSamples_;
  /// The index of the next sample due (time × rate), a whole number.
  double nextSample_ = 0.0;
  bool jumpPending_ = false;
  /// Where each tracked object's parts lie in a sample's world.
  std::vector<WorldParts> objectParts_;
  PlotData data_;
};

/// PlotData from a trajectory CSV of `scl run --out` (its columns, docs/cli.md): every
/// series but the PD targets, which the file does not hold (hasTargets is false); the
/// feet are placed by forward kinematics from the root pose and the joint angles of
/// `character`; the objects from their `NAME.x`, `NAME.y`, `NAME.angle` columns (a
/// chain's `NAME.K.x`, ... per link). Throws std::invalid_argument naming the line on a
/// malformed file.
PlotData readTrajectoryCsv(std::string_view text, const Character& character);

}  // namespace scl
