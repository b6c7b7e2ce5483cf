// How many threads a command runs: by default one per core, and never so many more than
// the cores that they only cost memory and switching.
#pragma once

#include <string>

namespace scl {

/// The machine's cores as the standard library reports them (at least 1).
int hardwareCores();

/// The most threads per core a command runs when more are asked for (--threads): beyond
/// that they only cost memory and switching.
inline constexpr int kMaxThreadsPerCore = 4;

/// The thread-count rule's inputs.
struct ThreadCountDef {
  /// Threads asked for (count); 0 or less: `defaultThreads`.
  int requested = 0;
  /// The most threads per core (count) before a request is capped; 0 or less: no cap.
  int maxPerCore = 0;
  /// Threads when none are asked for (count); 0 or less: every core.
  int defaultThreads = 0;
  /// The cores (count); 0 or less: hardwareCores(). Tests pin it.
  int cores = 0;
};

/// The threads to run, and why a request was not honoured.
struct ThreadCount {
  /// Threads to run (count, at least 1).
  int threads = 1;
  /// Empty, or what to tell the user when the request was capped (e.g. "--threads 64 is
  /// more than 4 per core (2 cores): using 8"); the caller prefixes its own name.
  std::string warning;
};

/// The one rule: a request of 0 or less takes the default (every core unless the caller
/// says otherwise); a request above `maxPerCore` per core is capped, with a warning.
ThreadCount chooseThreadCount(const ThreadCountDef& def);

}  // namespace scl
