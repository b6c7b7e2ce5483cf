// Built-in characters and character files by name or path (character_file.h).
#include <stdexcept>
#include <utility>

#include "base/files.h"
#include "scl/character_file.h"
#include "scl/lexer.h"
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
  auto notFound = [&](std::string message) {
    load.notFound = true;
    load.diagnostics.push_back({Severity::Error, {}, std::move(message)});
    return load;
  };
  if (nameOrPath.empty())
    return notFound("no character given: give a built-in name (" +
                    CharacterNames::joined(builtins) + ") or the path of a .character file");
  // Not a built-in: a file, relative to `baseDirectory`.
  std::filesystem::path path(nameOrPath);
  if (path.is_relative() && !baseDirectory.empty()) path = baseDirectory / path;
  const std::string shown = "character file '" + path.string() + "'";
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  const bool looksLikePath = nameOrPath.find('/') != std::string_view::npos ||
                             nameOrPath.ends_with(".character") || std::filesystem::exists(status);
  if (!looksLikePath) {
    std::string message = unknownChoiceMessage("character", nameOrPath, builtins);
    if (closestMatch(nameOrPath, builtins).empty())
      message += "; a character file is named by its path (ending in .character)";
    return notFound(std::move(message));
  }
  // A device or a pipe (/dev/stdin, /dev/zero, a FIFO) could block or never end: an editor's
  // language server reads whatever name is typed. readWholeFile refuses them.
  SourceFileRead read = readSourceFile(path, shown);
  if (read.unreadable) return notFound(std::move(read.error));
  if (!read.text) {
    load.diagnostics.push_back(read.diagnostic(path));
    return load;
  }
  std::shared_ptr<std::string> text = std::move(read.text);
  CharacterLoad compiled = compileCharacter(*text, path.string());
  const std::shared_ptr<const std::string> fileText = std::move(text);
  for (Diagnostic& diagnostic : compiled.diagnostics) diagnostic.fileText = fileText;
  if (compiled.ok()) {
    auto character = std::make_shared<Character>(*compiled.character);
    character->source = path.string();
    compiled.character = std::move(character);
  }
  return compiled;
}

}  // namespace scl
