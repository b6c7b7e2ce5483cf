// `scl optimize` as a library: problem setup and its errors, outputs, determinism across
// thread counts, and resuming a checkpoint to the same result as an uninterrupted run.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "optimize/optimizer.h"
#include "scl/compile.h"

using namespace scl;
namespace fs = std::filesystem;

namespace {

// Two parameters, 0.2 s per evaluation: fast enough for many small runs.
const char* kScript = R"(scene pose: standing duration: 0.2
{ [waist @10, knees @-20 time: @0.1] }
)";
const char* kObjective = R"(term 1/1000 energy
term 100 sum sq com.vx
bounds relative 1
)";

OptimizationProblem problemOf(const std::string& script, const std::string& objective) {
  ProblemResult result = makeProblem(script, "s.scl", objective, "o.objective");
  INFO(renderProblemDiagnostics(result.diagnostics, "s.scl", script, "o.objective", objective));
  REQUIRE(result.problem);
  return std::move(*result.problem);
}

std::vector<Diagnostic> problemErrors(const std::string& script, const std::string& objective) {
  ProblemResult result = makeProblem(script, "s.scl", objective, "o.objective");
  REQUIRE_FALSE(result.problem);
  return result.diagnostics;
}

fs::path freshDir(const std::string& name) {
  fs::path dir = fs::path(SCL_BINARY_DIR) / "test_optimize_output" / name;
  fs::remove_all(dir);
  return dir;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// log.csv without the wall-time column (the only one that depends on the machine).
std::string logWithoutWallTime(const fs::path& dir) {
  std::istringstream in(readText(dir / "log.csv"));
  std::string line, out;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream row(line);
    std::string field;
    while (std::getline(row, field, ',')) fields.push_back(field);
    REQUIRE(fields.size() > 8);
    fields.erase(fields.begin() + 7);
    for (const std::string& f : fields) out += f + ',';
    out += '\n';
  }
  return out;
}

nlohmann::ordered_json readCheckpoint(const fs::path& dir) {
  return nlohmann::ordered_json::parse(readText(dir / "checkpoint.json"));
}

// checkpoint.json without its wall times (the only values that depend on the machine).
std::string checkpointWithoutWallTime(const fs::path& dir) {
  nlohmann::ordered_json checkpoint = readCheckpoint(dir);
  checkpoint.erase("wall_time");
  for (auto& record : checkpoint.at("log")) record.erase("wall_time");
  return checkpoint.dump();
}

OptimizeSettings settingsFor(const fs::path& dir, int generations, int threads) {
  OptimizeSettings settings;
  settings.generations = generations;
  settings.populationSize = 5;
  settings.sigma = 0.3;
  settings.seed = 7;
  settings.threads = threads;
  settings.outDir = dir;
  return settings;
}

// Removes a directory of freshDir() at the end of a test.
struct RemovedAtEnd {
  std::vector<fs::path> dirs;
  ~RemovedAtEnd() {
    std::error_code error;
    for (const fs::path& dir : dirs) fs::remove_all(dir, error);
  }
};

}  // namespace

