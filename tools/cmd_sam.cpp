// `scl sam sample|train|query SCRIPT PROBLEM`: the state–action compatibility model
// (thesis §6, docs/state-action.md). Every subcommand works in one output directory
// (default: PROBLEM without its extension + .sam):
//   sample  labels points by simulating them  -> samples.csv, checkpoint.json
//   train   learns the SVM from samples.csv    -> model.svm, model.json, model.svg
//   query   asks the model for n actions       -> query-NAME-VALUE/action-K.scl (+ .svg)
// The files' formats, the binding of the inputs and the MPI job are the state-action
// library's (optimize/sam); here are the options and what the user reads.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cxxopts.hpp>
#include <filesystem>
#include <limits>
#include <sstream>

#include "base/csv.h"
#include "base/format.h"
#include "base/thread_pool.h"
#include "base/threads.h"
#include "optimize/optimizer.h"
#include "optimize/sam/sam_files.h"
#include "optimize/sam/sam_inputs.h"
#include "optimize/sam/sampling_job.h"
#include "runtime/output_files.h"
#include "scl/printer.h"
#include "tools/cli.h"
#include "tools/cluster.h"
#include "tools/commands.h"
#include "tools/filmstrip.h"
#include "tools/interrupt.h"

namespace scl {

namespace {

// --- shared by the subcommands ---------------------------------------------------------

// What every subcommand works on: the inputs bound, and the output directory.
struct LoadedProblem {
  SamInputs inputs;
  std::filesystem::path outDir;
  const SamProblem& problem() const { return inputs.problem; }
  /// The script, the problem and the character file (unless built in).
  std::vector<NamedPath> inputPaths() const {
    std::vector<NamedPath> paths = {{"script", inputs.sources.scriptFile},
                                    {"problem", inputs.sources.problemFile}};
    addCharacterInput(paths, *problem().program.character);
    return paths;
  }
};

// The options every subcommand shares: SCRIPT PROBLEM, --out, --help.
void addCommonOptions(cxxopts::Options& options) {
  options.positional_help("SCRIPT PROBLEM");
  options.add_options()("out", "output directory (default: PROBLEM without its extension + .sam)",
                        cxxopts::value<std::string>())("h,help", "show this help")(
      "script", "", cxxopts::value<std::string>())("problem", "", cxxopts::value<std::string>());
  options.parse_positional({"script", "problem"});
}

// Parses the command line; nullopt after printing --help.
std::optional<cxxopts::ParseResult> parseOptions(cxxopts::Options& options, int argc, char** argv,
                                                 const char* exitCodes) {
  return parseCommandLine(options, argc, argv, {{""}, exitCodes},
                          [](const cxxopts::ParseResult& parsed) {
                            if (!parsed.count("script") || !parsed.count("problem"))
                              throw std::invalid_argument("expected a script and a problem file");
                          });
}

// Reads and binds SCRIPT and PROBLEM; nullopt after printing their errors.
std::optional<LoadedProblem> loadProblem(const cxxopts::ParseResult& parsed) {
  SamSources sources;
  sources.scriptFile = parsed["script"].as<std::string>();
  sources.problemFile = parsed["problem"].as<std::string>();
  const std::filesystem::path outDir =
      parsed.count("out") ? std::filesystem::path(parsed["out"].as<std::string>())
                          : std::filesystem::path(sources.problemFile).replace_extension(".sam");
  sources.scriptSource = readInputFile(sources.scriptFile, "script");
  sources.problemSource = readInputFile(sources.problemFile, "problem");
  SamInputsResult made = makeSamInputs(std::move(sources));
  std::fputs(made.messages.c_str(), stderr);
  if (!made.inputs) return std::nullopt;
  return LoadedProblem{std::move(*made.inputs), outDir};
}

// --threads, capped by the one thread rule with the warning scl optimize gives; 0 when
// not given (the default: every core).
int threadsOption(const cxxopts::ParseResult& parsed, const char* command) {
  if (!parsed.count("threads")) return 0;
  const int threads = parsed["threads"].as<int>();
  if (threads < 1) throw UsageError("--threads must be at least 1");
  const ThreadCount capped =
      chooseThreadCount({.requested = threads, .maxPerCore = kMaxThreadsPerCore});
  if (!capped.warning.empty())
    std::fprintf(stderr, "%s: warning: %s\n", command, capped.warning.c_str());
  return capped.threads;
}

void createDirectory(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw OutputError("cannot create the output directory '" + dir.string() +
                      "': " + error.message());
}

// The coordinates as `name value` pairs: "lean.pd.waist 43.2, lean.pd.shoulders 12".
std::string describePoint(const SamProblem& problem, const std::vector<double>& point,
                          size_t first = 0) {
  std::string out;
  for (size_t d = first; d < point.size(); ++d)
    out += (d > first ? ", " : "") + problem.columns[d] + " " + formatFixed(point[d], 3);
  return out;
}

// --- sample -----------------------------------------------------------------------------

// A worker rank's side of samplingJobText().
WorkerJob samplingWorker(const std::string& text, int defaultThreads) {
  const SamplingJob job = readSamplingJob(text);
  WorkerJob worker;
  worker.task = [problem = job.problem](const std::vector<double>& point) {
    return samCompatibilityLabel(*problem, point);
  };
  worker.threads = job.threads > 0 ? job.threads : defaultThreads;
  return worker;
}

int sampleMain(int argc, char** argv) {
  // Under mpirun every rank but 0 only simulates the points rank 0 hands out.
  Cluster cluster;
  if (cluster.isWorker()) {
    InterruptGuard interrupt;
    return cluster.serve(
        [&](const std::string& job) { return samplingWorker(job, cluster.defaultThreads()); },
        interrupt);
  }
  cxxopts::Options options("scl sam sample",
                           "Sample a state-action compatibility model: label points of "
                           "situation and action by simulating them.");
  addCommonOptions(options);
  options.add_options()("generations", "generations of every sampling path, in total",
                        cxxopts::value<int>()->default_value("50"))(
      "seed", "random seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "threads",
      "threads simulating points (default: every core; under mpirun: per rank, default the "
      "cores shared among the ranks on a machine)",
      cxxopts::value<int>())("points",
                             "sample until at least this many points in total (then --generations, "
                             "unless given, is no limit)",
                             cxxopts::value<long>())(
      "resume", "continue the run checkpointed in the output directory (its seed wins)")(
      "overwrite", "replace the samples.csv of an output directory that holds no checkpoint");
  const auto parsed = parseOptions(
      options, argc, argv,
      "exit codes: 0 ok, 1 script or problem error, 2 usage error, 3 failure (e.g. "
      "unwritable output), 130/143 interrupted (checkpoint.json and samples.csv keep every "
      "finished generation; --resume continues)");
  if (!parsed) return kExitOk;
  const long targetPoints = parsed->count("points") ? (*parsed)["points"].as<long>() : 0;
  if (parsed->count("points") && targetPoints < 1) throw UsageError("--points must be at least 1");
  const int generations = targetPoints > 0 && !parsed->count("generations")
                              ? std::numeric_limits<int>::max()
                              : (*parsed)["generations"].as<int>();
  if (generations < 1) throw UsageError("--generations must be at least 1");
  const int threads = threadsOption(*parsed, "scl sam sample");
  const bool resume = parsed->count("resume") > 0;
  std::optional<LoadedProblem> loaded = loadProblem(*parsed);
  if (!loaded) return kExitInputError;
  const std::filesystem::path samplesPath = loaded->outDir / "samples.csv";
  const std::filesystem::path checkpointPath = samplingCheckpointPath(loaded->outDir);
  checkOutputsAgainstInputs(
      loaded->inputPaths(),
      outputsInDirectory(loaded->outDir,
                         {samplesPath.filename().string(), checkpointPath.filename().string()}));
  std::error_code error;
  const bool exists = std::filesystem::exists(checkpointPath, error);
  if (!exists && !resume)
    checkNothingReplaced(loaded->outDir, {samplesPath.filename().string()},
                         parsed->count("overwrite") > 0);
  if (exists && !resume)
    throw UsageError("'" + loaded->outDir.string() +
                     "' already holds a sampling run; continue it with --resume or choose "
                     "another --out");
  if (!exists && resume)
    throw UsageError("nothing to resume: '" + checkpointPath.string() + "' does not exist");
  createDirectory(loaded->outDir);

  SamProblem& problem = loaded->inputs.problem;
  SamplingState run;
  if (resume) {
    run = readSamplingCheckpoint(loaded->inputs, loaded->outDir);
  } else {
    run.seed = (*parsed)["seed"].as<uint64_t>();
    problem.sampler.seed = run.seed;
    run.sampler = std::make_unique<SamSampler>(problem.sampler);
  }
  SamSampler& sampler = *run.sampler;
  int incompatible = 0;
  for (const SamPoint& point : run.points) incompatible += point.compatible ? 0 : 1;

  InterruptGuard interrupt;
  const std::unique_ptr<EvaluationFarm> farm =
      cluster.makeFarm(samplingJobText(loaded->inputs, threads),
                       threads > 0 ? threads : cluster.defaultThreads(), &interrupt.requested());
  std::fprintf(
      stderr,
      "sampling %s against %s: %zu dimensions, %d paths x %d points per generation, "
      "%s, out %s%s\n",
      loaded->inputs.sources.scriptFile.c_str(), loaded->inputs.sources.problemFile.c_str(),
      problem.columns.size(), problem.sampler.paths, problem.sampler.population,
      farm->describe().c_str(), loaded->outDir.c_str(),
      resume ? (", resuming after generation " + std::to_string(sampler.generations())).c_str()
             : "");
  const auto start = std::chrono::steady_clock::now();
  const double earlierWallTime = run.wallTime;  // of the invocations before this one
  const auto wallTime = [&] {
    return earlierWallTime +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const auto test = [&](const std::vector<double>& point) {
    return samCompatibilityLabel(problem, point).value == 1.0;
  };
  size_t sampledHere = 0;
  const auto done = [&] {
    return sampler.generations() >= generations ||
           (targetPoints > 0 && static_cast<long>(run.points.size()) >= targetPoints);
  };
  int lastWritten = sampler.generations();
  while (!done()) {
    // A generation interrupted half way is abandoned: the last checkpoint stays.
    std::vector<SamPoint> points;
    if (!interrupt.requested()) points = sampler.generation(test, *farm, &interrupt.requested());
    if (interrupt.requested()) {
      std::fprintf(stderr,
                   "scl sam sample: interrupted after generation %d; %s holds its %zu points "
                   "(--resume continues)\n",
                   lastWritten, samplesPath.c_str(), run.points.size());
      return interrupt.exitCode();
    }
    for (SamPoint& point : points) {
      incompatible += point.compatible ? 0 : 1;
      run.points.push_back(std::move(point));
      ++sampledHere;
    }
    // Both or neither: the samples and the checkpoint always hold the same points.
    OutputFiles outputs;
    run.wallTime = wallTime();
    outputs.add(samplesPath, samplesCsv(problem.columns, run.points));
    outputs.add(checkpointPath, samplingCheckpointText(loaded->inputs, run));
    outputs.write();
    lastWritten = sampler.generations();
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string of = generations == std::numeric_limits<int>::max()
                               ? std::string()
                               : "/" + std::to_string(generations);
    std::fprintf(stderr, "gen %d%s  points %zu  incompatible %d  %.1f points/s\n",
                 sampler.generations(), of.c_str(), run.points.size(), incompatible,
                 elapsed > 0 ? static_cast<double>(sampledHere) / elapsed : 0.0);
  }
  const FarmStatistics statistics = farm->statistics();
  if (statistics.evaluations > 0)
    std::fprintf(stderr, "evaluators (%s) busy %.1f%% of the time, %lld simulations\n",
                 farm->describe().c_str(), 100.0 * statistics.efficiency(),
                 static_cast<long long>(statistics.evaluations));
  std::printf("%zu points (%d incompatible) in %s\n", run.points.size(), incompatible,
              samplesPath.c_str());
  return kExitOk;
}

// --- train ------------------------------------------------------------------------------

// samples.csv of the output directory (its columns must be the problem's).
SamSamples readSamples(const std::filesystem::path& path, const SamProblem& problem) {
  if (!std::filesystem::exists(path))
    throw UsageError("no samples: '" + path.string() +
                     "' does not exist (scl sam sample writes it; --out names its directory)");
  return readSamplesCsv(readInputFile(path.string(), "samples file"), problem.columns,
                        path.string());
}

std::string percent(double fraction) { return formatFixed(100.0 * fraction, 2) + " %"; }

int trainMain(int argc, char** argv) {
  cxxopts::Options options("scl sam train",
                           "Learn a state-action compatibility model (an RBF SVM, libsvm) from "
                           "the sampled points, with k-fold cross-validation.");
  addCommonOptions(options);
  options.add_options()("folds", "folds of the cross-validation",
                        cxxopts::value<int>()->default_value("5"))(
      "cost", "C, the cost of a misclassified point",
      cxxopts::value<double>()->default_value("64"))(
      "gamma", "gamma of the RBF kernel, on scaled coordinates",
      cxxopts::value<double>()->default_value("4"))(
      "incompatible-weight", "weight of an incompatible point relative to a compatible one",
      cxxopts::value<double>()->default_value("4"))("seed", "random seed of the folds",
                                                    cxxopts::value<uint64_t>()->default_value("1"))(
      "threads", "threads training the folds (default: every core)", cxxopts::value<int>());
  const auto parsed = parseOptions(
      options, argc, argv,
      "exit codes: 0 ok, 1 script, problem or samples error, 2 usage error, 3 failure");
  if (!parsed) return kExitOk;
  SamModelDef def;
  def.cost = (*parsed)["cost"].as<double>();
  def.gamma = (*parsed)["gamma"].as<double>();
  def.incompatibleWeight = (*parsed)["incompatible-weight"].as<double>();
  for (double value : {def.cost, def.gamma, def.incompatibleWeight})
    if (!(value > 0.0) || !std::isfinite(value))
      throw UsageError("--cost, --gamma and --incompatible-weight must be positive");
  const int folds = (*parsed)["folds"].as<int>();
  if (folds < 2) throw UsageError("--folds must be at least 2");
  const int threads = threadsOption(*parsed, "scl sam train");
  std::optional<LoadedProblem> loaded = loadProblem(*parsed);
  if (!loaded) return kExitInputError;
  const SamProblem& problem = loaded->problem();
  const std::filesystem::path dir = loaded->outDir;
  const SamSamples samples = readSamples(dir / "samples.csv", problem);
  std::vector<NamedPath> inputs = loaded->inputPaths();
  inputs.push_back({"samples", (dir / "samples.csv").string()});
  checkOutputsAgainstInputs(inputs,
                            outputsInDirectory(dir, {"model.svm", "model.json", "model.svg"}));
  const int incompatible = samples.incompatibleCount();

  ThreadPool pool(threads);
  const auto start = std::chrono::steady_clock::now();
  SamCrossValidation validation;
  std::optional<SamModel> model;
  try {
    validation = crossValidate(samples.points, samples.compatible, problem.sampler.scale, def,
                               folds, (*parsed)["seed"].as<uint64_t>(), pool);
    const auto trainStart = std::chrono::steady_clock::now();
    model.emplace(SamModel::train(samples.points, samples.compatible, problem.sampler.scale, def));
    const double trainSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - trainStart).count();
    const double validationSeconds = std::chrono::duration<double>(trainStart - start).count();
    std::printf(
        "%zu points (%d incompatible); %d-fold cross-validation %s (compatible %d/%d, "
        "incompatible %d/%d) in %.2f s; %d support vectors, trained in %.2f s\n",
        samples.points.size(), incompatible, folds, percent(validation.accuracy()).c_str(),
        validation.compatibleCorrect, validation.compatibleTotal, validation.incompatibleCorrect,
        validation.incompatibleTotal, validationSeconds, model->supportVectorCount(), trainSeconds);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "scl sam train: %s\n", error.what());
    return kExitInputError;
  }

