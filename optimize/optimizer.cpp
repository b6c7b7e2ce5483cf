// The optimization problem (parameters, bounds, scales), the generation loop and the
// checkpoint that lets an interrupted run continue bit-identically.
#include "optimize/optimizer.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <sstream>
#include <system_error>

#include "base/files.h"
#include "base/format.h"
#include "base/thread_pool.h"
#include "optimize/checkpoint_json.h"
#include "runtime/output_files.h"
#include "scl/compile.h"

namespace scl {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr const char* kCheckpointFile = "checkpoint.json";
// Written by scl before the JSON checkpoints; recognised so that it is not silently ignored.
constexpr const char* kOldCheckpointFile = "checkpoint.txt";
constexpr const char* kCheckpointFormat = "scl-optimize-checkpoint";
// Version 1 was checkpoint.txt, a text format.
constexpr int kCheckpointVersion = 2;

// What a parameter is, read from its name ("phase.pd.joint", "phase.vf.fx", ...): decides
// its natural limits and the smallest scale its step size is a fraction of.
struct ParameterKind {
  double lower = -kInfinity;
  double upper = kInfinity;
  /// Smallest typical magnitude, script units.
  double floor = 1.0;
};

ParameterKind classify(std::string_view name) {
  if (const size_t hash = name.find('#'); hash != std::string_view::npos)
    name = name.substr(0, hash);
  const auto endsWith = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  if (endsWith(".time") || endsWith(".after")) return {0.0, kInfinity, 0.1};  // seconds
  if (endsWith(".strength")) return {0.0, 1.0, 0.1};
  if (endsWith(".vf.kp") || endsWith(".vf.kd")) return {0.0, kInfinity, 100.0};           // gains
  if (endsWith(".vf.fx") || endsWith(".vf.fy")) return {-kInfinity, kInfinity, 50.0};     // newtons
  if (name.find(".ik.") != std::string_view::npos) return {-kInfinity, kInfinity, 0.1};   // metres
  if (name.find(".pd.") != std::string_view::npos) return {-kInfinity, kInfinity, 10.0};  // degrees
  // A scene body's (`crate.mass`, docs/scene.md): its bounds (sceneBodyIssues()).
  if (endsWith(".mass")) return {kMinBodyMass, kMaxBodyMass, 1.0};  // kilograms
  if (endsWith(".friction")) return {0.0, kMaxFriction, 0.1};
  if (endsWith(".restitution")) return {0.0, 1.0, 0.1};
  return {};
}

// `*` matches any run of characters.
bool globMatch(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return text.empty();
  if (pattern[0] == '*') {
    for (size_t skip = 0; skip <= text.size(); ++skip)
      if (globMatch(pattern.substr(1), text.substr(skip))) return true;
    return false;
  }
  return !text.empty() && pattern[0] == text[0] && globMatch(pattern.substr(1), text.substr(1));
}

// Writes `outputs` all or none, committed in the order added; a failure is the run's exit
// code 3.
void writeOrFail(OutputFiles& outputs) {
  try {
    outputs.write();
  } catch (const std::exception& error) {
    throw OptimizeError(3, error.what());
  }
}

void writeOutput(const std::filesystem::path& path, std::string contents) {
  OutputFiles outputs;
  outputs.add(path, std::move(contents));
  writeOrFail(outputs);
}

CheckpointJson recordJson(const GenerationRecord& record) {
  return {{"generation", record.generation},
          {"evaluations", record.evaluations},
          {"best", exactJson(record.best)},
          {"generation_best", exactJson(record.generationBest)},
          {"mean", exactJson(record.mean)},
          {"sigma", exactJson(record.sigma)},
          {"infeasible", record.infeasible},
          {"wall_time", exactJson(record.wallTime)},
          {"best_parameters", exactJson(record.bestParameters)}};
}

// Throws std::runtime_error naming the bad field.
GenerationRecord readRecord(const CheckpointFields& fields, size_t parameterCount) {
  constexpr int kIntMax = std::numeric_limits<int>::max();
  GenerationRecord record;
  record.generation = static_cast<int>(fields.integer("generation", 1, kIntMax));
  record.evaluations = fields.count("evaluations");
  record.best = fields.number("best");
  record.generationBest = fields.number("generation_best");
  record.mean = fields.number("mean");
  record.sigma = fields.number("sigma");
  record.infeasible = static_cast<int>(fields.integer("infeasible", 0, kIntMax));
  record.wallTime = fields.finite("wall_time", CheckpointFields::Sign::NotNegative);
  record.bestParameters = fields.numbers("best_parameters", static_cast<int64_t>(parameterCount));
  return record;
}

// The log holds one record per generation told, numbered from 1: a log emptied or cut, or
// a generation counter rewound, would lose history from log.csv or number it twice.
void checkLogMatches(const std::vector<GenerationRecord>& log, int generation) {
  if (log.size() != static_cast<size_t>(generation))
    CheckpointFields::fail("'log' holds " + std::to_string(log.size()) +
                           " generations, 'cmaes.counters.generation' says " +
                           std::to_string(generation));
  for (size_t i = 0; i < log.size(); ++i)
    if (log[i].generation != static_cast<int>(i) + 1)
      CheckpointFields::fail("'log[" + std::to_string(i) + "].generation' is " +
                             std::to_string(log[i].generation) + ", not " + std::to_string(i + 1));
}

std::string readCheckpointText(const std::filesystem::path& path) {
  FileRead read = readWholeFile(path);
  if (!read) throw OptimizeError(2, "checkpoint " + read.error);
  return std::move(read.text);
}

}  // namespace

