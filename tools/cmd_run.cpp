// `scl run`: simulate headless and print a summary.
//
// Without a script the character holds its initial pose with the default PD (every
// joint tracking its pose angle with its Table 4.2 gains).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cxxopts.hpp>
#include <stdexcept>

#include "runtime/simulation.h"
#include "tools/commands.h"

namespace scl {

namespace {

std::array<double, kJointCount> defaultPdTorques(const Simulation& simulation) {
  std::array<double, kJointCount> torques{};
  const CharacterState& state = simulation.state();
  for (int j = 0; j < kJointCount; ++j)
    torques[j] = kJoints[j].kp * (simulation.initialJointAngles()[j] - state.jointAngles[j]) -
                 kJoints[j].kd * state.jointVelocities[j];
  return torques;
}

}  // namespace

int sclRunMain(int argc, char** argv) {
  cxxopts::Options options("scl run", "Simulate the character headless and print a summary.");
  options.add_options()
      ("pose", "initial pose: standing, supine, prone, sitting, crouching", cxxopts::value<std::string>()->default_value("standing"))
      ("env", "environment: flat or chair", cxxopts::value<std::string>()->default_value("flat"))
      ("chair-height", "chair seat height, m", cxxopts::value<double>()->default_value("0.45"))
      ("duration", "simulated time, s", cxxopts::value<double>()->default_value("3"))
      ("dt", "time step, s", cxxopts::value<double>()->default_value("0.00025"))
      ("h,help", "show this help");
  SimulationDef def;
  double duration = 0.0;
  try {
    auto parsed = options.parse(argc, argv);
    if (parsed.count("help")) {
      std::printf("%s\n", options.help().c_str());
      return 0;
    }
    if (!parsed.unmatched().empty()) throw cxxopts::exceptions::exception("unexpected argument '" + parsed.unmatched()[0] + "'");
    def.scene.pose = parsed["pose"].as<std::string>();
    def.scene.environment = parsed["env"].as<std::string>();
    def.scene.chairHeight = parsed["chair-height"].as<double>();
    if (def.scene.pose == "sitting" && !parsed.count("env")) def.scene.environment = "chair";
    def.timeStep = parsed["dt"].as<double>();
    duration = parsed["duration"].as<double>();
    if (!(duration > 0.0) || !std::isfinite(duration)) throw std::invalid_argument("duration must be a positive number of seconds");
    validate(def);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "scl run: %s (see 'scl run --help')\n", error.what());
    return 2;
  }

  Simulation simulation(def);
  CharacterState start = simulation.state();
  auto wallStart = std::chrono::steady_clock::now();
  int steps = static_cast<int>(std::lround(duration / def.timeStep));
  for (int i = 0; i < steps; ++i) {
    simulation.setJointTorques(defaultPdTorques(simulation));
    simulation.step();
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  const CharacterState& end = simulation.state();
  double worst = 0.0;
  for (int i = 0; i < kLinkCount; ++i) worst = std::max(worst, (end.links[i].com - start.links[i].com).norm());
  std::printf("scene          %s on %s\n", def.scene.pose.c_str(), def.scene.environment.c_str());
  std::printf("controller     default PD holding the initial pose\n");
  std::printf("simulated      %.3f s in %d steps of %.3f ms\n", simulation.time(), steps, def.timeStep * 1e3);
  std::printf("head height    %.3f m -> %.3f m\n", start.jointPositions[kNeckTop].y(), end.jointPositions[kNeckTop].y());
  std::printf("centre of mass (%.3f, %.3f) m -> (%.3f, %.3f) m\n", start.com.x(), start.com.y(), end.com.x(), end.com.y());
  std::printf("largest link displacement %.3f m\n", worst);
  std::printf("wall time      %.3f s (%.1fx real time)\n", wall, simulation.time() / wall);
  return 0;
}

}  // namespace scl
