// The trajectory of a run as CSV: one row per sample, a header naming every column, so
// the file loads directly in pandas or a spreadsheet (docs/cli.md lists the columns).
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinematics/character_state.h"
#include "runtime/run_session.h"

namespace scl {

/// The trajectory CSV's columns of one part of the world (docs/cli.md): `NAME` for a body
/// of one part, `NAME.K` for link K (from 1) of a chain; its columns are the prefix
/// followed by `.x`, `.y` and `.angle`.
std::string worldColumnPrefix(const SceneBodyDef& body, int part);

class TrajectoryCsv {
 public:
  /// `character`: the body the rows are of (kept by reference; it must outlive this).
  /// `bodies`: the scene's bodies (Scene::bodies, as simulated) and `world` the states of
  /// its movable and moving ones (Simulation::worldBodies()), whose layout every row's
  /// world has: a body's place and angle per part, after the character's columns.
  explicit TrajectoryCsv(const Character& character, std::span<const SceneBodyDef> bodies = {},
                         std::span<const WorldBodyState> world = {});
  /// Appends one sample: time (s), phase index and name, the root pose (the head's
  /// origin, m, and world angle, degrees), head height (neckTop, m), pelvis centre of
  /// mass (m), every joint's angle (degrees) and applied torque (N·m), every link's
  /// contact (0/1), the whole-body centre of mass (m) and its velocity (m/s), each foot's
  /// heel and toe (footPoints(), m), each hand's centre of mass (m), and each world part's
  /// centre of mass (m) and angle (degrees).
  void addRow(const CharacterState& state, int phaseIndex, std::string_view phaseName,
              const std::array<double, kMaxJoints>& torques,
              std::span<const WorldBodyState> world = {});
  /// The column names, in order (the header line).
  const std::vector<std::string>& columnNames() const { return columns_; }
  /// Number of columns of every row.
  int columnCount() const { return static_cast<int>(columns_.size()); }
  /// Number of data rows (the header excluded).
  int rowCount() const { return rows_; }
  /// The whole file: header line, then one line per row, each ending in '\n'.
  const std::string& text() const { return text_; }

 private:
  const Character* character_;
  /// World parts per row (the layout given at construction).
  size_t worldParts_ = 0;
  std::vector<std::string> columns_;
  std::string text_;
  int rows_ = 0;
};

/// Samples a run into a TrajectoryCsv at a fixed rate: at t = k / rate for k = 0, 1, ...
/// (the first step reaching each time), the initial state included.
class TrajectoryRecorder {
 public:
  /// `character`: the run's body (it must outlive this); `rate`: samples per second, Hz (at
  /// most 1 / timeStep); `timeStep`: the run's step, seconds; `bodies` and `world`: the
  /// scene's bodies and its world's layout (TrajectoryCsv).
  TrajectoryRecorder(const Character& character, double rate, double timeStep,
                     std::span<const SceneBodyDef> bodies = {},
                     std::span<const WorldBodyState> world = {})
      : rate_(rate), timeStep_(timeStep), csv_(character, bodies, world) {}
  void observe(const StepView& step);
  const TrajectoryCsv& csv() const { return csv_; }

 private:
  double rate_;
  double timeStep_;
  long nextSample_ = 0;
  TrajectoryCsv csv_;
};

}  // namespace scl
