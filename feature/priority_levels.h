// The strict priority levels of a phase's features (docs/features.md, Priorities): the
// distinct priorities written, in order, numbered 0, 1, ... Features of one level are a
// weighted sum; each level holds the earlier ones' optimum (level_cascade.h).
#pragma once

#include <vector>

#include "scl/program.h"

namespace scl {

/// The priority of a feature that goes to the phase's lowest level (a posture without
/// `priority`).
inline constexpr int kLowestPriority = 0;

/// A feature's priority: as written, or 1 when not written.
inline int priorityOf(const TaskOptions& task) { return task.priority > 0 ? task.priority : 1; }

class PriorityLevels {
 public:
  /// A feature at `priority` (1 the first, or kLowestPriority).
  void note(int priority);
  /// Numbers the levels, once every feature has been noted: one per distinct priority
  /// (one level when there is none).
  void number();
  /// The level of a noted priority, after number().
  int levelOf(int priority) const;
  int count() const { return static_cast<int>(priorities_.size()); }

 private:
  std::vector<int> priorities_;
};

}  // namespace scl
