// `scl character [NAME|FILE]`: a character's tables, its reference page, its joint-sign
// figure (all generated from the character's data, tools/character_report.h) or its file.
#include <cstdio>
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "scl/character_file.h"
#include "scl/names.h"
#include "tools/character_report.h"
#include "tools/cli.h"
#include "tools/commands.h"

namespace scl {

namespace {

enum class CharacterOutput { Text, Markdown, Svg, File };

// Writes the text as it is, byte for byte (the committed page and figure are compared
// with this output); false when it could not be written.
bool printExactly(const std::string& text) {
  bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  return std::fflush(stdout) == 0 && written && !std::ferror(stdout);
}

// The text of a built-in character's file, or of the character file at `path`.
std::string characterSource(const std::string& nameOrPath) {
  for (const BuiltinCharacter& builtin : builtinCharacters())
    if (builtin.name == nameOrPath) return std::string(builtin.source);
  return readInputFile(nameOrPath, "character file");
}

std::string render(CharacterOutput output, const Character& character,
                   const std::string& nameOrPath) {
  switch (output) {
    case CharacterOutput::Markdown:
      return characterReferenceMarkdown(characterReference(character));
    case CharacterOutput::Svg:
      return jointSignFigureSvg(characterReference(character), standingState(character));
    case CharacterOutput::File: {
      // The canonical form, comments kept: a built-in's file as committed.
      const std::string source = characterSource(nameOrPath);
      const CharacterParseResult parsed = parseCharacterFile(source, nameOrPath);
      return printCharacterFile(parsed.file, scanComments(source));
    }
    case CharacterOutput::Text:
      break;
  }
  return characterReferenceText(characterReference(character));
}

}  // namespace

int sclCharacterMain(int argc, char** argv) {
  cxxopts::Options options(
      "scl character",
      "Print a character: its links, joints, groups and joint signs. NAME is a built-in "
      "character (" +
          CharacterNames::joined(builtinCharacterNames()) +
          "; default human), FILE a character file.\n"
          "Exit codes: 0 ok, 1 the character file has errors, 2 usage error, 3 the output "
          "could not be written.");
  options.add_options()("markdown", "print the reference page (docs/character-reference.md)")(
      "svg", "print the joint-sign figure (docs/figures/joint-signs.svg)")(
      "file", "print the character's file in canonical form (to copy and edit)")(
      "h,help", "show this help")("character", "", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"character"});
  options.positional_help("[NAME|FILE]");
  CharacterOutput output = CharacterOutput::Text;
  std::string nameOrPath = "human";
  auto read = [&](const cxxopts::ParseResult& parsed) {
    if (parsed.count("character")) {
      const auto names = parsed["character"].as<std::vector<std::string>>();
      if (names.size() > 1)
        throw std::invalid_argument("unexpected argument '" + names[1] + "': give one character");
      nameOrPath = names.front();
    }
    if (parsed.count("markdown") + parsed.count("svg") + parsed.count("file") > 1)
      throw std::invalid_argument("give one of --markdown, --svg and --file");
    if (parsed.count("markdown")) output = CharacterOutput::Markdown;
    if (parsed.count("svg")) output = CharacterOutput::Svg;
    if (parsed.count("file")) output = CharacterOutput::File;
  };
  if (!parseCommandLine(options, argc, argv, {}, read)) return kExitOk;
  const CharacterLoad load = loadCharacter(nameOrPath);
  if (load.notFound) {
    std::fprintf(stderr, "scl character: %s\n", load.diagnostics.front().message.c_str());
    return kExitUsageError;
  }
  if (!load.diagnostics.empty())
    std::fputs(renderDiagnostics(load.diagnostics, "").c_str(), stderr);
  if (!load.ok()) return kExitInputError;
  // A failed write is reported once, by main's check of standard output (with the reason).
  return printExactly(render(output, *load.character, nameOrPath)) ? kExitOk : kExitFailure;
}

}  // namespace scl
