// The built-in bodies beside the human (characters/child.character, robot.character;
// docs/retargeting.md): they compile, their masses and heights are the ones the docs
// state, their poses rest, they stand under quiet-stance control, and every ported
// script in scripts/ports/ meets its motion's mark on the character it names.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/metrics.h"
#include "runtime/motion_trial.h"
#include "runtime/placement.h"
#include "runtime/run_session.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/character_file.h"
#include "scl/compile.h"
#include "test_support.h"
#include "tools/character_report.h"

using namespace scl;
namespace fs = std::filesystem;

namespace {

const fs::path kSourceDir = SCL_SOURCE_DIR;

using testing::builtinCharacter;
using testing::readWholeTextFile;

// A script compiled for `character` (nullptr: the one its `scene character:` names).
Program compileFor(const std::string& source, const std::string& fileName,
                   std::shared_ptr<const Character> character) {
  CompileResult result = compile(source, fileName, CompileOptions{std::move(character), {}});
  INFO(renderDiagnostics(result.diagnostics, source));
  REQUIRE(result.ok());
  return *std::move(result.program);
}

// docs/retargeting.md, "The characters": the table's rows by their first cell, each a
// map from the column's character name to the cell's number.
std::map<std::string, std::map<std::string, double>> documentedCharacters() {
  return testing::numericTableAfter(readWholeTextFile(kSourceDir / "docs/retargeting.md"),
                                    "## The characters");
}

// The quiet stance of scripts/stand.scl with its stance-balance gains scaled from the
// human's sb(600, 300) by Froude similarity: kp by m/h, kd by m/sqrt(h) (docs/retargeting.md,
// "Gains"). For the human it is scripts/stand.scl's control, number for number.
std::string quietStance(const Character& character, double seconds) {
  const double m = character.totalMass / humanCharacter()->totalMass;
  const double h = referenceHeights(character).head / referenceHeights(*humanCharacter()).head;
  std::ostringstream script;
  script << "scene pose: standing env: flat duration: " << seconds << "\n"
         << "{\n  [necks 0, waist 0, hips 0, knees 0 time: 0.5]\n"
         << "  [relax ankles strength 0.1]\n"
         << "  [vf sb(" << 600 * m / h << ", " << 300 * m / std::sqrt(h)
         << ") on: trunk, by: leftAnkle]\n  [symm]\n  [gc]\n}\n";
  return script.str();
}

const std::vector<std::string> kBodies = {"human", "child", "robot"};

// Knee height standing straight, metres.
double kneeHeight(const Character& character) {
  const ReferenceHeights heights = referenceHeights(character);
  return heights.hip - character.links[kLeftThigh].length;
}

}  // namespace

TEST_CASE("the built-in characters are the human, the child and the robot, and compile cleanly") {
  std::vector<std::string> names;
  for (std::string_view name : builtinCharacterNames()) names.emplace_back(name);
  for (const std::string& name : kBodies) {
    CAPTURE(name);
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
    const CharacterLoad load = loadCharacter(name);
    REQUIRE(load.ok());
    CHECK(load.diagnostics.empty());  // no warning either
    CHECK(load.character->name == name);
    const Character& human = *humanCharacter();
    // Same biped: names, wiring, groups and poses; ranges as the human's.
    for (int j = 0; j < kBipedJointCount; ++j) {
      CHECK(load.character->joints[j].name == human.joints[j].name);
      CHECK(load.character->joints[j].minDeg == human.joints[j].minDeg);
      CHECK(load.character->joints[j].maxDeg == human.joints[j].maxDeg);
    }
    CHECK(load.character->linkGroups.size() == human.linkGroups.size());
    CHECK(load.character->jointGroups.size() == human.jointGroups.size());
    REQUIRE(load.character->poses.size() == human.poses.size());
    for (size_t p = 0; p < human.poses.size(); ++p)
      CHECK(load.character->poses[p].name == human.poses[p].name);
  }
}

