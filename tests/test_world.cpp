// The world: world statements and files (scl/world.h), the one check of every body
// (sceneBodyIssues) and their bodies in the simulation (runtime/scene_world.h).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "runtime/simulation.h"
#include "scl/lexer.h"
#include "scl/scene.h"
#include "scl/world.h"
#include "test_support.h"

namespace {

using scl::SceneBodyDef;
using scl::SceneBodyKind;
using scl::Simulation;
using scl::SimulationDef;

// The scene of a script whose world statements follow `scene pose: standing`.
scl::Scene sceneOf(const std::string& world) {
  return scl::testing::compileOk("scene pose: standing\n" + world + "\n{\n  [waist 0]\n}\n").scene;
}

SimulationDef simulationOf(const std::string& world) {
  SimulationDef def;
  def.scene = sceneOf(world);
  return def;
}

const scl::WorldBodyState& stateOf(const Simulation& simulation, int sceneBody, int part = 0) {
  for (const scl::WorldBodyState& state : simulation.worldBodies())
    if (state.sceneBody == sceneBody && state.part == part) return state;
  FAIL("no state of scene body " << sceneBody << " part " << part);
  return simulation.worldBodies().front();
}

void run(Simulation& simulation, double seconds) {
  const int steps = static_cast<int>(std::lround(seconds / simulation.timeStep()));
  for (int i = 0; i < steps; ++i) simulation.step();
}

}  // namespace

TEST_CASE("world statements bind to scene bodies after the ground, in order") {
  const scl::Scene scene = sceneOf(
      "ground friction: 0.7\n"
      "platform step at: 0.35 size: (1, 0.15)\n"
      "ball ball at: (2, 1.3) radius: 0.11 mass: 2 velocity: (-3, 0) launch: 1\n"
      "chain rope at: (-4, 2) count: 5 size: (0.2, 0.04) density: 50 angle: -90 fixed: yes");
  REQUIRE(scene.bodies.size() == 4);
  CHECK(scene.bodies[0].kind == SceneBodyKind::Ground);
  CHECK(scene.bodies[0].friction == 0.7);
  const SceneBodyDef& step = scene.bodies[1];
  CHECK(step.kind == SceneBodyKind::Platform);
  CHECK(step.name == "step");
  CHECK(step.x == 0.35);
  CHECK(step.size == std::array<double, 2>{1, 0.15});
  CHECK(!step.movable());
  const SceneBodyDef& ball = scene.bodies[2];
  CHECK(ball.movable());
  CHECK(ball.radius == 0.11);
  CHECK(ball.launch == 1.0);
  CHECK(ball.velocity == std::array<double, 2>{-3, 0});
  CHECK(ball.friction == scl::kDefaultObjectFriction);
  const SceneBodyDef& rope = scene.bodies[3];
  CHECK(rope.count == 5);
  CHECK(rope.fixed);
  CHECK(rope.density == 50);
  CHECK(rope.mass == 0);
}

TEST_CASE("an environment's change keeps the world's bodies") {
  const scl::Scene base = sceneOf("platform step at: 0.35 size: (1, 0.15)");
  scl::SceneRequest request;
  request.environment = "chair";
  const scl::SceneResolution resolved = scl::resolveScene(request, base, *scl::humanCharacter());
  REQUIRE(resolved.ok());
  REQUIRE(resolved.scene.bodies.size() == 3);
  CHECK(resolved.scene.bodies[1].kind == SceneBodyKind::Chair);
  CHECK(resolved.scene.bodies[2].name == "step");
}

TEST_CASE("terrain height under an interval: the highest top over it") {
  const scl::Scene scene = sceneOf(
      "platform step at: 0.35 size: (1, 0.15)\n"
      "stairs flight at: 3 rise: 0.1 run: 0.3 count: 4 landing: 1\n"
      "slope hill from: (10, 0) to: (12, 0.2)");
  CHECK(scl::terrainHeight(scene.bodies, -1, 0.3) == 0.0);
  CHECK(scl::terrainHeight(scene.bodies, 0.3, 0.4) == 0.15);
  CHECK(scl::terrainHeight(scene.bodies, 3.65, 3.7) == Approx(0.3));
  CHECK(scl::terrainHeight(scene.bodies, 3.95, 4.5) == Approx(0.4));  // the landing
  CHECK(scl::terrainHeight(scene.bodies, 10.9, 11.1) == Approx(0.11));
}

