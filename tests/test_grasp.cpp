// Grasps (docs/manipulation.md): `[grasp LINKS BODY reach: D]` and `when holding BODY`
// in the language; the simulation's welds; the controller's requests and its transition.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/run_session.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "tests/test_support.h"

using namespace scl;

namespace {

// A 1 kg box let go at t = 0, 2 cm in front of the right hand of the standing character,
// which holds its pose by PD. Scene bodies: ground (bit 0), box (bit 1).
constexpr std::uint64_t kBox = 2;

// `launch` (seconds, or none) holds the box still where it is until then.
SimulationDef handAndBox(double gap, std::optional<double> launch = std::nullopt) {
  Simulation probe(SimulationDef{});
  const LinkState& hand = probe.state().links[kRightHand];
  const double halfThickness = 0.5 * humanCharacter()->links[kRightHand].distalThickness;
  const double x = hand.com.x() + halfThickness + gap + 0.05;
  SimulationDef def;
  def.scene = testing::compileOk("scene pose: standing\nbox box at: (" + std::to_string(x) + ", " +
                                 std::to_string(hand.com.y()) + ") size: (0.1, 0.1) mass: 1" +
                                 (launch ? " launch: " + std::to_string(*launch) : "") +
                                 "\n{\n  [waist 0]\n}\n")
                  .scene;
  return def;
}

// Whether compiling `source` reports an error at line:column whose message holds `text`.
bool errorAt(const std::string& source, int line, int column, const std::string& text) {
  const CompileResult result = compile(source, "g.scl");
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.severity == Severity::Error && diagnostic.location.line == line &&
        diagnostic.location.column == column && diagnostic.message.find(text) != std::string::npos)
      return true;
  for (const Diagnostic& diagnostic : result.diagnostics)
    UNSCOPED_INFO(diagnostic.location.line << ":" << diagnostic.location.column << ": "
                                           << diagnostic.message);
  return false;
}

Vec2 boxCentre(const Simulation& simulation) {
  for (const WorldBodyState& body : simulation.worldBodies())
    if (body.sceneBody == 1) return body.position;
  FAIL("no box");
  return Vec2::Zero();
}
double boxHeight(const Simulation& simulation) { return boxCentre(simulation).y(); }
// The box's centre from the right hand's centre of mass, metres.
double handToBox(const Simulation& simulation) {
  return (boxCentre(simulation) - simulation.state().links[kRightHand].com).norm();
}

void runFor(Simulation& simulation, double seconds) {
  const long steps = std::lround(seconds / simulation.timeStep());
  for (long i = 0; i < steps; ++i) simulation.step();
}

}  // namespace

TEST_CASE("grasp and when holding: parsed, printed canonically, bound to a movable body") {
  const std::string source =
      "scene pose: standing duration: 2\n"
      "box crate at: (0.5, 0.05) size: (0.1, 0.1) mass: 2\n"
      "\n"
      "{\n"
      "  [grasp hands crate reach: 0.08]\n"
      "}\n"
      "when holding crate or after 1\n"
      "{\n"
      "  [grasp rightHand crate]\n"
      "}\n";
  ParseResult parsed = parse(source, "g.scl");
  REQUIRE(parsed.diagnostics.empty());
  CHECK(print(parsed.script) == source);
  const Program program = testing::compileOk(source);
  const auto& both = std::get<GraspPrimitive>(program.phases[0].primitives[0]);
  CHECK(both.links == std::vector<int>{kLeftHand, kRightHand});
  CHECK(both.body == 1);
  CHECK(both.reach.value == 0.08);
  CHECK(std::get<GraspPrimitive>(program.phases[1].primitives[0]).reach.value ==
        kDefaultGraspReach);
  const Transition& exit = *program.phases[0].exit;
  CHECK(exit.holding);
  CHECK(exit.bodyMask == 2);
  CHECK(exit.hasTimeout);
}

TEST_CASE("a grasp names a movable body of the scene, within reach bounds") {
  const std::string world =
      "scene pose: standing\nplatform step at: 0.5 size: (1, 0.1)\n"
      "box crate at: (-1, 0.05) size: (0.1, 0.1) mass: 2\n";
  CHECK(errorAt(world + "{\n  [grasp rightHand crat]\n}\n", 5, 20,
                "unknown movable body 'crat'; did you mean 'crate'?"));
  CHECK(errorAt(world + "{\n  [grasp rightHand step]\n}\n", 5, 20,
                "cannot grasp 'step': it is terrain"));
  CHECK(errorAt(world + "{\n  [grasp rightHand crate reach: 2]\n}\n", 5, 33,
                "reach: must be from 0 to 0.5 m (found 2 m)"));
  CHECK(errorAt(world + "{\n  [waist 0]\n}\nwhen holding step\n{\n  [waist 0]\n}\n", 7, 14,
                "cannot hold 'step': it is terrain"));
}

