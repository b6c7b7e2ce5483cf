// Controller cost per step beside the physics step, on the kip-up (listing 4.8).
//
// 1. Bare physics: Simulation::step with zero torques from supine.
// 2. The kip-up run: Controller::step + Simulation::step, recording every state.
// 3. The controller alone, replaying the recorded states (no physics in the timing).
// Goal: the controller adds at most 15 % to the physics step.
#include <chrono>
#include <cstdio>
#include <vector>

#include "runtime/controller.h"
#include "runtime/simulation.h"
#include "scl/compile.h"

namespace {

// Listing 4.8, verbatim.
constexpr const char* kKipUp = R"(
{
  (roll_back)
  [shoulders 120, elbows 130, wrists 50 time: 0.3]
  [hips 80, waist 80, knees -170 time: 0.5]
}
after 0.6
{
  (straighten)
  [waist 90, hips 50, knees 0 time: 0]
  [vf (0, 200) on: leftFoot, by: waist]
  [symm]
}
after 0.3
{
  (propel)
  [hips 0, waist -20 time: 0]
  [vf (300, 0) on: leftShank, by: waist]
  [symm]
  [knees -180 time: 0.45]
  [ankles 150 time: 0]
  [relax shoulders, elbows strength 0.1]
  [vf (0, -200) on: leftHand, by: leftShoulder]
  [symm]
}
when contact all feet
{
  (land)
  [vf (-100, -500) on: leftFoot, by: leftKnee]
  [symm]
  [relax knees, ankles strength 0.4]
  [hips 80, waist 40 time: 0.0]
  [necks 10 time: 0.3]
  [shoulders 20, elbows 160, wrists 0 time: 0.3]
}
after 0.6
{
  (stand)
  [vf sb(1000, 300) on: trunk, by: leftAnkle]
  [symm]
  [vf (0, 200) on: trunk, by: leftAnkle]
  [symm]
  [knees 0, hips 0, waist 0 time: 1.2]
  [relax ankles, shoulders, elbows, wrists strength 0.1]
  [necks 0]
}
)";

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

}  // namespace

int main() {
  scl::CompileResult compiled = scl::compile(kKipUp, "kipup.scl");
  if (!compiled.ok()) {
    std::fprintf(stderr, "%s", scl::renderDiagnostics(compiled.diagnostics, kKipUp).c_str());
    return 1;
  }
  const scl::Program& program = *compiled.program;
  scl::SimulationDef def;
  def.scene.pose = "supine";
  const int steps = static_cast<int>(5.0 / def.timeStep);  // 5 simulated seconds

  // 1. Bare physics.
  double bare = 0.0;
  {
    scl::Simulation simulation(def);
    auto start = Clock::now();
    for (int i = 0; i < steps; ++i) simulation.step();
    bare = seconds(start) / steps;
  }

  // 2. The controlled run, recording the states the controller saw.
  std::vector<scl::CharacterState> states;
  states.reserve(steps);
  double controlled = 0.0;
  int phaseChanges = 0;
  {
    scl::Simulation simulation(def);
    scl::Controller controller(program, simulation.initialJointAngles());
    auto start = Clock::now();
    for (int i = 0; i < steps; ++i) {
      states.push_back(simulation.state());
      const scl::ControlOutput& output = controller.step(simulation.state(), def.timeStep);
      phaseChanges += output.phaseStarted ? 1 : 0;
      simulation.setJointTorques(output.torques);
      simulation.step();
    }
    controlled = seconds(start) / steps;
  }

  // 3. The controller alone on the same states (best of 5 to shed noise).
  double controllerOnly = 1e9;
  double checksum = 0.0;
  for (int round = 0; round < 5; ++round) {
    scl::Controller controller(program, states.front().jointAngles);
    auto start = Clock::now();
    for (const scl::CharacterState& state : states)
      checksum += controller.step(state, def.timeStep).torques[scl::kWaist];
    controllerOnly = std::min(controllerOnly, seconds(start) / steps);
  }

  std::printf("kip-up (listing 4.8), supine, dt=%.2f ms, %d steps, %d phase starts\n",
              def.timeStep * 1e3, steps, phaseChanges);
  std::printf("  bare physics step (zero torques):   %8.3f us\n", bare * 1e6);
  std::printf("  controlled step (control+physics): %8.3f us\n", controlled * 1e6);
  std::printf("  controller step alone (replayed):   %8.3f us\n", controllerOnly * 1e6);
  std::printf("  controller / bare physics:          %8.1f %%  (goal <= 15 %%)\n",
              100.0 * controllerOnly / bare);
  std::printf("  controller / controlled physics:     %8.1f %%\n",
              100.0 * controllerOnly / (controlled - controllerOnly));
  std::printf("  (checksum %.3f)\n", checksum);
  return controllerOnly <= 0.15 * bare ? 0 : 2;
}