// --- the problem ----------------------------------------------------------------------

ProblemResult makeProblem(std::string scriptSource, std::string scriptFile,
                          std::string objectiveSource, std::string objectiveFile,
                          const CompileOptions& options) {
  ProblemResult result;
  CompileResult compiled = compile(scriptSource, scriptFile, options);
  result.diagnostics = compiled.diagnostics;
  ObjectiveParseResult parsed = parseObjective(objectiveSource, objectiveFile);
  result.diagnostics.insert(result.diagnostics.end(), parsed.diagnostics.begin(),
                            parsed.diagnostics.end());
  if (!compiled.ok() || !parsed.ok()) return result;

  DiagnosticSink sink;
  const Program& program = *compiled.program;
  ObjectiveDef& objective = *parsed.objective;
  if (program.parameters.empty())
    sink.error({scriptFile, 0, 0}, "nothing to optimize: mark numbers with @ (e.g. '[waist @40]')");
  // Its scene bodies (`crate.x`) by name in the scene it simulates, each error at its name.
  if (bindObjectiveObjects(objective, objectiveScene(program, objective).bodies, sink)) {
    try {
      validate(objectiveSimulationDef(program, objective));
    } catch (const std::exception& error) {
      sink.error({objectiveFile, 0, 0}, error.what());
    }
  }

  OptimizationProblem problem;
  const size_t n = program.parameters.size();
  std::vector<std::string_view> names;
  for (const Parameter& parameter : program.parameters) names.push_back(parameter.name);
  for (const Parameter& parameter : program.parameters) {
    const ParameterKind kind = classify(parameter.name);
    const double x0 = parameter.initial;
    double scale = std::max(std::abs(x0), kind.floor);
    double lower = kind.lower, upper = kind.upper;
    if (objective.relativeRange > 0) {
      lower = std::max(lower, x0 - objective.relativeRange * scale);
      upper = std::min(upper, x0 + objective.relativeRange * scale);
    }
    problem.initial.push_back(x0);
    problem.lower.push_back(lower);
    problem.upper.push_back(upper);
    problem.scales.push_back(scale);
  }
  // Explicit bounds replace the default range (still within the natural limits).
  for (const ParameterBound& bound : objective.bounds) {
    bool matched = false;
    for (size_t i = 0; i < n; ++i) {
      const Parameter& parameter = program.parameters[i];
      if (!globMatch(bound.pattern, parameter.name)) continue;
      matched = true;
      const ParameterKind kind = classify(parameter.name);
      problem.lower[i] = std::max(kind.lower, bound.lower);
      problem.upper[i] = std::min(kind.upper, bound.upper);
      if (parameter.initial < problem.lower[i] || parameter.initial > problem.upper[i])
        sink.error(bound.location, "the bound [" + formatExact(problem.lower[i]) + ", " +
                                       formatExact(problem.upper[i]) + "] of parameter '" +
                                       parameter.name + "' excludes its initial value " +
                                       formatExact(parameter.initial));
    }
    if (!matched)
      sink.error(bound.location, "no parameter of the script is called '" +
                                     quoteToken(bound.pattern) + "'" +
                                     didYouMean(bound.pattern, names));
  }
  for (size_t i = 0; i < n; ++i) {
    const ParameterKind kind = classify(program.parameters[i].name);
    if (problem.initial[i] < kind.lower || problem.initial[i] > kind.upper)
      sink.error(program.parameters[i].location,
                 "parameter '" + program.parameters[i].name +
                     "' = " + formatExact(problem.initial[i]) + " is outside its natural range [" +
                     formatExact(kind.lower) + ", " + formatExact(kind.upper) + "]");
    if (std::isfinite(problem.lower[i]) && std::isfinite(problem.upper[i]))
      problem.scales[i] = std::min(problem.scales[i], problem.upper[i] - problem.lower[i]);
  }

  std::vector<Diagnostic> extra = sink.take();
  result.diagnostics.insert(result.diagnostics.end(), extra.begin(), extra.end());
  if (hasErrors(result.diagnostics)) return result;
  problem.program = std::move(*compiled.program);
  problem.objective = std::move(*parsed.objective);
  problem.scriptSource = std::move(scriptSource);
  problem.scriptFile = std::move(scriptFile);
  problem.objectiveSource = std::move(objectiveSource);
  problem.objectiveFile = std::move(objectiveFile);
  result.problem = std::move(problem);
  return result;
}

