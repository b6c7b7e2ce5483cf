// The feature controller's cost per step on replayed states: scripts/feature-stance.scl
// runs once (controller and physics), recording the states the controller saw; then the
// controller alone replays them, best of several rounds, and the physics alone replays
// the recorded torques. Replaying takes the physics' noise out of the controller's figure,
// which `scl bench` times inside the running loop (docs/features.md, Cost).
//
//   bench_feature [--rounds N] [--rate HZ] [SCRIPT]
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/controller.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/compile.h"

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The QP phases of the feature stance start at 2.5 s; timing from 3 s to 8 s (as scl bench).
constexpr double kUntimed = 3.0;
constexpr double kTimed = 5.0;

int run(int argc, char** argv) {
  int rounds = 7;
  double rate = 0.0;
  std::string path = std::string(SCL_SOURCE_DIR) + "/scripts/feature-stance.scl";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--rate") == 0 && i + 1 < argc)
      rate = std::atof(argv[++i]);
    else
      path = argv[i];
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  scl::CompileResult compiled = scl::compile(text.str(), path);
  if (!in || !compiled.ok()) {
    std::fprintf(stderr, "bench_feature: cannot compile %s\n", path.c_str());
    return 1;
  }
  const scl::Program& program = *compiled.program;
  const scl::SimulationDef def = scl::simulationDefFor(program);
  scl::ControllerOptions options;
  options.featureRate = rate;
  const long skipped = std::lround(kUntimed / def.timeStep);
  const long steps = skipped + std::lround(kTimed / def.timeStep);

  // What the controller saw and decided each step: the state, the world's objects, the
  // torques and the grasps (a script that holds or pushes objects replays them too).
  std::vector<scl::CharacterState> states;
  std::vector<std::vector<scl::SceneObjectState>> objects;
  std::vector<std::array<double, scl::kMaxJoints>> torques;
  std::vector<std::vector<scl::GraspRequest>> grasps;
  std::array<double, scl::kMaxJoints> initialAngles{};
  states.reserve(static_cast<size_t>(steps));
  objects.reserve(static_cast<size_t>(steps));
  torques.reserve(static_cast<size_t>(steps));
  grasps.reserve(static_cast<size_t>(steps));
  {
    scl::Simulation simulation(def);
    initialAngles = simulation.initialJointAngles();
    scl::Controller controller(program, initialAngles, options);
    for (long i = 0; i < steps; ++i) {
      states.push_back(simulation.state());
      objects.push_back(simulation.objects());
      const scl::ControlOutput& output =
          controller.step(simulation.state(), def.timeStep, simulation.objects());
      torques.push_back(output.torques);
      grasps.emplace_back(output.grasps.begin(), output.grasps.end());
      simulation.setJointTorques(output.torques);
      simulation.setGrasps(output.grasps);
      simulation.step();
    }
  }

  // Each block of 500 steps keeps its fastest round: the machine's noise comes in bursts
  // shorter than a round, and a block's minimum sheds most of it.
  constexpr long kBlock = 500;
  const size_t blocks = static_cast<size_t>((steps - skipped + kBlock - 1) / kBlock);
  std::vector<double> controllerBlocks(blocks, 1e300), physicsBlocks(blocks, 1e300);
  bool identical = true;
  for (int round = 0; round < rounds; ++round) {
    scl::Controller controller(program, initialAngles, options);
    std::vector<double> elapsed(blocks, 0.0);
    for (long i = 0; i < steps; ++i) {
      const auto start = Clock::now();
      const scl::ControlOutput& output = controller.step(
          states[static_cast<size_t>(i)], def.timeStep, objects[static_cast<size_t>(i)]);
      if (i >= skipped) elapsed[static_cast<size_t>((i - skipped) / kBlock)] += secondsSince(start);
      identical = identical && output.torques == torques[static_cast<size_t>(i)];
    }
    for (size_t b = 0; b < blocks; ++b)
      controllerBlocks[b] = std::min(controllerBlocks[b], elapsed[b]);

    scl::Simulation simulation(def);
    for (long i = 0; i < skipped; ++i) {
      simulation.setJointTorques(torques[static_cast<size_t>(i)]);
      simulation.setGrasps(grasps[static_cast<size_t>(i)]);
      simulation.step();
    }
    for (size_t b = 0; b < blocks; ++b) {
      const auto start = Clock::now();
      const long end = std::min(steps, skipped + static_cast<long>(b + 1) * kBlock);
      for (long i = skipped + static_cast<long>(b) * kBlock; i < end; ++i) {
        simulation.setJointTorques(torques[static_cast<size_t>(i)]);
        simulation.setGrasps(grasps[static_cast<size_t>(i)]);
        simulation.step();
      }
      physicsBlocks[b] = std::min(physicsBlocks[b], secondsSince(start));
    }
  }
  double bestController = 0.0, bestPhysics = 0.0;
  for (size_t b = 0; b < blocks; ++b) {
    bestController += controllerBlocks[b];
    bestPhysics += physicsBlocks[b];
  }
  const double n = static_cast<double>(steps - skipped);
  const double controller = bestController / n * 1e6, physics = bestPhysics / n * 1e6;
  std::printf("%s, %s, %.0f to %.0f s, each 500 steps' best of %d rounds\n", path.c_str(),
              rate > 0.0 ? "QP at the given rate" : "QP every step", kUntimed, kUntimed + kTimed,
              rounds);
  std::printf("  controller step (replayed states)  %7.2f us\n", controller);
  std::printf("  physics step (replayed torques)    %7.2f us\n", physics);
  std::printf("  (controller + physics) / physics   %7.2f\n", (controller + physics) / physics);
  std::printf("  replay matches the run: %s\n", identical ? "yes" : "NO");
  return identical ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_feature: %s\n", error.what());
    return 1;
  }
}
