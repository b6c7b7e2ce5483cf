// "Optimize this phase" (docs/viewer.md, Optimizing a phase): CMA-ES on the `@` numbers of
// one phase of the running script (those named `PHASE.…`), the others held at the
// sliders' values, against a built-in objective ("standing at the end", "max airborne
// time") or an objective file, in the background: a thread of its own drives the
// generations and a ThreadPool evaluates each generation's candidates, every run from the
// scene's start. The viewer's frame loop only reads atomics or try_locks, so it never
// waits for an evaluation. No SFML, so it can be tested headless.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/thread_pool.h"
#include "optimize/optimizer.h"
#include "scl/compile.h"

namespace scl {

/// The built-in objectives' names (`--objective standing|airborne`).
inline constexpr const char* kStandingObjective = "standing";
inline constexpr const char* kAirborneObjective = "airborne";

/// The objective text of a built-in objective for `program` (its scene and duration; 5 s
/// when the script gives none); nullopt for an unknown name.
std::optional<std::string> builtInObjective(const std::string& name, const Program& program);

/// What to optimize.
struct PhaseOptimizerDef {
  /// The script as loaded, its file name and how it was compiled (`--character`).
  std::string scriptSource;
  std::string scriptFile;
  CompileOptions options;
  /// The objective's text and file name (for its diagnostics).
  std::string objectiveSource;
  std::string objectiveFile;
  /// The phase: its parameters are those whose names start with "PHASE.".
  std::string phase;
  /// Every parameter's value to start from (the sliders), script units, slot order;
  /// empty: the written values.
  std::vector<double> start;
  /// Generations to run.
  int generations = 30;
  /// Threads evaluating candidates, counting the driver's; 0: every core but one, which
  /// the window keeps (at least 1).
  int threads = 0;
  /// Initial step as a fraction of each parameter's scale (as `scl optimize --sigma`).
  double sigma = 0.2;
  uint64_t seed = 1;
};

/// Where a run stands (a copy, read without waiting).
struct PhaseOptimizerStatus {
  /// Generations done of `generations`.
  int generation = 0;
  int generations = 0;
  /// Candidates evaluated so far.
  int64_t evaluations = 0;
  /// J of the start values, and the best J so far (+inf while none was feasible).
  double startJ = std::numeric_limits<double>::quiet_NaN();
  double bestJ = std::numeric_limits<double>::infinity();
  /// False once the run has ended (done, stopped or failed).
  bool running = false;
};

class PhaseOptimizer {
 public:
  /// Resolves the problem (compiles the script, parses the objective) and starts the run.
  /// Throws std::invalid_argument with a user message (the objective's diagnostics, a
  /// phase with no `@` numbers).
  explicit PhaseOptimizer(PhaseOptimizerDef def);
  /// Stops the run (between evaluations) and joins its threads.
  ~PhaseOptimizer();
  PhaseOptimizer(const PhaseOptimizer&) = delete;
  PhaseOptimizer& operator=(const PhaseOptimizer&) = delete;

  /// Threads evaluating candidates, counting the driver's.
  int threads() const { return pool_.threadCount(); }

  /// Asks the run to stop at its next evaluation; returns at once.
  void stop() { interrupt_ = true; }
  /// Waits until the run has ended (tests, headless mode).
  void wait();
  /// The progress so far, from atomics: never waits.
  PhaseOptimizerStatus status() const;
  /// Every parameter's values (slot order, script units) with the best of the phase's so
  /// far; nullopt while the run holds the lock (try again next frame).
  std::optional<std::vector<double>> tryBest() const;
  /// The phase's parameter names, e.g. "lean.pd.waist".
  const std::vector<std::string>& parameterNames() const { return names_; }
  const std::string& phase() const { return def_.phase; }
  /// Why the run ended early ("" while running or when it ran its generations).
  std::string endReason() const;

 private:
  void run();
  void runGenerations();
  /// J of the phase's values `x` (the other parameters at the start values); NaN when
  /// infeasible or interrupted.
  double evaluate(const std::vector<double>& x) const;
  void publishBest(const CmaesBest& best);

  PhaseOptimizerDef def_;
  OptimizationProblem problem_;
  /// The phase's parameter slots and names.
  std::vector<size_t> slots_;
  std::vector<std::string> names_;
  std::shared_ptr<SettleCache> settleCache_ = std::make_shared<SettleCache>();
  ThreadPool pool_;

  std::atomic<bool> interrupt_{false};
  std::atomic<bool> running_{true};
  std::atomic<int> generation_{0};
  std::atomic<int64_t> evaluations_{0};
  std::atomic<double> startJ_{std::numeric_limits<double>::quiet_NaN()};
  std::atomic<double> bestJ_{std::numeric_limits<double>::infinity()};
  /// Guards bestValues_ and endReason_.
  mutable std::mutex mutex_;
  std::vector<double> bestValues_;
  std::string endReason_;
  /// Started last, once everything it reads is set.
  std::thread driver_;
};

}  // namespace scl
