// The runner: controller + Box2D simulation, measured.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include "runtime/runner.h"
#include "scl/compile.h"

using namespace scl;

namespace {

Program compileText(const std::string& source) {
  CompileResult result = compile(source, "test.scl");
  INFO(renderDiagnostics(result.diagnostics, source));
  REQUIRE(result.ok());
  return *result.program;
}

Program compileFile(const std::string& relativePath) {
  std::ifstream file(std::string(SCL_SOURCE_DIR) + "/" + relativePath);
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  return compileText(text.str());
}

SimulationDef scene(const char* pose) {
  SimulationDef definition;
  definition.scene.pose = pose;
  return definition;
}

// Largest |theta - theta_target| over the joints after `seconds`, radians.
// `mustStayUp`: the run must end on its feet (PD alone may topple a stance: an unstable
// equilibrium under PD, see test_foundation; gravity compensation must hold it).
double trackingError(const Program& program, const char* pose, double seconds, bool mustStayUp) {
  Runner runner(program, scene(pose));
  runner.runUntil(seconds);
  double error = 0.0;
  for (int j = 0; j < kBipedJointCount; ++j)
    error = std::max(error, std::abs(runner.state().jointAngles[j] - runner.report().targets[j]));
  if (mustStayUp) {
    INFO(pose << " still standing on its feet");
    CHECK(runner.state().links[kHead].origin.y() > 1.2);
  }
  return error;
}

}  // namespace

TEST_CASE("gravity compensation holds a pose far better than default PD alone", "[runner][gc]") {
  // Standing straight needs almost no torque, so standing holds its arms out forward.
  struct Case {
    const char* pose;
    const char* phase;
  };
  for (Case c : {Case{"standing", "[shoulders 90]"}, Case{"crouching", ""}}) {
    const char* pose = c.pose;
    double plain = trackingError(compileText(std::string("{ ") + c.phase + " }"), pose, 2.0, false);
    double compensated =
        trackingError(compileText(std::string("{ ") + c.phase + " [gc] }"), pose, 2.0, true);
    INFO(pose << ": drift " << radToDeg(plain) << " deg with default PD, " << radToDeg(compensated)
              << " deg with [gc]");
    CHECK(compensated * 3.0 <= plain);
    CHECK(compensated < degToRad(1.0));
  }
}

TEST_CASE("a timed PD target moves linearly and the joint follows it", "[runner][pd]") {
  // Lying supine, the arm rises through the air: no contact in the way.
  Program program = compileText("{ [leftShoulder 90 time: 1.0] }");
  Runner runner(program, scene("supine"));
  const double start = runner.state().jointAngles[kLeftShoulder];
  const double goal = degToRad(90.0);
  double worstLag = 0.0, progressAtHalf = 0.0;
  while (runner.time() < 1.5) {
    double phaseTime = runner.controller().phaseTime();  // at the start of this step
    const StepReport& report = runner.step();
    double expected = start + (goal - start) * std::min(phaseTime / 1.0, 1.0);
    REQUIRE(report.targets[kLeftShoulder] == Approx(expected).margin(1e-12));
    worstLag = std::max(worstLag, std::abs(runner.state().jointAngles[kLeftShoulder] - expected));
    if (std::abs(runner.time() - 0.5) < 1e-9)
      progressAtHalf = (runner.state().jointAngles[kLeftShoulder] - start) / (goal - start);
  }
  // A PD tracker lags a moving target by about kd·speed/kp (33 · 1.57 / 386 rad = 7.7°).
  INFO("largest tracking error " << radToDeg(worstLag)
                                 << " deg; half way at 0.5 s: " << progressAtHalf);
  CHECK(worstLag < degToRad(12.0));
  CHECK(progressAtHalf > 0.35);
  CHECK(progressAtHalf < 0.6);
  CHECK(std::abs(runner.state().jointAngles[kLeftShoulder] - goal) < degToRad(3.0));
}

TEST_CASE("relax applies -s kd thetadot in simulation", "[runner][relax]") {
  Program program = compileText("{ [leftShoulder 100] [relax leftElbow strength 0.5] }");
  Runner runner(program, scene("supine"));
  double largest = 0.0;
  for (int i = 0; i < 2000; ++i) {
    double velocity = runner.state().jointVelocities[kLeftElbow];
    const StepReport& report = runner.step();
    double expected = -0.5 * scl::humanCharacter()->joints[kLeftElbow].kd * velocity;
    REQUIRE(report.torques[kLeftElbow] == Approx(expected).margin(1e-9));
    largest = std::max(largest, std::abs(expected));
  }
  CHECK(largest > 0.1);  // the elbow did swing
}