std::string renderProblemDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                     const std::string& scriptFile, std::string_view scriptSource,
                                     const std::string& objectiveFile,
                                     std::string_view objectiveSource) {
  std::string out;
  for (const Diagnostic& diagnostic : diagnostics) {
    const std::string_view source =
        diagnostic.location.file == objectiveFile && objectiveFile != scriptFile ? objectiveSource
                                                                                 : scriptSource;
    out += renderDiagnostics(std::span(&diagnostic, 1), source);
  }
  return out;
}

CmaesDef cmaesDefinition(const OptimizationProblem& problem, const OptimizeSettings& settings) {
  CmaesDef def;
  def.mean = problem.initial;
  def.sigmas = problem.scales;
  def.sigma = settings.sigma;
  def.populationSize =
      settings.populationSize > 0 ? settings.populationSize : problem.objective.populationSize;
  def.seed = settings.seed;
  def.lower = problem.lower;
  def.upper = problem.upper;
  return def;
}

ObjectiveEvaluation evaluateParameters(const OptimizationProblem& problem,
                                       const std::vector<double>& values, bool withSummary,
                                       const std::shared_ptr<SettleCache>& settleCache) {
  Program program = problem.program;
  program.setParameters(values);
  return evaluateObjective(program, problem.objective, withSummary, settleCache);
}

FarmResult evaluateCandidate(const OptimizationProblem& problem, const std::vector<double>& values,
                             const std::shared_ptr<SettleCache>& settleCache) {
  const ObjectiveEvaluation evaluation = evaluateParameters(problem, values, false, settleCache);
  FarmResult result;
  result.value = evaluation.feasible ? evaluation.value : std::numeric_limits<double>::quiet_NaN();
  result.message = evaluation.failure;
  return result;
}

std::string characterFingerprint(const Character& character) {
  std::string text = character.name;
  auto add = [&](double value) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::hex);
    text += ' ';
    text.append(buffer, ec == std::errc() ? end : buffer);
  };
  auto addName = [&](const std::string& name) { text += ' ' + name; };
  for (const LinkDef& link : character.links) {
    addName(link.name);
    for (double value : {link.length, link.proximalThickness, link.distalThickness, link.mass,
                         static_cast<double>(link.mirror)})
      add(value);
  }
  for (const JointDef& joint : character.joints) {
    addName(joint.name);
    for (double value :
         {static_cast<double>(joint.parentLink), static_cast<double>(joint.childLink),
          joint.anchorOnParent, joint.minDeg, joint.maxDeg, joint.kp, joint.kd, joint.maxTorque,
          static_cast<double>(joint.mirror)})
      add(value);
  }
  for (const auto* groups : {&character.linkGroups, &character.jointGroups}) {
    text += " |";
    for (const GroupDef& group : *groups) {
      addName(group.name);
      for (int member : group.members) add(member);
    }
  }
  for (const PoseDef& pose : character.poses) {
    addName(pose.name);
    add(pose.headAngleDeg);
    for (double angle : pose.jointDeg) add(angle);
    add(pose.support == PoseSupport::Seat ? 1 : 0);
    add(pose.settles ? 1 : 0);
  }
  std::ostringstream out;
  out << std::hex << fnv1a(text);
  return out.str();
}

