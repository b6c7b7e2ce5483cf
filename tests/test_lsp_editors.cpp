// The editor support of editors/ (docs/editors.md): the VS Code extension's files are valid
// JSON, its problem matcher reads `scl check`'s output, its TextMate grammar and the Vim
// syntax know every primitive keyword and the character's names.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "scl/character.h"
#include "scl/parser.h"
#include "scl/world.h"
#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using scl::testing::readText;

const std::string kEditors = SCL_SOURCE_DIR "/editors/";

json readJson(const std::string& path) {
  INFO(path);
  const std::string text = readText(path);
  REQUIRE_FALSE(text.empty());
  return json::parse(text);
}

// Every name a script may use for the human's links, joints and their groups.
std::vector<std::string> names(bool joints) {
  const scl::Character& human = *scl::humanCharacter();
  std::vector<std::string> out;
  if (joints) {
    for (const auto& joint : human.joints) out.push_back(joint.name);
    for (const auto& group : human.jointGroups) out.push_back(group.name);
  } else {
    for (const auto& link : human.links) out.push_back(link.name);
    for (const auto& group : human.linkGroups) out.push_back(group.name);
  }
  return out;
}

bool matchesWhole(const std::string& pattern, const std::string& word) {
  std::smatch match;
  return std::regex_search(word, match, std::regex(pattern)) &&
         match.length(0) == static_cast<long>(word.size());
}

}  // namespace

TEST_CASE("editors/vscode: the extension's files and problem matcher", "[lsp][editors]") {
  const json package = readJson(kEditors + "vscode/package.json");
  CHECK(package["main"] == "./extension.js");
  CHECK(fs::exists(kEditors + "vscode/extension.js"));
  CHECK_THAT(readText(kEditors + "vscode/extension.js"), Catch::Contains("args: ['lsp']"));
  const json configuration = readJson(kEditors + "vscode/language-configuration.json");
  CHECK(configuration["comments"]["lineComment"] == "//");
  CHECK(configuration["brackets"].size() == 3);
  // The problem matcher reads each diagnostic line of `scl check` (not the source lines or
  // carets below them).
  const json& pattern = package["contributes"]["problemMatchers"][0]["pattern"];
  const std::regex line(pattern["regexp"].get<std::string>());
  scl::testing::TempDir dir;
  const std::string script = dir / "bad.scl";
  scl::testing::writeText(script, "{\n  [leftShoulderr 20, knees -170]\n  [waist 20\n}\n");
  const auto checked = scl::testing::runScl("check " + scl::testing::shellQuote(script));
  std::istringstream output(checked.err);
  int matched = 0;
  for (std::string text; std::getline(output, text);) {
    std::smatch match;
    if (!std::regex_match(text, match, line)) continue;
    ++matched;
    CHECK(match[pattern["file"].get<int>()] == script);
    CHECK(std::stoi(match[pattern["line"].get<int>()]) > 0);
    CHECK(std::stoi(match[pattern["column"].get<int>()]) > 0);
  }
  CHECK(matched == 5);  // 2 errors, 2 warnings and a note
}

TEST_CASE("editors: the grammars know the keywords and the names", "[lsp][editors]") {
  const json grammar = readJson(kEditors + "vscode/syntaxes/scl.tmLanguage.json");
  const json& repository = grammar["repository"];
  for (std::string_view keyword : scl::primitiveKeywords())
    CHECK(matchesWhole(repository["primitive"]["match"].get<std::string>(), std::string(keyword)));
  for (const std::string& name : names(true))
    CHECK(matchesWhole(repository["joint"]["match"].get<std::string>(), name));
  for (const std::string& name : names(false))
    CHECK(matchesWhole(repository["link"]["match"].get<std::string>(), name));
  const std::string vim = readText(kEditors + "vim/syntax/scl.vim");
  for (std::string_view keyword : scl::primitiveKeywords())
    CHECK_THAT(vim, Catch::Contains(" " + std::string(keyword) + " ") ||
                        Catch::Contains(" " + std::string(keyword) + "\n"));
  for (bool joints : {true, false})
    for (const std::string& name : names(joints))
      CHECK_THAT(vim, Catch::Contains(" " + name + " ") || Catch::Contains(" " + name + "\n"));
  CHECK_THAT(readText(kEditors + "vim/ftdetect/scl.vim"), Catch::Contains("*.scl"));
  // World statements (docs/scene.md): every kind of body and the push, and every key, in
  // scripts and in world files.
  for (const scl::WorldKind& kind : scl::worldKinds()) {
    const std::string word(kind.name());
    CHECK(matchesWhole(repository["body"]["match"].get<std::string>(), word));
    CHECK_THAT(vim, Catch::Contains(" " + word + " ") || Catch::Contains(" " + word + "\n"));
    for (const scl::WorldKey& key : kind.keys) {
      const std::string argument = repository["argument"]["match"].get<std::string>();
      CHECK(std::regex_search(std::string(key.key) + ":", std::regex(argument)));
      CHECK_THAT(vim, Catch::Contains("\\|" + std::string(key.key) + "\\|") ||
                          Catch::Contains("\\(" + std::string(key.key) + "\\|") ||
                          Catch::Contains("\\|" + std::string(key.key) + "\\)"));
    }
  }
  CHECK_THAT(readText(kEditors + "vim/ftdetect/scl.vim"), Catch::Contains("*.world"));
  const json package = readJson(kEditors + "vscode/package.json");
  CHECK(package["contributes"]["languages"][0]["extensions"].dump().find(".world") !=
        std::string::npos);
}
