// `scl check` (docs/cli.md): every shipped script, objective, problem and world file checks
// clean (and a world file is in canonical form);
// objective and problem files are told by their extension and read by their own parsers;
// a warning carries its kind and an `// allow: KIND` comment silences it in `scl check`,
// `scl run` and the language server alike (docs/language.md, Silencing a warning).
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scl/compile.h"
#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::shellQuote;
using scl::testing::TempDir;
using scl::testing::writeText;

const fs::path kSource = SCL_SOURCE_DIR;

// The files the project ships for users to read and run: scripts, objectives, problems,
// world files and the tutorial's, as paths relative to the source tree, sorted.
std::vector<std::string> shippedFiles() {
  std::vector<std::string> files;
  for (const char* folder : {"scripts", "docs/tutorial"})
    for (const auto& entry : fs::recursive_directory_iterator(kSource / folder)) {
      const fs::path extension = entry.path().extension();
      if (extension == ".scl" || extension == ".objective" || extension == ".problem" ||
          extension == ".world")
        files.push_back(fs::relative(entry.path(), kSource).string());
    }
  std::sort(files.begin(), files.end());
  return files;
}

// Shipped files whose diagnostics are their point, each checked where it is explained.
const std::vector<std::string> kMeantToWarn = {
    // The thesis's listings 4.3-4.7, verbatim: fragments with placeholder names, not a
    // script (tests/test_lang_listings.cpp; the bound version is checked here).
    "scripts/thesis/4.3-4.7-fragments.scl",
    // The tutorial's lesson on "already driven" (docs/tutorial.md shows the warning and
    // tests/test_tutorial.cpp checks it).
    "docs/tutorial/4-limp-ankles.scl",
};

bool meantToWarn(const std::string& file) {
  return std::find(kMeantToWarn.begin(), kMeantToWarn.end(), file) != kMeantToWarn.end();
}

scl::testing::RunOptions atTop() {
  scl::testing::RunOptions options;
  options.workingDirectory = kSource.string();
  return options;
}

}  // namespace

TEST_CASE("scl check: every shipped script, objective and problem prints nothing", "[cli][check]") {
  const std::vector<std::string> files = shippedFiles();
  REQUIRE(files.size() >= 40);
  std::string arguments;
  int objectives = 0, problems = 0, worlds = 0;
  for (const std::string& file : files) {
    if (meantToWarn(file)) continue;
    arguments += " " + shellQuote(file);
    objectives += fs::path(file).extension() == ".objective";
    problems += fs::path(file).extension() == ".problem";
    worlds += fs::path(file).extension() == ".world";
  }
  CHECK(objectives >= 7);
  CHECK(problems >= 1);
  CHECK(worlds >= 2);
  const auto checked = runScl("check" + arguments, atTop());
  CHECK(checked.exitCode == 0);
  CHECK(checked.out == "");
  CHECK(checked.err == "");
  // The exceptions still exist and still warn (else they belong in the list above).
  for (const std::string& file : kMeantToWarn) {
    INFO(file);
    const auto meant = runScl("check " + shellQuote(file), atTop());
    CHECK_FALSE(meant.err.empty());
  }
  // The command docs/cli.md shows, with what it says it prints: nothing.
  const std::string shown =
      "scl check scripts/sit-to-stand.scl scripts/optimize/kipup.objective "
      "scripts/optimize/sit-to-stand.problem";
  CHECK_THAT(readText(kSource / "docs/cli.md"), Catch::Contains("\n" + shown + "\n"));
  const auto example = runScl(shown.substr(4), atTop());
  CHECK(example.exitCode == 0);
  CHECK(example.out + example.err == "");
}

TEST_CASE("scl fmt: every shipped world file is in canonical form", "[cli][check]") {
  int worlds = 0;
  for (const std::string& file : shippedFiles()) {
    if (fs::path(file).extension() != ".world") continue;
    INFO(file << " is not in canonical form: run `scl fmt " << file << "` and keep its output");
    const auto fmt = runScl("fmt " + shellQuote(file), atTop());
    CHECK(fmt.exitCode == 0);
    CHECK(fmt.out == readText(kSource / file));
    ++worlds;
  }
  CHECK(worlds >= 2);
}

