// `scl optimize` as a library: a script's `@` parameters tuned by CMA-ES against an
// objective file (docs/optimize.md; thesis chapter 5), with per-generation outputs and resumable
// checkpoints. See docs/optimize.md.
//
// The script is compiled once; each candidate is a copy of the Program with its
// parameters set, simulated in its own Runner. A generation's candidates run in parallel
// on a ThreadPool and their results are stored by index, so a run (best, log) depends on
// the seed only, never on the thread count. A diverged simulation is an infeasible
// candidate (NaN for CMA-ES, which ranks it worst), counted in the log.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "optimize/cmaes.h"
#include "optimize/evaluation_farm.h"
#include "optimize/objective.h"
#include "runtime/output_files.h"
#include "scl/compile.h"
#include "scl/program.h"

namespace scl {

/// A script and an objective ready to optimize: compiled once, bounds and scales resolved.
struct OptimizationProblem {
  std::string scriptSource;
  std::string scriptFile;
  std::string objectiveSource;
  std::string objectiveFile;
  /// The compiled script with its written parameter values.
  Program program;
  ObjectiveDef objective;
  /// Per parameter, in slot order, script units: the written value, the search box (±inf
  /// when open) and the typical magnitude that `sigma` is a fraction of.
  std::vector<double> initial;
  std::vector<double> lower;
  std::vector<double> upper;
  std::vector<double> scales;
};

struct ProblemResult {
  std::optional<OptimizationProblem> problem;
  /// Errors of the script, the objective and their combination, each with its file.
  std::vector<Diagnostic> diagnostics;
};

/// Compiles the script (with `options`: `--character` is CompileOptions::character, and
/// every candidate is evaluated with the character the script was compiled for), parses
/// the objective and resolves the parameters' bounds and scales. Never throws; problems
/// are diagnostics ("nothing to optimize: mark numbers with @", a bound that excludes the
/// initial value, an unknown parameter name, ...).
ProblemResult makeProblem(std::string scriptSource, std::string scriptFile,
                          std::string objectiveSource, std::string objectiveFile,
                          const CompileOptions& options = {});

/// What identifies a character's body in a checkpoint: a hash of the exact bits of every
/// number and name that shapes a simulation (links, joints, mirrors, groups, poses).
std::string characterFingerprint(const Character& character);

/// Renders diagnostics against the script or the objective source, by file.
std::string renderProblemDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                     const std::string& scriptFile, std::string_view scriptSource,
                                     const std::string& objectiveFile,
                                     std::string_view objectiveSource);

/// How to run an optimization.
struct OptimizeSettings {
  /// Generations to reach in total (a resumed run counts the ones already done).
  int generations = 100;
  /// Candidates per generation; 0: the objective's `population`, else CMA-ES's default.
  int populationSize = 0;
  /// Initial step of each parameter as a fraction of its scale (OptimizationProblem::scales).
  double sigma = 0.2;
  /// Seed of CMA-ES's generator.
  uint64_t seed = 1;
  /// Threads evaluating candidates, counting the caller's; 0: every core.
  int threads = 0;
  /// Where the candidates are evaluated (e.g. over the ranks of an MPI job; not owned).
  /// nullptr: `threads` threads of this process. Any farm gives the same run.
  EvaluationFarm* farm = nullptr;
  /// Wall-clock budget of this invocation, seconds; no new generation starts after it
  /// (0: none).
  double timeLimit = 0.0;
  /// Where log.csv, best.scl, progress.svg, checkpoint.json and report.txt go.
  std::filesystem::path outDir;
  /// Continue the checkpoint in outDir (its seed, population and sigma win).
  bool resume = false;
  /// Set (e.g. by a signal handler) to stop at the next safe point: the generation in
  /// progress is abandoned, the last checkpoint kept and the report written. nullptr: never.
  const std::atomic<bool>* interrupt = nullptr;
};

/// A failure of the run as a whole, with the `scl` exit code it maps to (1 input error,
/// 2 usage error, 3 failure such as an unwritable output directory).
class OptimizeError : public std::runtime_error {
 public:
  OptimizeError(int exitCode, const std::string& message)
      : std::runtime_error(message), exitCode_(exitCode) {}
  int exitCode() const { return exitCode_; }

 private:
  int exitCode_;
};

/// One row of log.csv.
struct GenerationRecord {
  /// 1-based generation number.
  int generation = 0;
  /// Evaluations so far.
  int64_t evaluations = 0;
  /// Best J found so far (+inf while none was feasible).
  double best = std::numeric_limits<double>::infinity();
  /// Best and mean J of this generation's feasible candidates (NaN when none).
  double generationBest = std::numeric_limits<double>::quiet_NaN();
  double mean = std::numeric_limits<double>::quiet_NaN();
  /// CMA-ES's global step size after the generation.
  double sigma = 0.0;
  /// Infeasible candidates of this generation.
  int infeasible = 0;
  /// Wall time since the run began (over resumed invocations), seconds.
  double wallTime = 0.0;
  /// Parameters of the best so far, script units.
  std::vector<double> bestParameters;
};

/// What the caller hears while the run goes on.
struct OptimizeCallbacks {
  /// Once, on a fresh start: the evaluation of the script's own values (generation 0).
  std::function<void(const ObjectiveEvaluation&)> start;
  /// After each candidate of a generation (from worker threads, concurrently): how many of
  /// the generation's `total` are done.
  std::function<void(int done, int total)> evaluated;
  /// After each generation: its record, evaluations per second in it, the estimated
  /// remaining wall time (s) and the first failure message of the generation ("" if none).
  std::function<void(const GenerationRecord&, double evaluationsPerSecond, double etaSeconds,
                     const std::string& firstFailure)>
      generation;
};

