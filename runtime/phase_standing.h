// Where a run stands in its program when it ends (or now, in the viewer): the phase active,
// how long it has been, and the exit it waits for. `scl run`'s summary says why the run
// ended with it, and both the summary and the viewer's status line say when a phase has
// waited long for a contact that never came: the most common reason a run goes on to its
// 60 s limit.
#pragma once

#include <string>

#include "runtime/controller.h"

namespace scl {

/// A phase and its pending exit.
struct PhaseStanding {
  /// The phase, index into Program::phases, and how many phases the program has.
  int phase = 0;
  int phaseCount = 0;
  /// Its name; empty when the script gives none.
  std::string name;
  /// How long the phase has been active, seconds.
  double active = 0.0;
  /// Its exit as a script writes it (transitionText(): `when contact any hands`); empty
  /// when the phase will not end (no exit, or its counted `finally` cycle has run out).
  std::string exit;
  /// The exit could have fired by now and did not: it has a contact condition, and any
  /// `after` it also needs has passed. (A timer alone only means the run ended first.)
  bool exitOverdue = false;
};

/// How long an overdue exit waits before the summary and the viewer say so, seconds:
/// longer than any contact a shipped script waits for, so they never show it in a run
/// that works.
inline constexpr double kLongWait = 2.0;

/// Where the controller stands: its current phase and that phase's exit.
PhaseStanding phaseStanding(const Controller& controller);
/// The same for phase `phase` of `program`, active for `active` seconds; `final`: it
/// will not end (Controller::phaseIsFinal()).
PhaseStanding phaseStanding(const Program& program, int phase, double active, bool final);

/// "phase 'reach' (2 of 3)"; an unnamed phase by its index: "phase #1 (2 of 3)".
std::string phaseStandingLabel(const PhaseStanding& standing);

/// "phase 'reach' (2 of 3) waited 57.4 s for 'when contact any hands'; it never fired" when
/// the exit is overdue and the phase has been active at least kLongWait; else empty.
std::string waitingMessage(const PhaseStanding& standing);

}  // namespace scl
