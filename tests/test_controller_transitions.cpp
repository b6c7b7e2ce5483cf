// The phase machine driven by scripted (synthetic) states: transitions, targets, torques.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "runtime/controller.h"
#include "scl/character.h"
#include "scl/compile.h"

using namespace scl;

namespace {

constexpr double kDt = 0.001;

JointTargets standingAngles() {
  const PoseDef* pose = scl::humanCharacter()->findPose("standing");
  JointTargets angles{};
  for (int j = 0; j < kBipedJointCount; ++j) angles[j] = degToRad(pose->jointDeg[j]);
  return angles;
}

CharacterState standingState() {
  return forwardKinematics(*scl::humanCharacter(), Vec2(0.0, 1.8), kPi / 2, standingAngles());
}

Phase phase(std::string name, std::vector<Primitive> primitives = {}) {
  Phase result;
  result.name = std::move(name);
  result.primitives = std::move(primitives);
  return result;
}

Transition afterTime(double seconds, int next) {
  Transition exit;
  exit.hasTime = true;
  exit.time.value = seconds;
  exit.next = next;
  return exit;
}

Transition whenContact(ContactEvent event, ContactQuantifier quantifier, std::vector<int> links,
                       int next) {
  Transition exit;
  exit.hasContact = true;
  exit.event = event;
  exit.quantifier = quantifier;
  exit.links = std::move(links);
  exit.next = next;
  return exit;
}

// Two phases: "first" with the given exit, then "second" forever.
Program twoPhases(const Transition& exit) {
  Program program;
  program.phases = {phase("first"), phase("second")};
  program.phases[0].exit = exit;
  program.phases[0].exit->next = 1;
  return program;
}

// A contact script: one entry per step, the set of links touching.
struct Feeder {
  Controller controller;
  CharacterState state = standingState();
  explicit Feeder(const Program& program) : controller(program, standingAngles()) {}
  // Steps with these contacts; returns the phase that drove the step.
  int step(std::initializer_list<int> touching) {
    for (auto& link : state.links) link.contact = false;
    for (int link : touching) state.links[link].contact = true;
    return controller.step(state, kDt).phase;
  }
  // Steps `count` times with the same contacts; returns the step (0-based) on which the
  // phase changed, or -1.
  int stepUntilChange(std::initializer_list<int> touching, int count) {
    int before = controller.phaseIndex();
    for (int i = 0; i < count; ++i)
      if (step(touching) != before) return i;
    return -1;
  }
};

Program compileFile(const std::string& relativePath) {
  std::ifstream file(std::string(SCL_SOURCE_DIR) + "/" + relativePath);
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  CompileResult result = compile(text.str(), relativePath);
  REQUIRE(result.ok());
  return *result.program;
}

}  // namespace

TEST_CASE("after t: the phase lasts exactly t", "[controller][transition]") {
  Feeder feeder(twoPhases(afterTime(0.05, 1)));
  for (int i = 0; i < 50; ++i) {
    REQUIRE(feeder.step({kLeftFoot, kRightFoot}) == 0);
    CHECK(feeder.controller.output().phaseStarted == (i == 0));
  }
  CHECK(feeder.step({kLeftFoot, kRightFoot}) == 1);
  CHECK(feeder.controller.output().phaseStarted);
  CHECK(feeder.controller.output().phaseTime == 0.0);
  CHECK(feeder.controller.phaseName() == "second");
  CHECK(feeder.controller.time() == Approx(0.051));
  // The last phase stays forever.
  CHECK(feeder.stepUntilChange({}, 1000) == -1);
}

