// The character on the command line (docs/cli.md): `--character NAME|FILE` on scl run,
// scl optimize (recorded in the checkpoint) and scl check, `scl character [NAME|FILE]`,
// and scl fmt / scl check on character files. Exit codes per docs/cli.md: an unknown name
// or a missing file is a usage error (2), a character file with errors an input error (1).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using Catch::Contains;
using scl::testing::kCliScripts;
using scl::testing::Outcome;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::TempDir;
using scl::testing::writeText;

const std::string kHumanFile = SCL_SOURCE_DIR "/characters/human.character";

// The human with a heavier trunk, named `heavy`.
std::string heavyCharacter() {
  std::string text = readText(kHumanFile);
  text.replace(text.find("character human"), 15, "character heavy");
  text.replace(text.find("mass: 29.27"), 11, "mass: 36");
  return text;
}

std::string badCharacter() {
  std::string text = heavyCharacter();
  text.replace(text.find("mass: 36"), 8, "mass: 0");
  return text;
}

nlohmann::json runJson(const std::string& args) {
  const Outcome run = runScl("run " + args + " --json");
  INFO("scl run " << args << "\n" << run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

const std::string kScript = R"(// a tiny script
scene pose: supine duration: 0.05
{
  (hold)
  [waist @10]
}
)";

}  // namespace

TEST_CASE("scl run --character: a built-in or a file, overriding the script's",
          "[cli][character]") {
  TempDir dir;
  writeText(dir.path() / "heavy.character", heavyCharacter());
  const std::string script = kCliScripts + "supine_idle.scl";
  const nlohmann::json human = runJson(script + " --duration 0.2");
  CHECK(human["scene"]["character"] == "human");
  CHECK(human["scene"]["character_source"] == "built-in");
  const nlohmann::json byName = runJson(script + " --duration 0.2 --character human");
  CHECK(byName["energy"] == human["energy"]);
  CHECK(byName["head_height"] == human["head_height"]);
  const nlohmann::json heavy =
      runJson(script + " --duration 0.2 --character " + (dir / "heavy.character"));
  CHECK(heavy["scene"]["character"] == "heavy");
  CHECK(heavy["scene"]["character_source"] == dir / "heavy.character");
  CHECK(heavy["energy"] != human["energy"]);  // another body holds itself differently

  // The script names the file relative to itself; --character overrides it.
  writeText(dir.path() / "s.scl",
            "scene character: \"heavy.character\" pose: supine duration: "
            "0.2\n{ (idle) }\n");
  const Outcome named = runScl("run " + (dir / "s.scl"));
  INFO(named.err);
  CHECK(named.exitCode == 0);
  CHECK_THAT(named.out, Contains("character          heavy (" + (dir / "heavy.character") + ")"));
  const Outcome overridden = runScl("run " + (dir / "s.scl") + " --character human");
  CHECK_THAT(overridden.out, Contains("character          human (built-in)"));
}

TEST_CASE("scl run --character: bad values and their exit codes", "[cli][character]") {
  TempDir dir;
  const std::string script = kCliScripts + "supine_idle.scl --duration 0.1";
  const Outcome typo = runScl("run " + script + " --character humn");
  CHECK(typo.exitCode == 2);
  CHECK(typo.err ==
        "scl run: --character 'humn': unknown character 'humn'; did you mean "
        "'human'?\n");
  const Outcome missing = runScl("run " + script + " --character " + (dir / "gone.character"));
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Contains("does not exist"));
  const Outcome directory = runScl("run " + script + " --character " + dir.path().string());
  CHECK(directory.exitCode == 2);
  CHECK_THAT(directory.err, Contains("is a directory"));
  writeText(dir.path() / "bad.character", badCharacter());
  const Outcome bad = runScl("run " + script + " --character " + (dir / "bad.character"));
  CHECK(bad.exitCode == 1);
  CHECK_THAT(bad.err, Contains("bad.character:10:65: error: 'mass:' must be positive (found 0)\n"
                               "  link trunk "));
  CHECK_THAT(bad.err, Contains("the character file has errors"));
  CHECK(bad.out.empty());
  // In the script instead: an input error located at the argument, the file's as a note.
  writeText(dir.path() / "s.scl", "scene character: \"bad.character\"\n{ }\n");
  const Outcome inScript = runScl("run " + (dir / "s.scl"));
  CHECK(inScript.exitCode == 1);
  CHECK_THAT(inScript.err, Contains("s.scl:1:18: error: character file 'bad.character' has 1 "
                                    "error"));
  CHECK_THAT(inScript.err, Contains("bad.character:10:65: note: error: 'mass:' must be "
                                    "positive (found 0)"));
}