TEST_CASE("a world file: parsed, printed canonically with its comments, loaded by a script") {
  const std::string source =
      "// A room.\n"
      "world room\n"
      "platform  step at: 0.35   size: (1, 0.15)  // the step\n"
      "\n"
      "// Something to push.\n"
      "box crate size: (0.5, 0.5) at: (-1, 0.25) mass: 40\n";
  const scl::WorldFileParse parse = scl::parseWorldFile(source, "room.world");
  REQUIRE(parse.diagnostics.empty());
  REQUIRE(parse.file.statements.size() == 2);
  const std::string printed = scl::printWorldFile(parse.file, scl::scanComments(source));
  CHECK(printed ==
        "// A room.\n"
        "world room\n"
        "\n"
        "platform step at: 0.35 size: (1, 0.15)  // the step\n"
        "// Something to push.\n"
        "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 40\n");
  // Idempotent.
  const scl::WorldFileParse again = scl::parseWorldFile(printed, "room.world");
  CHECK(scl::printWorldFile(again.file, scl::scanComments(printed)) == printed);

  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / "scl_test_world_file";
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "room.world") << source;
  std::ofstream(directory / "bad.world")
      << "world bad\nbox crate at: (0, 0.1) size: (0.5, 0.5) mass: 40\n";
  const std::string script = "scene world: \"room.world\"\n{\n  [waist 0]\n}\n";
  scl::CompileOptions options;
  options.baseDirectory = directory;
  scl::CompileResult result = scl::compile(script, "t.scl", options);
  REQUIRE(result.ok());
  REQUIRE(result.program->scene.bodies.size() == 3);
  CHECK(result.program->scene.bodies[2].name == "crate");

  result = scl::compile("scene world: \"bad.world\"\n{\n  [waist 0]\n}\n", "t.scl", options);
  REQUIRE(!result.ok());
  REQUIRE(result.diagnostics.size() == 2);
  CHECK(result.diagnostics[0].message == "world file 'bad.world' has 1 error");
  CHECK(result.diagnostics[0].location.line == 1);
  CHECK(result.diagnostics[1].severity == scl::Severity::Note);
  CHECK(result.diagnostics[1].location.line == 2);
  CHECK(result.diagnostics[1].message.find("reaches below the ground") != std::string::npos);

  std::ofstream(directory / "cr.world")
      << "world cr\rbox crate at: (0, 1) size: (0.5, 0.5) mass: 4\r";
  result = scl::compile("scene world: \"cr.world\"\n{\n  [waist 0]\n}\n", "t.scl", options);
  REQUIRE(!result.ok());
  CHECK(result.diagnostics.size() == 2);
  CHECK(result.diagnostics.back().message.find("CR-only line endings") != std::string::npos);

  result = scl::compile("scene world: \"missing.world\"\n{\n  [waist 0]\n}\n", "t.scl", options);
  REQUIRE(!result.ok());
  CHECK(result.diagnostics[0].message.find("missing.world") != std::string::npos);
  std::filesystem::remove_all(directory);
}

TEST_CASE("a box dropped from a height falls and comes to rest on the ground") {
  Simulation simulation(simulationOf("box crate at: (-1.5, 1) size: (0.4, 0.3) mass: 10"));
  CHECK(stateOf(simulation, 1).position.y() == Approx(1.0));
  run(simulation, 1.5);
  const scl::WorldBodyState& crate = stateOf(simulation, 1);
  CHECK(crate.position.y() == Approx(0.15).margin(0.002));
  CHECK(crate.velocity.norm() < 0.01);
  CHECK(crate.position.x() == Approx(-1.5).margin(0.001));
}

TEST_CASE("a launched ball waits where it is, then flies with its velocity") {
  Simulation simulation(
      simulationOf("ball ball at: (3, 1.5) radius: 0.1 mass: 2 velocity: (-3, 1) launch: 0.5"));
  run(simulation, 0.4);
  CHECK(stateOf(simulation, 1).position.x() == 3.0f);
  CHECK(stateOf(simulation, 1).position.y() == 1.5f);
  run(simulation, 0.2);  // launched at 0.5 s: 0.1 s of flight
  const scl::WorldBodyState& ball = stateOf(simulation, 1);
  CHECK(ball.position.x() == Approx(3.0 - 0.3).margin(0.002));
  CHECK(ball.velocity.x() == Approx(-3.0).margin(0.01));
  CHECK(ball.velocity.y() == Approx(1.0 - 9.81 * 0.1).margin(0.01));
}

