// `scl run --seeds` (tools/run_sweep.h) and the outcome lines it checks
// (runtime/outcomes.h): the seed lists, what each line means, a sweep that is the same on
// any number of threads and the same as the single runs it stands for, and the command's
// table, JSON, exit codes and refusals.
#include <catch2/catch.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "runtime/outcomes.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "scl/compile.h"
#include "test_support.h"
#include "tools/run_sweep.h"

namespace {

using namespace scl;
using namespace scl::testing;
using Seeds = std::vector<std::uint64_t>;

// Quiet stance for a second and a half (standing counts after one second): cheap, and it stands
// from every small perturbation.
const std::string kStance = R"(// A short quiet stance.
// outcome: standing at end
// outcome: no fall
// outcome: touches only leftFoot, rightFoot
scene pose: standing env: flat duration: 1.5
{
  (quiet_stance)
  [necks 0, waist 0, hips 0, knees 0 time: 0.5]
  [relax ankles strength 0.1]
  [vf sb(600, 300) on: trunk, by: leftAnkle]
  [symm]
  [gc]
}
)";

SweepDef sweepOf(const Program& program, Seeds seeds, int threads) {
  SweepDef sweep;
  sweep.session.simulation = simulationDefFor(program);
  sweep.session.length = defaultRunLength(program);
  sweep.session.metrics = metricsFor(*program.character, sweep.session.simulation.scene);
  sweep.seeds = std::move(seeds);
  sweep.perturbDeg = 4.0;
  sweep.threads = threads;
  return sweep;
}

}  // namespace

TEST_CASE("sweep: seed lists", "[sweep]") {
  CHECK(parseSeedList("3") == Seeds{1, 2, 3});
  CHECK(parseSeedList("1-4") == Seeds{1, 2, 3, 4});
  CHECK(parseSeedList("7,3,10-12") == Seeds{7, 3, 10, 11, 12});
  CHECK(parseSeedList("0-1") == Seeds{0, 1});
  for (const char* bad : {"", "0", "x", "3-1", "1,,2", "1,", "1-", "-3", "1,1", "1-3,2", "10001",
                          "1-20000", "99999999999"})
    CHECK_FALSE(parseSeedList(bad));
  CHECK(seedRanges({1, 2, 3, 7, 9, 10}) == "1-3, 7, 9-10");
}

TEST_CASE("sweep: outcome lines read, and name what they cannot read", "[sweep]") {
  const Character& human = *humanCharacter();
  const OutcomeLines lines = readOutcomeLines(
      "// outcome: standing at end\n"
      "// outcome: fell by 2.5\n"
      "// outcome: touches only leftFoot, rightFoot\n"
      "// outcome: 18 of 20 perturbed starts\n"
      "// outcome: travels at least x\n"
      "// outcome: touches leftFot\n"
      "// outcome: standing\n"
      "// outcome: 21 of 20 perturbed starts\n"
      "//outcome: ignored, not the tag\n",
      "o.scl", human);
  REQUIRE(lines.claims.size() == 4);
  CHECK(lines.claims[1].kind == OutcomeKind::FellBy);
  CHECK(lines.claims[1].value == 2.5);
  CHECK(lines.claims[1].line == 2);
  CHECK(lines.claims[2].links.size() == 2);
  REQUIRE(lines.quota());
  CHECK(quotaFor(*lines.quota(), 20) == 18);
  CHECK(quotaFor(*lines.quota(), 10) == 9);
  CHECK(quotaFor(*lines.quota(), 3) == 3);
  REQUIRE(lines.errors.size() == 4);
  // Located at the line's words, after `// outcome: `.
  const auto error = [&](size_t i) {
    const Diagnostic& d = lines.errors[i];
    CHECK(d.severity == Severity::Error);
    CHECK(d.location.file == "o.scl");
    CHECK(d.location.column == 13);
    return std::to_string(d.location.line) + ": " + d.message;
  };
  CHECK(error(0) == "5: expected a number after 'travels at least '");
  CHECK(error(1).rfind("6: unknown link 'leftFot'; did you mean 'leftFoot'?", 0) == 0);
  CHECK(error(2).rfind("7: unknown outcome 'standing'", 0) == 0);
  CHECK(error(3).rfind("8: expected a whole number from 0 to 20", 0) == 0);

  MotionSummary summary;
  summary.standing = true;
  summary.fell = 2.0;
  summary.touched[0] = true;
  CHECK(outcomeHolds(lines.claims[0], summary) == true);
  CHECK(outcomeHolds(lines.claims[1], summary) == true);   // fell at 2.0, by 2.5
  CHECK(outcomeHolds(lines.claims[2], summary) == false);  // link 0 is no foot
  CHECK_FALSE(outcomeHolds(lines.claims[3], summary).has_value());
}