TEST_CASE("scl optimize --character: every candidate uses it, resume checks it",
          "[cli][character]") {
  TempDir dir;
  writeText(dir.path() / "s.scl", kScript);
  writeText(dir.path() / "o.objective", "term 1 energy\n");
  writeText(dir.path() / "heavy.character", heavyCharacter());
  const std::string base = "optimize " + (dir / "s.scl") + " " + (dir / "o.objective") +
                           " --popsize 2 --threads 1 --out ";
  const std::string heavy = " --character " + (dir / "heavy.character");

  const Outcome first = runScl(base + (dir / "heavy") + heavy + " --generations 1");
  INFO(first.err);
  REQUIRE(first.exitCode == 0);
  const nlohmann::json checkpoint =
      nlohmann::json::parse(readText(dir.path() / "heavy" / "checkpoint.json"));
  CHECK(checkpoint["character"]["name"] == "heavy");
  CHECK(checkpoint["character"]["source"] == dir / "heavy.character");
  // The human gives another generation-0 value: the character was used.
  const Outcome human = runScl(base + (dir / "human") + " --generations 1");
  REQUIRE(human.exitCode == 0);
  CHECK(
      nlohmann::json::parse(readText(dir.path() / "human" / "checkpoint.json"))["log"][0]["best"] !=
      checkpoint["log"][0]["best"]);

  // Resuming with the same character goes on; with another, or none, is refused.
  const Outcome same = runScl(base + (dir / "heavy") + heavy + " --generations 2 --resume");
  INFO(same.err);
  CHECK(same.exitCode == 0);
  const Outcome without = runScl(base + (dir / "heavy") + " --generations 3 --resume");
  CHECK(without.exitCode == 2);
  CHECK_THAT(without.err, Contains("was made with character 'heavy', not 'human'"));
  // The same name with another body: the file changed since.
  std::string changed = heavyCharacter();
  changed.replace(changed.find("mass: 36"), 8, "mass: 37");
  writeText(dir.path() / "heavy.character", changed);
  const Outcome edited = runScl(base + (dir / "heavy") + heavy + " --generations 3 --resume");
  CHECK(edited.exitCode == 2);
  CHECK_THAT(edited.err, Contains("another body of character 'heavy'"));

  const Outcome unknown = runScl(base + (dir / "x") + " --generations 1 --character robott");
  CHECK(unknown.exitCode == 2);
  CHECK_FALSE(fs::exists(dir.path() / "x"));
  writeText(dir.path() / "bad.character", badCharacter());
  const Outcome bad =
      runScl(base + (dir / "y") + " --generations 1 --character " + (dir / "bad.character"));
  CHECK(bad.exitCode == 1);
  CHECK_FALSE(fs::exists(dir.path() / "y"));
}

TEST_CASE("scl check --character checks scripts for that character", "[cli][character]") {
  TempDir dir;
  writeText(dir.path() / "s.scl", "scene pose: kneeling\n{ [legs 5] }\n");
  std::string kneeler = heavyCharacter();
  kneeler += "group legs: leftHip, rightHip\n";
  kneeler +=
      "pose kneeling \"on both knees\"\n  head: 90 support: ground settles: yes knees: -90\n";
  writeText(dir.path() / "kneeler.character", kneeler);
  const Outcome human = runScl("check " + (dir / "s.scl"));
  CHECK(human.exitCode == 1);
  CHECK_THAT(human.err, Contains("unknown pose 'kneeling'"));
  const Outcome kneeling =
      runScl("check " + (dir / "s.scl") + " --character " + (dir / "kneeler.character"));
  INFO(kneeling.err);
  CHECK(kneeling.exitCode == 0);
  CHECK(kneeling.err.empty());
  CHECK(runScl("check " + (dir / "s.scl") + " --character nobody").exitCode == 2);
}

TEST_CASE("scl fmt and scl check read character files by their extension", "[cli][character]") {
  const Outcome fmt = runScl("fmt " + kHumanFile);
  CHECK(fmt.exitCode == 0);
  CHECK(fmt.out == readText(kHumanFile));  // the committed file is canonical
  const Outcome check = runScl("check " + kHumanFile);
  CHECK(check.exitCode == 0);
  CHECK(check.err.empty());

  TempDir dir;
  writeText(dir.path() / "bad.character", badCharacter());
  const Outcome bad = runScl("check " + (dir / "bad.character") + " " + kHumanFile);
  CHECK(bad.exitCode == 1);
  CHECK_THAT(bad.err, Contains("bad.character:10:65: error: 'mass:' must be positive"));
  // fmt only parses: a file whose values are wrong still has a canonical form.
  CHECK(runScl("fmt " + (dir / "bad.character")).exitCode == 0);
  writeText(dir.path() / "broken.character", "character broken\nlink head lenght: 1\n");
  const Outcome broken = runScl("fmt " + (dir / "broken.character"));
  CHECK(broken.exitCode == 1);
  CHECK_THAT(broken.err, Contains("did you mean 'length'?"));
  CHECK(broken.out.empty());
  CHECK(runScl("check " + (dir / "gone.character")).exitCode == 2);
}

