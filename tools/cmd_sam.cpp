// `scl sam sample SCRIPT PROBLEM`: sample a state–action compatibility model (thesis §6.1,
// docs/state-action.md): progress on stderr, every labelled point in --out/samples.csv.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cxxopts.hpp>
#include <filesystem>
#include <sstream>
#include <thread>

#include "optimize/sam_problem.h"
#include "optimize/thread_pool.h"
#include "runtime/output_files.h"
#include "scl/compile.h"
#include "scl/printer.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/interrupt.h"

namespace scl {

namespace {

// The samples as CSV: one row per point, in the order sampled.
std::string samplesCsv(const SamProblem& problem, const std::vector<SamPoint>& points) {
  std::ostringstream out;
  out << "path,generation";
  for (const std::string& column : problem.columns) out << ',' << column;
  out << ",compatible,objective\n";
  for (const SamPoint& point : points) {
    out << point.path << ',' << point.generation;
    for (double value : point.point) out << ',' << formatNumber(value);
    out << ',' << (point.compatible ? 1 : 0) << ',' << formatNumber(point.objective) << '\n';
  }
  return out.str();
}

int sampleMain(int argc, char** argv) {
  cxxopts::Options options("scl sam sample",
                           "Sample a state-action compatibility model: label points of "
                           "situation and action by simulating them.");
  options.positional_help("SCRIPT PROBLEM");
  options.add_options()("generations", "generations of every sampling path",
                        cxxopts::value<int>()->default_value("50"))(
      "seed", "random seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "threads", "threads simulating points (default: every core)", cxxopts::value<int>())(
      "out", "output directory (default: PROBLEM without its extension + .sam)",
      cxxopts::value<std::string>())("h,help", "show this help")(
      "script", "", cxxopts::value<std::string>())("problem", "", cxxopts::value<std::string>());
  options.parse_positional({"script", "problem"});
  std::string scriptPath, problemPath;
  std::filesystem::path outDir;
  int generations = 0, threads = 0;
  uint64_t seed = 1;
  try {
    auto parsed = options.parse(argc, argv);
    if (parsed.count("help")) {
      std::printf("%s\n", options.help({""}).c_str());
      std::printf(
          "exit codes: 0 ok, 1 script or problem error, 2 usage error, 3 failure (e.g. "
          "unwritable output), 130/143 interrupted (samples.csv keeps every finished "
          "generation)\n");
      return kExitOk;
    }
    if (!parsed.unmatched().empty())
      throw std::invalid_argument("unexpected argument '" + parsed.unmatched()[0] + "'");
    if (!parsed.count("script") || !parsed.count("problem"))
      throw std::invalid_argument("expected a script and a problem file");
    scriptPath = parsed["script"].as<std::string>();
    problemPath = parsed["problem"].as<std::string>();
    generations = parsed["generations"].as<int>();
    if (generations < 1) throw std::invalid_argument("--generations must be at least 1");
    seed = parsed["seed"].as<uint64_t>();
    if (parsed.count("threads")) {
      threads = parsed["threads"].as<int>();
      if (threads < 1) throw std::invalid_argument("--threads must be at least 1");
    }
    outDir = parsed.count("out") ? std::filesystem::path(parsed["out"].as<std::string>())
                                 : std::filesystem::path(problemPath).replace_extension(".sam");
  } catch (const std::exception& error) {
    throw UsageError(std::string(error.what()) + " (see 'scl sam sample --help')");
  }

  const std::string scriptSource = readInputFile(scriptPath, "script");
  const std::string problemSource = readInputFile(problemPath, "problem");
  const std::filesystem::path samplesPath = outDir / "samples.csv";
  checkOutputsAgainstInputs({{"script", scriptPath}, {"problem", problemPath}},
                            {{"samples.csv of --out", samplesPath.string()}});
  CompileResult compiled = compile(scriptSource, scriptPath);
  std::fputs(renderDiagnostics(compiled.diagnostics, scriptSource).c_str(), stderr);
  ProblemParseResult parsed = parseProblem(problemSource, problemPath);
  std::fputs(renderDiagnostics(parsed.diagnostics, problemSource).c_str(), stderr);
  if (!compiled.ok() || !parsed.ok()) return kExitInputError;
  SamProblem problem;
  try {
    problem = bindSamProblem(std::move(*compiled.program), std::move(*parsed.problem));
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return kExitInputError;
  }
  problem.sampler.seed = seed;
  std::error_code error;
  std::filesystem::create_directories(outDir, error);
  if (error)
    throw OutputError("cannot create the output directory '" + outDir.string() +
                      "': " + error.message());

  InterruptGuard interrupt;
  ThreadPool pool(threads);
  SamSampler sampler(problem.sampler);
  std::fprintf(stderr,
               "sampling %s against %s: %zu dimensions, %d paths x %d points per generation, "
               "%d %s, out %s\n",
               scriptPath.c_str(), problemPath.c_str(), problem.columns.size(),
               problem.sampler.paths, problem.sampler.population, pool.threadCount(),
               pool.threadCount() == 1 ? "thread" : "threads", outDir.c_str());
  const auto start = std::chrono::steady_clock::now();
  std::vector<SamPoint> points;
  int incompatible = 0;
  const auto test = [&](const std::vector<double>& point) { return samCompatible(problem, point); };
  for (int g = 1; g <= generations; ++g) {
    if (interrupt.requested()) {
      std::fprintf(stderr,
                   "scl sam sample: interrupted after generation %d; %s holds its %zu points\n",
                   g - 1, samplesPath.c_str(), points.size());
      return interrupt.exitCode();
    }
    for (SamPoint& point : sampler.generation(test, pool)) {
      incompatible += point.compatible ? 0 : 1;
      points.push_back(std::move(point));
    }
    writeFileAtomically(samplesPath, samplesCsv(problem, points));
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "gen %d/%d  points %zu  incompatible %d  %.1f points/s\n", g, generations,
                 points.size(), incompatible,
                 elapsed > 0 ? static_cast<double>(points.size()) / elapsed : 0.0);
  }
  std::printf("%zu points (%d incompatible) in %s\n", points.size(), incompatible,
              samplesPath.c_str());
  return kExitOk;
}

}  // namespace

int sclSamMain(int argc, char** argv) {
  const std::string usage =
      "usage: scl sam sample SCRIPT PROBLEM [options]   (scl sam sample --help)";
  if (argc < 2) throw UsageError("expected a subcommand; " + usage);
  const std::string_view sub = argv[1];
  if (sub == "--help" || sub == "-h") {
    std::printf(
        "%s\n\nsubcommands:\n  sample   label points of a state-action problem by "
        "simulating them (thesis 6.1)\n",
        usage.c_str());
    return kExitOk;
  }
  if (sub == "sample") return sampleMain(argc - 1, argv + 1);
  throw UsageError("unknown subcommand '" + std::string(sub) + "'; " + usage);
}

}  // namespace scl