/// The end of a run.
struct OptimizeResult {
  /// Every generation's record (a resumed run includes the earlier ones).
  std::vector<GenerationRecord> log;
  CmaesBest best;
  /// Why the run ended: "generations", "time limit", "interrupted" or a CMA-ES stop reason.
  std::string stopReason;
  /// Ended by OptimizeSettings::interrupt.
  bool interrupted = false;
  /// The script's own parameters and the best found, evaluated with the motion figures
  /// (absent when no candidate was feasible).
  std::optional<ObjectiveEvaluation> before;
  std::optional<ObjectiveEvaluation> after;
};

/// The files a run writes in OptimizeSettings::outDir (docs/optimize.md).
std::vector<std::string> optimizeOutputFiles();

/// Whether `outDir` holds a run that the resume rules decide about: its checkpoint.json, or
/// an older scl's checkpoint.txt.
bool holdsCheckpoint(const std::filesystem::path& outDir);

/// What a checkpoint resumes: CMA-ES's state, the log and the wall time of the earlier
/// invocations.
struct ResumedCheckpoint {
  Cmaes cmaes;
  std::vector<GenerationRecord> log;
  /// Seconds.
  double priorWallTime = 0.0;
};

/// Reads checkpoint.json's text (`path` names it in messages) for a resume of `problem`
/// with `settings`. Trusts nothing in it: throws OptimizeError, 2 when the checkpoint was
/// made for other files or another character, 3 when it is malformed (the field named).
ResumedCheckpoint parseCheckpoint(const OptimizationProblem& problem,
                                  const OptimizeSettings& settings, std::string_view text,
                                  const std::filesystem::path& path);

class Optimizer {
 public:
  /// Starts a run in settings.outDir, or continues its checkpoint.json when
  /// settings.resume. Creates the directory. Throws OptimizeError (unwritable directory, no,
  /// malformed or mismatched checkpoint, a checkpoint present without --resume, an older
  /// scl's checkpoint.txt).
  Optimizer(const OptimizationProblem& problem, const OptimizeSettings& settings);

  /// Runs generations until `settings.generations` are done, the time limit has passed or
  /// CMA-ES stops, writing log.csv, progress.svg, checkpoint.json (and best.scl when the
  /// best improved) after each. Throws OptimizeError when an output cannot be written.
  OptimizeResult run(const OptimizeCallbacks& callbacks = {});

  const std::vector<GenerationRecord>& log() const { return log_; }
  const Cmaes& cmaes() const { return cmaes_; }
  /// Parameters of the distribution's start (the script's values, clamped into the box).
  const OptimizationProblem& problem() const { return *problem_; }

 private:
  /// log.csv, progress.svg and, when `withBest`, best.scl of the last generation.
  OutputFiles generationOutputs(bool withBest) const;
  /// generationOutputs() and checkpoint.json, written as one set.
  void writeOutputs(bool improved) const;
  /// Adds a generation to log_ and to the text of it that every generation's outputs repeat.
  void appendRecord(const GenerationRecord& record);
  /// checkpoint.json: format tag, sources hash, character, wall time, log,
  /// Cmaes::serialize().
  std::string checkpointText() const;

  const OptimizationProblem* problem_;
  OptimizeSettings settings_;
  // Declared before cmaes_: its initialisation (startOrResume) fills them.
  std::vector<GenerationRecord> log_;
  // log_ as log.csv's rows and as checkpoint.json's records (joined by ','): formatted once
  // each, not again every generation (formatting the whole log again was about 6 ms of the
  // 12 ms a generation of rank 0's serial time under MPI, averaged over 1000 generations).
  std::string logRowsCsv_;
  std::string logRecordsJson_;
  double priorWallTime_ = 0.0;  // wall time of earlier invocations (resume)
  Cmaes cmaes_;
  // Every candidate of a trial starts from one scene: it settles once.
  std::shared_ptr<SettleCache> settleCache_ = std::make_shared<SettleCache>();
};

/// The CMA-ES definition of a problem for the given settings.
CmaesDef cmaesDefinition(const OptimizationProblem& problem, const OptimizeSettings& settings);

/// Evaluates `values` (script units) of the problem's parameters with the motion figures
/// (`settleCache`: as evaluateObjective's).
ObjectiveEvaluation evaluateParameters(const OptimizationProblem& problem,
                                       const std::vector<double>& values, bool withSummary = false,
                                       const std::shared_ptr<SettleCache>& settleCache = nullptr);

/// One candidate as a farm evaluates it: its J, or NaN and the reason when it is
/// infeasible (`settleCache`: as evaluateObjective's).
FarmResult evaluateCandidate(const OptimizationProblem& problem, const std::vector<double>& values,
                             const std::shared_ptr<SettleCache>& settleCache);

/// The before/after table of `scl optimize`: J, rise time, max pelvis height in the air,
/// airborne time and energy of two evaluations.
std::string beforeAfterReport(const ObjectiveEvaluation& before, const ObjectiveEvaluation& after);

/// log.csv of a run: header and one row per generation.
std::string logCsv(const OptimizationProblem& problem, const std::vector<GenerationRecord>& log);
/// log.csv's header line and one generation's row (each ending in '\n').
std::string logCsvHeader(const OptimizationProblem& problem);
std::string logCsvRow(const GenerationRecord& record);
/// progress.svg of a run: best so far and generation mean over generations.
std::string progressSvg(const std::vector<GenerationRecord>& log);

}  // namespace scl
