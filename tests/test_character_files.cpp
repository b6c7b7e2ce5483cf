// Character files (docs/character.md, "Character files"): every tests/characters/*.character
// file states the exact set of errors and warnings the parser and builder must report
// (tests/inline_expectations.h), and the committed characters are in canonical form.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "scl/character_file.h"
#include "tests/inline_expectations.h"

namespace {

namespace fs = std::filesystem;

std::string canonical(const std::string& source, const std::string& name) {
  const scl::CharacterParseResult parsed = scl::parseCharacterFile(source, name);
  INFO(name << "\n" << scl::renderDiagnostics(parsed.diagnostics, source));
  REQUIRE_FALSE(scl::hasErrors(parsed.diagnostics));
  return scl::printCharacterFile(parsed.file, scl::scanComments(source));
}

}  // namespace

TEST_CASE("every tests/characters file produces exactly its expected diagnostics") {
  const auto files =
      scl::testing::filesWithExtension(SCL_SOURCE_DIR "/tests/characters", ".character");
  REQUIRE(files.size() >= 12);
  int good = 0;
  for (const auto& path : files) {
    const std::string source = scl::testing::readTextFile(path);
    const std::string name = path.filename().string();
    const scl::CharacterLoad load = scl::compileCharacter(source, name);
    scl::testing::checkInlineExpectations(name, source, load.diagnostics, load.ok());
    good += load.ok() ? 1 : 0;
  }
  CHECK(good >= 1);  // good.character
}

TEST_CASE("the good test character is a body of its own") {
  const fs::path path = SCL_SOURCE_DIR "/tests/characters/good.character";
  const scl::CharacterLoad load =
      scl::compileCharacter(scl::testing::readTextFile(path), "good.character");
  REQUIRE(load.ok());
  const scl::Character& sturdy = *load.character;
  CHECK(sturdy.name == "sturdy");
  CHECK(sturdy.links[scl::kTrunk].mass == 33);
  CHECK(sturdy.totalMass > scl::humanCharacter()->totalMass);
  CHECK(sturdy.findPose("kneeling") != nullptr);
  CHECK(sturdy.findJointGroup("legs").size() == 4);
}

TEST_CASE("the committed characters are in canonical form (scl fmt prints them unchanged)") {
  const auto files = scl::testing::filesWithExtension(SCL_SOURCE_DIR "/characters", ".character");
  REQUIRE_FALSE(files.empty());
  for (const auto& path : files) {
    const std::string source = scl::testing::readTextFile(path);
    INFO(path.string() << " is not in canonical form: run `scl fmt " << path.string()
                       << "` and commit its output");
    CHECK(canonical(source, path.filename().string()) == source);
  }
}

TEST_CASE("printing a character file is idempotent and keeps its meaning") {
  for (const auto& path :
       scl::testing::filesWithExtension(SCL_SOURCE_DIR "/tests/characters", ".character")) {
    const std::string source = scl::testing::readTextFile(path);
    const std::string name = path.filename().string();
    if (scl::hasErrors(scl::parseCharacterFile(source, name).diagnostics)) continue;
    const std::string once = canonical(source, name);
    INFO(name);
    CHECK(canonical(once, name) == once);
    // The same diagnostics (messages) before and after printing: it changes no meaning.
    const scl::CharacterLoad before = scl::compileCharacter(source, name);
    const scl::CharacterLoad after = scl::compileCharacter(once, name);
    REQUIRE(before.diagnostics.size() == after.diagnostics.size());
    for (size_t i = 0; i < before.diagnostics.size(); ++i)
      CHECK(before.diagnostics[i].message == after.diagnostics[i].message);
  }
}

TEST_CASE("a character file's diagnostics from loadCharacter render with their own lines") {
  const fs::path path = SCL_SOURCE_DIR "/tests/characters/sizes.character";
  const scl::CharacterLoad load = scl::loadCharacter(path.string());
  REQUIRE_FALSE(load.ok());
  CHECK_FALSE(load.notFound);
  REQUIRE_FALSE(load.diagnostics.empty());
  CHECK(load.diagnostics.front().fileText != nullptr);
  // Rendered against no source at all, each diagnostic shows its file's line.
  const std::string rendered = scl::renderDiagnostics(load.diagnostics, "");
  CHECK_THAT(rendered, Catch::Contains("sizes.character:6:65: error: 'mass:' must be positive"));
  CHECK_THAT(rendered, Catch::Contains("  link head         length: 0.35"));
}

TEST_CASE("loadCharacter: built-ins by name, files by path, and why not") {
  const scl::CharacterLoad human = scl::loadCharacter("human");
  REQUIRE(human.ok());
  CHECK(human.character == scl::humanCharacter());  // loaded once, shared

  const scl::CharacterLoad typo = scl::loadCharacter("humn");
  CHECK(typo.notFound);
  REQUIRE(typo.diagnostics.size() == 1);
  CHECK(typo.diagnostics[0].message == "unknown character 'humn'; did you mean 'human'?");

  const scl::CharacterLoad unknown = scl::loadCharacter("giant");
  CHECK(unknown.notFound);
  CHECK_THAT(unknown.diagnostics[0].message,
             Catch::Contains("(characters: asymmetric, bird, child, dinosaur, human, robot)"));

  const scl::CharacterLoad missing = scl::loadCharacter("nowhere/giant.character");
  CHECK(missing.notFound);
  CHECK(missing.diagnostics[0].message ==
        "character file 'nowhere/giant.character' does not exist");

  const scl::CharacterLoad directory = scl::loadCharacter("characters", SCL_SOURCE_DIR);
  CHECK(directory.notFound);
  CHECK_THAT(directory.diagnostics[0].message, Catch::Contains("is a directory"));

  // A device is not read (/dev/stdin or /dev/zero would block or never end; an editor's
  // language server loads whatever name is typed).
  const scl::CharacterLoad device = scl::loadCharacter("/dev/null");
  CHECK(device.notFound);
  REQUIRE_FALSE(device.diagnostics.empty());
  CHECK(device.diagnostics[0].message == "character file '/dev/null' is not a regular file");

  const scl::CharacterLoad empty = scl::loadCharacter("");
  CHECK(empty.notFound);

  // A relative path from the base directory; the character remembers where it came from.
  const scl::CharacterLoad good =
      scl::loadCharacter("characters/good.character", SCL_SOURCE_DIR "/tests");
  REQUIRE(good.ok());
  CHECK(good.character->name == "sturdy");
  CHECK(good.character->source == SCL_SOURCE_DIR "/tests/characters/good.character");
}

TEST_CASE("loadCharacter: a character file with CR-only line endings is refused, as scripts are") {
  const fs::path path =
      fs::temp_directory_path() / ("scl_cr_only_" + std::to_string(::getpid()) + ".character");
  {
    std::ofstream out(path, std::ios::binary);
    out << "character cr\rlink head length: 1\r";
  }
  const scl::CharacterLoad load = scl::loadCharacter(path.string());
  fs::remove(path);
  CHECK_FALSE(load.ok());
  CHECK_FALSE(load.notFound);  // read, but unusable: an input error
  REQUIRE(load.diagnostics.size() == 1);
  CHECK_THAT(load.diagnostics[0].message, Catch::Contains("CR-only line endings"));
}