TEST_CASE("a moving platform follows its path and carries what stands on it") {
  Simulation simulation(
      simulationOf("platform deck at: -4 size: (1, 0.2) move: (0.3, 0) frequency: 0.5\n"
                   "box load at: (-3.5, 0.35) size: (0.2, 0.3) mass: 5 friction: 1"));
  const double rest = stateOf(simulation, 1).position.x();
  CHECK(rest == Approx(-3.5));
  run(simulation, 0.5);  // a quarter period: at the amplitude, at rest
  CHECK(stateOf(simulation, 1).position.x() == Approx(rest + 0.3).margin(1e-3));
  CHECK(stateOf(simulation, 1).velocity.x() == Approx(0.0).margin(1e-3));
  CHECK(stateOf(simulation, 1).position.y() == Approx(0.1).margin(1e-4));
  // Carried, after the slip of its start (the deck starts at 0.94 m/s, the load at rest).
  CHECK(stateOf(simulation, 2).position.x() == Approx(-3.5 + 0.3).margin(0.05));
  run(simulation, 0.5);  // half: back where it began, fastest
  CHECK(stateOf(simulation, 1).position.x() == Approx(rest).margin(1e-3));
  CHECK(stateOf(simulation, 1).velocity.x() == Approx(-0.3 * std::numbers::pi).margin(1e-3));
  run(simulation, 0.5);  // three quarters: at the other end
  CHECK(stateOf(simulation, 1).position.x() == Approx(rest - 0.3).margin(1e-3));
}

TEST_CASE("a platform's path: still until its start, from rest with a ramp, and its acceleration") {
  scl::MoveDef move;
  move.amplitude = {0.2, 0.1};
  move.frequency = 0.5;
  move.start = 1.0;
  for (double ramp : {0.0, 2.0}) {
    move.ramp = ramp;
    CAPTURE(ramp);
    CHECK(scl::moveOffset(move, 0.5)[0] == 0.0);
    CHECK(scl::moveOffset(move, 1.0)[0] == 0.0);
    CHECK(scl::moveAcceleration(move, 0.9)[0] == 0.0);
    // Full amplitude a quarter period after the ramp (a whole number of periods long).
    CHECK(scl::moveOffset(move, 1.0 + ramp + 0.5)[0] == Approx(0.2));
    CHECK(scl::moveOffset(move, 1.0 + ramp + 0.5)[1] == Approx(0.1));
    // The acceleration is the path's second difference, inside the ramp and after it.
    const double h = 1e-4;
    for (double t : {1.3, 2.0, 2.7, 3.6, 4.2}) {
      const double second = (scl::moveOffset(move, t + h)[0] - 2.0 * moveOffset(move, t)[0] +
                             scl::moveOffset(move, t - h)[0]) /
                            (h * h);
      CAPTURE(t);
      CHECK(scl::moveAcceleration(move, t)[0] == Approx(second).margin(1e-4));
    }
  }
  // With a ramp the velocity grows from zero: 1 ms after the start it has barely moved.
  move.ramp = 2.0;
  CHECK(std::abs(scl::moveOffset(move, 1.001)[0]) < 1e-9);
  move.ramp = 0.0;
  CHECK(scl::moveOffset(move, 1.001)[0] == Approx(0.2 * std::sin(std::numbers::pi * 0.001)));
}

TEST_CASE("a fixed chain swings from its pinned start") {
  Simulation simulation(
      simulationOf("chain rope at: (-3, 2) count: 4 size: (0.25, 0.04) mass: 0.3 angle: 0 "
                   "fixed: yes"));
  REQUIRE(simulation.worldBodies().size() == 4);
  run(simulation, 0.4);  // a quarter of a swing, about
  const scl::WorldBodyState& first = stateOf(simulation, 1, 0);
  CHECK((first.position - scl::Vec2(-3, 2)).norm() == Approx(0.125).margin(0.005));
  CHECK(stateOf(simulation, 1, 3).position.y() < 1.5);  // fallen from the horizontal
}

TEST_CASE("a standing character starts on the platform under it") {
  Simulation flat(SimulationDef{});
  Simulation raised(simulationOf("platform deck at: -0.5 size: (1, 0.2)"));
  const int foot = flat.character().roles.left().foot;
  CHECK(raised.state().links[foot].com.y() ==
        Approx(flat.state().links[foot].com.y() + 0.2).margin(1e-4));
  CHECK(raised.state().links[foot].contact);
  CHECK(raised.state().links[foot].terrainContact);
  CHECK(raised.state().links[foot].touching == std::uint64_t{1} << 1);  // the deck
  CHECK(flat.state().links[foot].touching == 1);                        // the ground
}

