// Built-in characters and character files by name or path (character_file.h).
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "scl/character_file.h"
#include "scl/names.h"

namespace scl {

namespace {

// The built-ins, each compiled once on first use and shared, immutable, by every caller
// and thread. A built-in that does not compile is a bug of the build, not a user error.
const std::vector<std::shared_ptr<const Character>>& compiledBuiltins() {
  static const std::vector<std::shared_ptr<const Character>> kCompiled = [] {
    std::vector<std::shared_ptr<const Character>> compiled;
    for (const BuiltinCharacter& builtin : builtinCharacters()) {
      const std::string file = "characters/" + std::string(builtin.name) + ".character";
      CharacterLoad load = compileCharacter(builtin.source, file);
      if (!load.ok())
        throw std::logic_error("the built-in character " + file + " does not compile:\n" +
                               renderDiagnostics(load.diagnostics, builtin.source));
      auto character = std::make_shared<Character>(*load.character);
      character->source = "built-in";
      compiled.push_back(std::move(character));
    }
    return compiled;
  }();
  return kCompiled;
}

}  // namespace

std::vector<std::string_view> builtinCharacterNames() {
  std::vector<std::string_view> names;
  for (const BuiltinCharacter& builtin : builtinCharacters()) names.push_back(builtin.name);
  return names;
}

const std::shared_ptr<const Character>& humanCharacter() {
  static const std::shared_ptr<const Character> kHuman = [] {
    for (const auto& character : compiledBuiltins())
      if (character->name == "human") return character;
    throw std::logic_error("no built-in character 'human' (characters/human.character)");
  }();
  return kHuman;
}

CharacterLoad loadCharacter(std::string_view nameOrPath,
                            const std::filesystem::path& baseDirectory) {
  CharacterLoad load;
  const std::vector<std::string_view> builtins = builtinCharacterNames();
  for (size_t i = 0; i < builtins.size(); ++i) {
    if (builtins[i] != nameOrPath) continue;
    try {
      load.character = compiledBuiltins()[i];
    } catch (const std::exception& error) {
      load.diagnostics.push_back({Severity::Error, {}, error.what()});
    }
    return load;
  }
  // Not a built-in: a file, relative to `baseDirectory`.
  std::filesystem::path path(nameOrPath);
  if (path.is_relative() && !baseDirectory.empty()) path = baseDirectory / path;
  std::error_code error;
  const bool looksLikePath =
      nameOrPath.find('/') != std::string_view::npos || nameOrPath.ends_with(".character");
  if (!std::filesystem::is_regular_file(path, error)) {
    std::string message = looksLikePath
                              ? "character file '" + path.string() + "' does not exist"
                              : unknownChoiceMessage("character", nameOrPath, builtins) +
                                    "; give a built-in name or the path of a .character file";
    load.diagnostics.push_back({Severity::Error, {}, std::move(message)});
    return load;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    load.diagnostics.push_back(
        {Severity::Error, {}, "character file '" + path.string() + "' cannot be read"});
    return load;
  }
  CharacterLoad compiled = compileCharacter(text.str(), path.string());
  if (compiled.ok()) {
    auto character = std::make_shared<Character>(*compiled.character);
    character->source = path.string();
    compiled.character = std::move(character);
  }
  return compiled;
}

}  // namespace scl