TEST_CASE("when contact ... or after t: the fallback fires when the contact never comes",
          "[controller][transition]") {
  Transition exit =
      whenContact(ContactEvent::Lost, ContactQuantifier::All, {kLeftFoot, kRightFoot}, 1);
  exit.hasTimeout = true;
  exit.timeout.value = 0.05;
  SECTION("the feet stay down: the fallback ends the phase at t, and says so") {
    Feeder feeder(twoPhases(exit));
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 100) == 50);
    CHECK(feeder.controller.output().phaseStarted);
    CHECK(feeder.controller.output().phaseTimedOut);
    CHECK(feeder.controller.phaseTimedOut());
    feeder.step({kLeftFoot, kRightFoot});
    CHECK(feeder.controller.phaseTimedOut());  // for as long as the phase lasts
  }
  SECTION("the feet leave first: the condition ends the phase, not the fallback") {
    Feeder feeder(twoPhases(exit));
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 10) == -1);
    CHECK(feeder.stepUntilChange({}, 100) == 0);
    CHECK_FALSE(feeder.controller.output().phaseTimedOut);
  }
  SECTION("both at once: the condition wins") {
    Feeder feeder(twoPhases(exit));
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 49) == -1);
    CHECK(feeder.stepUntilChange({}, 1) == 0);
    CHECK_FALSE(feeder.controller.output().phaseTimedOut);
  }
}

TEST_CASE("backto NAME N times: the cycle runs N times, then the next phase",
          "[controller][transition]") {
  // a, b, then b's exit goes back to a twice (three runs of the cycle in all), then c.
  Program program;
  program.phases = {phase("a"), phase("b"), phase("c")};
  program.phases[0].exit = afterTime(0.002, 1);
  program.phases[1].exit = afterTime(0.002, 2);
  program.phases[1].exit->cycleStart = 0;
  program.phases[1].exit->cycles = 3;
  // The names of the phases a feeder begins over `steps` steps, in order.
  auto begun = [](Feeder& feeder, int steps) {
    std::string names;
    for (int i = 0; i < steps; ++i) {
      feeder.step({kLeftFoot, kRightFoot});
      if (feeder.controller.output().phaseStarted) names += feeder.controller.phaseName();
    }
    return names;
  };
  auto visited = [&](const Program& script, int steps) {
    Feeder feeder(script);
    return begun(feeder, steps);
  };
  CHECK(visited(program, 40) == "abababc");

  SECTION("a jump counts afresh") {
    Feeder feeder(program);
    for (int i = 0; i < 9; ++i) feeder.step({kLeftFoot, kRightFoot});  // into the 2nd round
    feeder.controller.jumpToPhase(0);
    CHECK(begun(feeder, 40) == "abababc");
  }

  SECTION("finally ... N times: after the last cycle the last phase stays") {
    program.phases.pop_back();
    program.phases[1].exit->next = 1;  // itself: the binder's `finally` with a count
    program.phases[1].exit->cycles = 2;
    CHECK(visited(program, 40) == "abab");  // and b to the end
  }
}

TEST_CASE("when contact established: must be gained during the phase", "[controller][transition]") {
  Feeder feeder(
      twoPhases(whenContact(ContactEvent::Established, ContactQuantifier::Any, {kRightFoot}, 1)));
  // The foot starts on the ground: staying there never fires.
  CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 100) == -1);
  // Lifting does not fire either; landing again does, on the step that sees the contact.
  CHECK(feeder.stepUntilChange({kLeftFoot}, 100) == -1);
  CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 5) == 0);
}

TEST_CASE("when contact any/all over several links", "[controller][transition]") {
  SECTION("any: one listed link suffices") {
    Feeder feeder(twoPhases(whenContact(ContactEvent::Established, ContactQuantifier::Any,
                                        {kLeftHand, kRightHand}, 1)));
    feeder.step({});
    CHECK(feeder.stepUntilChange({kRightHand}, 5) == 0);
  }
  SECTION("all: each link must hold, latched per link") {
    Feeder feeder(twoPhases(whenContact(ContactEvent::Established, ContactQuantifier::All,
                                        {kLeftFoot, kRightFoot}, 1)));
    feeder.step({});
    CHECK(feeder.stepUntilChange({kLeftFoot}, 20) == -1);
    // The left foot stays down (gained earlier, still touching): the right one completes it.
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 5) == 0);
  }
  SECTION("all: a link that gained contact and left again no longer holds") {
    Feeder feeder(twoPhases(whenContact(ContactEvent::Established, ContactQuantifier::All,
                                        {kLeftFoot, kRightFoot}, 1)));
    feeder.step({});
    feeder.step({kLeftFoot});
    CHECK(feeder.stepUntilChange({kRightFoot}, 20) == -1);
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 5) == 0);
  }
}