TEST_CASE(
    "a foot on a moving platform reports its velocity and acceleration, on still ground none") {
  Simulation flat(SimulationDef{});
  Simulation riding(
      simulationOf("platform deck at: -1 size: (2, 0.1) move: (0.1, 0) frequency: 0.5 ramp: 1"));
  const int foot = flat.character().roles.left().foot;
  run(flat, 0.7);
  run(riding, 0.7);
  CHECK(flat.state().links[foot].supportVelocity == scl::Vec2::Zero());
  CHECK(flat.state().links[foot].supportAcceleration == scl::Vec2::Zero());
  const scl::LinkState& link = riding.state().links[foot];
  REQUIRE(link.contact);
  const scl::WorldBodyState& deck = stateOf(riding, 1);
  CHECK(link.supportVelocity.x() == Approx(deck.velocity.x()).margin(1e-6));
  CHECK(std::abs(link.supportVelocity.x()) > 0.03);  // it does move
  scl::MoveDef move;
  move.amplitude = {0.1, 0.0};
  move.frequency = 0.5;
  move.ramp = 1.0;
  CHECK(link.supportAcceleration.x() == Approx(scl::moveAcceleration(move, 0.7)[0]));
  CHECK(link.supportAcceleration.y() == 0.0);
}

TEST_CASE("a contact's friction is the smaller of its two bodies'") {
  // A box given a push slides until friction stops it: d = v² / (2 μ g).
  auto slide = [](double friction) {
    Simulation simulation(
        simulationOf("box crate at: (-3, 0.1) size: (0.4, 0.2) mass: 10 "
                     "velocity: (2, 0) friction: " +
                     std::to_string(friction)));
    run(simulation, 2.0);
    return stateOf(simulation, 1).position.x() + 3.0;
  };
  CHECK(slide(0.2) == Approx(4.0 / (2 * 0.2 * 9.81)).epsilon(0.05));
  CHECK(slide(0.5) == Approx(4.0 / (2 * 0.5 * 9.81)).epsilon(0.05));
}

TEST_CASE("objects are part of the state: same scene same bits, other objects other bits") {
  auto hashAfter = [](const std::string& world) {
    Simulation simulation(simulationOf(world));
    run(simulation, 0.3);
    return simulation.stateHash();
  };
  const std::string world = "box crate at: (-1.5, 1) size: (0.4, 0.3) mass: 10";
  CHECK(hashAfter(world) == hashAfter(world));
  CHECK(hashAfter(world) != hashAfter("box crate at: (-1.5, 1.1) size: (0.4, 0.3) mass: 10"));
}

TEST_CASE("every body's bounds: each issue names its key") {
  std::vector<SceneBodyDef> bodies = {scl::groundBody()};
  SceneBodyDef box;
  box.kind = SceneBodyKind::Box;
  box.name = "crate";
  box.size = {0.5, 0.5};
  box.at = {0, 0.25};
  box.mass = 10;
  bodies.push_back(box);
  CHECK(scl::sceneBodyIssues(bodies).empty());
  auto onlyIssue = [&](const std::vector<SceneBodyDef>& list) {
    const auto issues = scl::sceneBodyIssues(list);
    REQUIRE(issues.size() == 1);
    return issues[0];
  };
  bodies[1].size[0] = 1e20;
  CHECK(onlyIssue(bodies).key == "size");
  bodies[1].size[0] = 0.5;
  bodies[1].velocity = {std::nan(""), 0};
  CHECK(onlyIssue(bodies).key == "velocity");
  bodies[1].velocity = {0, 0};
  bodies[1].mass = 0;
  CHECK(onlyIssue(bodies).message == "box 'crate': give a mass (kg) or a density (kg/m²)");
  bodies[1].mass = 10;
  bodies.push_back(bodies[1]);
  CHECK(onlyIssue(bodies).message == "two bodies are named 'crate'");
  bodies.pop_back();
  while (bodies.size() <= scl::kMaxSceneBodies) {
    bodies.push_back(bodies[1]);
    bodies.back().name = "crate" + std::to_string(bodies.size());
  }
  CHECK(onlyIssue(bodies).message.find("at most 64 bodies") != std::string::npos);
}