TEST_CASE("sweep: outcome lines about the scene's bodies", "[sweep]") {
  const std::string script = R"(// outcome: ends on step
// outcome: ball hits trunk
// outcome: ends on stpe
// outcome: bal hits trunk
// outcome: ball hits trunc
// outcome: ends on crate
scene pose: standing duration: 1
platform step at: 0.35 size: (1, 0.15)
ball ball at: (1, 1.5) radius: 0.1 mass: 2
{
  (stand)
  [necks 0]
}
)";
  CompileResult compiled = compile(script, "w.scl");
  REQUIRE(compiled.ok());
  const Program& program = *compiled.program;
  const OutcomeLines lines = readOutcomeLines(script, "w.scl", program);
  REQUIRE(lines.claims.size() == 2);
  CHECK(lines.claims[0].kind == OutcomeKind::EndsOn);
  CHECK(lines.claims[0].body == 1);  // the ground is body 0
  CHECK(lines.claims[0].links == std::vector<int>{kLeftFoot, kRightFoot});
  CHECK(lines.claims[1].kind == OutcomeKind::Hits);
  CHECK(lines.claims[1].body == 2);
  CHECK(lines.claims[1].links == std::vector<int>{kTrunk});
  REQUIRE(lines.errors.size() == 4);
  const auto error = [&](size_t i) {
    const Diagnostic& d = lines.errors[i];
    CHECK(d.location.column == 13);
    return std::to_string(d.location.line) + ": " + d.message;
  };
  CHECK(error(0) == "3: unknown scene body 'stpe'; did you mean 'step'?");
  CHECK(error(1) == "4: unknown scene body 'bal'; did you mean 'ball'?");
  CHECK(error(2).rfind("5: unknown link 'trunc'; did you mean 'trunk'?", 0) == 0);
  CHECK(error(3) == "6: unknown scene body 'crate' (the scene's bodies: ground, step, ball)");

  // From the character alone (as `scl run --seeds` reads them) the script is compiled for
  // its scene: the same claims and errors.
  const OutcomeLines fromCharacter = readOutcomeLines(script, "w.scl", *program.character);
  REQUIRE(fromCharacter.claims.size() == 2);
  CHECK(fromCharacter.claims[0].body == 1);
  CHECK(fromCharacter.claims[1].body == 2);
  CHECK(fromCharacter.errors.size() == 4);
  // A script that does not compile has no scene to name a body of.
  const OutcomeLines broken =
      readOutcomeLines("// outcome: ends on step\n{ (a) [nope 1] }\n", "b.scl", *program.character);
  REQUIRE(broken.errors.size() == 1);
  CHECK(broken.errors[0].message.find("could not be read") != std::string::npos);

  MotionSummary summary;
  summary.touchingAtEnd[kLeftFoot] = 0b10;
  CHECK(outcomeHolds(lines.claims[0], summary) == false);  // the right foot is not on it
  summary.touchingAtEnd[kRightFoot] = 0b11;
  CHECK(outcomeHolds(lines.claims[0], summary) == true);
  CHECK(outcomeHolds(lines.claims[1], summary) == false);
  summary.touchedBodies[kTrunk] = 0b100;
  CHECK(outcomeHolds(lines.claims[1], summary) == true);
}

TEST_CASE("sweep: a stance on a platform ends on it and not on the ground", "[sweep]") {
  const std::string script =
      "// outcome: ends on deck\n// outcome: standing at end\n" +
      scl::testing::standingIn("platform deck at: -0.5 size: (1, 0.1)\n", 1.5);
  CompileResult compiled = compile(script, "deck.scl");
  REQUIRE(compiled.ok());
  const Program& program = *compiled.program;
  const OutcomeLines outcomes = readOutcomeLines(script, "deck.scl", program);
  REQUIRE(outcomes.errors.empty());
  const SweepResult result = runSweep(program, outcomes, sweepOf(program, {1, 2}, 1));
  CHECK(result.claimsHold(outcomes));
  const OutcomeLines onGround =
      readOutcomeLines("// outcome: ends on ground\n" + script, "deck.scl", program);
  REQUIRE(onGround.claims.size() == 3);
  CHECK(outcomeHolds(onGround.claims[0], result.starts[0].summary) == false);
}