TEST_CASE("when contact lost and changed", "[controller][transition]") {
  SECTION("lost: must lose contact during the phase") {
    Feeder feeder(
        twoPhases(whenContact(ContactEvent::Lost, ContactQuantifier::Any, {kLeftFoot}, 1)));
    CHECK(feeder.stepUntilChange({kRightFoot}, 20) == -1);  // off from the start: no loss
    feeder.step({kLeftFoot});
    CHECK(feeder.stepUntilChange({kRightFoot}, 5) == 0);
  }
  SECTION("lost all") {
    Feeder feeder(twoPhases(
        whenContact(ContactEvent::Lost, ContactQuantifier::All, {kLeftFoot, kRightFoot}, 1)));
    feeder.step({kLeftFoot, kRightFoot});
    CHECK(feeder.stepUntilChange({kRightFoot}, 20) == -1);
    CHECK(feeder.stepUntilChange({}, 5) == 0);
  }
  SECTION("changed: either a gain or a loss") {
    Feeder gain(
        twoPhases(whenContact(ContactEvent::Changed, ContactQuantifier::Any, {kLeftHand}, 1)));
    gain.step({});
    CHECK(gain.stepUntilChange({}, 20) == -1);
    CHECK(gain.stepUntilChange({kLeftHand}, 5) == 0);
    Feeder loss(
        twoPhases(whenContact(ContactEvent::Changed, ContactQuantifier::Any, {kLeftHand}, 1)));
    loss.step({kLeftHand});
    CHECK(loss.stepUntilChange({kLeftHand}, 20) == -1);
    CHECK(loss.stepUntilChange({}, 5) == 0);
  }
}

TEST_CASE("and when contact … after t: the walk and prone-to-stand cases",
          "[controller][transition]") {
  Transition exit = whenContact(ContactEvent::Established, ContactQuantifier::Any, {kRightFoot}, 1);
  exit.hasTime = true;
  exit.time.value = 0.3;
  SECTION("walk: the swing foot starts down, lifts and lands before 0.3 s: fires at 0.3 s") {
    Feeder feeder(twoPhases(exit));
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 50) == -1);
    CHECK(feeder.stepUntilChange({kLeftFoot}, 100) == -1);
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 300) == 150);  // 300 steps in all
  }
  SECTION("walk: a swing foot that never lifts never fires") {
    Feeder feeder(twoPhases(exit));
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 2000) == -1);
  }
  SECTION("walk: landing after the time fires at once") {
    Feeder feeder(twoPhases(exit));
    CHECK(feeder.stepUntilChange({kLeftFoot}, 500) == -1);
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 5) == 0);
  }
  SECTION("prone-to-stand: a hand down before 0.2 s and staying down fires at 0.2 s") {
    Program program = compileFile("scripts/thesis/4.11-prone-to-stand.scl");
    Feeder feeder(program);
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot}, 80) == -1);
    // 80 steps done; the hand lands at 0.08 s and stays: the change comes at 0.2 s.
    CHECK(feeder.stepUntilChange({kLeftFoot, kRightFoot, kLeftHand}, 500) == 120);
    CHECK(feeder.controller.phaseName() == "shoulder_rise");
  }
}

TEST_CASE("finally … backto cycles through the phases", "[controller][transition]") {
  Program program;
  program.phases = {phase("a"), phase("b"), phase("c")};
  program.phases[0].exit = afterTime(0.01, 1);
  program.phases[1].exit = afterTime(0.01, 2);
  program.phases[2].exit = afterTime(0.02, 1);  // finally after 0.02 backto b
  Feeder feeder(program);
  std::vector<int> sequence{feeder.step({})};
  for (int i = 0; i < 100; ++i) {
    int current = feeder.step({});
    if (current != sequence.back()) sequence.push_back(current);
  }
  // 101 steps of 1 ms: a 10, b 10, c 20, b 10, c 20, b 10, c 20, then b.
  CHECK(sequence == std::vector<int>{0, 1, 2, 1, 2, 1, 2, 1});
}

TEST_CASE("an ill-formed program is refused with a message", "[controller]") {
  CHECK_THROWS_AS(Controller(Program{}, standingAngles()), std::invalid_argument);
  Program program = twoPhases(afterTime(1.0, 1));
  program.phases[0].exit->next = 7;
  CHECK_THROWS_WITH(Controller(program, standingAngles()), Catch::Contains("phase 7"));
}