TEST_CASE("a weld holds the body within reach, and letting go drops it") {
  // The character has no torques: it folds up, and the box goes with the hand.
  Simulation simulation(handAndBox(0.02));
  const double start = handToBox(simulation);
  const GraspRequest grasp{kRightHand, 1, 0.05};
  simulation.setGrasps(std::span(&grasp, 1));
  runFor(simulation, 0.5);
  CHECK(simulation.state().links[kRightHand].holding == kBox);
  CHECK(simulation.state().links[kLeftHand].holding == 0);
  CHECK(handToBox(simulation) == Approx(start).margin(0.01));
  simulation.setGrasps({});
  runFor(simulation, 1.0);
  CHECK(simulation.state().links[kRightHand].holding == 0);
  CHECK(boxHeight(simulation) < 0.1);  // on the ground
}

// A weld lasts while grasps ask for the same link and body, whatever their reach: a reach
// phase's `reach: 0.05` followed by a hold's smaller one used to drop the box at the phase
// change and take hold again only if the hand was within the new reach (here it is not).
TEST_CASE("a weld holds on when the next phase grasps with another reach") {
  const SimulationDef def = handAndBox(0.02);
  const SceneBodyDef& box = def.scene.bodies[1];
  const std::string script =
      "scene pose: standing duration: 1\nbox box at: (" + std::to_string(box.at[0]) + ", " +
      std::to_string(box.at[1]) +
      ") size: (0.1, 0.1) mass: 1\n{\n  (take)\n  [grasp rightHand box reach: 0.05]\n}\n"
      "when holding box or after 1\n{\n  (hold)\n  [grasp rightHand box reach: 0.005]\n}\n";
  const Program program = testing::compileOk(script);
  SimulationDef run;
  run.scene = program.scene;
  Runner runner(program, run);
  runner.runUntil(0.01);
  REQUIRE(runner.controller().output().phase == 1);
  const double held = handToBox(runner.simulation());
  runner.runUntil(0.5);
  CHECK(runner.simulation().state().links[kRightHand].holding == kBox);
  CHECK(handToBox(runner.simulation()) == Approx(held).margin(0.005));
}

// Both hands on one box (in the sagittal plane they are in the same place): the box is
// shared between them, so the character and its loads count it once.
TEST_CASE("a body held by two links is counted once") {
  Simulation simulation(handAndBox(0.02));
  const std::vector<GraspRequest> both{{kLeftHand, 1, 0.05}, {kRightHand, 1, 0.05}};
  simulation.setGrasps(both);
  runFor(simulation, 0.2);
  const CharacterState& state = simulation.state();
  REQUIRE(state.links[kLeftHand].holding == kBox);
  REQUIRE(state.links[kRightHand].holding == kBox);
  CHECK(state.links[kLeftHand].heldMass == Approx(0.5));
  CHECK(state.links[kRightHand].heldMass == Approx(0.5));
  // The centre of mass of the character and its load: the box's 1 kg once.
  const Character& character = *humanCharacter();
  double bodyMass = 0.0;
  for (int i = 0; i < character.linkCount(); ++i) bodyMass += character.links[i].mass;
  const Vec2 expected = (bodyMass * state.com + 1.0 * boxCentre(simulation)) / (bodyMass + 1.0);
  CHECK((comWithHeld(character, state).first - expected).norm() < 1e-3);
}

// An object held still until its launch is taken at its launch, not before: welded to it
// while it is held, the hand was anchored in space and what it held weighed nothing (its
// centre of mass was 0/0, not a number).
TEST_CASE("an object held for its launch is taken at its launch") {
  Simulation simulation(handAndBox(0.02, 0.05));
  const double start = handToBox(simulation);
  const GraspRequest grasp{kRightHand, 1, 0.05};
  simulation.setGrasps(std::span(&grasp, 1));
  runFor(simulation, 0.03);
  CHECK(simulation.state().links[kRightHand].holding == 0);
  CHECK(simulation.state().links[kRightHand].heldMass == 0.0);
  CHECK(std::isfinite(simulation.state().links[kRightHand].heldCom.x()));
  runFor(simulation, 0.5);
  const LinkState& hand = simulation.state().links[kRightHand];
  CHECK(hand.holding == kBox);
  CHECK(hand.heldMass == Approx(1.0));
  CHECK(std::isfinite(hand.heldCom.x()));
  CHECK(std::isfinite(hand.heldCom.y()));
  CHECK(handToBox(simulation) == Approx(start).margin(0.01));  // it goes with the hand
}

