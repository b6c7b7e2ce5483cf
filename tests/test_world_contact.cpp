// Contacts with the world's bodies (docs/language.md, Transitions): `when contact LINKS with
// BODY` parsed, printed, bound to the body's bit and run (a foot on the ground does not
// meet a condition on a step); a run in another scene watches the same body by its name.
// And standing on an object: a character placed on a box rests on it and stands there,
// under stance balance and on the feature QP, whose plan keeps within the box's friction.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/controller.h"
#include "runtime/run_session.h"
#include "runtime/runner.h"
#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "scl/scene.h"
#include "scl/transition_text.h"
#include "tests/test_support.h"

using namespace scl;

namespace {

constexpr double kDt = 0.001;

// A standing scene with a step ahead and a crate behind: bodies ground (bit 0), step (bit
// 1), crate (bit 2).
const std::string kWorld =
    "scene pose: standing duration: 3\n"
    "platform step at: 0.3 size: (1, 0.15)\n"
    "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n";
constexpr std::uint64_t kGround = 1, kStep = 2, kCrate = 4;
// A scene of the ground and one object: the object's bit.
constexpr std::uint64_t kOnlyObject = 2;

JointTargets standingAngles() {
  const PoseDef* pose = humanCharacter()->findPose("standing");
  JointTargets angles{};
  for (int j = 0; j < kBipedJointCount; ++j) angles[j] = degToRad(pose->jointDeg[j]);
  return angles;
}

// Synthetic states: per step, the scene bodies each link touches.
struct BodyFeeder {
  Controller controller;
  CharacterState state =
      forwardKinematics(*humanCharacter(), Vec2(0.0, 1.8), kPi / 2, standingAngles());
  explicit BodyFeeder(const Program& program) : controller(program, standingAngles()) {}
  // Steps `count` times with the left foot touching `bodies`; returns the step (0-based)
  // on which the phase changed, or -1. The exit is checked on the state a step is given:
  // the step that first sees the contact is the next phase's.
  int leftFoot(std::uint64_t bodies, int count) {
    const int before = controller.phaseIndex();
    for (int i = 0; i < count; ++i) {
      for (LinkState& link : state.links) {
        link.contact = link.terrainContact = false;
        link.touching = 0;
      }
      state.links[kLeftFoot].touching = bodies;
      state.links[kLeftFoot].contact = bodies != 0;
      if (controller.step(state, kDt).phase != before) return i;
    }
    return -1;
  }
};

// `script` with `world` inserted after its scene header (its first line that begins with
// `scene`).
std::string onWorld(const std::string& script, const std::string& world) {
  const size_t scene = script.find("\nscene ");
  REQUIRE(scene != std::string::npos);
  const size_t end = script.find('\n', scene + 1);
  return script.substr(0, end + 1) + world + script.substr(end + 1);
}

struct StandOutcome {
  bool standing = false;
  bool fell = false;
  // Steps on which a foot touched the ground, and on which both touched the box.
  long onGround = 0, bothOnBox = 0, steps = 0;
  double lowestHead = 1e9;
  std::vector<PhaseStart> timeline;
};

StandOutcome stand(const Program& program, double seconds) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length.duration = seconds;
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  RunSession session(program, def);
  StandOutcome outcome;
  const Character& character = *program.character;
  session.run([&](const StepView&) {
    const CharacterState& state = session.runner().state();
    bool both = true;
    for (int foot : character.roles.feet()) {
      outcome.onGround += (state.links[foot].touching & kGround) != 0 ? 1 : 0;
      both = both && (state.links[foot].touching & kOnlyObject) != 0;
    }
    outcome.bothOnBox += both ? 1 : 0;
    ++outcome.steps;
    outcome.lowestHead = std::min(
        outcome.lowestHead, state.jointPositions[static_cast<size_t>(character.headJoint())].y());
  });
  const MotionSummary summary = session.summary();
  outcome.standing = summary.standing;
  outcome.fell = summary.fell.has_value();
  outcome.timeline = session.timeline();
  return outcome;
}

}  // namespace

