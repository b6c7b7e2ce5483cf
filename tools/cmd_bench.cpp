// `scl bench`: the project's performance figures in one table.
//
// - bare physics: the lying character with zero torques at 0.25 ms (bench/bench_physics.cpp);
// - controller cost: the kip-up driven by Runner::step, against Simulation::step replaying
//   the very torques the runner applied, from the same scene. Replayed torques give a
//   bit-identical trajectory (checked), so the physics work is the same and the ratio is
//   the controller's overhead; Controller::step is also timed alone, step by step, since
//   the difference of two noisy totals can be smaller than the noise;
// - a 5 s kip-up run, construction (settling) included: wall time and real-time factor;
// - `scl check` (compile and render the diagnostics) of a generated 1 MB script;
// - the world's physics: a quiet stance among 10 resting boxes and a 10-link hanging chain
//   (out of the character's way), against the same stance in an empty world, both replaying
//   the torques of the empty world's run: the difference per object part is the cost of a
//   resting object.
// Each timing is the best of a few repetitions, since other processes add noise.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cxxopts.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/controller.h"
#include "runtime/run_session.h"
#include "runtime/runner.h"
#include "scl/compile.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/generated_script.h"

namespace scl {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct BenchDef {
  /// Simulated seconds of the bare-physics and controller measurements.
  double physicsSeconds = 10.0;
  double kipupSeconds = 5.0;
  /// Repetitions of each timing; the best is reported.
  int repetitions = 3;
  /// Size of the generated script, bytes.
  size_t scriptBytes = 1 << 20;
};

struct WorldFigures {
  /// Simulation::step in the empty world and among the objects, microseconds.
  double emptyMicroseconds = 0.0;
  double worldMicroseconds = 0.0;
  /// Movable bodies (a chain's links each).
  int objects = 0;
  double microsecondsPerObject = 0.0;
  /// The character's motion is the same in both (its state hash, the objects' aside).
  bool characterIdentical = false;
};

struct PhysicsFigures {
  double simulatedPerWall = 0.0;
  double microsecondsPerStep = 0.0;
};

struct ControllerFigures {
  double runnerMicroseconds = 0.0;
  double physicsMicroseconds = 0.0;
  /// Controller::step alone (timed per step), µs.
  double controllerMicroseconds = 0.0;
  /// Runner::step time over Simulation::step time.
  double ratio = 0.0;
  /// The replay reproduced the runner's final state bit for bit.
  bool identical = false;
};

struct RunFigures {
  double simulated = 0.0;
  double wall = 0.0;
  double setupWall = 0.0;
  double realTimeFactor = 0.0;
};

struct CheckFigures {
  size_t bytes = 0;
  int phases = 0;
  double wall = 0.0;
  double megabytesPerSecond = 0.0;
  size_t diagnostics = 0;
};

PhysicsFigures benchPhysics(const BenchDef& bench) {
  SimulationDef def;
  def.scene.pose = "supine";
  const long steps = std::lround(bench.physicsSeconds / def.timeStep);
  double best = 1e300;
  for (int r = 0; r < bench.repetitions; ++r) {
    Simulation simulation(def);
    auto start = Clock::now();
    for (long i = 0; i < steps; ++i) simulation.step();
    best = std::min(best, secondsSince(start));
  }
  return {static_cast<double>(steps) * def.timeStep / best,
          best / static_cast<double>(steps) * 1e6};
}

// A shipped script, e.g. "scripts/kipup.scl": searched from the working directory and
// upward from the executable (a build directory inside the source tree).
std::optional<std::filesystem::path> findScript(const std::string& relative) {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots = {fs::current_path()};
  std::error_code error;
  fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (!error)
    for (fs::path dir = executable.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path())
      roots.push_back(dir);
  for (const fs::path& root : roots)
    if (fs::is_regular_file(root / relative, error)) return root / relative;
  return std::nullopt;
}

// Runner::step against Simulation::step replaying the runner's torques, over `seconds`
// simulated after `untimed` seconds (a script's preamble: the feature stance's settling).
ControllerFigures benchController(const Program& program, double seconds, int repetitions,
                                  const ControllerOptions& options = {}, double untimed = 0.0) {
  const SimulationDef def = simulationDefFor(program);
  const long skipped = std::lround(untimed / def.timeStep);
  const long steps = skipped + std::lround(seconds / def.timeStep);
  ControllerFigures figures;
  double bestRunner = 1e300, bestPhysics = 1e300, bestController = 1e300;
  for (int r = 0; r < repetitions; ++r) {
    std::vector<std::array<double, kMaxJoints>> torques(static_cast<size_t>(steps));
    Runner runner(program, def, DivergenceLimits{}, options);
    auto start = Clock::now();
    for (long i = 0; i < steps; ++i) {
      if (i == skipped) start = Clock::now();
      torques[static_cast<size_t>(i)] = runner.step().torques;
    }
    bestRunner = std::min(bestRunner, secondsSince(start));

    Simulation simulation(def);
    start = Clock::now();
    for (long i = 0; i < steps; ++i) {
      if (i == skipped) start = Clock::now();
      simulation.setJointTorques(torques[static_cast<size_t>(i)]);
      simulation.step();
    }
    bestPhysics = std::min(bestPhysics, secondsSince(start));
    figures.identical = simulation.stateHash() == runner.simulation().stateHash();

    // The controller alone, timed step by step inside the same loop the runner runs.
    Simulation driven(def);
    Controller controller(program, driven.initialJointAngles(), options);
    double controllerTime = 0.0;
    for (long i = 0; i < steps; ++i) {
      auto stepStart = Clock::now();
      const ControlOutput& output = controller.step(driven.state(), driven.timeStep());
      if (i >= skipped) controllerTime += secondsSince(stepStart);
      driven.setJointTorques(output.torques);
      driven.step();
    }
    bestController = std::min(bestController, controllerTime);
  }
  double n = static_cast<double>(steps - skipped);
  figures.runnerMicroseconds = bestRunner / n * 1e6;
  figures.physicsMicroseconds = bestPhysics / n * 1e6;
  figures.controllerMicroseconds = bestController / n * 1e6;
  figures.ratio = bestRunner / bestPhysics;
  return figures;
}

// The feature QP's cost: scripts/feature-stance.scl after its 2.5 s stance-balance preamble
// (from 3 s: the QP phases), solving every step (4 kHz) and at 1 kHz with torques held.
struct FeatureFigures {
  ControllerFigures everyStep, oneKilohertz;
};

FeatureFigures benchFeatures(const Program& program, const BenchDef& bench) {
  constexpr double kPreamble = 3.0;
  ControllerOptions slower;
  slower.featureRate = 1000.0;
  return {benchController(program, bench.kipupSeconds, bench.repetitions, {}, kPreamble),
          benchController(program, bench.kipupSeconds, bench.repetitions, slower, kPreamble)};
}

RunFigures benchRun(const Program& program, const BenchDef& bench) {
  RunFigures best;
  best.wall = 1e300;
  for (int r = 0; r < bench.repetitions; ++r) {
    // The run `scl run` makes: the same session, its metrics included.
    RunSessionDef def;
    def.simulation = simulationDefFor(program);
    def.length.duration = bench.kipupSeconds;
    auto start = Clock::now();
    RunSession session(program, def);
    double setup = secondsSince(start);
    session.run();
    double wall = secondsSince(start);
    const double simulated = session.runner().time();
    if (wall < best.wall) best = {simulated, wall, setup, simulated / wall};
  }
  return best;
}

// A quiet stance, the script of scripts/stand.scl, with `world` as its world statements.
Program stanceAmong(const std::string& world) {
  const std::string source = "scene pose: standing env: flat\n" + world +
                             "{\n  [necks 0, waist 0, hips 0, knees 0 time: 0.5]\n"
                             "  [relax ankles strength 0.1]\n"
                             "  [vf sb(600, 300) on: trunk, by: leftAnkle]\n  [symm]\n  [gc]\n}\n";
  CompileResult compiled = compile(source, "world-bench.scl");
  if (!compiled.ok())
    throw std::logic_error("the world benchmark's script does not compile:\n" +
                           renderDiagnostics(compiled.diagnostics, source));
  return std::move(*compiled.program);
}

WorldFigures benchWorld(const BenchDef& bench) {
  std::string world;
  for (int i = 0; i < 10; ++i)  // resting side by side behind the character
    world += "box crate" + std::to_string(i) + " at: (" + std::to_string(-2.0 - 0.5 * i) +
             ", 0.15) size: (0.3, 0.3) mass: 10\n";
  world += "chain rope at: (3, 2.5) count: 10 size: (0.15, 0.04) mass: 0.2 angle: -90 fixed: yes\n";
  const Program empty = stanceAmong(""), busy = stanceAmong(world);
  const SimulationDef emptyDef = simulationDefFor(empty), busyDef = simulationDefFor(busy);
  const long steps = std::lround(bench.physicsSeconds / emptyDef.timeStep);
  // The empty world's torques, replayed in both.
  std::vector<std::array<double, kMaxJoints>> torques(static_cast<size_t>(steps));
  {
    Runner runner(empty, emptyDef);
    for (long i = 0; i < steps; ++i) torques[static_cast<size_t>(i)] = runner.step().torques;
  }
  WorldFigures figures;
  double bestEmpty = 1e300, bestBusy = 1e300;
  for (int r = 0; r < bench.repetitions; ++r) {
    for (const auto& [def, best] :
         {std::pair{&emptyDef, &bestEmpty}, std::pair{&busyDef, &bestBusy}}) {
      Simulation simulation(*def);
      figures.objects = static_cast<int>(simulation.worldBodies().size());
      const auto start = Clock::now();
      for (long i = 0; i < steps; ++i) {
        simulation.setJointTorques(torques[static_cast<size_t>(i)]);
        simulation.step();
      }
      *best = std::min(*best, secondsSince(start));
    }
  }
  {
    Simulation a(emptyDef), b(busyDef);
    for (long i = 0; i < steps; ++i) {
      a.setJointTorques(torques[static_cast<size_t>(i)]);
      b.setJointTorques(torques[static_cast<size_t>(i)]);
      a.step();
      b.step();
    }
    figures.characterIdentical = true;
    for (int link = 0; link < a.character().linkCount(); ++link)
      figures.characterIdentical =
          figures.characterIdentical && a.state().links[link].com == b.state().links[link].com;
  }
  const double n = static_cast<double>(steps);
  figures.emptyMicroseconds = bestEmpty / n * 1e6;
  figures.worldMicroseconds = bestBusy / n * 1e6;
  figures.microsecondsPerObject =
      (figures.worldMicroseconds - figures.emptyMicroseconds) / std::max(figures.objects, 1);
  return figures;
}

CheckFigures benchCheck(const BenchDef& bench) {
  CheckFigures figures;
  std::string script = generateScript(bench.scriptBytes, figures.phases);
  figures.bytes = script.size();
  figures.wall = 1e300;
  for (int r = 0; r < bench.repetitions; ++r) {
    auto start = Clock::now();
    CompileResult result = compile(script, "generated.scl");
    std::string rendered = renderDiagnostics(result.diagnostics, script);
    figures.wall = std::min(figures.wall, secondsSince(start));
    figures.diagnostics = result.diagnostics.size();
  }
  figures.megabytesPerSecond = static_cast<double>(figures.bytes) / 1e6 / figures.wall;
  return figures;
}

void printTable(const BenchDef& bench, const std::string& kipupPath, const PhysicsFigures& physics,
                const ControllerFigures& controller, const std::optional<FeatureFigures>& features,
                const RunFigures& run, const CheckFigures& check, const WorldFigures& world) {
  auto row = [](const std::string& name, const std::string& value) {
    std::printf("%-40s %s\n", name.c_str(), value.c_str());
  };
  char text[256];
  std::printf("%-40s %s\n", "benchmark", "result");
  std::printf("%-40s %s\n", "---------", "------");
  std::snprintf(text, sizeof text, "%.1f simulated s per wall s, %.2f us per step",
                physics.simulatedPerWall, physics.microsecondsPerStep);
  row("bare physics (supine, dt 0.25 ms)", text);
  std::snprintf(
      text, sizeof text,
      "Runner::step %.2f us / Simulation::step %.2f us = %.2f; Controller::step alone %.2f us%s",
      controller.runnerMicroseconds, controller.physicsMicroseconds, controller.ratio,
      controller.controllerMicroseconds, controller.identical ? "" : " [replay differed]");
  row("controller cost (kip-up)", text);
  if (features) {
    for (const auto& [name, figures] :
         {std::pair{"feature QP cost (feature stance, 4 kHz)", &features->everyStep},
          std::pair{"feature QP cost (feature stance, 1 kHz)", &features->oneKilohertz}}) {
      std::snprintf(text, sizeof text,
                    "Runner::step %.2f us / Simulation::step %.2f us = %.2f; Controller::step "
                    "alone %.2f us%s",
                    figures->runnerMicroseconds, figures->physicsMicroseconds, figures->ratio,
                    figures->controllerMicroseconds,
                    figures->identical ? "" : " [replay differed]");
      row(name, text);
    }
  } else {
    row("feature QP cost", "skipped: scripts/feature-stance.scl not found");
  }
  std::snprintf(text, sizeof text, "%.3f s wall (setup %.3f s), %.2fx real time", run.wall,
                run.setupWall, run.realTimeFactor);
  row("kip-up run, " + std::to_string(static_cast<int>(std::lround(run.simulated))) + " s", text);
  std::snprintf(text, sizeof text, "%.3f s (%.1f MB/s), %d phases, %zu diagnostics", check.wall,
                check.megabytesPerSecond, check.phases, check.diagnostics);
  char name[64];
  std::snprintf(name, sizeof name, "scl check, generated %.2f MB script",
                static_cast<double>(check.bytes) / 1e6);
  row(name, text);
  std::snprintf(text, sizeof text,
                "Simulation::step %.2f us empty, %.2f us among %d resting object parts: %.3f us "
                "per part%s",
                world.emptyMicroseconds, world.worldMicroseconds, world.objects,
                world.microsecondsPerObject,
                world.characterIdentical ? "" : " [the character's motion differed]");
  row("world physics (stance, 10 boxes, chain)", text);
  std::printf("\nkip-up script: %s; best of %d repetitions\n", kipupPath.c_str(),
              bench.repetitions);
}

// A figure as JSON; JSON has no infinities or NaN (a timing of zero duration would give
// inf), so those are null.
nlohmann::ordered_json figure(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json controllerJson(const ControllerFigures& controller) {
  return {{"runner_us_per_step", figure(controller.runnerMicroseconds)},
          {"physics_us_per_step", figure(controller.physicsMicroseconds)},
          {"controller_us_per_step", figure(controller.controllerMicroseconds)},
          {"ratio", figure(controller.ratio)},
          {"replay_identical", controller.identical}};
}

void printJson(const BenchDef& bench, const std::string& kipupPath, const PhysicsFigures& physics,
               const ControllerFigures& controller, const std::optional<FeatureFigures>& features,
               const RunFigures& run, const CheckFigures& check, const WorldFigures& world) {
  const nlohmann::ordered_json json = {
      {"repetitions", bench.repetitions},
      {"kipup_script", kipupPath},
      {"physics",
       {{"simulated_per_wall", figure(physics.simulatedPerWall)},
        {"us_per_step", figure(physics.microsecondsPerStep)}}},
      {"controller", controllerJson(controller)},
      {"feature_controller",
       features ? nlohmann::ordered_json{{"every_step", controllerJson(features->everyStep)},
                                         {"one_khz", controllerJson(features->oneKilohertz)}}
                : nlohmann::ordered_json(nullptr)},
      {"kipup_run",
       {{"simulated", figure(run.simulated)},
        {"wall_time", figure(run.wall)},
        {"setup_wall_time", figure(run.setupWall)},
        {"real_time_factor", figure(run.realTimeFactor)}}},
      {"world",
       {{"empty_us_per_step", figure(world.emptyMicroseconds)},
        {"world_us_per_step", figure(world.worldMicroseconds)},
        {"object_parts", world.objects},
        {"us_per_object_part", figure(world.microsecondsPerObject)},
        {"character_identical", world.characterIdentical}}},
      {"check",
       {{"bytes", check.bytes},
        {"phases", check.phases},
        {"wall_time", figure(check.wall)},
        {"mb_per_s", figure(check.megabytesPerSecond)},
        {"diagnostics", check.diagnostics}}},
  };
  // A path is bytes, not necessarily UTF-8: replace what is not, rather than throw.
  const std::string text =
      json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::printf("%s\n", text.c_str());
}

}  // namespace

int sclBenchMain(int argc, char** argv) {
  cxxopts::Options options(
      "scl bench",
      "Measure the simulation, the controller and the checker; print one table.\n"
      "Exit codes: 0 ok, 1 the kip-up script has errors, 2 usage error, 3 simulation failure.");
  options.add_options()("quick", "a short version (about a tenth of the work, one repetition)")(
      "json", "print the figures as one JSON object")(
      "script", "kip-up script to time, from its scene header (default: scripts/kipup.scl)",
      cxxopts::value<std::string>(), "FILE")("h,help", "show this help");
  BenchDef bench;
  bool json = false;
  std::optional<std::string> script;
  auto read = [&](const cxxopts::ParseResult& parsed) {
    if (parsed.count("quick")) bench = BenchDef{1.0, 1.0, 1, 1 << 20};
    json = parsed.count("json") > 0;
    if (parsed.count("script")) script = parsed["script"].as<std::string>();
  };
  if (!parseCommandLine(options, argc, argv, {}, read)) return kExitOk;

  std::optional<std::filesystem::path> kipupPath =
      script ? std::optional<std::filesystem::path>(*script) : findScript("scripts/kipup.scl");
  if (!kipupPath)
    throw UsageError(
        "cannot find scripts/kipup.scl here or above the program: give one with "
        "--script FILE");
  const std::optional<std::string> source = readInputFile(kipupPath->string(), "script");
  CompileResult compiled = compile(*source, kipupPath->string());
  if (!compiled.ok()) {
    std::fputs(renderDiagnostics(compiled.diagnostics, *source).c_str(), stderr);
    return 1;
  }
  try {
    PhysicsFigures physics = benchPhysics(bench);
    ControllerFigures controller =
        benchController(*compiled.program, bench.kipupSeconds, bench.repetitions);
    std::optional<FeatureFigures> features;
    if (const auto featurePath = findScript("scripts/feature-stance.scl")) {
      const std::optional<std::string> featureSource =
          readInputFile(featurePath->string(), "script");
      CompileResult featureProgram = compile(*featureSource, featurePath->string());
      if (featureProgram.ok()) features = benchFeatures(*featureProgram.program, bench);
    }
    RunFigures run = benchRun(*compiled.program, bench);
    CheckFigures check = benchCheck(bench);
    WorldFigures world = benchWorld(bench);
    if (json)
      printJson(bench, kipupPath->string(), physics, controller, features, run, check, world);
    else
      printTable(bench, kipupPath->string(), physics, controller, features, run, check, world);
  } catch (const SimulationDiverged& error) {
    std::fprintf(stderr, "scl bench: %s\n", error.what());
    return 3;
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "scl bench: %s: %s\n", kipupPath->c_str(), error.what());
    return 1;
  }
  return 0;
}

}  // namespace scl