TEST_CASE("jumping to a phase and restarting", "[controller]") {
  Program program;
  program.phases = {phase("a"), phase("b"), phase("c")};
  program.phases[0].exit = afterTime(1.0, 1);
  program.phases[1].exit = afterTime(1.0, 2);
  Feeder feeder(program);
  feeder.step({});
  feeder.controller.jumpToPhase(2);
  CHECK(feeder.step({}) == 2);
  CHECK(feeder.controller.output().phaseStarted);
  CHECK_THROWS_AS(feeder.controller.jumpToPhase(3), std::out_of_range);
  feeder.controller.restart();
  CHECK(feeder.controller.time() == 0.0);
  CHECK(feeder.step({}) == 0);
}

TEST_CASE("torques: default PD, explicit PD, relax, virtual forces, clamping",
          "[controller][torque]") {
  JointTargets initial = standingAngles();
  CharacterState state = standingState();
  // Give every joint an error and a velocity.
  for (int j = 0; j < kBipedJointCount; ++j) {
    state.jointAngles[j] += 0.01 * (j + 1);
    state.jointVelocities[j] = 0.1 * (j - 7);
  }
  PdPrimitive pd;
  pd.targets = {{kWaist, Number{0.5}, TargetFrame::Local}};
  RelaxPrimitive relax;
  relax.joints = {kLeftElbow};
  relax.strength.value = 0.3;
  VirtualForcePrimitive vf;
  vf.fy.value = 400;
  vf.link = kTrunk;
  vf.byJoint = kLeftAnkle;
  PdPrimitive huge;
  huge.targets = {{kNeckTop, Number{10.0}, TargetFrame::Local}};
  Program program;
  program.phases = {phase("p", {pd, relax, vf, huge})};
  Controller controller(program, initial);
  const ControlOutput& out = controller.step(state, kDt);
  for (int j = 0; j < kBipedJointCount; ++j) {
    const JointDef& joint = scl::humanCharacter()->joints[j];
    double theta = state.jointAngles[j], omega = state.jointVelocities[j];
    double expectedPd = joint.kp * (initial[j] - theta) - joint.kd * omega;
    if (j == kWaist) expectedPd = joint.kp * (0.5 - theta) - joint.kd * omega;
    if (j == kLeftElbow) expectedPd = -0.3 * joint.kd * omega;
    if (j == kNeckTop) expectedPd = joint.kp * (10.0 - theta) - joint.kd * omega;
    INFO(joint.name);
    CHECK(out.pdTorques[j] == Approx(expectedPd));
    double net = std::clamp(expectedPd + out.addedTorques[j], -joint.maxTorque, joint.maxTorque);
    CHECK(out.torques[j] == Approx(net));
  }
  CHECK(out.torques[kNeckTop] == scl::humanCharacter()->joints[kNeckTop].maxTorque);
  CHECK(out.addedTorques[kLeftKnee] != 0.0);
  CHECK(out.addedTorques[kRightKnee] == 0.0);
  REQUIRE(out.forces.size() == 1);
  CHECK(out.forces[0].link == kTrunk);
  CHECK(out.modes[kLeftElbow] == DriveMode::Relax);
  CHECK(out.targets[kLeftElbow] == state.jointAngles[kLeftElbow]);
}

TEST_CASE("relax torque is -s kd thetadot every step", "[controller][relax]") {
  RelaxPrimitive relax;
  relax.joints = {kLeftKnee, kRightShoulder};
  relax.strength.value = 0.4;
  Program program;
  program.phases = {phase("loose", {relax})};
  Controller controller(program, standingAngles());
  CharacterState state = standingState();
  for (int i = 0; i < 20; ++i) {
    state.jointAngles[kLeftKnee] = -0.1 * i;
    state.jointVelocities[kLeftKnee] = std::sin(0.7 * i);
    state.jointVelocities[kRightShoulder] = std::cos(0.3 * i);
    const ControlOutput& out = controller.step(state, kDt);
    CHECK(out.torques[kLeftKnee] ==
          Approx(-0.4 * scl::humanCharacter()->joints[kLeftKnee].kd * std::sin(0.7 * i)));
    CHECK(out.torques[kRightShoulder] ==
          Approx(-0.4 * scl::humanCharacter()->joints[kRightShoulder].kd * std::cos(0.3 * i)));
  }
}