TEST_CASE("with BODY: parsed after the links, printed back, bound to the body's bit",
          "[lang][world]") {
  const std::string source = kWorld +
                             "{ (a) } when contact  any hands ,leftFoot with   crate or after 1\n"
                             "{ (b) } and when contact lost feet with ground after 0.2\n"
                             "{ (c) } when contact leftFoot\n"
                             "{ (d) } finally when contact changed rightFoot with step backto a\n";
  const ParseResult parsed = parse(source, "x.scl");
  REQUIRE_FALSE(hasErrors(parsed.diagnostics));
  const syntax::Transition& first = *parsed.script.phases[0].exit;
  REQUIRE(first.body);
  CHECK(first.body->text == "crate");
  CHECK(first.targets.size() == 2);
  CHECK_FALSE(parsed.script.phases[2].exit->body);

  const std::string printed = print(parsed.script);
  CHECK(printed.find("\nwhen contact any hands, leftFoot with crate or after 1\n") !=
        std::string::npos);
  CHECK(printed.find("\nand when contact lost feet with ground after 0.2\n") != std::string::npos);
  CHECK(printed.find("\nwhen contact leftFoot\n") != std::string::npos);
  CHECK(printed.find("\nfinally when contact changed rightFoot with step\nbackto a\n") !=
        std::string::npos);
  const ParseResult again = parse(printed, "y.scl");
  REQUIRE_FALSE(hasErrors(again.diagnostics));
  CHECK(syntax::withoutLocations(again.script) == syntax::withoutLocations(parsed.script));
  CHECK(print(again.script) == printed);

  const Program program = testing::compileOk(source);
  auto exit = [&](size_t phase) -> const Transition& { return *program.phases[phase].exit; };
  CHECK(exit(0).body == "crate");
  CHECK(exit(0).bodyMask == kCrate);
  CHECK(exit(1).body == "ground");
  CHECK(exit(1).bodyMask == kGround);
  CHECK(exit(2).body.empty());
  CHECK(exit(2).bodyMask == 0);
  CHECK(exit(3).bodyMask == kStep);
  CHECK(transitionText(exit(0), *program.character) ==
        "when contact any hands, leftFoot with crate or after 1");
  CHECK(transitionText(exit(1), *program.character) ==
        "and when contact lost any feet with ground after 0.2");
  CHECK(transitionText(exit(3), *program.character) == "when contact changed rightFoot with step");
}

TEST_CASE("with BODY: a foot on the ground does not meet a condition on another body",
          "[controller][world]") {
  SECTION("established: only touching the step counts, not landing on the ground") {
    BodyFeeder withStep(testing::compileOk(kWorld + "{ (wait) } when contact leftFoot with step "
                                                    "{ (on) }"));
    BodyFeeder anyBody(testing::compileOk(kWorld + "{ (wait) } when contact leftFoot { (on) }"));
    for (BodyFeeder* feeder : {&withStep, &anyBody}) {
      CHECK(feeder->leftFoot(kGround, 20) == -1);  // on the ground from the start
      CHECK(feeder->leftFoot(0, 20) == -1);        // lifted
    }
    CHECK(anyBody.leftFoot(kGround, 20) == 0);    // down again: any contact fires
    CHECK(withStep.leftFoot(kGround, 20) == -1);  // the ground is not the step
    CHECK(withStep.leftFoot(kGround | kStep, 20) == 0);
    CHECK(withStep.controller.phaseName() == "on");
  }
  SECTION("established: a foot on the step from the start must leave it and come back") {
    BodyFeeder feeder(testing::compileOk(kWorld + "{ (wait) } when contact leftFoot with step "
                                                  "{ (on) }"));
    CHECK(feeder.leftFoot(kStep, 20) == -1);
    CHECK(feeder.leftFoot(kGround, 20) == -1);  // off the step, onto the ground
    CHECK(feeder.leftFoot(kStep, 20) == 0);
  }
  SECTION("lost: the foot leaves the ground for the step, while it still touches something") {
    BodyFeeder withGround(
        testing::compileOk(kWorld + "{ (wait) } when contact lost leftFoot with ground { (off) }"));
    BodyFeeder anyBody(testing::compileOk(kWorld + "{ (wait) } when contact lost leftFoot "
                                                   "{ (off) }"));
    for (BodyFeeder* feeder : {&withGround, &anyBody}) {
      CHECK(feeder->leftFoot(kGround, 20) == -1);
      CHECK(feeder->leftFoot(kGround | kStep, 20) == -1);  // on both
    }
    CHECK(anyBody.leftFoot(kStep, 20) == -1);  // it still touches a body
    CHECK(withGround.leftFoot(kStep, 20) == 0);
  }
  SECTION("any hands with crate: a hand on the ground does not count") {
    BodyFeeder feeder(testing::compileOk(kWorld + "{ (wait) } when contact any hands with crate "
                                                  "{ (hold) }"));
    auto hand = [&](int link, std::uint64_t bodies, int count) {
      for (int i = 0; i < count; ++i) {
        feeder.state.links[link].touching = bodies;
        feeder.state.links[link].contact = bodies != 0;
        if (feeder.controller.step(feeder.state, kDt).phase != 0) return i;
      }
      return -1;
    };
    CHECK(hand(kRightHand, kGround, 20) == -1);
    CHECK(hand(kLeftHand, kCrate, 20) == 0);
  }
}

