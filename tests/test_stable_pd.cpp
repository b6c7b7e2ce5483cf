// Stable PD (runtime/stable_pd.h, docs/stepping.md): at a small step it is explicit PD; at a
// step where explicit PD's stiff gains chatter and the stance falls, it stands; the motions
// that rely on it are deterministic.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "primitives/control_frame.h"
#include "runtime/controller.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "runtime/stable_pd.h"
#include "scl/character.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

using namespace scl;

namespace {

const std::string kSourceDir = SCL_SOURCE_DIR;

Program compileScript(const std::string& path) {
  return scl::testing::compileOk(scl::testing::readText(kSourceDir + "/" + path), path);
}

struct StepRun {
  MotionSummary summary;
  double largestTorque = 0.0;  // the largest |PD torque| of any joint and step, N·m
  std::vector<double> finalAngles;
};

StepRun run(const Program& program, double timeStep, bool stable, double duration) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.simulation.timeStep = timeStep;
  def.controller.stablePd = stable;
  def.length.duration = duration;
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  RunSession session(program, def);
  StepRun outcome;
  session.run([&](const StepView&) {
    for (double torque : session.runner().controller().output().pdTorques)
      outcome.largestTorque = std::max(outcome.largestTorque, std::abs(torque));
  });
  outcome.summary = session.summary();
  const CharacterState& state = session.runner().simulation().state();
  outcome.finalAngles.assign(state.jointAngles.begin(), state.jointAngles.end());
  return outcome;
}

}  // namespace

TEST_CASE("stable PD is explicit PD as the step goes to zero", "[stable_pd]") {
  const Character& character = *humanCharacter();
  Simulation simulation(simulationDefFor(compileScript("scripts/stand.scl")));
  for (int i = 0; i < 400; ++i) simulation.step();  // some motion: velocities not zero
  const CharacterState& state = simulation.state();
  ControlFrame frame;
  JointTargets targets{};
  for (int j = 0; j < kBipedJointCount; ++j) targets[j] = state.jointAngles[j] + 0.1 * (j % 3 - 1);
  frame.reset(targets);
  frame.relax(kLeftShoulder, 0.3, state.jointAngles[kLeftShoulder]);
  StablePd stable(character);
  for (double dt : {1e-3, 1e-5, 1e-7}) {
    std::array<double, kMaxJoints> torques{};
    stable.computeTorques(state, frame, dt, torques);
    double largestDifference = 0.0;
    for (int j = 0; j < kBipedJointCount; ++j) {
      const JointDef& joint = character.joints[j];
      const bool relaxed = frame.mode[j] == DriveMode::Relax;
      const double explicitTorque =
          relaxed ? -frame.relaxStrength[j] * joint.kd * state.jointVelocities[j]
                  : joint.kp * (frame.target[j] - state.jointAngles[j]) -
                        joint.kd * state.jointVelocities[j];
      largestDifference = std::max(largestDifference, std::abs(torques[j] - explicitTorque));
    }
    INFO("dt " << dt << ": largest difference " << largestDifference << " N·m");
    // The difference is O(dt): kp Δt θ̇ + kd Δt θ̈ with gains of hundreds to thousands.
    CHECK(largestDifference < 2e5 * dt + 1e-6);
    if (dt == 1e-3) CHECK(largestDifference > 1e-3);  // and not zero: the step matters
  }
}

TEST_CASE("stable PD stands where explicit PD's stiff gains fail", "[stable_pd]") {
  // At 3 ms explicit PD's neck and wrists chatter (kd Δt beyond the links' inertia) and
  // the stance falls; stable PD stands the whole run.
  const Program program = compileScript("scripts/stand.scl");
  const StepRun explicitRun = run(program, 0.003, false, 5.0);
  const StepRun stableRun = run(program, 0.003, true, 5.0);
  INFO("explicit: fell " << explicitRun.summary.fell.value_or(-1.0) << " s, largest PD torque "
                         << explicitRun.largestTorque);
  INFO("stable: fell " << stableRun.summary.fell.value_or(-1.0) << " s, largest PD torque "
                       << stableRun.largestTorque);
  CHECK(explicitRun.summary.fell.has_value());
  CHECK_FALSE(stableRun.summary.fell.has_value());
  CHECK(stableRun.summary.standing);
  CHECK(stableRun.largestTorque < explicitRun.largestTorque);
}

TEST_CASE("stable PD keeps the thesis motions at the default step and is deterministic",
          "[stable_pd]") {
  const Program kipup = compileScript("scripts/kipup.scl");
  const StepRun first = run(kipup, kDefaultTimeStep, true, 4.0);
  const StepRun second = run(kipup, kDefaultTimeStep, true, 4.0);
  CHECK(first.summary.standing);
  REQUIRE(first.summary.riseTime.has_value());
  CHECK(first.finalAngles == second.finalAngles);  // bit-identical
  CHECK(first.summary.riseTime == second.summary.riseTime);
}