TEST_CASE("masses and heights are those docs/retargeting.md states") {
  const auto documented = documentedCharacters();
  REQUIRE(documented.count("mass (kg)"));
  REQUIRE(documented.count("height: top of the head (m)"));
  REQUIRE(documented.count("head height: neckTop (m)"));
  REQUIRE(documented.count("leg length: hip joints (m)"));
  for (const std::string& name : kBodies) {
    CAPTURE(name);
    const auto character = builtinCharacter(name);
    const ReferenceHeights heights = referenceHeights(*character);
    CHECK(character->totalMass == Approx(documented.at("mass (kg)").at(name)).margin(0.005));
    CHECK(heights.top ==
          Approx(documented.at("height: top of the head (m)").at(name)).margin(0.005));
    CHECK(heights.head == Approx(documented.at("head height: neckTop (m)").at(name)).margin(0.005));
    CHECK(heights.hip ==
          Approx(documented.at("leg length: hip joints (m)").at(name)).margin(0.005));
  }
  // The brief of each body: a 1.2 m, 25 kg child; the human's thesis figures.
  CHECK(documented.at("mass (kg)").at("child") == 25.0);
  CHECK(documented.at("height: top of the head (m)").at("child") == 1.2);
  CHECK(documented.at("mass (kg)").at("human") == 89.49);
}

TEST_CASE("each character's standing pose has flat feet on the ground and the head up") {
  for (const std::string& name : kBodies) {
    CAPTURE(name);
    const auto character = builtinCharacter(name);
    const CharacterState state = standingState(*character);
    CHECK(lowestPoint(*character, state) == Approx(0.0).margin(1e-9));
    double heel = 1e9, toe = -1e9;
    for (int foot : {kLeftFoot, kRightFoot}) {
      const LinkDef& def = character->links[foot];
      const Vec2 axis = linkAxis(*character, foot, state.links[foot].angle);
      const Vec2 proximal = state.links[foot].origin;
      const Vec2 distal = proximal + def.length * axis;
      // Both caps rest on the ground: the sole is flat.
      CHECK(proximal.y() - def.proximalThickness / 2 == Approx(0.0).margin(1e-6));
      CHECK(distal.y() - def.distalThickness / 2 == Approx(0.0).margin(1e-6));
      heel = std::min(heel, proximal.x() - def.proximalThickness / 2);
      toe = std::max(toe, distal.x() + def.distalThickness / 2);
    }
    // No other link reaches the ground: the shanks' ankle ends clear it by a few
    // millimetres (the human's by 5 mm).
    for (int link = 0; link < kBipedLinkCount; ++link) {
      if (link == kLeftFoot || link == kRightFoot) continue;
      CAPTURE(kBipedLinkNames[link]);
      const LinkDef& def = character->links[link];
      const Vec2 distal = state.links[link].origin +
                          def.length * linkAxis(*character, link, state.links[link].angle);
      CHECK(std::min(state.links[link].origin.y() - def.proximalThickness / 2,
                     distal.y() - def.distalThickness / 2) > 0.0025);
    }
    // The head points up and the centre of mass stands over the feet, ahead of the heels.
    CHECK(radToDeg(state.links[kHead].angle) == Approx(88.0).margin(1e-6));
    CHECK(state.com.x() > heel + 0.02);
    CHECK(state.com.x() < toe - 0.02);
  }
}

TEST_CASE("every initial pose of each character rests under its default PD") {
  for (const std::string& name : kBodies) {
    const auto character = builtinCharacter(name);
    for (const char* pose : {"standing", "supine", "prone", "sitting", "crouching"}) {
      CAPTURE(name, pose);
      SimulationDef def;
      def.character = character;
      def.scene.pose = pose;
      if (std::string(pose) == "sitting") {
        // A chair for its legs: the human's 0.45 m scaled by knee height (a seat its feet
        // reach; on the human's chair the child's and the robot's feet hang).
        def.scene.bodies = scl::environmentBodies(
            scl::Environment::Chair,
            {.seatHeight = 0.45 * kneeHeight(*character) / kneeHeight(*humanCharacter())});
      }
      Simulation simulation(def);
      const CharacterState start = simulation.state();
      CHECK(lowestPoint(*character, start) >= -0.002);
      bool touching = false;
      for (const LinkState& link : start.links) touching = touching || link.contact;
      CHECK(touching);
      // Standing and crouching are inverted pendulums: they rest only briefly under PD
      // alone (tests/test_foundation.cpp); the others hold.
      const bool unstable = std::string(pose) == "standing" || std::string(pose) == "crouching";
      const long steps = std::lround((unstable ? 0.25 : 1.0) / simulation.timeStep());
      for (long i = 0; i < steps; ++i) {
        std::array<double, kMaxJoints> torques{};
        const CharacterState& state = simulation.state();
        for (int j = 0; j < kBipedJointCount; ++j)
          torques[j] = character->joints[j].kp *
                           (simulation.initialJointAngles()[j] - state.jointAngles[j]) -
                       character->joints[j].kd * state.jointVelocities[j];
        simulation.setJointTorques(torques);
        simulation.step();
      }
      double worst = 0.0;
      for (int i = 0; i < kBipedLinkCount; ++i)
        worst = std::max(worst, (simulation.state().links[i].com - start.links[i].com).norm());
      CAPTURE(worst);
      CHECK(worst < 0.02);
    }
  }
}