TEST_CASE("with BODY: a run in another scene watches the same body by its name",
          "[controller][world]") {
  const Program program =
      testing::compileOk(kWorld + "{ (wait) } when contact leftFoot with crate or after 1 { }");
  REQUIRE(program.phases[0].exit->bodyMask == kCrate);
  // `scl run --env chair`: the chair second, the world's bodies after it.
  SceneRequest request;
  request.environment = "chair";
  const SceneResolution chair = resolveScene(request, program.scene, *program.character);
  REQUIRE(chair.ok());
  REQUIRE(chair.scene.bodies.size() == 4);
  Program moved = program;
  pointContactBodies(moved, chair.scene.bodies);
  CHECK(moved.phases[0].exit->bodyMask == kCrate << 1);
  // The runner does it for the scene it simulates.
  SimulationDef def = simulationDefFor(program);
  def.scene = chair.scene;
  const Runner runner(program, def);
  CHECK(runner.controller().program().phases[0].exit->bodyMask == kCrate << 1);
  // A scene without the body refuses the program, naming the body.
  Program lacking = program;
  std::vector<SceneBodyDef> flat = {groundBody()};
  CHECK_THROWS_WITH(pointContactBodies(lacking, flat), Catch::Contains("'crate'"));
  def.scene.bodies = flat;
  CHECK_THROWS_AS(Runner(program, def), std::invalid_argument);
}

TEST_CASE("with BODY: in the simulation, a ball dropped on the left foot ends the phase",
          "[runner][world]") {
  // The left foot stands on the ground from the start, so `with ground` is never gained
  // and waits for its fallback; a ball dropped on the foot is.
  const Program program = testing::compileOk(
      "scene pose: standing duration: 3\n"
      "ball stone at: (0.08, 0.5) radius: 0.04 mass: 0.5\n"
      "{ (wait) [gc] } when contact leftFoot with ground or after 0.2\n"
      "{ (drop) [gc] } when contact leftFoot with stone or after 2\n"
      "{ (hit) [gc] }\n");
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length.duration = 1.5;
  RunSession session(program, def);
  double firstTouch = -1.0;
  session.run([&](const StepView&) {
    if (firstTouch < 0 && (session.runner().state().links[kLeftFoot].touching & kOnlyObject) != 0)
      firstTouch = session.runner().time();
  });
  const std::vector<PhaseStart>& timeline = session.timeline();
  INFO("the stone first touched the left foot at " << firstTouch << " s");
  REQUIRE(timeline.size() == 3);
  CHECK(timeline[1].timedOut);
  CHECK(timeline[1].time == Approx(0.2).margin(0.002));
  CHECK_FALSE(timeline[2].timedOut);
  REQUIRE(firstTouch > 0.0);
  // The next phase drives the step after the one whose outcome met the condition.
  CHECK(timeline[2].time == Approx(firstTouch).margin(1e-9));
}

TEST_CASE("standing on a box: placed on it, held there by stance balance and by the QP",
          "[runner][feature][world]") {
  const std::string crate = "box crate at: (0, 0.1) size: (1.2, 0.2) mass: 200\n";
  for (const char* script : {"scripts/stand.scl", "scripts/feature-stance.scl"}) {
    INFO(script);
    const std::string source = onWorld(
        "\n" + testing::readWholeTextFile(std::string(SCL_SOURCE_DIR) + "/" + script), crate);
    const Program program = testing::compileOk(source);
    const StandOutcome outcome = stand(program, 12.0);
    CHECK(outcome.standing);
    CHECK_FALSE(outcome.fell);
    CHECK(outcome.onGround == 0);
    // The feature stance lifts the left foot for a while; stance balance never.
    CHECK(outcome.bothOnBox > outcome.steps * 8 / 10);
    CHECK(outcome.lowestHead > 1.7);  // 0.2 m up on the box
  }
}

TEST_CASE("the feature QP plans within the friction of the body a foot stands on",
          "[feature][world]") {
  // On a box of friction 0.3 the QP once planned within the character's 0.9 (× 0.6): under
  // a push the rear foot slid 4 cm. Within the box's 0.3 (× 0.6) neither foot slides.
  const std::string source = onWorld(
      "\n" +
          testing::readWholeTextFile(std::string(SCL_SOURCE_DIR) + "/scripts/feature-stance.scl"),
      "box crate at: (0, 0.1) size: (1.2, 0.2) mass: 200 friction: 0.3\n");
  const Program program = testing::compileOk(source);
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length.duration = 9.0;
  def.pushes = {{kTrunk, Vec2(150.0, 0.0), 6.0, 0.5}};
  RunSession session(program, def);
  std::array<double, 2> before{}, slid{};
  session.run([&](const StepView&) {
    const CharacterState& state = session.runner().state();
    const std::array<int, 2> feet = program.character->roles.feet();
    for (size_t side = 0; side < 2; ++side) {
      const double x = state.links[feet[side]].origin.x();
      if (session.runner().time() < 5.9)
        before[side] = x;
      else
        slid[side] = std::max(slid[side], std::abs(x - before[side]));
    }
  });
  CHECK(session.summary().standing);
  CHECK(slid[0] < 0.005);
  CHECK(slid[1] < 0.005);
}