TEST_CASE("the same program runs bit-identically twice", "[runner][determinism]") {
  Program program = compileFile("scripts/thesis/4.8-kipup.scl");
  auto run = [&] {
    Runner runner(program, simulationDefFor(program));
    runner.runUntil(2.0);
    return runner.simulation().stateHash();
  };
  std::uint64_t first = run();
  CHECK(run() == first);
  // Side by side in threads (no shared mutable state).
  std::uint64_t a = 0, b = 0;
  std::thread one([&] { a = run(); });
  std::thread two([&] { b = run(); });
  one.join();
  two.join();
  CHECK(a == first);
  CHECK(b == first);
}

TEST_CASE("the step report describes the step", "[runner][report]") {
  Program program =
      compileText("{ (hold) [vf (0, 100) on: trunk, by: leftAnkle] } after 0.01 { (next) }");
  Runner runner(program, scene("standing"));
  const StepReport& report = runner.step();
  CHECK(report.time == Approx(runner.simulation().timeStep()));
  CHECK(report.phase == 0);
  CHECK(report.phaseName == "hold");
  CHECK(report.phaseStarted);
  REQUIRE(report.forces.size() == 1);
  CHECK(report.forces[0].force.y() == 100.0);
  CHECK(report.contact[kLeftFoot]);
  CHECK_FALSE(report.contact[kHead]);
  CHECK(report.com.isApprox(runner.state().com));
  CHECK(report.torques == runner.simulation().appliedTorques());
  runner.runUntil(0.02);
  CHECK(runner.report().phaseName == "next");
  CHECK(runner.report().forces.empty());
}

TEST_CASE("a program can be swapped at a step boundary, keeping the physics state",
          "[runner][reload]") {
  Program first = compileText("{ (a) [leftShoulder 60] }");
  Program second = compileText("{ (b) } after 0.1 { (c) [rightShoulder 60] }");
  Runner runner(first, scene("supine"));
  runner.runUntil(0.5);
  std::uint64_t hash = runner.simulation().stateHash();
  double held = runner.report().targets[kLeftShoulder];
  runner.setProgram(second);
  CHECK(runner.simulation().stateHash() == hash);
  const StepReport& report = runner.step();
  CHECK(report.phaseName == "b");
  CHECK(report.targets[kLeftShoulder] == held);  // keeps holding the current targets
  CHECK(report.time == Approx(0.5 + runner.simulation().timeStep()));
  runner.setProgram(second, 1);
  CHECK(runner.step().phaseName == "c");
  runner.restart();
  CHECK(runner.time() == 0.0);
  CHECK(runner.step().phaseName == "b");
}

TEST_CASE("a diverging run stops with a clear error", "[runner][divergence]") {
  SECTION("a non-finite torque") {
    Program program = compileText("{ (calm) } after 0.05 { (broken) [relax leftKnee strength 1] }");
    std::get<RelaxPrimitive>(program.phases[1].primitives[0]).strength.value =
        std::numeric_limits<double>::quiet_NaN();
    Runner runner(program, scene("standing"));
    runner.runUntil(0.049);
    // The knee barely moves, so give it a velocity to multiply the NaN with: any is enough.
    CHECK_THROWS_MATCHES(runner.runUntil(1.0), SimulationDiverged,
                         Catch::Matchers::Message("simulation diverged at t=0.0500 s in phase "
                                                  "'broken': leftKnee torque is nan"));
  }
  SECTION("an absurd force") {
    Program program = compileText("{ (push) }");
    Runner runner(program, scene("standing"));
    runner.runUntil(0.01);
    runner.simulation().addExternalForce(
        {kLeftHand, Vec2(1e9, 1e9), runner.state().links[kLeftHand].com});
    try {
      runner.runUntil(1.0);
      FAIL("no divergence reported");
    } catch (const SimulationDiverged& error) {
      CHECK(error.phase() == "push");
      CHECK(error.time() == Approx(0.01 + runner.simulation().timeStep()));
      CHECK_THAT(error.what(), Catch::StartsWith("simulation diverged at t=0.01") &&
                                   Catch::Contains(" s in phase 'push': "));
      CHECK_THAT(error.quantity(), Catch::Contains("m/s (limit 100)") ||
                                       Catch::Contains("rad/s (limit 500)") ||
                                       Catch::Contains("nan"));
    }
  }
  SECTION("runaway limits are configurable") {
    Program program = compileText("{ (swing) [leftShoulder 170] }");
    DivergenceLimits tight;
    tight.maxAngularSpeed = 2.0;
    Runner runner(program, scene("supine"), tight);
    CHECK_THROWS_WITH(runner.runUntil(1.0), Catch::Contains("angular velocity") &&
                                                Catch::Contains("rad/s (limit 2)") &&
                                                Catch::Contains("'swing'"));
  }
}