TEST_CASE("scl check: objective and problem files by their own parsers", "[cli][check]") {
  TempDir dir;
  writeText(dir / "bad.objective", "scene from script\nterm 1 heigth\n");
  writeText(dir / "bad.problem",
            "scene pose: sitting env: chair\nstate height 0.15 0.75 scale 10 start 0.45\n"
            "action lean.pd.waist 0 90 scale 1/40\ncompatible standng at end\n");
  scl::testing::RunOptions inDir;
  inDir.workingDirectory = dir.path().string();

  const auto objective = runScl("check bad.objective", inDir);
  CHECK(objective.exitCode == 1);
  CHECK(objective.err ==
        "bad.objective:2:8: error: unknown term 'heigth'; did you mean 'height'?\n"
        "  term 1 heigth\n"
        "         ^\n");
  const auto problem = runScl("check bad.problem", inDir);
  CHECK(problem.exitCode == 1);
  CHECK_THAT(problem.err, Catch::StartsWith("bad.problem:4:12: error: expected 'standing at "
                                            "end' or 'no fall' after 'compatible'"));
  // Not read as scripts: no script's syntax error.
  CHECK_THAT(objective.err + problem.err, !Catch::Contains("phase"));

  // --format json: the same diagnostics, in the same object as a script's.
  const auto json = runScl("check --format json bad.objective bad.problem", inDir);
  CHECK(json.exitCode == 1);
  const nlohmann::json report = nlohmann::json::parse(json.out);
  CHECK(report["errors"] == 2);
  const nlohmann::json& first = report["files"][0]["diagnostics"][0];
  CHECK(first["file"] == "bad.objective");
  CHECK(first["line"] == 2);
  CHECK(first["column"] == 8);
  CHECK(first["endColumn"] == 14);
  CHECK(first["message"] == "unknown term 'heigth'; did you mean 'height'?");
  CHECK(report["files"][1]["diagnostics"][0]["line"] == 4);

  // A missing one is named as what it is.
  const auto missing = runScl("check none.objective", inDir);
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Catch::Contains("objective 'none.objective' does not exist"));

  // scl fmt has no form for them: a usage error saying so, not a script's syntax error.
  for (const char* file : {"bad.objective", "bad.problem"}) {
    INFO(file);
    const auto fmt = runScl(std::string("fmt ") + file, inDir);
    CHECK(fmt.exitCode == 2);
    CHECK(fmt.out.empty());
    CHECK_THAT(fmt.err, Catch::Contains("has no canonical form to print") &&
                            Catch::Contains(std::string("'scl check ") + file + "' checks it"));
  }
}

TEST_CASE("scl check and scl fmt: world files, as docs/cli.md shows them", "[cli][check][world]") {
  TempDir dir;
  // docs/cli.md, World files: the file, what `scl fmt` prints, what `scl check` says of a
  // ball without a mass.
  const std::string yard =
      "// the yard behind the house\n"
      "world yard\n"
      "platform step at: 0.3 size: (1, 0.15)\n"
      "box crate   size: (0.5, 0.5) at: (-1, 0.25) mass: 20  // heavy\n"
      "ball b at: (2, 1.3) radius: 0.11\n";
  const std::string canonical =
      "// the yard behind the house\n"
      "world yard\n"
      "\n"
      "platform step at: 0.3 size: (1, 0.15)\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20  // heavy\n"
      "ball b at: (2, 1.3) radius: 0.11\n";
  const std::string error =
      "yard.world:5:1: error: a ball needs 'mass:' (kg) or 'density:' (kg/m²)\n"
      "  ball b at: (2, 1.3) radius: 0.11\n"
      "  ^\n";
  const std::string page = readText(kSource / "docs/cli.md");
  CHECK_THAT(page, Catch::Contains("```\n" + yard + "```\n"));
  CHECK_THAT(page, Catch::Contains("\nscl fmt yard.world\n"));
  CHECK_THAT(page, Catch::Contains("```\n" + canonical + "```\n"));
  CHECK_THAT(page, Catch::Contains("\nscl check yard.world\n"));
  CHECK_THAT(page, Catch::Contains("```\n" + error + "```\n"));
  writeText(dir / "yard.world", yard);
  scl::testing::RunOptions inDir;
  inDir.workingDirectory = dir.path().string();

  const auto fmt = runScl("fmt yard.world", inDir);
  CHECK(fmt.exitCode == 0);
  CHECK(fmt.out == canonical);
  CHECK(fmt.err.empty());
  // Idempotent: the canonical text prints as itself.
  writeText(dir / "again.world", fmt.out);
  CHECK(runScl("fmt again.world", inDir).out == canonical);

  const auto check = runScl("check yard.world", inDir);
  CHECK(check.exitCode == 1);
  CHECK(check.err == error);
  // The same in JSON, and clean once the ball has its mass.
  const auto json = runScl("check --format json yard.world", inDir);
  CHECK(json.exitCode == 1);
  CHECK(nlohmann::json::parse(json.out)["files"][0]["diagnostics"][0]["line"] == 5);
  std::string fixed = yard;
  fixed.replace(fixed.find("0.11"), 4, "0.11 mass: 2");
  writeText(dir / "fixed.world", fixed);
  const auto clean = runScl("check fixed.world", inDir);
  CHECK(clean.exitCode == 0);
  CHECK(clean.err.empty());

  // A syntax error: fmt refuses with the diagnostics, check reports them; a missing file is
  // named as a world file.
  writeText(dir / "bad.world", "world bad\nbx crate at: (1, 1)\n");
  const auto badFmt = runScl("fmt bad.world", inDir);
  CHECK(badFmt.exitCode == 1);
  CHECK(badFmt.out.empty());
  CHECK_THAT(badFmt.err, Catch::Contains("bad.world:2:1: error: unknown kind of body 'bx'; did "
                                         "you mean 'box'?"));
  CHECK(runScl("check bad.world", inDir).exitCode == 1);
  const auto missing = runScl("check none.world", inDir);
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Catch::Contains("world file 'none.world' does not exist"));
}

