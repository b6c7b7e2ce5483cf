// The trajectory of a run as CSV: one row per sample, a header naming every column, so
// the file loads directly in pandas or a spreadsheet.
#pragma once

#include <array>
#include <string>

#include "primitives/character_state.h"

namespace scl {

class TrajectoryCsv {
 public:
  TrajectoryCsv();
  /// Appends one sample: time, phase, root pose (the head's origin and world angle),
  /// every joint's angle (degrees) and applied torque (N·m), every link's contact (0/1),
  /// the whole-body centre of mass and its velocity.
  void addRow(const CharacterState& state, int phaseIndex, const std::string& phaseName,
              const std::array<double, kJointCount>& torques);
  /// Number of columns of every row.
  int columnCount() const { return columns_; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  int columns_ = 0;
};

}  // namespace scl
