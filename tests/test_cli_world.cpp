// `scl run --world FILE` (docs/cli.md, docs/scene.md "Running a script in another world"):
// a world file in place of the script's `scene world:`, its bodies first, then the
// script's own, bound at compile time so that the script's names see them; a standing
// start placed on its terrain; its errors located in it (exit 1), a missing file a usage
// error (2); and the commands docs/scene.md shows with it, run as the page says.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using Catch::Contains;
using scl::testing::Outcome;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::shellQuote;
using scl::testing::TempDir;
using scl::testing::writeText;

// Quiet stance, briefly (where it starts is what is measured), its header's arguments
// followed by `more`.
std::string standing(const std::string& more = "") {
  return "scene pose: standing duration: 0.2" + more + "\n{\n  (hold)\n  [waist 0]\n}\n";
}

// A directory holding `s.scl`, standing, and `deck.world`: a 0.2 m platform under the
// feet and a crate ahead.
struct DeckDir : TempDir {
  DeckDir() {
    writeText(*this / "s.scl", standing());
    writeText(*this / "deck.world",
              "world deck\n"
              "platform deck at: -0.5 size: (1, 0.2)\n"
              "box crate at: (2, 0.25) size: (0.5, 0.5) mass: 20\n");
  }
};

scl::testing::RunOptions in(const TempDir& dir) {
  scl::testing::RunOptions options;
  options.workingDirectory = dir.path().string();
  return options;
}

nlohmann::json runJson(const TempDir& dir, const std::string& args) {
  const Outcome run = runScl("run " + args + " --json", in(dir));
  INFO("scl run " << args << "\n" << run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

double headHeight(const nlohmann::json& run) { return run["head_height"].get<double>(); }

}  // namespace

TEST_CASE("scl run --world: the file's terrain and objects, a standing start on them",
          "[cli][world]") {
  const DeckDir dir;
  const nlohmann::json flat = runJson(dir, "s.scl");
  const nlohmann::json raised = runJson(dir, "s.scl --world deck.world");
  // Placed on the platform under the feet: 0.2 m higher, the same stance.
  CHECK(headHeight(raised) - headHeight(flat) == Approx(0.2).margin(1e-3));
  CHECK(flat["objects"].empty());
  REQUIRE(raised["objects"].size() == 1);
  CHECK(raised["objects"][0]["name"] == "crate");
  CHECK(raised["scene"]["world"] == "deck.world");
  CHECK_FALSE(flat["scene"].contains("world"));
  const Outcome text = runScl("run s.scl --world deck.world", in(dir));
  CHECK_THAT(text.out, Contains("\nworld              deck.world (--world)\n"));

  // A script without a scene header takes it too.
  writeText(dir / "bare.scl", "{\n  (hold)\n  [waist 0]\n}\n");
  const nlohmann::json bare = runJson(dir, "bare.scl --duration 0.2 --world deck.world");
  CHECK(headHeight(bare) == Approx(headHeight(raised)).margin(1e-9));

  const Outcome help = runScl("run --help");
  CHECK_THAT(help.out, Contains("--world FILE"));
}

TEST_CASE("scl run --world replaces the header's world:, the script's bodies after its own",
          "[cli][world]") {
  const DeckDir dir;
  writeText(dir / "high.world", "world high\nplatform high at: -0.5 size: (1, 0.4)\n");
  writeText(dir / "high.scl", standing(" world: \"high.world\""));
  const nlohmann::json high = runJson(dir, "high.scl");
  const nlohmann::json deck = runJson(dir, "high.scl --world deck.world");
  CHECK(headHeight(high) - headHeight(deck) == Approx(0.2).margin(1e-3));
  CHECK(deck["objects"].size() == 1);  // the crate: high.world is not read
  // Not read at all: a header naming a missing file runs with --world.
  writeText(dir / "gone.scl", standing(" world: \"gone.world\""));
  CHECK(runScl("run gone.scl", in(dir)).exitCode == 1);
  const nlohmann::json instead = runJson(dir, "gone.scl --world deck.world");
  CHECK(headHeight(instead) == Approx(headHeight(deck)).margin(1e-9));

  // The script's names bind against the file's bodies (at compile time): a transition
  // waiting for the crate, and the script's own ball after the file's crate.
  writeText(dir / "names.scl",
            "scene pose: standing duration: 0.2\n"
            "ball b at: (3, 1) radius: 0.1 mass: 1\n"
            "{\n  (hold)\n  [waist 0]\n}\nwhen contact leftFoot with crate\n{\n  (after)\n}\n");
  const Outcome unknown = runScl("run names.scl", in(dir));
  CHECK(unknown.exitCode == 1);
  CHECK_THAT(unknown.err, Contains("crate"));
  const nlohmann::json named = runJson(dir, "names.scl --world deck.world");
  REQUIRE(named["objects"].size() == 2);
  CHECK(named["objects"][0]["name"] == "crate");
  CHECK(named["objects"][1]["name"] == "b");
  // A name the file took is taken for the script's statements too.
  writeText(dir / "twice.scl",
            "scene pose: standing duration: 0.2\nbox crate at: (-2, 0.25) size: (0.5, 0.5) "
            "mass: 5\n{\n  (hold)\n}\n");
  const Outcome twice = runScl("run twice.scl --world deck.world", in(dir));
  CHECK(twice.exitCode == 1);
  CHECK_THAT(twice.err, Contains("twice.scl:2:"));
}

TEST_CASE("scl run --world: errors located in the file, a missing file a usage error",
          "[cli][world]") {
  const DeckDir dir;
  writeText(dir / "bad.world",
            "world bad\nplatform step at: 0.3\nball b at: (2, 1.3) radius: 0.11\n");
  const Outcome bad = runScl("run s.scl --world bad.world", in(dir));
  CHECK(bad.exitCode == 1);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err,
             Contains("bad.world:2:1: error: ") && Contains("\n  platform step at: 0.3\n"));
  CHECK_THAT(bad.err, Contains("bad.world:3:1: error: a ball needs 'mass:' (kg) or 'density:'"));
  CHECK_THAT(bad.err, Contains("scl run: --world 'bad.world': the world file has errors (see "
                               "above)\n"));
  CHECK_THAT(bad.err, !Contains("s.scl:"));  // nothing is the script's

  const Outcome missing = runScl("run s.scl --world gone.world", in(dir));
  CHECK(missing.exitCode == 2);
  CHECK(missing.err == "scl run: --world 'gone.world': world file 'gone.world' does not exist\n");
  const Outcome directory = runScl("run s.scl --world .", in(dir));
  CHECK(directory.exitCode == 2);
  CHECK_THAT(directory.err, Contains("is a directory"));

  // A file that is fine on its own but clashes with the script's scene (a chair scene
  // has its `chair`): an error about the file.
  writeText(dir / "chair.world", "world c\nbox chair at: (2, 0.25) size: (0.5, 0.5) mass: 5\n");
  CHECK(runScl("run s.scl --world chair.world", in(dir)).exitCode == 0);
  writeText(dir / "sit.scl", "scene pose: sitting duration: 0.2\n{\n  (hold)\n}\n");
  const Outcome clash = runScl("run sit.scl --world chair.world", in(dir));
  CHECK(clash.exitCode == 1);
  CHECK_THAT(
      clash.err,
      Contains("chair.world: error: world file 'chair.world' does not fit the script's scene: "));

  // An output never replaces the world file.
  const Outcome over = runScl("run s.scl --world deck.world --out deck.world", in(dir));
  CHECK(over.exitCode == 2);
}

