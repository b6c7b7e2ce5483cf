// scripts/catch-ball.scl catches balls of other weights and speeds with the same script:
// its ball's mass and throw are world parameters (docs/scene.md), set as `scl run --set`
// sets them. tests/test_examples.cpp checks its outcome lines with the defaults (a 0.5 kg
// ball at 3 m/s); here, from the nominal start, the two other cases of its header: the
// same ball at 5 m/s and a 2 kg ball at 3 m/s, each caught by the right hand alone and
// held, the character standing at the end.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/outcomes.h"
#include "runtime/run_session.h"
#include "runtime/runner.h"
#include "scl/compile.h"
#include "scl/names.h"
#include "scl/scene_body.h"
#include "tests/cli_support.h"

namespace {

using namespace scl;

using Sets = std::vector<std::pair<std::string, double>>;

// The script with `sets` applied as `--set NAME=VALUE` applies them.
Program withSets(const std::string& source, const Sets& sets) {
  CompileResult compiled = compile(source, "scripts/catch-ball.scl");
  REQUIRE(compiled.ok());
  Program program = *compiled.program;
  std::vector<double> values = program.parameterValues();
  for (const auto& [name, value] : sets) {
    const NameLookup parameter = lookupParameter(program.parameters, name);
    INFO(name);
    REQUIRE(parameter.ok());
    values[static_cast<size_t>(parameter.index())] = value;
  }
  program.setParameters(values);
  return program;
}

MotionSummary runToEnd(const Program& program) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length = defaultRunLength(program);
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  RunSession session(program, def);
  session.run();
  return session.summary();
}

}  // namespace

TEST_CASE("catch-ball.scl catches a faster ball and a heavier one, by --set", "[examples]") {
  const std::string source = testing::readText(SCL_SOURCE_DIR "/scripts/catch-ball.scl");
  struct Case {
    const char* what;
    Sets sets;
    double mass, speed;
  };
  for (const Case& run :
       {Case{"0.5 kg at 5 m/s", {{"ball.velocity.x", -5}, {"ball.velocity.y", 1.15}}, 0.5, 5},
        Case{"2 kg at 3 m/s", {{"ball.mass", 2}}, 2, 3}}) {
    INFO(run.what);
    const Program program = withSets(source, run.sets);
    const SceneBodyDef* ball = findSceneBody(program.scene.bodies, "ball");
    REQUIRE(ball != nullptr);
    CHECK(ball->mass == run.mass);
    CHECK(ball->velocity[0] == -run.speed);
    const auto bit = std::uint64_t{1} << static_cast<unsigned>(ball - program.scene.bodies.data());

    const MotionSummary summary = runToEnd(program);
    CHECK(summary.standing);
    CHECK_FALSE(summary.fell);
    CHECK((summary.heldAtEnd & bit) != 0);
    // Taken by the hand on its path: no link touched it (a weld is no touch).
    REQUIRE(summary.objects.size() == 1);
    for (bool touched : summary.objects[0].touchedBy) CHECK_FALSE(touched);
    // Every outcome line of the header but the quota holds as well.
    const OutcomeLines outcomes = readOutcomeLines(source, "scripts/catch-ball.scl", program);
    REQUIRE(outcomes.errors.empty());
    for (const OutcomeClaim& claim : outcomes.claims) {
      if (claim.kind == OutcomeKind::PerturbedQuota) continue;
      INFO("outcome: " << claim.text);
      CHECK(outcomeHolds(claim, summary) == true);
    }
  }
}