TEST_CASE("a problem resolves parameters, natural limits and relative bounds", "[optimize]") {
  const OptimizationProblem problem =
      problemOf(R"(scene duration: 0.2
{ [waist @40, knees @0 time: @0.5] [relax hips strength @0.5] [vf (@-100, 0) on: trunk by: leftAnkle] }
after @0.3
{ }
)",
                "term 1 energy\nbounds relative 0.5\nbound phase1.vf.* -150 0\n");
  REQUIRE(problem.initial == std::vector<double>{40, 0, 0.5, 0.5, -100, 0.3});
  // pd angles: ±0.5·max(|x|, 10°)
  CHECK(problem.lower[0] == 20);
  CHECK(problem.upper[0] == 60);
  CHECK(problem.lower[1] == -5);
  CHECK(problem.upper[1] == 5);
  // times stay non-negative; strengths stay in [0, 1]
  CHECK(problem.lower[2] == 0.25);
  CHECK(problem.lower[3] == 0.25);
  CHECK(problem.upper[3] == 0.75);
  // the glob bound replaces the default range of the force
  CHECK(problem.lower[4] == -150);
  CHECK(problem.upper[4] == 0);
  // scales: max(|x|, kind floor), at most the range
  CHECK(problem.scales[0] == 40);
  CHECK(problem.scales[1] == 10);
  CHECK(problem.scales[4] == 100);
  CHECK(problem.scales[5] == Approx(0.3));

  const OptimizationProblem open =
      problemOf("scene duration: 0.2\n{ [waist @40 time: @0] [relax hips strength @1] }\n",
                "term 1 energy\n");
  CHECK(std::isinf(open.lower[0]));
  CHECK(std::isinf(open.upper[0]));
  CHECK(open.lower[1] == 0);
  CHECK(std::isinf(open.upper[1]));
  CHECK(open.scales[1] == 0.1);
  CHECK(open.lower[2] == 0);
  CHECK(open.upper[2] == 1);
}