TEST_CASE("each character stands for 3 s under quiet-stance control scaled to its body") {
  for (const std::string& name : kBodies) {
    CAPTURE(name);
    const auto character = builtinCharacter(name);
    const std::string source = quietStance(*character, 3.0);
    CAPTURE(source);
    const Program program = compileFor(source, "stand.scl", character);
    RunSessionDef run;
    run.simulation = simulationDefFor(program);
    REQUIRE(run.simulation.character == character);
    run.length.duration = 3.0;
    run.metrics = metricsFor(*character);
    RunSession session(program, run);
    session.run();
    const MotionSummary summary = session.summary();
    CHECK(summary.standing);
    CHECK_FALSE(summary.fell);
    const CharacterState& state = session.runner().state();
    CHECK(state.links[kLeftFoot].contact);
    CHECK(state.links[kRightFoot].contact);
    CHECK_FALSE(MotionMetrics::bodyTouches(*character, state));
    // Still upright: the head within 2 cm of its standing height.
    CHECK(summary.headHeight == Approx(referenceHeights(*character).head).margin(0.03));
  }
}

TEST_CASE("marks scale to the character, the human's are unchanged") {
  const MotionMark& walk = *findMotionMark("walk");
  CHECK(*markFor(walk, *humanCharacter()).minDistance == *walk.minDistance);
  const MetricsDef human = metricsFor(*humanCharacter());
  CHECK(human.standingHeadHeight == MetricsDef{}.standingHeadHeight);
  CHECK(human.riseHeadHeight == MetricsDef{}.riseHeadHeight);
  const auto child = builtinCharacter("child");
  const double ratio = referenceHeights(*child).head / referenceHeights(*humanCharacter()).head;
  CHECK(metricsFor(*child).standingHeadHeight == Approx(1.6 * ratio));
  CHECK(metricsFor(*child).riseHeadHeight == Approx(1.75 * ratio));
  const double legs = referenceHeights(*child).hip / referenceHeights(*humanCharacter()).hip;
  CHECK(*markFor(walk, *child).minDistance == Approx(3.0 * std::sqrt(legs)));
}

TEST_CASE("every ported script meets its motion's mark on the character it names") {
  // scripts/ports/<motion>_<character>.scl; the header says what the script does and names
  // the character in a `// character: NAME` line.
  const fs::path folder = kSourceDir / "scripts/ports";
  if (!fs::exists(folder)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".scl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    CAPTURE(path.filename().string());
    const std::string source = readWholeTextFile(path);
    REQUIRE(source.rfind("//", 0) == 0);  // a header
    const std::string stem = path.stem().string();
    const size_t underscore = stem.rfind('_');
    REQUIRE(underscore != std::string::npos);
    const std::string motion = stem.substr(0, underscore);
    const std::string characterName = stem.substr(underscore + 1);
    CHECK(source.find("scene character: " + characterName + " ") != std::string::npos);
    const MotionMark* mark = findMotionMark(motion);
    REQUIRE(mark);
    // The script names its character itself.
    const Program program = compileFor(source, path.string(), nullptr);
    REQUIRE(program.character->name == characterName);
    for (std::uint64_t seed : {0, 1, 2, 3}) {
      CAPTURE(seed);
      MotionTrial trial;
      trial.perturbDeg = seed == 0 ? 0.0 : 2.0;
      trial.seed = seed;
      const MotionTrialResult result = runMotionTrial(*mark, program, trial);
      CAPTURE(result.failure);
      CHECK(result.met);
    }
  }
}
