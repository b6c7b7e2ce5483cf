// `scl optimize SCRIPT OBJECTIVE`: tune the script's `@` numbers with CMA-ES against an
// objective file; progress on stderr, outputs in --out (docs/optimize.md).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cxxopts.hpp>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "base/threads.h"
#include "optimize/optimizer.h"
#include "scl/character_file.h"
#include "tools/cli.h"
#include "tools/cluster.h"
#include "tools/commands.h"
#include "tools/interrupt.h"

namespace scl {

namespace {

std::string clock(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long total = std::lround(seconds);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60,
                total % 60);
  return buffer;
}

// The live single-line progress bar of a terminal; safe to call from worker threads.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  void setGeneration(int generation, int generations) {
    generation_ = generation;
    generations_ = generations;
  }
  void update(int done, int total) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (done < total && now - lastDraw_ < std::chrono::milliseconds(100)) return;
    lastDraw_ = now;
    constexpr int kWidth = 30;
    const int filled = total > 0 ? done * kWidth / total : 0;
    std::fprintf(stderr, "\r  generation %d/%d [%s%s] %d/%d\x1b[K", generation_, generations_,
                 std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(), done,
                 total);
    std::fflush(stderr);
  }
  void clear() {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    std::fprintf(stderr, "\r\x1b[K");
  }

 private:
  bool enabled_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point lastDraw_{};
  int generation_ = 0, generations_ = 0;
};

// The farm's figures after a run (docs/cluster.md's scaling model reads them): how busy
// the evaluators were, an evaluation's mean time, each generation's longest on average,
// and the time outside the generations' evaluations.
std::string farmReport(const EvaluationFarm& farm, double runSeconds) {
  const FarmStatistics statistics = farm.statistics();
  char text[512];
  std::snprintf(text, sizeof text,
                "evaluators (%s) busy %.1f%% of the time: %lld evaluations in %.2f s, %.1f ms "
                "each on average, the longest of a generation %.1f ms on average; %.2f s "
                "outside them (first and last evaluations, CMA-ES, outputs)",
                farm.describe().c_str(), 100.0 * statistics.efficiency(),
                static_cast<long long>(statistics.evaluations), statistics.batchSeconds,
                1e3 * statistics.busySeconds /
                    static_cast<double>(std::max<int64_t>(1, statistics.evaluations)),
                1e3 * statistics.longestSeconds /
                    static_cast<double>(std::max<int64_t>(1, statistics.batches)),
                std::max(0.0, runSeconds - statistics.batchSeconds));
  return text;
}

// What every worker rank of an MPI job sets up (docs/cluster.md): the inputs exactly as
// rank 0 read them, so that no rank needs to read them again (only a character file the
// script or --character names is read by every rank, and its fingerprint is compared).
std::string optimizationJob(const OptimizationProblem& problem,
                            const std::optional<std::string>& character, int threads) {
  const nlohmann::json job = {
      {"command", "optimize"},
      {"script", problem.scriptSource},
      {"script_file", problem.scriptFile},
      {"objective", problem.objectiveSource},
      {"objective_file", problem.objectiveFile},
      {"character", character ? nlohmann::json(*character) : nlohmann::json()},
      {"fingerprint", characterFingerprint(*problem.program.character)},
      {"threads", threads}};
  return job.dump();
}

// A worker rank's side of optimizationJob(): the same problem, evaluated the same way.
WorkerJob optimizationWorker(const std::string& text, int defaultThreads) {
  const nlohmann::json job = nlohmann::json::parse(text);
  CompileOptions options;
  if (!job.at("character").is_null()) {
    const std::string name = job.at("character").get<std::string>();
    CharacterLoad load = loadCharacter(name);
    if (!load.ok()) throw std::runtime_error("cannot load the character '" + name + "'");
    options.character = load.character;
  }
  ProblemResult setup = makeProblem(
      job.at("script").get<std::string>(), job.at("script_file").get<std::string>(),
      job.at("objective").get<std::string>(), job.at("objective_file").get<std::string>(), options);
  if (!setup.problem)
    throw std::runtime_error(
        "the script or the objective does not compile here: " +
        (setup.diagnostics.empty() ? std::string("?") : setup.diagnostics.front().message));
  auto problem = std::make_shared<const OptimizationProblem>(std::move(*setup.problem));
  if (characterFingerprint(*problem->program.character) != job.at("fingerprint"))
    throw std::runtime_error("its character '" + problem->program.character->name +
                             "' differs from rank 0's: every host must see the same "
                             "character file");
  auto cache = std::make_shared<SettleCache>();
  WorkerJob worker;
  worker.task = [problem, cache](const std::vector<double>& values) {
    return evaluateCandidate(*problem, values, cache);
  };
  const int threads = job.at("threads").get<int>();
  worker.threads = threads > 0 ? threads : defaultThreads;
  return worker;
}

}  // namespace