TEST_CASE("the later PD-type primitive wins a joint", "[controller][conflict]") {
  PdPrimitive pd;
  pd.targets = {{kLeftElbow, Number{1.0}, TargetFrame::Local}};
  RelaxPrimitive relax;
  relax.joints = {kLeftElbow};
  relax.strength.value = 0.5;
  CharacterState state = standingState();
  {
    Program program;
    program.phases = {phase("pd-then-relax", {pd, relax})};
    Controller controller(program, standingAngles());
    CHECK(controller.step(state, kDt).modes[kLeftElbow] == DriveMode::Relax);
  }
  {
    Program program;
    program.phases = {phase("relax-then-pd", {relax, pd})};
    Controller controller(program, standingAngles());
    const ControlOutput& out = controller.step(state, kDt);
    CHECK(out.modes[kLeftElbow] == DriveMode::Track);
    CHECK(out.targets[kLeftElbow] == 1.0);
  }
}

TEST_CASE("targets carry over: a phase ends with the local target it last computed",
          "[controller][default]") {
  PdPrimitive pd;
  pd.targets = {{kWaist, Number{0.5}, TargetFrame::Local},
                {kLeftAnkle, Number{kPi}, TargetFrame::Child}};
  pd.duration.value = 0.004;
  RelaxPrimitive relax;
  relax.joints = {kRightElbow};
  relax.strength.value = 0.2;
  Program program;
  program.phases = {phase("set", {pd, relax}), phase("hold")};
  program.phases[0].exit = afterTime(0.01, 1);
  Controller controller(program, standingAngles());
  CharacterState state = standingState();
  for (int i = 0; i < 10; ++i) controller.step(state, kDt);
  CHECK(controller.output().targets[kWaist] == Approx(0.5));
  double ankleTarget = controller.output().targets[kLeftAnkle];
  CHECK(ankleTarget == Approx(kPi - state.links[kLeftShank].angle));
  // The relaxed elbow keeps the angle it has when the phase ends.
  state.jointAngles[kRightElbow] = 0.8;
  const ControlOutput& out = controller.step(state, kDt);
  REQUIRE(out.phase == 1);
  CHECK(out.targets[kWaist] == Approx(0.5));
  CHECK(out.targets[kLeftAnkle] == ankleTarget);
  CHECK(out.targets[kRightElbow] == 0.8);
  CHECK(out.targets[kLeftKnee] == standingAngles()[kLeftKnee]);
  CHECK(out.modes[kRightElbow] == DriveMode::Track);
}

TEST_CASE("mirrored phases swap left and right everywhere, ik rel: included",
          "[controller][mirror]") {
  Program program = compileFile("scripts/thesis/4.10-walk.scl");
  REQUIRE(program.phases.size() == 2);
  CharacterState state = standingState();
  // 0.1 s into each phase (the IK target has moved away from the start).
  Controller right(program, standingAngles());
  for (int i = 0; i < 100; ++i) right.step(state, kDt);
  const ControlOutput first = right.step(state, kDt);
  Controller left(program, standingAngles());
  left.jumpToPhase(1);
  for (int i = 0; i < 100; ++i) left.step(state, kDt);
  const ControlOutput second = left.step(state, kDt);
  REQUIRE(second.phase == 1);
  // The standing pose is symmetric, so the mirrored phase's outputs are the mirror image.
  for (int j = 0; j < kBipedJointCount; ++j) {
    int mirror = scl::humanCharacter()->joints[j].mirror;
    INFO(scl::humanCharacter()->joints[j].name);
    CHECK(second.targets[mirror] == Approx(first.targets[j]).margin(1e-9));
    CHECK(second.torques[mirror] == Approx(first.torques[j]).margin(1e-6));
    CHECK(second.modes[mirror] == first.modes[j]);
  }
  // The IK drives the left leg, relative to the right ankle.
  CHECK(second.targets[kLeftKnee] < 0.0);
  CHECK(second.targets[kLeftKnee] != Approx(standingAngles()[kLeftKnee]));
  // The cycle: right_swing -> left_swing -> right_swing on contact.
  CHECK(program.phases[1].exit->next == 0);
}
