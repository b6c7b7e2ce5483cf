// How the step cost grows with the number of links: the human with a tail of K light links
// hanging from its pelvis (16 + K links), running scripts/feature-stance.scl. Each body
// runs once with its controller, recording the states and torques; then the physics alone
// replays the torques and the controller alone replays the states, best of several rounds,
// timed over the feature QP's phases (from 3 s to 6 s). Prints µs per step of each and
// their ratio to the human's (docs/character.md, Measured).
//
//   bench_links [--rounds N] [TAILS...]   (default tails: 0 7 14 24 -> 16, 23, 30, 40 links)
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/controller.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/character_file.h"
#include "scl/compile.h"

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr double kUntimed = 3.0;  // the stance-balance preamble (as scl bench)
constexpr double kTimed = 3.0;

// The human's file with a tail of `links` links (8 cm, 50 g each) from the pelvis's upper
// end, held out behind the body by its standing pose.
std::string humanWithTail(int links) {
  std::string text;
  for (const scl::BuiltinCharacter& builtin : scl::builtinCharacters())
    if (builtin.name == "human") text = std::string(builtin.source);
  if (links == 0) return text;
  std::string tail;
  for (int i = 1; i <= links; ++i) {
    const std::string link = "tail" + std::to_string(i);
    const std::string parent = i == 1 ? "pelvis" : "tail" + std::to_string(i - 1);
    tail += "link ";
    tail += link;
    tail += " length: 0.08 thickness: (0.03, 0.03) mass: 0.05\njoint tailJoint";
    tail += std::to_string(i);
    tail += " parent: ";
    tail += parent;
    tail += " child: ";
    tail += link;
    tail += i == 1 ? " at: 0.05" : "";
    tail += " range: (-170, 170) kp: 20 kd: 2 torque: 50\n";
  }
  const std::string standing = "head: 88 support: ground settles: no ankles: flat 2";
  const size_t at = text.find(standing);
  if (at == std::string::npos) return "";
  text.insert(at + standing.size(), " tailJoint1: -110");
  return text + tail;
}

struct Figures {
  int links = 0;
  double physics = 0.0;     // µs per step
  double controller = 0.0;  // µs per step
  bool standing = false;
};

Figures measure(const std::string& scriptText, const std::string& path, int tail, int rounds) {
  Figures figures;
  const scl::CharacterLoad load = scl::compileCharacter(humanWithTail(tail), "tail.character");
  if (!load.ok()) throw std::runtime_error("the tailed human does not load");
  figures.links = load.character->linkCount();
  scl::CompileOptions options;
  options.character = load.character;
  scl::CompileResult compiled = scl::compile(scriptText, path, options);
  if (!compiled.ok()) throw std::runtime_error("the script does not bind to the tailed human");
  const scl::Program& program = *compiled.program;
  const scl::SimulationDef def = scl::simulationDefFor(program);
  const long skipped = std::lround(kUntimed / def.timeStep);
  const long steps = skipped + std::lround(kTimed / def.timeStep);

  std::vector<scl::CharacterState> states;
  std::vector<std::array<double, scl::kMaxJoints>> torques;
  {
    scl::Simulation simulation(def);
    scl::Controller controller(program, simulation.initialJointAngles());
    for (long i = 0; i < steps; ++i) {
      states.push_back(simulation.state());
      const scl::ControlOutput& output = controller.step(simulation.state(), def.timeStep);
      torques.push_back(output.torques);
      simulation.setJointTorques(output.torques);
      simulation.step();
    }
    // Upright at the end: the head joint at least 90 % as high as at the start.
    const int head = load.character->headJoint();
    figures.standing = simulation.state().jointPositions[static_cast<size_t>(head)].y() >
                       0.9 * states.front().jointPositions[static_cast<size_t>(head)].y();
  }
  double bestPhysics = 1e300, bestController = 1e300;
  for (int round = 0; round < rounds; ++round) {
    scl::Simulation simulation(def);
    double physics = 0.0;
    for (long i = 0; i < steps; ++i) {
      simulation.setJointTorques(torques[static_cast<size_t>(i)]);
      const auto start = Clock::now();
      simulation.step();
      if (i >= skipped) physics += secondsSince(start);
    }
    bestPhysics = std::min(bestPhysics, physics);
    scl::Controller controller(program, states.front().jointAngles);
    double control = 0.0;
    for (long i = 0; i < steps; ++i) {
      const auto start = Clock::now();
      controller.step(states[static_cast<size_t>(i)], def.timeStep);
      if (i >= skipped) control += secondsSince(start);
    }
    bestController = std::min(bestController, control);
  }
  const double n = static_cast<double>(steps - skipped);
  figures.physics = bestPhysics / n * 1e6;
  figures.controller = bestController / n * 1e6;
  return figures;
}

int run(int argc, char** argv) {
  int rounds = 3;
  std::vector<int> tails;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else
      tails.push_back(std::max(0, std::atoi(argv[i])));
  }
  if (tails.empty()) tails = {0, 7, 14, 24};
  const std::string path = std::string(SCL_SOURCE_DIR) + "/scripts/feature-stance.scl";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "bench_links: cannot read %s\n", path.c_str());
    return 1;
  }
  std::printf("feature stance, the human with a tail of K links; best of %d rounds, %g s timed\n\n",
              rounds, kTimed);
  std::printf("%6s %6s %14s %9s %16s %9s %9s\n", "links", "tail", "physics us", "x human",
              "controller us", "x human", "upright");
  Figures human;
  for (int tail : tails) {
    const Figures f = measure(text.str(), path, tail, rounds);
    if (tail == tails.front()) human = f;
    std::printf("%6d %6d %14.2f %9.2f %16.2f %9.2f %9s\n", f.links, tail, f.physics,
                f.physics / human.physics, f.controller, f.controller / human.controller,
                f.standing ? "yes" : "no");
  }
  std::printf("\nlinear growth would give x%.2f at %d links\n",
              static_cast<double>(16 + tails.back()) / 16.0, 16 + tails.back());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_links: %s\n", error.what());
    return 1;
  }
}
