// The optimization problem (parameters, bounds, scales), the generation loop and the
// checkpoint that lets an interrupted run continue bit-identically.
#include "optimize/optimizer.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <system_error>

#include "optimize/thread_pool.h"
#include "runtime/atomic_file.h"
#include "scl/compile.h"

namespace scl {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::string_view kCheckpointMagic = "scl-optimize-checkpoint 1";

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

std::string formatValue(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
}

uint64_t fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

std::string hashText(std::string_view a, std::string_view b) {
  std::ostringstream out;
  out << std::hex << fnv1a(a) << '-' << fnv1a(b);
  return out.str();
}

// Turns a write failure into the run's exit code 3.
void writeOutput(const std::filesystem::path& path, std::string_view contents) {
  try {
    writeFileAtomically(path, contents);
  } catch (const std::exception& error) {
    throw OptimizeError(3, error.what());
  }
}

double parseDouble(std::string_view text) {
  double value = 0.0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size())
    throw OptimizeError(3, "malformed number '" + std::string(text) + "' in the checkpoint");
  return value;
}

std::vector<std::string_view> splitCommas(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

std::string csvRow(const GenerationRecord& record) {
  std::string row = std::to_string(record.generation) + ',' + std::to_string(record.evaluations) +
                    ',' + formatValue(record.best) + ',' + formatValue(record.generationBest) +
                    ',' + formatValue(record.mean) + ',' + formatValue(record.sigma) + ',' +
                    std::to_string(record.infeasible) + ',' + formatValue(record.wallTime);
  for (double value : record.bestParameters) row += ',' + formatValue(value);
  return row;
}

constexpr size_t kFixedColumns = 8;

GenerationRecord parseCsvRow(std::string_view line, size_t parameterCount) {
  const std::vector<std::string_view> fields = splitCommas(line);
  if (fields.size() != kFixedColumns + parameterCount)
    throw OptimizeError(3, "malformed log row in the checkpoint: '" + std::string(line) + "'");
  GenerationRecord record;
  record.generation = static_cast<int>(parseDouble(fields[0]));
  record.evaluations = static_cast<int64_t>(parseDouble(fields[1]));
  record.best = parseDouble(fields[2]);
  record.generationBest = parseDouble(fields[3]);
  record.mean = parseDouble(fields[4]);
  record.sigma = parseDouble(fields[5]);
  record.infeasible = static_cast<int>(parseDouble(fields[6]));
  record.wallTime = parseDouble(fields[7]);
  for (size_t i = kFixedColumns; i < fields.size(); ++i)
    record.bestParameters.push_back(parseDouble(fields[i]));
  return record;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OptimizeError(2, "cannot read '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// --- the problem ----------------------------------------------------------------------

ProblemResult makeProblem(std::string scriptSource, std::string scriptFile,
                          std::string objectiveSource, std::string objectiveFile) {
  ProblemResult result;
  CompileResult compiled = compile(scriptSource, scriptFile);
  result.diagnostics = compiled.diagnostics;
  ObjectiveParseResult parsed = parseObjective(objectiveSource, objectiveFile);
  result.diagnostics.insert(result.diagnostics.end(), parsed.diagnostics.begin(),
                            parsed.diagnostics.end());
  if (!compiled.ok() || !parsed.ok()) return result;

  DiagnosticSink sink;
  const Program& program = *compiled.program;
  const ObjectiveDef& objective = *parsed.objective;
  if (program.parameters.empty())
    sink.error({scriptFile, 0, 0}, "nothing to optimize: mark numbers with @ (e.g. '[waist @40]')");
  try {
    validate(objectiveSimulationDef(program, objective));
  } catch (const std::exception& error) {
    sink.error({objectiveFile, 0, 0}, error.what());
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
        sink.error(bound.location, "the bound [" + formatValue(problem.lower[i]) + ", " +
                                       formatValue(problem.upper[i]) + "] of parameter '" +
                                       parameter.name + "' excludes its initial value " +
                                       formatValue(parameter.initial));
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
                     "' = " + formatValue(problem.initial[i]) + " is outside its natural range [" +
                     formatValue(kind.lower) + ", " + formatValue(kind.upper) + "]");
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
                                       const std::vector<double>& values, bool withSummary) {
  Program program = problem.program;
  program.setParameters(values);
  return evaluateObjective(program, problem.objective, withSummary);
}

// --- the run --------------------------------------------------------------------------

namespace {

Cmaes startOrResume(const OptimizationProblem& problem, const OptimizeSettings& settings,
                    std::vector<GenerationRecord>& log, double& priorWallTime) {
  const std::filesystem::path checkpoint = settings.outDir / "checkpoint.txt";
  std::error_code error;
  const bool exists = std::filesystem::exists(checkpoint, error);
  if (!settings.resume) {
    if (exists)
      throw OptimizeError(
          2, "'" + settings.outDir.string() +
                 "' already holds a run (checkpoint.txt); pass --resume to continue it, or choose "
                 "another --out");
    return Cmaes(cmaesDefinition(problem, settings));
  }
  if (!exists)
    throw OptimizeError(2, "nothing to resume: '" + checkpoint.string() + "' does not exist");
  const std::string text = readFile(checkpoint);
  std::istringstream in(text);
  std::string line;
  const auto expectKey = [&](std::string_view key) {
    if (!std::getline(in, line) || line.rfind(std::string(key) + ' ', 0) != 0)
      throw OptimizeError(3, "malformed checkpoint '" + checkpoint.string() + "': expected '" +
                                 std::string(key) + "'");
    return line.substr(key.size() + 1);
  };
  if (!std::getline(in, line) || line != kCheckpointMagic)
    throw OptimizeError(3, "'" + checkpoint.string() + "' is no scl optimize checkpoint");
  if (expectKey("sources") != hashText(problem.scriptSource, problem.objectiveSource))
    throw OptimizeError(
        2, "the checkpoint in '" + settings.outDir.string() +
               "' was made for a different script or objective; resume with the same files");
  priorWallTime = parseDouble(expectKey("wall-time"));
  const int rows = static_cast<int>(parseDouble(expectKey("log")));
  for (int i = 0; i < rows; ++i) {
    if (!std::getline(in, line))
      throw OptimizeError(3, "truncated checkpoint '" + checkpoint.string() + "'");
    log.push_back(parseCsvRow(line, problem.initial.size()));
  }
  if (!std::getline(in, line) || line != "cmaes")
    throw OptimizeError(3, "malformed checkpoint '" + checkpoint.string() + "': expected 'cmaes'");
  const std::string cmaesText(text.begin() + static_cast<std::ptrdiff_t>(in.tellg()), text.end());
  try {
    Cmaes cmaes = Cmaes::deserialize(cmaesText);
    if (cmaes.dimension() != static_cast<int>(problem.initial.size()))
      throw OptimizeError(2, "the checkpoint has a different number of parameters");
    return cmaes;
  } catch (const OptimizeError&) {
    throw;
  } catch (const std::exception& e) {
    throw OptimizeError(3, "malformed checkpoint '" + checkpoint.string() + "': " + e.what());
  }
}

}  // namespace

Optimizer::Optimizer(const OptimizationProblem& problem, const OptimizeSettings& settings)
    : problem_(&problem), settings_(settings), cmaes_([&] {
        std::error_code error;
        std::filesystem::create_directories(settings.outDir, error);
        if (error)
          throw OptimizeError(3, "cannot create the output directory '" + settings.outDir.string() +
                                     "': " + error.message());
        return startOrResume(problem, settings, log_, priorWallTime_);
      }()) {
  // Fail now, not after the first generation, when the directory is not writable.
  writeOutput(settings_.outDir / "log.csv", logCsv(*problem_, log_));
}

std::string Optimizer::checkpointText() const {
  std::string text(kCheckpointMagic);
  text += "\nsources " + hashText(problem_->scriptSource, problem_->objectiveSource) + '\n';
  text += "wall-time " + formatValue(log_.empty() ? priorWallTime_ : log_.back().wallTime) + '\n';
  text += "log " + std::to_string(log_.size()) + '\n';
  for (const GenerationRecord& record : log_) text += csvRow(record) + '\n';
  text += "cmaes\n";
  text += cmaes_.serialize();
  return text;
}

void Optimizer::writeOutputs(bool improved) const {
  const std::filesystem::path& dir = settings_.outDir;
  writeOutput(dir / "log.csv", logCsv(*problem_, log_));
  if (improved) {
    Program program = problem_->program;
    program.setParameters(cmaes_.best().x);
    writeOutput(dir / "best.scl", substituteParameters(problem_->scriptSource, program));
  }
  writeOutput(dir / "progress.svg", progressSvg(log_));
  // Last, so that a checkpoint never refers to outputs that were not written.
  writeOutput(dir / "checkpoint.txt", checkpointText());
}

OptimizeResult Optimizer::run(const OptimizeCallbacks& callbacks) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  ThreadPool pool(settings_.threads);
  OptimizeResult result;
  result.stopReason = "generations";
  int generationsThisRun = 0;

  while (cmaes_.generation() < settings_.generations) {
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
    std::vector<double> fitness(population.size());
    std::vector<std::string> failures(population.size());
    std::atomic<int> done{0};
    pool.parallelFor(population.size(), [&](size_t k) {
      const ObjectiveEvaluation evaluation = evaluateParameters(*problem_, population[k]);
      fitness[k] =
          evaluation.feasible ? evaluation.value : std::numeric_limits<double>::quiet_NaN();
      failures[k] = evaluation.failure;
      const int finished = ++done;
      if (callbacks.evaluated) callbacks.evaluated(finished, total);
    });
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
    log_.push_back(record);
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

  result.log = log_;
  result.best = cmaes_.best();
  if (!result.best.x.empty()) {
    std::vector<ObjectiveEvaluation> pair(2);
    const std::vector<double>* values[2] = {&problem_->initial, &result.best.x};
    pool.parallelFor(2,
                     [&](size_t k) { pair[k] = evaluateParameters(*problem_, *values[k], true); });
    result.before = pair[0];
    result.after = pair[1];
    writeOutput(settings_.outDir / "report.txt", beforeAfterReport(pair[0], pair[1]));
  }
  return result;
}

}  // namespace scl
