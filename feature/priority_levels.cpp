#include "feature/priority_levels.h"

#include <algorithm>

namespace scl {

void PriorityLevels::note(int priority) {
  if (priority != kLowestPriority) priorities_.push_back(priority);
}

void PriorityLevels::number() {
  // kLowestPriority joins the level of the largest priority written (priority 1 when none
  // is written).
  if (priorities_.empty()) priorities_.push_back(1);
  std::sort(priorities_.begin(), priorities_.end());
  priorities_.erase(std::unique(priorities_.begin(), priorities_.end()), priorities_.end());
}

int PriorityLevels::levelOf(int priority) const {
  if (priority == kLowestPriority) return count() - 1;
  return static_cast<int>(std::lower_bound(priorities_.begin(), priorities_.end(), priority) -
                          priorities_.begin());
}

}  // namespace scl
