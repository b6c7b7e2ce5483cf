#include "tools/viewer/phase_optimizer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "base/threads.h"
#include "scl/printer.h"

namespace scl {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Simulated seconds of a built-in objective when the script's scene gives no duration.
constexpr double kDefaultDuration = 5.0;

// "standing at the end": scripts/optimize/kipup-fast.objective's terms — the head high and no
// body link down over the last second, the head above the standing threshold at the end,
// a little energy.
std::string standingObjective(double duration) {
  const std::string last = formatNumber(std::max(0.0, duration - 1.0));
  return "// scl view's built-in objective: standing at the end\n"
         "scene from script\n"
         "duration " +
         formatNumber(duration) +
         "\n"
         "term -100    mean head when time > " +
         last +
         "\n"
         "term 100     sum 1 when fallen and time > " +
         last +
         "\n"
         "term 1       final below: 1.6 penalty: 100\n"
         "term 1/50000 energy\n";
}

// "max airborne time": minus the seconds no link touches the environment.
std::string airborneObjective(double duration) {
  return "// scl view's built-in objective: max airborne time\n"
         "scene from script\n"
         "duration " +
         formatNumber(duration) +
         "\n"
         "term 1 airborne\n";
}

}  // namespace

std::optional<std::string> builtInObjective(const std::string& name, const Program& program) {
  const double duration = program.scene.duration.value_or(kDefaultDuration);
  if (name == kStandingObjective) return standingObjective(duration);
  if (name == kAirborneObjective) return airborneObjective(duration);
  return std::nullopt;
}

namespace {

// Every core but one: the window's frame loop keeps a core of its own (on 2 cores, a pool
// of both made frames 2-3 times slower, drawing below 60 fps).
int threadsFor(const PhaseOptimizerDef& def) {
  if (def.threads > 0) return def.threads;
  return std::max(1, hardwareCores() - 1);
}

}  // namespace

PhaseOptimizer::PhaseOptimizer(PhaseOptimizerDef def)
    : def_(std::move(def)), pool_(threadsFor(def_)) {
  ProblemResult resolved = makeProblem(def_.scriptSource, def_.scriptFile, def_.objectiveSource,
                                       def_.objectiveFile, def_.options);
  if (!resolved.problem)
    throw std::invalid_argument(renderProblemDiagnostics(resolved.diagnostics, def_.scriptFile,
                                                         def_.scriptSource, def_.objectiveFile,
                                                         def_.objectiveSource));
  problem_ = std::move(*resolved.problem);
  if (def_.start.size() != problem_.initial.size()) def_.start = problem_.initial;
  const std::string prefix = def_.phase + ".";
  for (size_t i = 0; i < problem_.program.parameters.size(); ++i) {
    const std::string& name = problem_.program.parameters[i].name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    slots_.push_back(i);
    names_.push_back(name);
  }
  if (slots_.empty())
    throw std::invalid_argument("phase '" + def_.phase + "' has no @ numbers to optimize");
  if (def_.generations < 1) throw std::invalid_argument("the generations must be at least 1");
  driver_ = std::thread([this] { run(); });
}

PhaseOptimizer::~PhaseOptimizer() {
  interrupt_ = true;
  wait();
}

void PhaseOptimizer::wait() {
  if (driver_.joinable()) driver_.join();
}

PhaseOptimizerStatus PhaseOptimizer::status() const {
  PhaseOptimizerStatus status;
  status.generation = generation_;
  status.generations = def_.generations;
  status.evaluations = evaluations_;
  status.startJ = startJ_;
  status.bestJ = bestJ_;
  status.running = running_;
  return status;
}

std::optional<std::vector<double>> PhaseOptimizer::tryBest() const {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || bestValues_.empty()) return std::nullopt;
  return bestValues_;
}

std::string PhaseOptimizer::endReason() const {
  const std::lock_guard lock(mutex_);
  return endReason_;
}

void PhaseOptimizer::run() {
  try {
    runGenerations();
  } catch (const std::exception& error) {
    const std::lock_guard lock(mutex_);
    endReason_ = error.what();
  }
  running_ = false;
}

void PhaseOptimizer::runGenerations() {
  CmaesDef cmaesDef;
  for (size_t slot : slots_) {
    cmaesDef.mean.push_back(
        std::clamp(def_.start[slot], problem_.lower[slot], problem_.upper[slot]));
    cmaesDef.sigmas.push_back(problem_.scales[slot]);
    cmaesDef.lower.push_back(problem_.lower[slot]);
    cmaesDef.upper.push_back(problem_.upper[slot]);
  }
  cmaesDef.sigma = def_.sigma;
  cmaesDef.seed = def_.seed;
  cmaesDef.populationSize = problem_.objective.populationSize;
  Cmaes cmaes(cmaesDef);
  // The start is the best until a candidate beats it.
  const double startJ = evaluate(cmaesDef.mean);
  ++evaluations_;
  startJ_ = startJ;
  if (!std::isnan(startJ)) {
    cmaes.offerBest(cmaesDef.mean, startJ);
    publishBest(cmaes.best());
  }
  for (int generation = 1; generation <= def_.generations; ++generation) {
    if (interrupt_) break;
    if (cmaes.stopped()) {
      const std::lock_guard lock(mutex_);
      endReason_ = "CMA-ES stopped (converged)";
      return;
    }
    const std::vector<std::vector<double>>& population = cmaes.ask();
    std::vector<double> fitness(population.size(), kNaN);
    pool_.parallelFor(population.size(), [&](size_t i) {
      fitness[i] = evaluate(population[i]);
      ++evaluations_;
    });
    if (interrupt_) break;  // the generation is incomplete: not told
    cmaes.tell(fitness);
    publishBest(cmaes.best());
    generation_ = generation;
  }
  if (interrupt_) {
    const std::lock_guard lock(mutex_);
    endReason_ = "stopped";
  }
}

double PhaseOptimizer::evaluate(const std::vector<double>& x) const {
  if (interrupt_) return kNaN;  // checked between evaluations
  std::vector<double> values = def_.start;
  for (size_t k = 0; k < slots_.size(); ++k) values[slots_[k]] = x[k];
  return evaluateCandidate(problem_, values, settleCache_).value;
}

void PhaseOptimizer::publishBest(const CmaesBest& best) {
  if (!std::isfinite(best.fitness)) return;
  std::vector<double> values = def_.start;
  for (size_t k = 0; k < slots_.size(); ++k) values[slots_[k]] = best.x[k];
  const std::lock_guard lock(mutex_);
  bestValues_ = std::move(values);
  bestJ_ = best.fitness;
}

}  // namespace scl