// --- the run --------------------------------------------------------------------------

namespace {

// The character of a resumed run must be the one the checkpoint was made with (by its
// body, not only its name: a character file may have changed). A checkpoint without one
// predates characters and was made with the human.
void checkCharacter(const CheckpointJson& checkpoint, const Character& character,
                    const OptimizeSettings& settings) {
  std::string name = "human", fingerprint = characterFingerprint(*humanCharacter());
  if (const auto found = checkpoint.find("character"); found != checkpoint.end()) {
    const CheckpointFields fields(*found, "character");
    name = fields.text("name");
    fingerprint = fields.text("fingerprint");
  }
  if (fingerprint == characterFingerprint(character)) return;
  const std::string which = name == character.name
                                ? "another body of character '" + name + "'"
                                : "character '" + name + "', not '" + character.name + "'";
  throw OptimizeError(2, "the checkpoint in '" + settings.outDir.string() + "' was made with " +
                             which +
                             "; resume with the same character (the same --character, "
                             "the same character file)");
}

}  // namespace

ResumedCheckpoint parseCheckpoint(const OptimizationProblem& problem,
                                  const OptimizeSettings& settings, std::string_view text,
                                  const std::filesystem::path& path) {
  const auto malformed = [&](const std::string& why) {
    return OptimizeError(3, "malformed checkpoint '" + path.string() + "': " + why);
  };
  CheckpointJson checkpoint;
  try {
    checkpoint = CheckpointJson::parse(text);
  } catch (const CheckpointJson::parse_error& error) {
    if (error.byte > text.size())
      throw OptimizeError(3, "truncated checkpoint '" + path.string() + "'");
    throw malformed("not JSON (byte " + std::to_string(error.byte) + ")");
  } catch (const CheckpointJson::out_of_range&) {  // its what() holds the whole number
    throw malformed("a number beyond the range of a double");
  }
  const auto format = checkpoint.find("format");  // end() when not an object
  if (format == checkpoint.end() || *format != kCheckpointFormat)
    throw OptimizeError(3, "'" + path.string() + "' is no scl optimize checkpoint");
  try {
    const CheckpointFields fields(checkpoint, "");
    fields.requireVersion(kCheckpointVersion);
    if (fields.text("sources") != sourcesHash(problem.scriptSource, problem.objectiveSource))
      throw OptimizeError(
          2, "the checkpoint in '" + settings.outDir.string() +
                 "' was made for a different script or objective; resume with the same files");
    checkCharacter(checkpoint, *problem.program.character, settings);
    const double priorWallTime = fields.finite("wall_time", CheckpointFields::Sign::NotNegative);
    const CheckpointJson& records = fields.array("log");
    std::vector<GenerationRecord> log;
    for (size_t i = 0; i < records.size(); ++i)
      log.push_back(readRecord(CheckpointFields(records[i], "log[" + std::to_string(i) + "]"),
                               problem.initial.size()));
    Cmaes cmaes = Cmaes::deserialize(fields.at("cmaes"), static_cast<int>(problem.initial.size()));
    checkLogMatches(log, cmaes.generation());
    return {std::move(cmaes), std::move(log), priorWallTime};
  } catch (const OptimizeError&) {
    throw;
  } catch (const std::exception& error) {
    throw malformed(error.what());
  }
}

namespace {

Cmaes startOrResume(const OptimizationProblem& problem, const OptimizeSettings& settings,
                    std::vector<GenerationRecord>& log, double& priorWallTime) {
  const std::filesystem::path checkpoint = settings.outDir / kCheckpointFile;
  std::error_code error;
  const bool exists = std::filesystem::exists(checkpoint, error);
  const bool oldExists = std::filesystem::exists(settings.outDir / kOldCheckpointFile, error);
  const std::string dir = "'" + settings.outDir.string() + "'";
  if (!settings.resume) {
    if (exists)
      throw OptimizeError(2, dir + " already holds a run (" + kCheckpointFile +
                                 "); pass --resume to continue it, or choose another --out");
    if (oldExists)
      throw OptimizeError(2, dir + " already holds a run checkpointed by an older scl (" +
                                 kOldCheckpointFile + "); choose another --out");
    return Cmaes(cmaesDefinition(problem, settings));
  }
  if (!exists && oldExists)
    throw OptimizeError(2, dir + ": this run was checkpointed by an older scl (" +
                               kOldCheckpointFile + "); start a new run with another --out");
  if (!exists)
    throw OptimizeError(2, "nothing to resume: '" + checkpoint.string() + "' does not exist");
  ResumedCheckpoint resumed =
      parseCheckpoint(problem, settings, readCheckpointText(checkpoint), checkpoint);
  log = std::move(resumed.log);
  priorWallTime = resumed.priorWallTime;
  return std::move(resumed.cmaes);
}

}  // namespace