TEST_CASE("bad problems are diagnosed", "[optimize]") {
  std::vector<Diagnostic> errors =
      problemErrors("scene duration: 0.2\n{ [waist 10] }\n", "term 1 energy\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].location.file == "s.scl");
  CHECK(errors[0].message.rfind("nothing to optimize: mark numbers with @", 0) == 0);

  errors = problemErrors(kScript, "term 1 energy\nbound phase1.pd.waist 20 30\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].location.file == "o.objective");
  CHECK(errors[0].location.line == 2);
  CHECK(errors[0].message ==
        "the bound [20, 30] of parameter 'phase1.pd.waist' excludes its initial value 10");

  errors = problemErrors(kScript, "term 1 energy\nbound phase1.pd.wiast 0 30\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "no parameter of the script is called 'phase1.pd.wiast'; did you mean 'phase1.pd.waist'?");

  errors = problemErrors("{ [waist @10] }\n", "term 1 energy\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("no duration") != std::string::npos);

  errors = problemErrors("{ [wiast @10] }\n", "term 1 enrgy\n");
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].location.file == "s.scl");
  CHECK(errors[1].location.file == "o.objective");
  const std::string rendered = renderProblemDiagnostics(errors, "s.scl", "{ [wiast @10] }\n",
                                                        "o.objective", "term 1 enrgy\n");
  CHECK(
      rendered.find(
          "o.objective:1:8: error: unknown term 'enrgy'; did you mean 'energy'?\n  term 1 enrgy") !=
      std::string::npos);
}

TEST_CASE("a run writes its outputs and improves on the script", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path dir = freshDir("outputs");
  Optimizer optimizer(problem, settingsFor(dir, 3, 2));
  int generations = 0, evaluated = 0;
  OptimizeCallbacks callbacks;
  callbacks.generation = [&](const GenerationRecord& record, double rate, double,
                             const std::string&) {
    CHECK(record.generation == ++generations);
    CHECK(rate > 0);
  };
  // `evaluated` runs on the worker threads, where Catch2's assertions must not be used
  // (they are not thread-safe): count there, check once the run is over.
  std::atomic<int> evaluations{0}, otherTotals{0};
  callbacks.evaluated = [&](int, int total) {
    if (total != 5) ++otherTotals;
    ++evaluations;
  };
  const OptimizeResult result = optimizer.run(callbacks);
  evaluated = evaluations;
  CHECK(otherTotals == 0);
  CHECK(generations == 3);
  CHECK(evaluated == 15);
  REQUIRE(result.log.size() == 3);
  CHECK(result.stopReason == "generations");
  CHECK(result.log.back().evaluations == 15);
  CHECK(result.log.back().best == result.best.fitness);
  CHECK(result.log[0].best >= result.log[2].best);
  REQUIRE(result.before);
  REQUIRE(result.after);
  CHECK(result.after->value == result.best.fitness);
  CHECK(result.before->value == evaluateParameters(problem, problem.initial).value);

  const std::string log = readText(dir / "log.csv");
  CHECK(log.rfind("generation,evaluations,best,generation_best,mean,sigma,infeasible,wall_time,"
                  "phase1.pd.waist,"
                  "phase1.pd.knees,phase1.pd.time\n",
                  0) == 0);
  CHECK(std::count(log.begin(), log.end(), '\n') == 4);
  CHECK(readText(dir / "progress.svg").rfind("<svg", 0) == 0);
  const nlohmann::ordered_json checkpoint = readCheckpoint(dir);
  std::vector<std::string> keys;
  for (const auto& [key, value] : checkpoint.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"format", "version", "sources", "character", "wall_time",
                                         "log", "cmaes"});
  CHECK(checkpoint.at("character").at("name") == "human");
  CHECK(checkpoint.at("character").at("fingerprint") ==
        scl::characterFingerprint(*scl::humanCharacter()));
  CHECK(checkpoint.at("format") == "scl-optimize-checkpoint");
  CHECK(checkpoint.at("version") == 2);
  REQUIRE(checkpoint.at("log").size() == 3);
  const nlohmann::ordered_json& last = checkpoint.at("log").at(2);
  CHECK(last.at("generation") == 3);
  CHECK(last.at("evaluations") == 15);
  CHECK(last.at("best").get<double>() == result.best.fitness);
  CHECK(last.at("best_parameters").get<std::vector<double>>() == result.best.x);
  CHECK(checkpoint.at("wall_time") == last.at("wall_time"));
  CHECK(checkpoint.at("cmaes").at("format") == "scl-cmaes-checkpoint");
  CHECK(readText(dir / "report.txt").find("max pelvis height in air") != std::string::npos);

  // best.scl keeps the `@` marks and holds the best parameters.
  const std::string best = readText(dir / "best.scl");
  CompileResult compiled = compile(best, "best.scl");
  REQUIRE(compiled.ok());
  REQUIRE(compiled.program->parameters.size() == 3);
  for (size_t i = 0; i < 3; ++i)
    CHECK(compiled.program->parameters[i].initial == Approx(result.best.x[i]).epsilon(1e-9));
}

TEST_CASE("a robust objective evaluates every trial and reports each", "[optimize]") {
  const std::string robust =
      std::string(kObjective) + "trial\ntrial perturb: 3 seed: 9\ntrial dt: 0.0002\n";
  const OptimizationProblem problem = problemOf(kScript, robust);
  const fs::path dir = freshDir("trials");
  const OptimizeResult result = Optimizer(problem, settingsFor(dir, 2, 2)).run();
  REQUIRE(result.after);
  REQUIRE(result.after->trialValues.size() == 3);
  const double mean =
      (result.after->trialValues[0] + result.after->trialValues[1] + result.after->trialValues[2]) /
      3;
  CHECK(result.best.fitness == Approx(mean).epsilon(1e-12));
  // The trials differ, so the combined J is not the nominal one.
  CHECK(result.after->trialValues[1] != result.after->trialValues[0]);
  const std::string report = readText(dir / "report.txt");
  CHECK(report.find("J of each trial") != std::string::npos);
  CHECK(report.find("the first trial's") != std::string::npos);
}

TEST_CASE("a run does not depend on the thread count", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path one = freshDir("threads1"), two = freshDir("threads2");
  const OptimizeResult a = Optimizer(problem, settingsFor(one, 3, 1)).run();
  const OptimizeResult b = Optimizer(problem, settingsFor(two, 3, 2)).run();
  CHECK(a.best.x == b.best.x);
  CHECK(a.best.fitness == b.best.fitness);
  CHECK(logWithoutWallTime(one) == logWithoutWallTime(two));
  CHECK(readText(one / "best.scl") == readText(two / "best.scl"));
}

TEST_CASE("a resumed run ends exactly where an uninterrupted one does", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path whole = freshDir("whole"), split = freshDir("split");
  Optimizer uninterrupted(problem, settingsFor(whole, 4, 2));
  const OptimizeResult a = uninterrupted.run();

  {
    Optimizer first(problem, settingsFor(split, 2, 2));
    REQUIRE(first.run().log.size() == 2);
  }
  OptimizeSettings resume = settingsFor(split, 4, 1);
  resume.resume = true;
  resume.seed = 99;  // ignored: the checkpoint's state wins
  resume.populationSize = 9;
  Optimizer second(problem, resume);
  CHECK(second.log().size() == 2);
  const OptimizeResult b = second.run();
  REQUIRE(b.log.size() == 4);
  CHECK(a.best.x == b.best.x);
  CHECK(a.best.fitness == b.best.fitness);
  CHECK(uninterrupted.cmaes().serialize().dump() == second.cmaes().serialize().dump());
  CHECK(checkpointWithoutWallTime(whole) == checkpointWithoutWallTime(split));
  CHECK(logWithoutWallTime(whole) == logWithoutWallTime(split));
  CHECK(readText(whole / "best.scl") == readText(split / "best.scl"));
  CHECK(b.log[3].wallTime >= b.log[1].wallTime);  // wall time accumulates over invocations

  // The outputs are written from text formatted once per generation (and, on resume, once
  // per record read back): they are what formatting the whole log again gives.
  for (const auto& [dir, log] : {std::pair(whole, a.log), std::pair(split, b.log)}) {
    const std::string text = readText(dir / "checkpoint.json");
    CHECK(nlohmann::ordered_json::parse(text).dump() + '\n' == text);
    CHECK(readText(dir / "log.csv") == scl::logCsv(problem, log));
  }
}

TEST_CASE("checkpoints are guarded", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path dir = freshDir("guard");
  Optimizer(problem, settingsFor(dir, 1, 1)).run();
  const auto exitCodeOf = [](auto&& construct) {
    try {
      construct();
    } catch (const OptimizeError& error) {
      return error.exitCode();
    }
    return 0;
  };
  // A second fresh run must not overwrite the first.
  CHECK(exitCodeOf([&] { Optimizer(problem, settingsFor(dir, 2, 1)); }) == 2);
  // Resuming with another objective is refused.
  const OptimizationProblem other = problemOf(kScript, "term 1 energy\n");
  OptimizeSettings resume = settingsFor(dir, 2, 1);
  resume.resume = true;
  CHECK(exitCodeOf([&] { Optimizer(other, resume); }) == 2);
  // Nothing to resume.
  OptimizeSettings missing = settingsFor(freshDir("missing"), 2, 1);
  missing.resume = true;
  CHECK(exitCodeOf([&] { Optimizer(problem, missing); }) == 2);
  // An output directory that cannot be created (its parent is a file) is a usage error, as
  // an unwritable --out of scl run is.
  const fs::path file = freshDir("blocker");
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "not a directory";
  CHECK(exitCodeOf([&] { Optimizer(problem, settingsFor(file / "out", 1, 1)); }) == 2);
}

TEST_CASE("malformed and old checkpoints give clear errors", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path dir = freshDir("malformed");
  Optimizer(problem, settingsFor(dir, 1, 1)).run();
  const std::string good = readText(dir / "checkpoint.json");
  OptimizeSettings resume = settingsFor(dir, 2, 1);
  resume.resume = true;
  const auto errorWith = [&](const std::string& checkpoint) -> std::pair<int, std::string> {
    std::ofstream(dir / "checkpoint.json", std::ios::binary) << checkpoint;
    try {
      Optimizer optimizer(problem, resume);
    } catch (const OptimizeError& error) {
      return {error.exitCode(), error.what()};
    }
    return {0, ""};
  };
  using Error = std::pair<int, std::string>;
  const std::string path = (dir / "checkpoint.json").string();
  CHECK(errorWith(good.substr(0, good.size() / 2)) ==
        Error{3, "truncated checkpoint '" + path + "'"});
  CHECK(errorWith("{\"format\": x}") ==
        Error{3, "malformed checkpoint '" + path + "': not JSON (byte 12)"});
  CHECK(errorWith("{\"format\": \"something else\"}") ==
        Error{3, "'" + path + "' is no scl optimize checkpoint"});
  nlohmann::ordered_json edited = nlohmann::ordered_json::parse(good);
  edited["log"][0].erase("sigma");
  CHECK(errorWith(edited.dump()) ==
        Error{3, "malformed checkpoint '" + path + "': missing 'log[0].sigma'"});
  edited = nlohmann::ordered_json::parse(good);
  edited["cmaes"]["best"]["fitness"] = "huge";
  CHECK(errorWith(edited.dump()) ==
        Error{3, "malformed checkpoint '" + path +
                     "': Cmaes checkpoint: 'best.fitness': expected a number (or \"inf\", "
                     "\"-inf\", \"nan\")"});
  // Edits that resumed with exit 0 (the history lost from log.csv, a run 1e9 wide).
  const auto edit = [&](const auto& change) {
    nlohmann::ordered_json json = nlohmann::ordered_json::parse(good);
    change(json);
    return errorWith(json.dump());
  };
  using Json = nlohmann::ordered_json;
  const std::string malformed = "malformed checkpoint '" + path + "': ";
  CHECK(edit([](Json& c) { c["log"] = Json::array(); }) ==
        Error{3, malformed + "'log' holds 0 generations, 'cmaes.counters.generation' says 1"});
  CHECK(edit([](Json& c) { c["cmaes"]["counters"]["generation"] = 0; }) ==
        Error{3, malformed + "'log' holds 1 generations, 'cmaes.counters.generation' says 0"});
  CHECK(edit([](Json& c) {
          c["log"].push_back(c["log"][0]);
          c["cmaes"]["counters"]["generation"] = 2;
        }) == Error{3, malformed + "'log[1].generation' is 1, not 2"});
  CHECK(edit([](Json& c) { c["wall_time"] = "nan"; }) ==
        Error{3, malformed + "'wall_time' must be a non-negative finite number, not nan"});
  CHECK(edit([](Json& c) { c["version"] = "2"; }) ==
        Error{3, malformed + "'version' must be an integer (this scl reads version 2)"});
  CHECK(edit([](Json& c) { c["cmaes"]["distribution"]["sigma"] = "inf"; }) ==
        Error{3, malformed +
                     "Cmaes checkpoint: 'distribution.sigma' must be a positive finite number, "
                     "not inf"});
  CHECK(edit([](Json& c) { c["cmaes"]["definition"]["population_size"] = 1000000000; }) ==
        Error{3, malformed + "Cmaes checkpoint: 'definition.population_size' must be an integer "
                             "from 0 to 100000"});
  // A number of a million digits: refused, not echoed.
  std::string huge = good;
  huge.replace(huge.find("\"wall_time\":") + 12, 1, std::string(1 << 20, '9') + ",\"x\":0");
  CHECK(errorWith(huge) == Error{3, malformed + "a number beyond the range of a double"});
  CHECK(errorWith(good).first == 0);

  // A run of an older scl: checkpoint.txt is not ignored, with --resume or without.
  const fs::path old = freshDir("old");
  fs::create_directories(old);
  std::ofstream(old / "checkpoint.txt") << "scl-optimize-checkpoint 1\n";
  OptimizeSettings resumeOld = settingsFor(old, 2, 1);
  resumeOld.resume = true;
  try {
    Optimizer optimizer(problem, resumeOld);
    FAIL("an old checkpoint.txt was ignored");
  } catch (const OptimizeError& error) {
    CHECK(error.exitCode() == 2);
    CHECK(std::string(error.what()) ==
          "'" + old.string() +
              "': this run was checkpointed by an older scl (checkpoint.txt); start a new run with "
              "another --out");
  }
  try {
    Optimizer optimizer(problem, settingsFor(old, 2, 1));
    FAIL("a run over an old checkpoint.txt was started");
  } catch (const OptimizeError& error) {
    CHECK(error.exitCode() == 2);
    CHECK(std::string(error.what()).find("older scl (checkpoint.txt)") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(old / "checkpoint.json"));
}

TEST_CASE("infeasible candidates are counted and never crash the run", "[optimize]") {
  // J overflows for every candidate: each is infeasible (NaN for CMA-ES).
  const OptimizationProblem problem = problemOf(kScript, "term 1e308 energy\nterm 1e308 energy\n");
  const fs::path dir = freshDir("infeasible");
  std::string failure;
  OptimizeCallbacks callbacks;
  callbacks.generation = [&](const GenerationRecord&, double, double, const std::string& first) {
    failure = first;
  };
  const OptimizeResult result = Optimizer(problem, settingsFor(dir, 2, 2)).run(callbacks);
  REQUIRE(result.log.size() == 2);
  CHECK(result.log[0].infeasible == 5);
  CHECK(result.log[1].infeasible == 5);
  CHECK(std::isinf(result.log[1].best));
  CHECK(std::isnan(result.log[1].mean));
  CHECK(failure == "the objective is not a finite number");
  CHECK_FALSE(result.before);
  CHECK_FALSE(fs::exists(dir / "best.scl"));
  CHECK(fs::exists(dir / "checkpoint.json"));

  // +inf best and NaN means survive the checkpoint: resumed, the log reads back the same.
  OptimizeSettings resume = settingsFor(dir, 3, 2);
  resume.resume = true;
  Optimizer resumed(problem, resume);
  REQUIRE(resumed.log().size() == 2);
  CHECK(std::isinf(resumed.log()[1].best));
  CHECK(std::isnan(resumed.log()[1].mean));
  CHECK(std::isnan(resumed.log()[1].generationBest));
  CHECK(resumed.cmaes().best().fitness == std::numeric_limits<double>::infinity());
  const nlohmann::ordered_json record = readCheckpoint(dir).at("log").at(1);
  CHECK(record.at("best") == "inf");
  CHECK(record.at("mean") == "nan");
}

TEST_CASE("best.scl is never worse than the script it came from", "[optimize]") {
  // The script's waist target 0 keeps the waist straight: J (the mean squared waist angle)
  // is close to its minimum there, and with a large step every candidate of the first two
  // generations is far worse (checked below, so the test keeps its point).
  const std::string script = "scene pose: supine duration: 0.2\n{\n  (hold)\n  [waist @0]\n}\n";
  const OptimizationProblem problem = problemOf(script, "term 1 mean sq waist.angle\n");
  const fs::path dir = freshDir("never_worse");
  const RemovedAtEnd cleanup{{dir}};
  OptimizeSettings settings = settingsFor(dir, 2, 2);
  settings.populationSize = 6;
  settings.sigma = 10;
  settings.seed = 1;
  const double scriptJ = evaluateParameters(problem, problem.initial).value;
  REQUIRE(std::isfinite(scriptJ));

  std::vector<std::string> events;
  std::optional<ObjectiveEvaluation> started;
  OptimizeCallbacks callbacks;
  callbacks.start = [&](const ObjectiveEvaluation& initial) {
    events.push_back("start");
    started = initial;
  };
  callbacks.generation = [&](const GenerationRecord& record, double, double, const std::string&) {
    events.push_back("generation " + std::to_string(record.generation));
    CHECK(record.generationBest > scriptJ);  // every candidate worse than the script
    CHECK(record.best == scriptJ);           // ... so the best so far is the script
  };
  const OptimizeResult result = Optimizer(problem, settings).run(callbacks);
  CHECK(events == std::vector<std::string>{"start", "generation 1", "generation 2"});
  REQUIRE(started);
  CHECK(started->feasible);
  CHECK(started->value == scriptJ);
  REQUIRE(started->summary);  // evaluated with the motion figures, as the report shows them

  CHECK(result.best.fitness == scriptJ);
  CHECK(result.best.x == problem.initial);
  REQUIRE(result.before);
  REQUIRE(result.after);
  CHECK(result.after->value <= result.before->value);
  // best.scl, compiled and evaluated, is the script's J (its @ values are the script's).
  const std::string best = readText(dir / "best.scl");
  CHECK(best == script);
  const OptimizationProblem bestProblem = problemOf(best, "term 1 mean sq waist.angle\n");
  CHECK(evaluateParameters(bestProblem, bestProblem.initial).value <= scriptJ);
  CHECK(readCheckpoint(dir).at("log").at(1).at("best").get<double>() == scriptJ);
}

TEST_CASE("an interrupted run stops at a generation boundary and resumes exactly", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path whole = freshDir("interrupt_whole"), split = freshDir("interrupt_split");
  const RemovedAtEnd cleanup{{whole, split}};
  Optimizer uninterrupted(problem, settingsFor(whole, 4, 2));
  const OptimizeResult a = uninterrupted.run();
  REQUIRE(a.log.size() == 4);
  CHECK_FALSE(a.interrupted);

  std::atomic<bool> interrupt{false};
  std::atomic<int> generations{0};
  OptimizeCallbacks callbacks;
  SECTION("the flag is set after generation 2") {
    callbacks.generation = [&](const GenerationRecord& record, double, double, const std::string&) {
      ++generations;
      if (record.generation == 2) interrupt = true;
    };
  }
  SECTION("the flag is set during generation 3: that generation is abandoned") {
    callbacks.generation = [&](const GenerationRecord&, double, double, const std::string&) {
      ++generations;
    };
    callbacks.evaluated = [&](int, int) {
      if (generations == 2) interrupt = true;
    };
  }
  OptimizeSettings first = settingsFor(split, 4, 2);
  first.interrupt = &interrupt;
  const OptimizeResult stopped = Optimizer(problem, first).run(callbacks);
  CHECK(stopped.interrupted);
  CHECK(stopped.stopReason == "interrupted");
  CHECK(generations == 2);
  REQUIRE(stopped.log.size() == 2);
  CHECK(readCheckpoint(split).at("log").size() == 2);
  CHECK(readCheckpoint(split).at("log").at(1).at("generation") == 2);
  CHECK(fs::exists(split / "report.txt"));  // the report of the best so far

  OptimizeSettings resume = settingsFor(split, 4, 1);
  resume.resume = true;
  Optimizer second(problem, resume);
  CHECK(second.log().size() == 2);
  const OptimizeResult b = second.run();
  REQUIRE(b.log.size() == 4);
  CHECK_FALSE(b.interrupted);
  CHECK(a.best.x == b.best.x);
  CHECK(a.best.fitness == b.best.fitness);
  CHECK(uninterrupted.cmaes().serialize().dump() == second.cmaes().serialize().dump());
  CHECK(checkpointWithoutWallTime(whole) == checkpointWithoutWallTime(split));
  CHECK(logWithoutWallTime(whole) == logWithoutWallTime(split));
  CHECK(readText(whole / "best.scl") == readText(split / "best.scl"));
}

TEST_CASE("an interrupt before the first generation runs none", "[optimize]") {
  const OptimizationProblem problem = problemOf(kScript, kObjective);
  const fs::path dir = freshDir("interrupt_at_once");
  const RemovedAtEnd cleanup{{dir}};
  std::atomic<bool> interrupt{true};
  OptimizeSettings settings = settingsFor(dir, 2, 1);
  settings.interrupt = &interrupt;
  int generations = 0;
  OptimizeCallbacks callbacks;
  callbacks.generation = [&](const GenerationRecord&, double, double, const std::string&) {
    ++generations;
  };
  const OptimizeResult result = Optimizer(problem, settings).run(callbacks);
  CHECK(result.interrupted);
  CHECK(result.stopReason == "interrupted");
  CHECK(generations == 0);
  CHECK(result.log.empty());
}