TEST_CASE("scl character NAME|FILE prints that character", "[cli][character]") {
  const Outcome human = runScl("character");
  REQUIRE(human.exitCode == 0);
  CHECK(human.out.rfind("human: 16 links, 15 joints, 89.49 kg\n", 0) == 0);
  CHECK(runScl("character human").out == human.out);
  CHECK(runScl("character human --markdown").out ==
        readText(SCL_SOURCE_DIR "/docs/character-reference.md"));
  CHECK(runScl("character human --file").out == readText(kHumanFile));

  TempDir dir;
  writeText(dir.path() / "heavy.character", heavyCharacter());
  const Outcome heavy = runScl("character " + (dir / "heavy.character"));
  CHECK(heavy.exitCode == 0);
  CHECK(heavy.out.rfind("heavy: 16 links, 15 joints, 96.22 kg\n", 0) == 0);
  const Outcome svg = runScl("character " + (dir / "heavy.character") + " --svg");
  CHECK(svg.exitCode == 0);
  CHECK_THAT(svg.out, Contains("<svg"));
  // --file prints a file in canonical form: an edited copy of the human is the human's
  // layout with its own numbers.
  CHECK(runScl("character " + (dir / "heavy.character") + " --file").out == heavyCharacter());

  writeText(dir.path() / "bad.character", badCharacter());
  const Outcome bad = runScl("character " + (dir / "bad.character"));
  CHECK(bad.exitCode == 1);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Contains("'mass:' must be positive"));
  const Outcome unknown = runScl("character humn");
  CHECK(unknown.exitCode == 2);
  CHECK(unknown.err == "scl character: unknown character 'humn'; did you mean 'human'?\n");
  CHECK(runScl("character " + (dir / "gone.character")).exitCode == 2);
  CHECK(runScl("character human --file --markdown").exitCode == 2);
}

// The commands docs/character.md ("Making your own") and docs/cli.md show, run as written
// in a fresh working directory: each must appear verbatim in its page.
TEST_CASE("the documented character-file commands run as the docs say", "[cli][character][docs]") {
  const std::string characterPage = readText(SCL_SOURCE_DIR "/docs/character.md");
  const std::string cliPage = readText(SCL_SOURCE_DIR "/docs/cli.md");
  const std::vector<std::string> commands = {
      "scl character human --file > heavy.character", "scl check heavy.character",
      "scl fmt heavy.character", "scl character heavy.character",
      "scl run scripts/stand.scl --character heavy.character"};
  for (const std::string& command : commands) {
    INFO(command);
    CHECK(characterPage.find("\n" + command + "\n") != std::string::npos);
  }
  for (size_t i : {0, 3, 4}) {
    INFO(commands[i]);
    CHECK(cliPage.find("\n" + commands[i] + "\n") != std::string::npos);
  }

  TempDir dir;
  fs::create_directories(dir.path() / "scripts");
  writeText(dir.path() / "scripts" / "stand.scl", readText(SCL_SOURCE_DIR "/scripts/stand.scl"));
  scl::testing::RunOptions here;
  here.workingDirectory = dir.path().string();
  scl::testing::RunOptions intoFile = here;
  intoFile.stdoutPath = dir / "heavy.character";
  REQUIRE(runScl("character human --file", intoFile).exitCode == 0);
  CHECK(readText(dir.path() / "heavy.character") == readText(kHumanFile));
  // The edit the page describes: 'character heavy', a heavier trunk.
  writeText(dir.path() / "heavy.character", heavyCharacter());
  const Outcome check = runScl("check heavy.character", here);
  CHECK(check.exitCode == 0);
  CHECK(check.err.empty());
  const Outcome fmt = runScl("fmt heavy.character", here);
  CHECK(fmt.exitCode == 0);
  CHECK(fmt.out == heavyCharacter());
  const Outcome table = runScl("character heavy.character", here);
  CHECK(table.exitCode == 0);
  CHECK_THAT(table.out, Contains("heavy: 16 links"));
  const Outcome run = runScl("run scripts/stand.scl --character heavy.character", here);
  INFO(run.err);
  CHECK(run.exitCode == 0);
  CHECK_THAT(run.out, Contains("character          heavy (heavy.character)"));
}

TEST_CASE("scl view --character: bad values fail before any window", "[cli][character]") {
  if (runScl("view --help").exitCode != 0) return;  // built without the viewer
  scl::testing::RunOptions noDisplay;
  noDisplay.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};
  const std::string script = SCL_SOURCE_DIR "/tests/viewer/stand.scl";
  const Outcome typo = runScl("view " + script + " --character humn", noDisplay);
  CHECK(typo.exitCode == 2);
  CHECK_THAT(typo.err, Contains("did you mean 'human'?"));
  TempDir dir;
  writeText(dir.path() / "bad.character", badCharacter());
  const Outcome bad =
      runScl("view " + script + " --character " + (dir / "bad.character"), noDisplay);
  CHECK(bad.exitCode == 1);
  CHECK_THAT(bad.err, Contains("'mass:' must be positive"));
  CHECK_THAT(runScl("view --help").out, Contains("--character"));
}
