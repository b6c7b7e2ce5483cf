// `scl run SCRIPT --seeds 1-20`: the script from many perturbed starts at once, one line
// per start and a summary, checked against the script's `// outcome:` lines
// (runtime/outcomes.h): a new motion proven robust in one command (docs/cli.md, "Sweeping
// perturbed starts").
//
// Each start is `scl run SCRIPT --perturb DEG --seed K` with the same options; the starts
// run on a thread pool, each writing only its own result, so the table is the same on any
// number of threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "runtime/outcomes.h"
#include "runtime/run_session.h"

namespace scl {

/// How to sweep.
struct SweepDef {
  /// What every start shares: the scene, step, length, pushes and metrics of the run
  /// (its simulation's jointOffsets are replaced by each start's perturbation).
  RunSessionDef session;
  /// The perturbation seeds, one start each (`--seed K` of a single run).
  std::vector<std::uint64_t> seeds;
  /// Uniform offsets of every initial joint angle in ±this, degrees.
  double perturbDeg = 2.0;
  /// Threads running starts, counting the caller's (at least 1).
  int threads = 1;
  /// Set (Ctrl-C) to stop: starts in progress end where they are, the rest are skipped.
  /// nullptr: never.
  const std::atomic<bool>* interrupt = nullptr;
};

/// One start's run.
struct SweepStart {
  std::uint64_t seed = 0;
  /// The summary at the end (as far as it got when it diverged).
  MotionSummary summary;
  /// The phase active at the end: its index in the program and its name.
  int endPhase = 0;
  std::string endPhaseName;
  /// The program's phases (for "phase 2 of 3").
  int phaseCount = 0;
  /// Why the run ended (RunSession::endReason), or why the simulation failed.
  std::string endReason;
  /// The simulation diverged (endReason says how); every claim fails.
  bool diverged = false;
  /// Per outcome claim, in OutcomeLines::claims order: whether it held; nullopt for the
  /// claims that are not about one run (mark, the quota).
  std::vector<std::optional<bool>> held;
  /// Whether every claim about one run held (true when there are none) and it did not
  /// diverge.
  bool meetsAll = true;
  /// Whether it ran (false: skipped after an interrupt).
  bool ran = false;
};

/// A whole sweep.
struct SweepResult {
  std::vector<SweepStart> starts;
  /// Threads used, and the wall time of all starts, seconds.
  int threads = 1;
  double wallSeconds = 0.0;
  bool interrupted = false;
  /// Starts that ran, stood at the end, fell (at some time), met every claim.
  int ran() const;
  int standing() const;
  int fell() const;
  int meetingAll() const;
  /// Whether the sweep shows what the outcome lines claim: with a quota line, at least
  /// quotaFor() of the starts meet every other claim; without one, every start does. With
  /// no claims about a run at all, nothing to check: true.
  bool claimsHold(const OutcomeLines& outcomes) const;
};

/// Runs `program` from every seed's perturbed start. A start whose simulation diverges is a
/// failed start, not an error of the sweep.
SweepResult runSweep(const Program& program, const OutcomeLines& outcomes, const SweepDef& def);

/// "1-20" (seeds 1 to 20), "20" (1 to 20), "3,5,8-10": the seeds, in order, each once;
/// nullopt when malformed or more than 10,000.
std::optional<std::vector<std::uint64_t>> parseSeedList(const std::string& text);

/// "1-20", "3, 5, 8-10": seeds as ranges, for messages.
std::string seedRanges(const std::vector<std::uint64_t>& seeds);

/// The table: a header, one line per start, the totals and, when the script has outcome
/// lines, each line with the seeds it failed for and the verdict.
std::string sweepText(const std::string& script, const SweepDef& def, const OutcomeLines& outcomes,
                      const SweepResult& result);
/// The same as one JSON object (docs/cli.md, "JSON of a sweep").
nlohmann::ordered_json sweepJson(const std::string& script, const SweepDef& def,
                                 const OutcomeLines& outcomes, const SweepResult& result);

}  // namespace scl
