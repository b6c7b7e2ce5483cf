// The physical bounds of a character file's numbers (scl/character.h): out of them a file is
// refused with a located error (tests/characters/physical_bounds.character and
// pose_bounds.character state those); at them the character still simulates, so nothing a
// file can say reaches a Box2D assertion (which aborts the program). Before the bounds,
// `length: 1e20` or `mass: 1e39` passed `scl check` and then aborted in Box2D.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>

#include "runtime/simulation.h"
#include "scl/character_file.h"
#include "tests/inline_expectations.h"

namespace {

using namespace scl;

std::string humanSource() {
  return testing::readTextFile(SCL_SOURCE_DIR "/characters/human.character");
}

// `source` with the text after `argument: ` (to the next space) replaced by `value` on
// every line starting with `statement` (a link or joint, or one of them by name).
std::string withEvery(const std::string& source, const std::string& statement,
                      const std::string& argument, const std::string& value) {
  std::istringstream lines(source);
  std::string out, line;
  while (std::getline(lines, line)) {
    const size_t at = line.find(argument + ": ");
    if (line.starts_with(statement + " ") && at != std::string::npos) {
      const size_t from = at + argument.size() + 2;
      line.replace(from, line.find(' ', from) - from, value);
    }
    out += line + '\n';
  }
  return out;
}

std::string withEveryThickness(const std::string& source, double value) {
  std::istringstream lines(source);
  std::string out, line;
  while (std::getline(lines, line)) {
    const size_t from = line.find("thickness: (");
    if (line.starts_with("link ") && from != std::string::npos) {
      const size_t to = line.find(')', from);
      line.replace(from, to + 1 - from,
                   "thickness: (" + std::to_string(value) + ", " + std::to_string(value) + ")");
    }
    out += line + '\n';
  }
  return out;
}

// Steps the standing pose for a tenth of a second under the default PD and checks that the
// state stays finite (a Box2D assertion would abort the whole test program instead).
void simulates(const std::string& source, const std::string& what) {
  INFO(what);
  const CharacterLoad load = compileCharacter(source, what + ".character");
  INFO(renderDiagnostics(load.diagnostics, source));
  REQUIRE(load.ok());
  SimulationDef def;
  def.character = load.character;
  Simulation simulation(def);
  const Character& character = *load.character;
  for (int i = 0; i < 400; ++i) {
    std::array<double, kMaxJoints> torques{};
    const CharacterState& state = simulation.state();
    for (int j = 0; j < kBipedJointCount; ++j)
      torques[j] =
          character.joints[j].kp * (simulation.initialJointAngles()[j] - state.jointAngles[j]) -
          character.joints[j].kd * state.jointVelocities[j];
    simulation.setJointTorques(torques);
    simulation.step();
  }
  for (const LinkState& link : simulation.state().links)
    CHECK((std::isfinite(link.origin.x()) && std::isfinite(link.origin.y())));
}

}  // namespace

TEST_CASE("a character at its physical bounds simulates without a Box2D assertion") {
  const std::string human = humanSource();
  // Every joint at its parent's origin, which lies on a link of any length.
  const std::string atOrigins = withEvery(human, "joint", "at", "0");
  simulates(withEveryThickness(
                withEvery(atOrigins, "link", "length", std::to_string(kLinkLengthBounds.min)),
                kLinkThicknessBounds.min),
            "shortest and thinnest links");
  simulates(withEvery(atOrigins, "link", "length", std::to_string(kLinkLengthBounds.max)),
            "longest links");
  simulates(withEveryThickness(human, kLinkThicknessBounds.min), "thinnest links");
  simulates(withEveryThickness(human, kLinkThicknessBounds.max), "thickest links");
  simulates(withEvery(human, "link", "mass", std::to_string(kLinkMassBounds.min)),
            "lightest links");
  simulates(withEvery(human, "link", "mass", std::to_string(kLinkMassBounds.max)),
            "heaviest links");
  simulates(withEvery(withEvery(withEvery(human, "joint", "kp", std::to_string(kJointKpBounds.max)),
                                "joint", "kd", std::to_string(kJointKdBounds.max)),
                      "joint", "torque", std::to_string(kJointTorqueBounds.max)),
            "stiffest joints");
}

TEST_CASE("a number just outside its bounds is an error at that number") {
  const std::string human = humanSource();
  const auto errorAt = [](const std::string& source, const std::string& text) {
    const CharacterLoad load = compileCharacter(source, "edited.character");
    REQUIRE_FALSE(load.ok());
    const std::string rendered = renderDiagnostics(load.diagnostics, source);
    INFO(rendered);
    CHECK(rendered.find(text) != std::string::npos);
  };
  errorAt(withEvery(human, "link trunk", "length", "10.5"),
          "'length:' must be from 0.01 to 10 m (found 10.5 m)");
  errorAt(withEvery(human, "link trunk", "mass", "0.005"),
          "'mass:' must be from 0.01 to 1000 kg (found 0.005 kg)");
  errorAt(withEvery(human, "link leftFoot", "length", "0.01"),
          "the caps of link 'leftFoot' (0.08 and 0.052 m across) differ in radius by more "
          "than its length 0.01 m");
  errorAt(withEvery(human, "joint waist", "torque", "1e6"),
          "'torque:' must be from 0 to 100000 N·m (found 1000000 N·m)");
}