TEST_CASE("a body beyond reach is not grasped, and falls") {
  Simulation simulation(handAndBox(0.1));
  const GraspRequest grasp{kRightHand, 1, 0.05};
  simulation.setGrasps(std::span(&grasp, 1));
  runFor(simulation, 1.0);
  CHECK(simulation.state().links[kRightHand].holding == 0);
  CHECK(boxHeight(simulation) < 0.1);
}

// A phase whose grasp never took hold says so when it ends; one that took hold does not.
TEST_CASE("a phase that ends without taking hold warns") {
  const auto warningsWithBoxAt = [](double gap) {
    const SimulationDef def = handAndBox(gap);
    const SceneBodyDef& box = def.scene.bodies[1];
    const std::string script =
        "scene pose: standing duration: 1\nbox box at: (" + std::to_string(box.at[0]) + ", " +
        std::to_string(box.at[1]) +
        ") size: (0.1, 0.1) mass: 1\n{\n  (reach)\n  [grasp rightHand box]\n}\nafter 0.5\n"
        "{\n  (rest)\n  [waist 0]\n}\n";
    const Program program = testing::compileOk(script);
    SimulationDef run;
    run.scene = program.scene;
    Runner runner(program, run);
    runner.runUntil(1.0);
    return runner.controller().warnings();
  };
  const std::vector<ControlWarning> far = warningsWithBoxAt(0.1);
  REQUIRE(far.size() == 1);
  CHECK(far[0].phase == 0);
  CHECK(far[0].message ==
        "the phase ended without a hold on 'box': no grasping link took hold of it (within its "
        "reach, 0.05 m; an object held for its launch is taken only once launched)");
  CHECK(warningsWithBoxAt(0.02).empty());
}

TEST_CASE("a phase's grasp welds, when holding ends the phase, the next phase lets go") {
  const SimulationDef def = handAndBox(0.02);
  std::string script =
      "scene pose: standing duration: 2\n{\n  (take)\n  [grasp rightHand box]\n}\n"
      "when holding box or after 1\n{\n  (hold)\n  [grasp rightHand box]\n}\nafter 0.5\n"
      "{\n  (let_go)\n  [waist 0]\n}\n";
  // The box of handAndBox() as a world statement of the script.
  const size_t header = script.find('\n');
  const SceneBodyDef& box = def.scene.bodies[1];
  script.insert(header + 1, "box box at: (" + std::to_string(box.at[0]) + ", " +
                                std::to_string(box.at[1]) + ") size: (0.1, 0.1) mass: 1\n");
  const Program program = testing::compileOk(script);
  SimulationDef run;
  run.scene = program.scene;
  Runner runner(program, run);
  runner.runUntil(0.01);
  CHECK(runner.controller().output().phase == 1);  // held at once: `when holding` fired
  CHECK(runner.simulation().state().links[kRightHand].holding == kBox);
  runner.runUntil(0.4);
  CHECK(runner.simulation().state().links[kRightHand].holding == kBox);
  runner.runUntil(1.5);
  CHECK(runner.controller().output().phase == 2);
  CHECK(runner.simulation().state().links[kRightHand].holding == 0);
}

// The state after running `script` (in its own scene) for `seconds`.
CharacterState stateAfter(const std::string& script, double seconds) {
  const Program program = testing::compileOk(script);
  SimulationDef def;
  def.scene = program.scene;
  Runner runner(program, def);
  runner.runUntil(seconds);
  return runner.simulation().state();
}

// A load welded to the right hand, held out by the feature QP: the QP plans with it.
// Without the held mass in its model the 20 kg load pulled the character over forward at
// 2.6 s, and 10 kg sagged the hand 1.5 cm; with it, 20 kg is held within 1.2 cm of
// where 0.5 kg is.
Vec2 handAfterHolding(double mass) {
  const std::string script =
      "scene pose: standing duration: 3\n"
      "box load at: (0.075, 1.05) size: (0.1, 0.1) mass: " +
      std::to_string(mass) +
      "\n\n{\n  (hold)\n  [grasp rightHand load]\n"
      "  [necks 0, waist 0, hips 0, knees -5, shoulders 0, elbows 10]\n"
      "  [com (0, 1.15) kp 60 kd 15 time: 0.5]\n  [track trunk 90]\n"
      "  [track rightWrist (0.15, 1.1) time: 1]\n"
      "  [angmom 0 kd 10 weight 0.01]\n  [support feet]\n}\n";
  const CharacterState state = stateAfter(script, 3.0);
  CHECK(state.links[kRightHand].holding == kBox);
  CHECK(state.links[kPelvis].com.y() > 0.8);  // standing
  return state.links[kRightHand].com;
}