TEST_CASE("warnings carry their kind, and an allow comment silences them everywhere",
          "[cli][check][lsp]") {
  TempDir dir;
  const std::string warned =
      "scene pose: sitting env: chair duration: 0.5\n"
      "{\n  (lean)\n  [waist 20, hips 120 time: 0.3]\n}\n";
  const std::string allowed =
      "scene pose: sitting env: chair duration: 0.5\n"
      "{\n  (lean)\n  [waist 20, hips 120 time: 0.3]  // allow: target-range (meant)\n}\n";
  writeText(dir / "warned.scl", warned);
  writeText(dir / "allowed.scl", allowed);
  scl::testing::RunOptions inDir;
  inDir.workingDirectory = dir.path().string();

  // scl check: the kind after the message, in text and in JSON.
  const auto loud = runScl("check warned.scl", inDir);
  CHECK(loud.exitCode == 0);
  CHECK_THAT(loud.err, Catch::Contains("warned.scl:4:19: warning: target 120 deg for 'leftHip' "
                                       "(in 'hips') is outside the joint range [-30, 100] deg "
                                       "[target-range]\n"));
  const auto loudJson = runScl("check --format json warned.scl", inDir);
  const nlohmann::json report = nlohmann::json::parse(loudJson.out);
  CHECK(report["warnings"] == 2);
  CHECK(report["files"][0]["diagnostics"][0]["kind"] == "target-range");
  const auto quiet = runScl("check allowed.scl", inDir);
  CHECK(quiet.exitCode == 0);
  CHECK(quiet.err == "");
  CHECK(nlohmann::json::parse(runScl("check --format json allowed.scl", inDir).out)["warnings"] ==
        0);

  // scl run prints the script's warnings before its summary: not the silenced ones. The
  // motion is the same, bit for bit (a comment changes nothing else).
  const auto runLoud = runScl("run warned.scl --json", inDir);
  const auto runQuiet = runScl("run allowed.scl --json", inDir);
  CHECK(runLoud.exitCode == 0);
  CHECK(runQuiet.exitCode == 0);
  CHECK_THAT(runLoud.err, Catch::Contains("[target-range]"));
  CHECK(runQuiet.err == "");
  nlohmann::json a = nlohmann::json::parse(runLoud.out), b = nlohmann::json::parse(runQuiet.out);
  for (const char* key : {"script", "wall_time", "setup_wall_time", "real_time_factor"})
    a.erase(key), b.erase(key);
  CHECK(a == b);

  // The front end the language server and the viewer share: the same silence, and the
  // kind as the diagnostic's code.
  CHECK(scl::compile(allowed, "allowed.scl").diagnostics.empty());
  const scl::CompileResult loudCompile = scl::compile(warned, "warned.scl");
  REQUIRE(loudCompile.diagnostics.size() == 2);
  CHECK(loudCompile.diagnostics[0].kind == scl::WarningKind::TargetRange);
}
