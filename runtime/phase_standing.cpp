#include "runtime/phase_standing.h"

#include "base/format.h"
#include "scl/transition_text.h"

namespace scl {

PhaseStanding phaseStanding(const Program& program, int phase, double active, bool final) {
  PhaseStanding standing;
  standing.phase = phase;
  standing.phaseCount = static_cast<int>(program.phases.size());
  const Phase& current = program.phases[static_cast<size_t>(phase)];
  standing.name = current.name;
  standing.active = active;
  if (current.exit && !final) {
    const Transition& exit = *current.exit;
    standing.exit = transitionText(exit, *program.character);
    // Past its `after` (or with none), a contact condition that held would have fired.
    standing.exitOverdue = exit.hasContact && (!exit.hasTime || active >= exit.time.value);
  }
  return standing;
}

PhaseStanding phaseStanding(const Controller& controller) {
  return phaseStanding(controller.program(), controller.phaseIndex(), controller.phaseTime(),
                       controller.phaseIsFinal());
}

std::string phaseStandingLabel(const PhaseStanding& standing) {
  const std::string name =
      standing.name.empty() ? "#" + std::to_string(standing.phase) : "'" + standing.name + "'";
  return "phase " + name + " (" + std::to_string(standing.phase + 1) + " of " +
         std::to_string(standing.phaseCount) + ")";
}

std::string waitingMessage(const PhaseStanding& standing) {
  if (!standing.exitOverdue || standing.active < kLongWait) return "";
  return phaseStandingLabel(standing) + " waited " + formatFixed(standing.active, 1) + " s for '" +
         standing.exit + "'; it never fired";
}

}  // namespace scl