  SamTraining training;
  training.def = def;
  training.folds = folds;
  training.validation = validation;
  training.samples = samples.points.size();
  training.incompatible = incompatible;
  SamPlotData plot = samPlotData(problem, *model);
  plot.points = samples.points;
  plot.compatible = samples.compatible;
  plot.focus = problem.sampler.start;
  plot.title = "state-action model of " + loaded->inputs.sources.problemFile + ": " +
               std::to_string(samples.points.size()) + " samples, " +
               std::to_string(model->supportVectorCount()) + " support vectors";
  OutputFiles outputs;
  outputs.add(dir / "model.svm", model->text());
  outputs.add(dir / "model.json", samModelDescription(problem, *model, training));
  outputs.add(dir / "model.svg", samSliceSvg(plot));
  outputs.write();
  std::printf("wrote %s, %s, %s\n", (dir / "model.svm").c_str(), (dir / "model.json").c_str(),
              (dir / "model.svg").c_str());
  return kExitOk;
}

// --- query ------------------------------------------------------------------------------

// The model trained for this problem (its columns must be the problem's).
SamModel readModel(const LoadedProblem& loaded) {
  const std::filesystem::path dir = loaded.outDir;
  if (!std::filesystem::exists(dir / "model.json"))
    throw UsageError("no model: '" + (dir / "model.json").string() +
                     "' does not exist (scl sam train writes it; --out names its directory)");
  checkSamModelDescription(readInputFile((dir / "model.json").string(), "model"), loaded.problem(),
                           dir);
  return readSamModel(readInputFile((dir / "model.svm").string(), "model"), loaded.problem(), dir);
}

// `--state NAME=VALUE[,NAME=VALUE]`: one value per state of the problem.
std::vector<double> parseState(const std::string& text, const SamProblem& problem) {
  std::vector<double> state(problem.def.states.size(), std::nan(""));
  for (const std::string& item : splitCsvLine(text)) {
    const size_t equals = item.find('=');
    const std::string name = item.substr(0, equals);
    size_t index = state.size();
    for (size_t i = 0; i < state.size(); ++i)
      if (problem.def.states[i].name == name) index = i;
    if (equals == std::string::npos || index == state.size())
      throw UsageError("--state '" + item + "': expected NAME=VALUE with NAME one of the " +
                       "problem's states (" + problem.columns[0] + ")");
    const std::optional<double> value = parseNumberOption(item.substr(equals + 1));
    const ProblemState& def = problem.def.states[index];
    if (!value || *value < def.lower || *value > def.upper)
      throw UsageError("--state '" + item + "': the value must be a number in [" +
                       formatNumber(def.lower) + ", " + formatNumber(def.upper) + "]");
    state[index] = *value;
  }
  for (size_t i = 0; i < state.size(); ++i)
    if (std::isnan(state[i]))
      throw UsageError("--state '" + text + "' gives no value for '" + problem.columns[i] + "'");
  return state;
}

int queryMain(int argc, char** argv) {
  cxxopts::Options options("scl sam query",
                           "Ask a trained state-action model for actions that work in a given "
                           "situation, and write each as a script.");
  addCommonOptions(options);
  options.add_options()("state",
                        "the situation, NAME=VALUE (e.g. height=0.16); repeat for several queries",
                        cxxopts::value<std::vector<std::string>>())(
      "count", "actions per query", cxxopts::value<int>()->default_value("3"))(
      "generations", "generations of the diversity optimisation",
      cxxopts::value<int>()->default_value("50"))(
      "margin", "decision value an action must exceed (0: the model's boundary)",
      cxxopts::value<double>()->default_value("0"))(
      "clearance",
      "scaled distance from an action along every action axis where the model must still "
      "predict compatible",
      cxxopts::value<double>()->default_value("0.25"))(
      "seed", "random seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "simulate",
      "simulate every action and report whether it meets the problem's mark; "
      "writes a filmstrip of each")("threads", "threads simulating (default: every core)",
                                    cxxopts::value<int>());
  const auto parsed =
      parseOptions(options, argc, argv,
                   "exit codes: 0 ok, 1 script, problem or model error, 2 usage error, 3 failure");
  if (!parsed) return kExitOk;
  if (!parsed->count("state")) throw UsageError("expected --state NAME=VALUE");
  SamQueryDef def;
  def.count = (*parsed)["count"].as<int>();
  def.generations = (*parsed)["generations"].as<int>();
  def.margin = (*parsed)["margin"].as<double>();
  def.seed = (*parsed)["seed"].as<uint64_t>();
  if (def.count < 1 || def.count > 100) throw UsageError("--count must be from 1 to 100");
  if (def.generations < 0) throw UsageError("--generations must be at least 0");
  if (!std::isfinite(def.margin)) throw UsageError("--margin must be a number");
  def.clearance = (*parsed)["clearance"].as<double>();
  if (!(def.clearance >= 0.0) || !std::isfinite(def.clearance))
    throw UsageError("--clearance must be a number of at least 0");
  const bool simulate = parsed->count("simulate") > 0;
  const int threads = threadsOption(*parsed, "scl sam query");
  std::optional<LoadedProblem> loaded = loadProblem(*parsed);
  if (!loaded) return kExitInputError;
  const SamProblem& problem = loaded->problem();
  std::vector<std::vector<double>> states;
  for (const std::string& text : (*parsed)["state"].as<std::vector<std::string>>())
    states.push_back(parseState(text, problem));
  const SamModel model = readModel(*loaded);

  // The queries alone, timed together (the thesis's 831 ms for three).
  const SamSpace space = samSpace(problem);
  const auto start = std::chrono::steady_clock::now();
  std::vector<SamQueryResult> results;
  results.reserve(states.size());
  for (const std::vector<double>& state : states)
    results.push_back(samQuery(model, space, state, def));
  const double queryMs =
      1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long evaluations = 0;
  for (const SamQueryResult& result : results) evaluations += result.evaluations;
  std::printf("%zu %s in %.1f ms (%ld model evaluations)\n", results.size(),
              results.size() == 1 ? "query" : "queries", queryMs, evaluations);

  ThreadPool pool(threads);
  const size_t states0 = problem.def.states.size();
  int simulated = 0, met = 0;
  OutputFiles outputs;
  std::vector<std::string> written;
  std::vector<std::filesystem::path> directories;
  for (const SamQueryResult& result : results) {
    std::string label;
    for (size_t i = 0; i < states0; ++i)
      label += (i ? "-" : "") + problem.columns[i] + "-" + formatNumber(result.state[i]);
    const std::filesystem::path dir = loaded->outDir / ("query-" + label);
    std::printf("\n%s:\n", describePoint(problem, result.state).c_str());
    if (!result.supported)
      std::printf(
          "  warning: no compatible support vector within %s (scaled) of this situation: the "
          "model extrapolates here (nearest: %s)\n",
          formatNumber(def.nearRadius).c_str(),
          describePoint(problem, std::vector<double>(
                                     result.supportVector.begin(),
                                     result.supportVector.begin() + static_cast<long>(states0)))
              .c_str());
    if (!result.stateReached)
      std::printf(
          "  the model knows no compatible action here; the nearest situation it believes "
          "works is %s\n",
          describePoint(problem,
                        std::vector<double>(result.seedPoint.begin(),
                                            result.seedPoint.begin() + static_cast<long>(states0)))
              .c_str());
    std::vector<std::vector<double>> points;
    for (const std::vector<double>& action : result.actions) {
      std::vector<double> point = result.state;
      point.insert(point.end(), action.begin(), action.end());
      points.push_back(std::move(point));
    }
    std::vector<SamSimulation> runs(simulate ? points.size() : 0);
    std::vector<std::vector<FilmstripFrame>> frames(runs.size());
    pool.parallelFor(runs.size(), [&](size_t k) {
      FilmstripSampler sampler({}, problem.duration, simulationDefFor(problem.program).timeStep, 6);
      runs[k] = samSimulate(problem, points[k], nullptr,
                            [&](const StepView& step) { sampler.observe(step); });
      if (!runs[k].diverged)
        frames[k] = sampler.finish({runs[k].endTime, runs[k].endPhase, runs[k].endState, {}});
    });
    for (size_t k = 0; k < points.size(); ++k) {
      const std::filesystem::path script = dir / ("action-" + std::to_string(k + 1) + ".scl");
      outputs.add(script, samActionScript(loaded->inputs, points[k]));
      written.push_back(script.string());
      std::string verdict;
      if (simulate) {
        ++simulated;
        met += runs[k].compatible ? 1 : 0;
        verdict = runs[k].diverged ? "  simulated: diverged"
                                   : std::string("  simulated: ") +
                                         (runs[k].compatible ? "meets the mark" : "fails");
        if (!runs[k].diverged) {
          const std::filesystem::path strip = dir / ("action-" + std::to_string(k + 1) + ".svg");
          outputs.add(strip,
                      renderFilmstrip(*problem.program.character, frames[k], runs[k].environment));
          written.push_back(strip.string());
        }
      }
      std::printf("  %zu. %s  (decision %s%s)%s\n", k + 1,
                  describePoint(problem, points[k], states0).c_str(),
                  formatFixed(result.decisions[k], 3).c_str(),
                  result.predictedCompatible[k] ? "" : ", predicted incompatible", verdict.c_str());
    }
    std::string distances;
    for (size_t i = 0; i < points.size(); ++i)
      for (size_t j = i + 1; j < points.size(); ++j)
        distances += "  " + std::to_string(i + 1) + "-" + std::to_string(j + 1) + " " +
                     formatFixed(scaledDistance(points[i], points[j], space.scale, states0,
                                                space.scale.size() - states0),
                                 2);
    if (!distances.empty()) std::printf("  pairwise distances (scaled):%s\n", distances.c_str());
    SamPlotData plot = samPlotData(problem, model);
    plot.focus = points.front();
    plot.marked = points;
    plot.title = "query " + describePoint(problem, result.state) + ": " +
                 std::to_string(points.size()) + " actions";
    std::vector<std::pair<int, int>> panels;
    for (size_t i = states0; i < space.scale.size(); ++i)
      for (size_t j = i + 1; j < space.scale.size(); ++j)
        panels.emplace_back(static_cast<int>(i), static_cast<int>(j));
    if (!panels.empty()) {
      outputs.add(dir / "actions.svg", samSliceSvg(plot, panels));
      written.push_back((dir / "actions.svg").string());
    }
    directories.push_back(dir);
  }
  // A query's scripts must never replace its inputs (e.g. a script queried from an
  // earlier query's output directory).
  std::vector<NamedPath> outputPaths;
  outputPaths.reserve(written.size());
  for (const std::string& path : written) outputPaths.push_back({"output of --out", path});
  std::vector<NamedPath> inputs = loaded->inputPaths();
  for (const char* name : {"model.json", "model.svm"})
    inputs.push_back({"model", (loaded->outDir / name).string()});
  checkOutputsAgainstInputs(inputs, outputPaths);
  for (const std::filesystem::path& dir : directories) createDirectory(dir);
  outputs.write();
  if (simulate) std::printf("\n%d of %d actions meet the mark\n", met, simulated);
  std::printf("wrote %zu files under %s\n", written.size(), loaded->outDir.c_str());
  return kExitOk;
}

// Runs a subcommand; the files' errors (optimize/sam/sam_files.h) end as every command's
// input errors do: their message and their exit code.
int withExitCode(int (*subcommand)(int, char**), int argc, char** argv) {
  try {
    return subcommand(argc, argv);
  } catch (const OptimizeError& error) {
    throw InputFileError(static_cast<ExitCode>(error.exitCode()), error.what());
  }
}

}  // namespace

int sclSamMain(int argc, char** argv) {
  const std::string usage = "usage: scl sam sample|train|query SCRIPT PROBLEM [options]";
  if (argc < 2) throw UsageError("expected a subcommand; " + usage);
  const std::string_view sub = argv[1];
  if (sub == "--help" || sub == "-h") {
    std::printf(
        "%s\n\nsubcommands (each has --help):\n"
        "  sample   label points of a state-action problem by simulating them (thesis 6.1)\n"
        "  train    learn the compatibility model from the samples (thesis 6.2)\n"
        "  query    ask the model for actions that work in a situation (thesis 6.3)\n",
        usage.c_str());
    return kExitOk;
  }
  if (sub == "sample") return withExitCode(sampleMain, argc - 1, argv + 1);
  if (sub == "train") return withExitCode(trainMain, argc - 1, argv + 1);
  if (sub == "query") return withExitCode(queryMain, argc - 1, argv + 1);
  throw UsageError("unknown subcommand '" + std::string(sub) + "'; " + usage);
}

}  // namespace scl