std::vector<std::string> optimizeOutputFiles() {
  return {"log.csv", "best.scl", "progress.svg", "report.txt", kCheckpointFile};
}

bool holdsCheckpoint(const std::filesystem::path& outDir) {
  std::error_code error;
  return std::filesystem::exists(outDir / kCheckpointFile, error) ||
         std::filesystem::exists(outDir / kOldCheckpointFile, error);
}

Optimizer::Optimizer(const OptimizationProblem& problem, const OptimizeSettings& settings)
    : problem_(&problem), settings_(settings), cmaes_([&] {
        std::error_code error;
        std::filesystem::create_directories(settings.outDir, error);
        if (error)
          throw OptimizeError(2, "cannot create the output directory '" + settings.outDir.string() +
                                     "': " + error.message());
        return startOrResume(problem, settings, log_, priorWallTime_);
      }()) {
  std::vector<GenerationRecord> resumed;
  resumed.swap(log_);
  for (const GenerationRecord& record : resumed) appendRecord(record);
  // Fail now, not after the first generation, when the directory is not writable. A
  // resumed run first rewrites its checkpoint's outputs: a crash between the renames of a
  // generation's files can have left them a generation ahead of checkpoint.json.
  if (settings.resume) {
    OutputFiles outputs = generationOutputs(!cmaes_.best().x.empty());
    writeOrFail(outputs);
  } else {
    writeOutput(settings_.outDir / "log.csv", logCsvHeader(*problem_));
  }
}

void Optimizer::appendRecord(const GenerationRecord& record) {
  log_.push_back(record);
  logRowsCsv_ += logCsvRow(record);
  if (!logRecordsJson_.empty()) logRecordsJson_ += ',';
  logRecordsJson_ += recordJson(record).dump();
}

std::string Optimizer::checkpointText() const {
  // The object as nlohmann's compact dump() writes it, with the log's records spliced in
  // as they were formatted when each was added (recordJson(record).dump()).
  const CheckpointJson head = {
      {"format", kCheckpointFormat},
      {"version", kCheckpointVersion},
      {"sources", sourcesHash(problem_->scriptSource, problem_->objectiveSource)},
      {"character",
       {{"name", problem_->program.character->name},
        {"source", problem_->program.character->source},
        {"fingerprint", characterFingerprint(*problem_->program.character)}}},
      {"wall_time", exactJson(log_.empty() ? priorWallTime_ : log_.back().wallTime)}};
  std::string text = head.dump();
  text.pop_back();  // its closing '}'
  return text + ",\"log\":[" + logRecordsJson_ + "],\"cmaes\":" + cmaes_.serialize().dump() + "}\n";
}

OutputFiles Optimizer::generationOutputs(bool withBest) const {
  const std::filesystem::path& dir = settings_.outDir;
  OutputFiles outputs;
  outputs.add(dir / "log.csv", logCsvHeader(*problem_) + logRowsCsv_);
  if (withBest) {
    Program program = problem_->program;
    program.setParameters(cmaes_.best().x);
    outputs.add(dir / "best.scl", substituteParameters(problem_->scriptSource, program));
  }
  outputs.add(dir / "progress.svg", progressSvg(log_));
  return outputs;
}

void Optimizer::writeOutputs(bool improved) const {
  OutputFiles outputs = generationOutputs(improved);
  // One set (a full disk writes none of them), the checkpoint committed last: it is never
  // ahead of the files it describes.
  outputs.add(settings_.outDir / kCheckpointFile, checkpointText());
  writeOrFail(outputs);
}

