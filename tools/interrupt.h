// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one asks the command to
// stop at a safe point (a finished generation, the end of a step), keeping everything the
// user has; a second one ends the process at once, as usual.
//
// The request is the one piece of process-wide mutable state in the program: a signal
// reaches the process, not an object. It lives here, in tools/, and the libraries see it
// only as a flag they are handed (OptimizeSettings::interrupt, a run's stop check).
#pragma once

#include <atomic>

namespace scl {

/// Catches SIGINT and SIGTERM until the guard is destroyed (then the previous handlers
/// are back). One guard at a time.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  /// The flag the signal handler sets: true once a signal arrived.
  const std::atomic<bool>& requested() const;
  /// The signal that arrived (SIGINT or SIGTERM), 0 before one.
  int signal() const;
  /// The conventional exit code of a process ended by that signal: 128 + its number
  /// (130 for SIGINT, 143 for SIGTERM).
  int exitCode() const;
};

}  // namespace scl