TEST_CASE("the --world commands of docs/scene.md run as the page says", "[cli][world][docs]") {
  const std::string page = readText(SCL_SOURCE_DIR "/docs/scene.md");
  struct Shown {
    std::string command;
    std::string claim;  // what the page says
    std::string printed;
  };
  for (const Shown& shown :
       {Shown{"scl run scripts/feature-walk.scl --world scripts/worlds/slope-5deg.world "
              "--seeds 1-20 --perturb 2",
              "from 20 of 20 perturbed starts", "\n20 of 20 starts meet every outcome line"},
        Shown{"scl run scripts/feature-walk.scl --world scripts/worlds/stairs-4x10cm.world",
              "it climbs all four steps but falls on the landing", "\nfell               yes"}}) {
    INFO(shown.command);
    CHECK_THAT(page, Contains("```\n" + shown.command + "\n```\n"));
    CHECK_THAT(page, Contains(shown.claim));
    scl::testing::RunOptions top;
    top.workingDirectory = SCL_SOURCE_DIR;
    const Outcome run = runScl(shown.command.substr(4), top);
    INFO(run.err);
    CHECK(run.exitCode == 0);
    CHECK_THAT(run.out, Contains(shown.printed));
  }
  // Up all four steps: the pelvis rises over the 0.4 m landing (1.07 m above the feet
  // when walking on the flat).
  scl::testing::RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  const Outcome stairs =
      runScl("run scripts/feature-walk.scl --world scripts/worlds/stairs-4x10cm.world --json", top);
  REQUIRE(stairs.exitCode == 0);
  CHECK(nlohmann::json::parse(stairs.out).at("max_pelvis_height").get<double>() > 1.4);
}