TEST_CASE("sweep: the same on 1 and 2 threads, and the same as each start run alone", "[sweep]") {
  CompileResult compiled = compile(kStance, "stance.scl");
  REQUIRE(compiled.ok());
  const Program& program = *compiled.program;
  const OutcomeLines outcomes = readOutcomeLines(kStance, "stance.scl", *program.character);
  const SweepResult one = runSweep(program, outcomes, sweepOf(program, {1, 2, 3, 4}, 1));
  const SweepResult two = runSweep(program, outcomes, sweepOf(program, {1, 2, 3, 4}, 2));
  CHECK(one.threads == 1);
  CHECK(two.threads == 2);
  REQUIRE(one.ran() == 4);
  REQUIRE(two.ran() == 4);
  for (size_t i = 0; i < 4; ++i) {
    INFO("seed " << one.starts[i].seed);
    CHECK(one.starts[i].seed == i + 1);
    CHECK(one.starts[i].summary.headHeight == two.starts[i].summary.headHeight);
    CHECK(one.starts[i].summary.energy == two.starts[i].summary.energy);
    // The start is `scl run --perturb 4 --seed K`: the same run, bit for bit.
    RunSessionDef alone = sweepOf(program, {}, 1).session;
    alone.simulation.jointOffsets = perturbationOffsets(4.0, i + 1);
    RunSession session(program, alone);
    session.run();
    CHECK(session.summary().energy == one.starts[i].summary.energy);
    CHECK(one.starts[i].endPhaseName == "quiet_stance");
    CHECK(one.starts[i].phaseCount == 1);
  }
  // Different seeds are different starts.
  CHECK(one.starts[0].summary.energy != one.starts[1].summary.energy);
  CHECK(one.claimsHold(outcomes));
}

TEST_CASE("sweep: scl run --seeds prints a line per start and checks the outcome lines",
          "[sweep][cli]") {
  TempDir dir;
  writeText(dir.path() / "stance.scl", kStance);
  const Outcome run = runScl("run " + (dir / "stance.scl") + " --seeds 3 --threads 2");
  INFO(run.out << run.err);
  CHECK(run.exitCode == 0);
  CHECK(run.out.rfind(
            "sweep of " + (dir / "stance.scl") + ": 3 starts perturbed by ±2° (seeds 1-3)", 0) ==
        0);
  CHECK(countOf(run.out, "'quiet_stance' (1 of 1)") == 3);
  CHECK(run.out.find("standing at end 3 of 3; fell 0 of 3\n") != std::string::npos);
  CHECK(run.out.find("touches only leftFoot, rightFoot  holds for 3 of 3") != std::string::npos);
  CHECK(run.out.find("on 2 threads") != std::string::npos);

  // A claim that fails: exit 4, the seeds named.
  std::string lying = kStance;
  lying.replace(lying.find("standing at end"), 15, "not standing at end");
  writeText(dir.path() / "lying.scl", lying);
  const Outcome failed = runScl("run " + (dir / "lying.scl") + " --seeds 2-3 --json");
  INFO(failed.out << failed.err);
  CHECK(failed.exitCode == 4);
  const nlohmann::json json = nlohmann::json::parse(failed.out);
  CHECK(json["seeds"] == nlohmann::json{2, 3});
  CHECK(json["ran"] == 2);
  CHECK(json["standing"] == 2);
  CHECK(json["outcomes_hold"] == false);
  CHECK(json["outcomes"][0]["outcome"] == "not standing at end");
  CHECK(json["outcomes"][0]["failed_seeds"] == nlohmann::json{2, 3});
  CHECK(json["starts"][1]["failed_outcomes"] == nlohmann::json{"not standing at end"});

  // With a quota the same failures are allowed up to it.
  writeText(dir.path() / "quota.scl", "// outcome: 0 of 20 perturbed starts\n" + lying);
  CHECK(runScl("run " + (dir / "quota.scl") + " --seeds 2").exitCode == 0);

  // An outcome line a sweep cannot read is an input error naming its line.
  writeText(dir.path() / "typo.scl", "// outcome: standing at the end\n" + kStance);
  const Outcome typo = runScl("run " + (dir / "typo.scl") + " --seeds 2");
  CHECK(typo.exitCode == 1);
  CHECK(typo.err.find("typo.scl:1:13: error: unknown outcome 'standing at the end'") !=
        std::string::npos);
  CHECK(typo.err.find("// outcome: standing at the end\n") != std::string::npos);  // the line
}