OptimizeResult Optimizer::run(const OptimizeCallbacks& callbacks) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  ThreadPool pool(settings_.threads);
  ThreadFarm poolFarm(pool);
  EvaluationFarm& farm = settings_.farm ? *settings_.farm : poolFarm;
  OptimizeResult result;
  result.stopReason = "generations";
  int generationsThisRun = 0;
  const auto interrupted = [&] { return settings_.interrupt && settings_.interrupt->load(); };

  // Generation 0: the script's own values are a candidate, so best.scl is never worse
  // than the script it came from.
  std::optional<ObjectiveEvaluation> initial;
  if (log_.empty() && cmaes_.generation() == 0 && !interrupted()) {
    initial = evaluateParameters(*problem_, problem_->initial, true, settleCache_);
    if (initial->feasible) cmaes_.offerBest(problem_->initial, initial->value);
    writeOutputs(initial->feasible);
    if (callbacks.start) callbacks.start(*initial);
  }

  while (cmaes_.generation() < settings_.generations) {
    if (interrupted()) {
      result.stopReason = "interrupted";
      break;
    }
    if (cmaes_.stopped()) {
      result.stopReason = toString(cmaes_.stopReason());
      break;
    }
    if (settings_.timeLimit > 0 && elapsed() >= settings_.timeLimit) {
      result.stopReason = "time limit";
      break;
    }
    const auto generationStart = Clock::now();
    const std::vector<std::vector<double>> population = cmaes_.ask();
    const int total = static_cast<int>(population.size());
    const std::vector<FarmResult> results = farm.evaluate(
        population,
        [&](const std::vector<double>& values) {
          if (interrupted()) return FarmResult{};  // the generation is abandoned
          return evaluateCandidate(*problem_, values, settleCache_);
        },
        callbacks.evaluated, settings_.interrupt);
    std::vector<double> fitness(population.size());
    std::vector<std::string> failures(population.size());
    for (size_t k = 0; k < results.size(); ++k) {
      fitness[k] = results[k].value;
      failures[k] = results[k].message;
    }
    if (interrupted()) {  // not told: the checkpoint of the last generation stays
      result.stopReason = "interrupted";
      break;
    }
    const double previousBest = cmaes_.best().fitness;
    cmaes_.tell(fitness);
    ++generationsThisRun;

    GenerationRecord record;
    record.generation = cmaes_.generation();
    record.evaluations = cmaes_.evaluations();
    record.best = cmaes_.best().fitness;
    record.sigma = cmaes_.sigma();
    record.wallTime = priorWallTime_ + elapsed();
    record.bestParameters = cmaes_.best().x.empty() ? problem_->initial : cmaes_.best().x;
    double sum = 0.0;
    int feasible = 0;
    std::string firstFailure;
    for (size_t k = 0; k < fitness.size(); ++k) {
      if (std::isnan(fitness[k])) {
        ++record.infeasible;
        if (firstFailure.empty()) firstFailure = failures[k];
        continue;
      }
      sum += fitness[k];
      ++feasible;
      if (!(fitness[k] >= record.generationBest)) record.generationBest = fitness[k];
    }
    if (feasible > 0) record.mean = sum / feasible;
    appendRecord(record);
    writeOutputs(record.best < previousBest);

    if (callbacks.generation) {
      const double generationTime =
          std::chrono::duration<double>(Clock::now() - generationStart).count();
      double eta = (settings_.generations - record.generation) * (elapsed() / generationsThisRun);
      if (settings_.timeLimit > 0)
        eta = std::min(eta, std::max(0.0, settings_.timeLimit - elapsed()));
      callbacks.generation(record, total / std::max(generationTime, 1e-9), eta, firstFailure);
    }
  }
  if (cmaes_.generation() >= settings_.generations && cmaes_.stopped())
    result.stopReason = toString(cmaes_.stopReason());
  result.interrupted = result.stopReason == "interrupted";

  result.log = log_;
  result.best = cmaes_.best();
  if (!result.best.x.empty()) {
    std::vector<ObjectiveEvaluation> pair(2);
    const std::vector<double>* values[2] = {&problem_->initial, &result.best.x};
    pool.parallelFor(2, [&](size_t k) {
      if (k == 0 && initial)
        pair[0] = *initial;
      else
        pair[k] = evaluateParameters(*problem_, *values[k], true, settleCache_);
    });
    result.before = pair[0];
    result.after = pair[1];
    writeOutput(settings_.outDir / "report.txt", beforeAfterReport(pair[0], pair[1]));
  }
  return result;
}

}  // namespace scl
