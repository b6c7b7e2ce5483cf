// Choosing the character: `scene character: NAME|"FILE"` in a script (a file relative to
// the script's directory), CompileOptions::character overriding it, the errors at the
// argument (a character file's own as notes located in it), the formatter, objective
// files, and characters of different bodies simulating side by side in threads.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <thread>

#include "runtime/runner.h"
#include "scl/character_file.h"
#include "scl/compile.h"
#include "scl/lexer.h"
#include "scl/objective.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using scl::testing::readText;
using scl::testing::TempDir;
using scl::testing::writeText;

// The human with other masses, a joint group and a pose of its own, named `heavy`.
std::string heavyCharacter() {
  std::string text = readText(SCL_SOURCE_DIR "/characters/human.character");
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  replace("character human", "character heavy");
  replace("mass: 29.27", "mass: 36");
  replace("mass: 16.61", "mass: 21");
  replace(
      "group ankles: leftAnkle, rightAnkle",
      "group ankles: leftAnkle, rightAnkle\ngroup legs: leftHip, rightHip, leftKnee, rightKnee");
  text += "pose kneeling \"on both knees\"\n  head: 90 support: ground settles: yes knees: -90\n";
  return text;
}

scl::CompileResult compileIn(const fs::path& script, const std::string& source,
                             const scl::CompileOptions& options = {}) {
  return scl::compile(source, script.string(), options);
}

std::string rendered(const scl::CompileResult& result, const std::string& source) {
  return scl::renderDiagnostics(result.diagnostics, source);
}

const scl::Diagnostic* firstError(const scl::CompileResult& result) {
  for (const scl::Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.severity == scl::Severity::Error) return &diagnostic;
  return nullptr;
}

}  // namespace

TEST_CASE("scene character: a built-in by name") {
  const scl::CompileResult result =
      scl::compile("scene character: human\n{ [knees -20] }", "a.scl");
  INFO(rendered(result, ""));
  REQUIRE(result.ok());
  CHECK(result.program->character == scl::humanCharacter());
  // Without the argument the human too.
  CHECK(scl::compile("{ }", "b.scl").program->character == scl::humanCharacter());
}

TEST_CASE("scene character: a file relative to the script's directory, its names bound") {
  TempDir dir;
  fs::create_directories(dir.path() / "motions" / "bodies");
  writeText(dir.path() / "motions" / "bodies" / "heavy.character", heavyCharacter());
  const fs::path script = dir.path() / "motions" / "kneel.scl";
  // The character's own pose and joint group: unknown to the human.
  const std::string source =
      "scene character: \"bodies/heavy.character\" pose: kneeling\n{ [legs 10] }\n";
  const scl::CompileResult result = compileIn(script, source);
  INFO(rendered(result, source));
  REQUIRE(result.ok());
  const scl::Character& heavy = *result.program->character;
  CHECK(heavy.name == "heavy");
  CHECK(heavy.links[scl::kTrunk].mass == 36);
  CHECK(heavy.source == (dir.path() / "motions" / "bodies" / "heavy.character").string());
  CHECK(result.program->scene.pose == "kneeling");
  // The group stands for its four joints.
  const auto& pd = std::get<scl::PdPrimitive>(result.program->phases[0].primitives[0]);
  CHECK(pd.targets.size() == 4);

  // The same script bound for the human (the override wins over the scene's character):
  // the pose and the group are unknown.
  scl::CompileOptions human;
  human.character = scl::humanCharacter();
  const scl::CompileResult overridden = compileIn(script, source, human);
  CHECK_FALSE(overridden.ok());
  CHECK_THAT(rendered(overridden, source), Catch::Contains("unknown pose 'kneeling'"));
  CHECK_THAT(rendered(overridden, source), Catch::Contains("unknown joint 'legs'"));

  // A base directory given explicitly replaces the script's.
  scl::CompileOptions elsewhere;
  elsewhere.baseDirectory = dir.path() / "motions";
  const scl::CompileResult fromBase = scl::compile(source, "kneel.scl", elsewhere);
  REQUIRE(fromBase.ok());
  CHECK(fromBase.program->character->name == "heavy");
}