TEST_CASE("the feature QP plans with what the hands hold") {
  const Vec2 light = handAfterHolding(0.5);
  for (double mass : {5.0, 20.0}) {
    CAPTURE(mass);
    CHECK((handAfterHolding(mass) - light).norm() < 0.02);
  }
}

// The PD stance of scripts/stand.scl holding a load at arm's length, 0.7 m ahead, for 3 s.
CharacterState pdStanceHolding(double mass) {
  const std::string script =
      "scene pose: standing duration: 3\n"
      "box load at: (0.075, 1.05) size: (0.1, 0.1) mass: " +
      std::to_string(mass) +
      "\n\n{\n  (hold)\n  [grasp rightHand load]\n  [rightShoulder 45, rightElbow 45]\n"
      "  [relax ankles strength 0.1]\n  [vf sb(600, 300) on: trunk, by: leftAnkle]\n"
      "  [symm]\n  [gc]\n}\n";
  CharacterState state = stateAfter(script, 3.0);
  CHECK(state.links[kRightHand].holding == kBox);
  return state;
}

// [gc] compensates what a link holds as well: the arm keeps its angles holding 2 kg
// (without the load's weight in gc, 0.5 kg already sagged the shoulder 0.44°).
TEST_CASE("gravity compensation carries what the hands hold") {
  const CharacterState state = pdStanceHolding(2.0);
  CHECK(radToDeg(state.jointAngles[kRightShoulder]) == Approx(45.0).margin(0.05));
  CHECK(radToDeg(state.jointAngles[kRightElbow]) == Approx(45.0).margin(0.05));
}

// Stance balance balances the body with its load: 5 and 10 kg at arm's length stand
// (balancing the body alone, 5 kg fell forward at 1.1 s).
TEST_CASE("stance balance balances what the hands hold with the body") {
  for (double mass : {5.0, 10.0}) {
    CAPTURE(mass);
    const CharacterState state = pdStanceHolding(mass);
    CHECK(state.links[kPelvis].com.y() > 0.8);
    CHECK(state.links[kHead].com.y() > 1.5);
  }
}

// A hold with a grip breaks when pulled harder than the grip, and `when released` ends the
// phase then; without one it holds. The right hand holds a 1 kg box out in front on the
// feature stance; from 1.5 s a script push pulls the box forward with 150 N.
TEST_CASE("a grip breaks when pulled harder, and when released ends the phase") {
  const auto phaseAfterTug = [](const std::string& grip) {
    const std::string script =
        "scene pose: standing duration: 3\n"
        "box box at: (0.075, 1.05) size: (0.1, 0.1) mass: 1\n"
        "push box force: (150, 0) at: 1.5 for: 0.2\n"
        "{\n  (hold)\n  [grasp rightHand box reach: 0.1" +
        grip +
        "]\n  [necks 0, waist 0, hips 0, knees -5, shoulders 0, elbows 10]\n"
        "  [com (0, 1.15) kp 60 kd 15 time: 0.5]\n  [track trunk 90]\n"
        "  [track rightWrist (0.15, 1.1) time: 1]\n"
        "  [angmom 0 kd 10 weight 0.01]\n  [support feet]\n}\n"
        "when released box or after 2.5\n{\n  (after)\n  [waist 0]\n}\n";
    RunSessionDef run;
    run.simulation.scene = testing::compileOk(script).scene;
    RunSession session(testing::compileOk(script), run);
    std::pair<int, double> end{0, 0.0};  // the phase at 2 s, and when it began
    while (session.runner().simulation().time() < 2.0) session.step();
    end.first = session.runner().controller().output().phase;
    for (const PhaseStart& start : session.timeline())
      if (start.index == end.first) end.second = start.time;
    return end;
  };
  const auto [gripped, releasedAt] = phaseAfterTug(" grip: 60");
  CHECK(gripped == 1);
  CHECK(releasedAt > 1.5);
  CHECK(releasedAt < 1.55);
  CHECK(phaseAfterTug("").first == 0);  // held on: a weld alone never breaks
}