int sclOptimizeMain(int argc, char** argv) {
  // Under mpirun every rank but 0 only evaluates what rank 0 hands out.
  Cluster cluster;
  if (cluster.isWorker()) {
    InterruptGuard interrupt;
    return cluster.serve(
        [&](const std::string& job) { return optimizationWorker(job, cluster.defaultThreads()); },
        interrupt);
  }

  cxxopts::Options options("scl optimize",
                           "Tune a script's @ numbers with CMA-ES against an objective file.");
  options.positional_help("SCRIPT OBJECTIVE");
  options.add_options()("generations", "generations to reach in total",
                        cxxopts::value<int>()->default_value("100"))(
      "popsize",
      "candidates per generation (default: the objective's 'population', else 4 + 3 ln n)",
      cxxopts::value<int>())("sigma",
                             "initial step of each parameter as a fraction of its scale "
                             "(max(|value|, kind floor), at most its range)",
                             cxxopts::value<double>()->default_value("0.2"))(
      "seed", "random seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "threads",
      "threads evaluating candidates (default: every core; at most 4 per core; under mpirun: "
      "per rank, default the cores shared among the ranks on a machine)",
      cxxopts::value<int>())("time-limit",
                             "wall-clock budget in seconds; no generation starts after it",
                             cxxopts::value<double>())(
      "out", "output directory (default: SCRIPT without its extension + .opt)",
      cxxopts::value<std::string>())(
      "resume", "continue the run checkpointed in the output directory (checkpoint.json)")(
      "overwrite",
      "replace the outputs of an earlier run (log.csv, best.scl, ...) in an output directory "
      "that holds no checkpoint")(
      "character",
      "the character: a built-in name or a .character file (overrides the script's scene "
      "character:; a resumed run must use the one it started with)",
      cxxopts::value<std::string>(), "NAME|FILE")("h,help", "show this help")(
      "script", "", cxxopts::value<std::string>())("objective", "", cxxopts::value<std::string>());
  options.parse_positional({"script", "objective"});

  OptimizeSettings settings;
  std::string scriptPath, objectivePath;
  std::optional<std::string> character;
  bool overwrite = false;
  auto read = [&](const cxxopts::ParseResult& parsed) {
    if (!parsed.count("script") || !parsed.count("objective"))
      throw std::invalid_argument("expected a script and an objective file");
    scriptPath = parsed["script"].as<std::string>();
    objectivePath = parsed["objective"].as<std::string>();
    settings.generations = parsed["generations"].as<int>();
    if (settings.generations < 1) throw std::invalid_argument("--generations must be at least 1");
    if (parsed.count("popsize")) {
      settings.populationSize = parsed["popsize"].as<int>();
      if (settings.populationSize < 2) throw std::invalid_argument("--popsize must be at least 2");
    }
    settings.sigma = parsed["sigma"].as<double>();
    if (!(settings.sigma > 0) || !std::isfinite(settings.sigma))
      throw std::invalid_argument("--sigma must be positive");
    settings.seed = parsed["seed"].as<uint64_t>();
    if (parsed.count("threads")) {
      settings.threads = parsed["threads"].as<int>();
      if (settings.threads < 1) throw std::invalid_argument("--threads must be at least 1");
    }
    if (parsed.count("time-limit")) {
      settings.timeLimit = parsed["time-limit"].as<double>();
      if (!(settings.timeLimit > 0))
        throw std::invalid_argument("--time-limit must be a positive number of seconds");
    }
    settings.outDir = parsed.count("out")
                          ? std::filesystem::path(parsed["out"].as<std::string>())
                          : std::filesystem::path(scriptPath).replace_extension(".opt");
    settings.resume = parsed.count("resume") > 0;
    overwrite = parsed.count("overwrite") > 0;
    if (parsed.count("character")) character = parsed["character"].as<std::string>();
  };
  CommandLineDef def;
  def.helpGroups = {""};
  def.helpEpilogue =
      "exit codes: 0 ok, 1 script or objective error, 2 usage error, 3 failure (e.g. "
      "unwritable output)";
  if (!parseCommandLine(options, argc, argv, def, read)) return kExitOk;

  const std::string scriptSource = readInputFile(scriptPath, "script");
  const std::string objectiveSource = readInputFile(objectivePath, "objective");
  CompileOptions compileOptions;
  if (character) compileOptions.character = loadCharacterOption(*character);
  ProblemResult setup =
      makeProblem(scriptSource, scriptPath, objectiveSource, objectivePath, compileOptions);
  std::fputs(renderProblemDiagnostics(setup.diagnostics, scriptPath, scriptSource, objectivePath,
                                      objectiveSource)
                 .c_str(),
             stderr);
  if (!setup.problem) return 1;
  const OptimizationProblem& problem = *setup.problem;
  // The run's outputs (docs/optimize.md) never replace its inputs, nor, without a
  // checkpoint to resume, what an earlier run left.
  std::vector<NamedPath> inputs = {{"script", scriptPath}, {"objective", objectivePath}};
  addCharacterInput(inputs, *problem.program.character);
  checkOutputsAgainstInputs(inputs, outputsInDirectory(settings.outDir, optimizeOutputFiles()));
  if (!settings.resume && !holdsCheckpoint(settings.outDir))
    checkNothingReplaced(settings.outDir, optimizeOutputFiles(), overwrite);

  // More threads than a few per core only cost memory and switching: cap them.
  if (settings.threads > 0) {
    const ThreadCount capped =
        chooseThreadCount({.requested = settings.threads, .maxPerCore = kMaxThreadsPerCore});
    if (!capped.warning.empty())
      std::fprintf(stderr, "scl optimize: warning: %s\n", capped.warning.c_str());
    settings.threads = capped.threads;
  }
  InterruptGuard interrupt;
  settings.interrupt = &interrupt.requested();
  const int threads = settings.threads > 0 ? settings.threads : cluster.defaultThreads();

  try {
    const std::unique_ptr<EvaluationFarm> farm = cluster.makeFarm(
        optimizationJob(problem, character, settings.threads), threads, settings.interrupt);
    settings.farm = farm.get();
    Optimizer optimizer(problem, settings);
    std::fprintf(stderr,
                 "%s %zu parameters of %s against %s: %d candidates/generation, %s, out %s\n",
                 settings.resume ? "resuming" : "optimizing", problem.initial.size(),
                 scriptPath.c_str(), objectivePath.c_str(), optimizer.cmaes().populationSize(),
                 farm->describe().c_str(), settings.outDir.c_str());

    ProgressBar bar(isatty(STDERR_FILENO) != 0);
    bar.setGeneration(optimizer.cmaes().generation() + 1, settings.generations);
    OptimizeCallbacks callbacks;
    callbacks.start = [&](const ObjectiveEvaluation& initial) {
      if (initial.feasible)
        std::fprintf(stderr, "gen 0  J %.6g with the script's own values\n", initial.value);
      else
        std::fprintf(stderr, "gen 0  the script's own values are infeasible: %s\n",
                     initial.failure.c_str());
    };
    callbacks.evaluated = [&](int done, int total) { bar.update(done, total); };
    callbacks.generation = [&](const GenerationRecord& record, double rate, double eta,
                               const std::string& failure) {
      bar.clear();
      std::fprintf(stderr, "gen %d/%d  best %.6g  mean %.6g  infeasible %d  %.1f eval/s  ETA %s\n",
                   record.generation, settings.generations, record.best, record.mean,
                   record.infeasible, rate, clock(eta).c_str());
      if (!failure.empty()) std::fprintf(stderr, "  (first infeasible: %s)\n", failure.c_str());
      bar.setGeneration(record.generation + 1, settings.generations);
    };
    const auto runStart = std::chrono::steady_clock::now();
    const OptimizeResult result = optimizer.run(callbacks);
    bar.clear();
    const double runSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    const FarmStatistics statistics = farm->statistics();
    if (statistics.evaluations > 0)
      std::fprintf(stderr, "%s\n", farmReport(*farm, runSeconds).c_str());
    if (result.interrupted) {
      const int done = result.log.empty() ? 0 : result.log.back().generation;
      std::error_code error;
      if (!std::filesystem::exists(settings.outDir / "checkpoint.json", error)) {
        std::fprintf(stderr,
                     "scl optimize: interrupted before the first checkpoint; nothing to "
                     "resume: run the same command again\n");
        return interrupt.exitCode();
      }
      const std::string characterOption = character ? " --character " + *character : "";
      // Under mpirun a SIGTERM usually means that mpirun is ending the job because a rank
      // ended (its message says which) or that the job was cancelled.
      const std::string launcher =
          cluster.ranks() > 1 ? "mpirun -np " + std::to_string(cluster.ranks()) + " " : "";
      std::fprintf(
          stderr,
          "scl optimize: %s after generation %d; the checkpoint and report "
          "are in %s; continue with: %sscl optimize %s %s --out %s%s --resume "
          "--generations %d%s\n",
          cluster.ranks() > 1 && interrupt.exitCode() == 143
              ? "stopped by SIGTERM (from mpirun: the job was interrupted or cancelled, or a rank "
                "ended, as mpirun says)"
              : "interrupted",
          done, settings.outDir.c_str(), launcher.c_str(), scriptPath.c_str(),
          objectivePath.c_str(), settings.outDir.c_str(), characterOption.c_str(),
          settings.generations, cluster.ranks() > 1 ? " (with any number of ranks, or none)" : "");
      return interrupt.exitCode();
    }

    std::printf("stopped after generation %d (%s), %lld evaluations\n",
                result.log.empty() ? 0 : result.log.back().generation, result.stopReason.c_str(),
                static_cast<long long>(optimizer.cmaes().evaluations()));
    if (result.before && result.after) {
      std::printf("\n%s", beforeAfterReport(*result.before, *result.after).c_str());
      std::printf("\nbest script: %s\n", (settings.outDir / "best.scl").c_str());
    } else {
      std::printf("no feasible candidate was found\n");
    }
  } catch (const OptimizeError& error) {
    std::fprintf(stderr, "scl optimize: %s\n", error.what());
    return error.exitCode();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "scl optimize: %s\n", error.what());
    return 3;
  }
  return 0;
}

}  // namespace scl