TEST_CASE("the override wins: the scene's character is not even read") {
  TempDir dir;
  writeText(dir.path() / "heavy.character", heavyCharacter());
  const scl::CharacterLoad heavy = scl::loadCharacter((dir.path() / "heavy.character").string());
  REQUIRE(heavy.ok());
  scl::CompileOptions options;
  options.character = heavy.character;
  const std::string source = "scene character: \"missing.character\"\n{ [legs 5] }\n";
  const scl::CompileResult result = compileIn(dir.path() / "s.scl", source, options);
  INFO(rendered(result, source));
  REQUIRE(result.ok());
  CHECK(result.program->character == heavy.character);
  CHECK(scl::compile("scene character: human\n{ [legs 5] }", "s.scl", options).ok());
}

TEST_CASE("scene character: errors are located at the argument") {
  TempDir dir;
  const fs::path script = dir.path() / "s.scl";

  SECTION("an unknown name gets a suggestion among the built-ins") {
    const scl::CompileResult result = compileIn(script, "scene character: humn\n{ }");
    const scl::Diagnostic* error = firstError(result);
    REQUIRE(error != nullptr);
    CHECK(error->location.line == 1);
    CHECK(error->location.column == 18);
    CHECK(error->message == "unknown character 'humn'; did you mean 'human'?");
  }
  SECTION("a missing file") {
    const scl::CompileResult result =
        compileIn(script, "scene pose: supine character: \"bodies/gone.character\"\n{ }");
    const scl::Diagnostic* error = firstError(result);
    REQUIRE(error != nullptr);
    CHECK(error->location.column == 31);
    CHECK(error->message == "character file '" + (dir.path() / "bodies/gone.character").string() +
                                "' does not exist");
  }
  SECTION("a character file with errors: its own diagnostics follow as notes in it") {
    std::string bad = heavyCharacter();
    bad.replace(bad.find("mass: 36"), 8, "mass: -1");
    writeText(dir.path() / "bad.character", bad);
    const std::string source = "scene character: \"bad.character\"\n{ }\n";
    const scl::CompileResult result = compileIn(script, source);
    CHECK_FALSE(result.ok());
    REQUIRE(result.diagnostics.size() == 2);
    CHECK(result.diagnostics[0].severity == scl::Severity::Error);
    CHECK(result.diagnostics[0].message == "character file 'bad.character' has 1 error");
    CHECK(result.diagnostics[0].location.column == 18);
    const scl::Diagnostic& note = result.diagnostics[1];
    CHECK(note.severity == scl::Severity::Note);
    CHECK(note.message == "error: 'mass:' must be positive (found -1)");
    CHECK(note.location.file == (dir.path() / "bad.character").string());
    CHECK(note.location.line == 10);
    // Rendered with the script's source, the note still shows its own file's line.
    const std::string text = rendered(result, source);
    CHECK_THAT(text, Catch::Contains("s.scl:1:18: error: character file 'bad.character' has 1 "
                                     "error\n  scene character: \"bad.character\""));
    CHECK_THAT(text, Catch::Contains("bad.character:10:65: note: error: 'mass:' must be "
                                     "positive (found -1)\n  link trunk "));
  }
  SECTION("a character file's warnings are a warning at the argument") {
    std::string warned = heavyCharacter();
    warned.replace(warned.find("group knees: leftKnee, rightKnee"), 32,
                   "group knees: leftKnee, rightKnee, leftKnee");
    writeText(dir.path() / "warned.character", warned);
    const scl::CompileResult result =
        compileIn(script, "scene character: \"warned.character\"\n{ }");
    REQUIRE(result.ok());
    REQUIRE(result.diagnostics.size() == 2);
    CHECK(result.diagnostics[0].severity == scl::Severity::Warning);
    CHECK(result.diagnostics[0].message == "character file 'warned.character' has 1 warning");
    CHECK(result.diagnostics[1].message == "warning: 'leftKnee' is twice in group 'knees'");
  }
  SECTION("syntax: a number, a duplicate") {
    const scl::CompileResult number = compileIn(script, "scene character: 12\n{ }");
    REQUIRE(firstError(number) != nullptr);
    CHECK_THAT(firstError(number)->message,
               Catch::Contains("expected a character name or a \"FILE\" path after "
                               "'character:' near '12'"));
    const scl::CompileResult twice =
        compileIn(script, "scene character: human character: \"x.character\"\n{ }");
    REQUIRE(firstError(twice) != nullptr);
    CHECK(firstError(twice)->message == "duplicate argument 'character:'");
    const scl::CompileResult typo = compileIn(script, "scene charcter: human\n{ }");
    REQUIRE(firstError(typo) != nullptr);
    CHECK_THAT(firstError(typo)->message, Catch::Contains("did you mean 'character'?"));
  }
}