TEST_CASE("sweep: scl run --seeds: what it refuses", "[sweep][cli]") {
  const std::string script = kCliScripts + "supine_idle.scl";
  const auto refused = [&](const std::string& options, const std::string& message) {
    const Outcome run = runScl("run " + script + " " + options);
    INFO(options << ": " << run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find(message) != std::string::npos);
  };
  refused("--seeds 1-", "--seeds '1-' is malformed");
  refused("--seeds 0", "--seeds '0' is malformed");
  refused("--seeds 3 --out x.csv", "--out records one run, --seeds runs many");
  refused("--seeds 3 --filmstrip x.svg", "--filmstrip records one run, --seeds runs many");
  refused("--seeds 3 --perturb 1 --seed 4", "--seeds runs one start per seed");
  refused("--threads 2", "--threads only applies with --seeds LIST");
  refused("--seeds 2 --threads 0", "--threads must be at least 1");
}

// docs/cli.md's sweep, run as written from the source tree: the lines the page shows are
// the ones the command prints.
TEST_CASE("sweep: scl run --seeds: the documented sweep of the jump prints what docs/cli.md shows",
          "[sweep][cli][docs]") {
  const std::string page = readText(SCL_SOURCE_DIR "/docs/cli.md");
  const std::string command = "scl run scripts/jump.scl --seeds 1-20";
  REQUIRE(page.find("\n" + command + "\n") != std::string::npos);
  RunOptions options;
  options.workingDirectory = SCL_SOURCE_DIR;
  const Outcome run = runScl(command.substr(4), options);
  INFO(run.out << run.err);
  CHECK(run.exitCode == 0);
  const size_t shown = page.find("sweep of scripts/jump.scl");
  REQUIRE(shown != std::string::npos);
  std::istringstream lines(page.substr(shown, page.find("```", shown) - shown));
  int checked = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line == "…") continue;
    INFO(line);
    CHECK(run.out.find(line + "\n") != std::string::npos);
    ++checked;
  }
  CHECK(checked >= 10);
}

// The outcome lines about the world's objects: what the hands hold at the end, how far an
// object moved, how high and on what it ends. A box pushed off a table by a script's push
// lands on the ground 0.5 m or more from where it started; a ball in the hand is held.
TEST_CASE("sweep: outcome lines about objects: held, moved, above, on", "[sweep]") {
  const std::string claims =
      "// outcome: holding ball at end\n"
      "// outcome: box moves at least 0.5\n"
      "// outcome: box ends on ground\n"
      "// outcome: ball ends above 0.5\n"
      "// outcome: box ends above 0.5\n"
      "// outcome: box ends on table\n"
      "// outcome: box moves at least 5\n"
      "// outcome: holding box at end\n";
  const std::string world =
      "table table at: 0.5 size: (0.4, 0.4)\n"
      "box box at: (0.7, 0.45) size: (0.1, 0.1) mass: 1\n"
      "ball ball at: (0.075, 1.05) radius: 0.05 mass: 0.5\n"
      "push box force: (15, 0) at: 0.2 for: 0.2\n";
  const std::string script = claims + "scene pose: standing duration: 2\n" + world +
                             "\n{\n  [grasp rightHand ball reach: 0.1]\n  [waist 0]\n}\n";
  CompileResult compiled = compile(script, "objects.scl");
  REQUIRE(compiled.ok());
  const Program& program = *compiled.program;
  const OutcomeLines outcomes = readOutcomeLines(script, "objects.scl", program);
  REQUIRE(outcomes.errors.empty());
  REQUIRE(outcomes.claims.size() == 8);
  const SweepResult result = runSweep(program, outcomes, sweepOf(program, {1}, 1));
  const MotionSummary& summary = result.starts[0].summary;
  for (size_t i = 0; i < 4; ++i) {
    CAPTURE(outcomes.claims[i].text);
    CHECK(outcomeHolds(outcomes.claims[i], summary) == true);
  }
  for (size_t i = 4; i < 8; ++i) {
    CAPTURE(outcomes.claims[i].text);
    CHECK(outcomeHolds(outcomes.claims[i], summary) == false);
  }
  const OutcomeLines bad =
      readOutcomeLines("// outcome: bal moves at least 1\n// outcome: box ends on tabel\n" + script,
                       "objects.scl", program);
  REQUIRE(bad.errors.size() == 2);
  CHECK(bad.errors[0].message == "unknown scene body 'bal'; did you mean 'ball'?");
  CHECK(bad.errors[1].message == "unknown scene body 'tabel'; did you mean 'table'?");
}
