// Bare physics cost: the lying (supine) character held by zero torques at 0.25 ms.
// Prints simulated seconds per wall second and microseconds per step, so later
// benchmarks can show what the controller adds on top.
#include <chrono>
#include <cstdio>

#include "runtime/simulation.h"

int main() {
  scl::SimulationDef def;
  def.scene.pose = "supine";
  scl::Simulation simulation(def);
  const int steps = 40000;  // 10 simulated seconds
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) simulation.step();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double simulated = steps * def.timeStep;
  std::printf("bare physics, supine, dt=%.2f ms: %.1f simulated s per wall s, %.2f us per step\n",
              def.timeStep * 1e3, simulated / wall, wall / steps * 1e6);
  return 0;
}