TEST_CASE("scl fmt prints the scene character first, a name bare and a path quoted") {
  const std::string source =
      "scene pose: supine character: \"my bodies/x.character\" // a comment\n{ }\n";
  const scl::ParseResult parsed = scl::parse(source, "s.scl");
  REQUIRE_FALSE(scl::hasErrors(parsed.diagnostics));
  REQUIRE(parsed.script.scene->character.has_value());
  CHECK(parsed.script.scene->character->text == "my bodies/x.character");
  const std::string printed = scl::print(parsed.script, scl::scanComments(source));
  CHECK(printed.rfind("scene character: \"my bodies/x.character\" pose: supine  // a comment\n",
                      0) == 0);
  // A quoted name that reads as a name is printed bare: the same meaning.
  const scl::ParseResult quoted = scl::parse("scene character: \"human\"\n{ }\n", "q.scl");
  CHECK(scl::print(quoted.script, {}).rfind("scene character: human\n", 0) == 0);
  // `//` inside a string starts no comment.
  const std::vector<scl::Comment> comments =
      scl::scanComments("scene character: \"a//b.character\" // here\n");
  REQUIRE(comments.size() == 1);
  CHECK(comments[0].column == 35);
}

TEST_CASE("an objective file does not choose the character") {
  const scl::ObjectiveParseResult result = scl::parseObjective(
      "scene character: human pose: supine\nduration 1\nterm 1 energy\n", "o.objective");
  REQUIRE_FALSE(result.ok());
  CHECK(result.diagnostics[0].location.column == 18);
  CHECK_THAT(result.diagnostics[0].message,
             Catch::Contains("an objective does not choose the character"));
}

TEST_CASE("characters of different bodies simulate side by side, each as it does alone",
          "[determinism]") {
  TempDir dir;
  writeText(dir.path() / "heavy.character", heavyCharacter());
  const std::string source = readText(SCL_SOURCE_DIR "/scripts/thesis/4.8-kipup.scl");
  scl::CompileOptions heavyOptions;
  heavyOptions.character = scl::loadCharacter((dir.path() / "heavy.character").string()).character;
  REQUIRE(heavyOptions.character != nullptr);
  const scl::CompileResult human = scl::compile(source, "4.8-kipup.scl");
  const scl::CompileResult heavy = scl::compile(source, "4.8-kipup.scl", heavyOptions);
  REQUIRE(human.ok());
  REQUIRE(heavy.ok());
  auto run = [](const scl::Program& program) {
    scl::SimulationDef def = scl::simulationDefFor(program);
    def.scene.pose = "supine";
    scl::Runner runner(program, def);
    runner.runUntil(1.0);
    return runner.simulation().stateHash();
  };
  const std::uint64_t humanAlone = run(*human.program);
  const std::uint64_t heavyAlone = run(*heavy.program);
  CHECK(humanAlone != heavyAlone);  // the bodies differ, so do their motions
  std::uint64_t humanThreaded = 0, heavyThreaded = 0;
  std::thread one([&] { humanThreaded = run(*human.program); });
  std::thread two([&] { heavyThreaded = run(*heavy.program); });
  one.join();
  two.join();
  CHECK(humanThreaded == humanAlone);
  CHECK(heavyThreaded == heavyAlone);
}
