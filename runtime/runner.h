// A Simulation driven by a Controller: the loop every caller (CLI, viewer, optimizer,
// tests) runs. Each step computes control from the current state, applies the torques,
// advances physics, checks the result for divergence and fills a StepReport.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "primitives/control_frame.h"
#include "runtime/controller.h"
#include "runtime/simulation.h"

namespace scl {

/// Beyond these a run is treated as diverged.
struct DivergenceLimits {
  /// Largest credible speed of a link's centre of mass, m/s.
  double maxLinearSpeed = 100.0;
  /// Largest credible angular speed of a link, rad/s.
  double maxAngularSpeed = 500.0;
};

/// Thrown by Runner::step when the simulation produces a non-finite or runaway quantity.
/// what(): "simulation diverged at t=1.2345 s in phase 'propel': leftShank angular
/// velocity is nan".
class SimulationDiverged : public std::runtime_error {
 public:
  SimulationDiverged(double time, std::string phase, std::string quantity);
  /// Simulated time after the bad step, seconds.
  double time() const { return time_; }
  /// Name of the phase active in that step ("#3" when unnamed).
  const std::string& phase() const { return phase_; }
  /// The first bad quantity, e.g. "leftShank angular velocity is nan".
  const std::string& quantity() const { return quantity_; }

 private:
  double time_;
  std::string phase_;
  std::string quantity_;
};

/// Everything a caller needs about one step.
struct StepReport {
  /// Simulated time after the step, seconds.
  double time = 0.0;
  /// Length of the step, seconds.
  double timeStep = 0.0;
  /// Phase whose primitives drove the step, and its name (empty when unnamed; valid until
  /// the program is replaced).
  int phase = 0;
  std::string_view phaseName;
  /// Time since that phase began, at the start of the step, seconds.
  double phaseTime = 0.0;
  /// True when the phase began with this step.
  bool phaseStarted = false;
  /// The phase began because the previous one's fallback (`or after T`) fired.
  bool phaseTimedOut = false;
  /// Local PD target per joint, radians.
  JointTargets targets{};
  /// Torque applied per joint (clamped), N·m.
  std::array<double, kMaxJoints> torques{};
  /// Per link: touching the environment after the step.
  std::array<bool, kMaxLinks> contact{};
  /// Whole-body centre of mass and its velocity after the step, m and m/s.
  Vec2 com = Vec2::Zero();
  Vec2 comVelocity = Vec2::Zero();
  /// Forces realised by virtual forces, stance balance and gravity compensation.
  std::vector<AppliedForce> forces;
};

/// The SimulationDef a program asks for: its scene, the thesis's step and iterations.
SimulationDef simulationDefFor(const Program& program);

class Runner {
 public:
  /// Builds the simulation (throws std::invalid_argument on a bad definition) and the
  /// controller (throws std::invalid_argument on a program it cannot run).
  /// The controller keeps `program` (pass an rvalue to spare a copy). The body simulated
  /// is the program's character (Program::character), whatever `definition` names; its
  /// `with BODY` transitions watch `definition`'s scene (pointContactBodies: a body that
  /// scene lacks throws std::invalid_argument). `options` choose how the controller runs (its
  /// friction is the simulation's).
  Runner(Program program, const SimulationDef& definition, const DivergenceLimits& limits = {},
         const ControllerOptions& options = {});

  /// One step. Throws SimulationDiverged when the result is not credible; the runner
  /// must then be restarted.
  const StepReport& step();
  /// Steps until the simulated time reaches `time` seconds (to within half a step).
  void runUntil(double time);

  /// Replaces the program at this step boundary, keeping the physics state: the new
  /// program starts at `startPhase` holding the joints' current targets (hot reload). Its
  /// `with BODY` transitions watch the simulated scene, as the constructor's.
  void setProgram(const Program& program, int startPhase = 0);
  /// Starts phase `index` on the next step (throws std::out_of_range).
  void jumpToPhase(int index) { controller_.jumpToPhase(index); }
  /// Back to the initial state (a fresh simulation) and phase 0.
  void restart();

  const Simulation& simulation() const { return simulation_; }
  /// For external pushes (Simulation::addExternalForce).
  Simulation& simulation() { return simulation_; }
  const Controller& controller() const { return controller_; }
  const CharacterState& state() const { return simulation_.state(); }
  double time() const { return simulation_.time(); }
  /// The report of the last step.
  const StepReport& report() const { return report_; }

 private:
  void checkTorques() const;
  void checkState() const;
  [[noreturn]] void diverged(std::string quantity) const;
  void fillReport();

  SimulationDef definition_;
  DivergenceLimits limits_;
  ControllerOptions options_;
  Simulation simulation_;
  Controller controller_;
  StepReport report_;
};

}  // namespace scl
