// `scl character`: the character's tables, the reference page or the joint-sign figure,
// all generated from the character table (tools/character_report.h).
#include <cstdio>
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "tools/character_report.h"
#include "tools/commands.h"

namespace scl {

namespace {

enum class CharacterOutput { Text, Markdown, Svg };

// Writes the text as it is, byte for byte (the committed page and figure are compared
// with this output); false when it could not be written.
bool printExactly(const std::string& text) {
  bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  return std::fflush(stdout) == 0 && written && !std::ferror(stdout);
}

std::string render(CharacterOutput output) {
  switch (output) {
    case CharacterOutput::Markdown:
      return characterReferenceMarkdown();
    case CharacterOutput::Svg:
      return jointSignFigureSvg();
    case CharacterOutput::Text:
      break;
  }
  return characterReferenceText(builtInCharacterReference());
}

}  // namespace

int sclCharacterMain(int argc, char** argv) {
  cxxopts::Options options(
      "scl character",
      "Print the character: its links, joints, groups and joint signs, from the character "
      "table.\nOnly the built-in human exists for now.\n"
      "Exit codes: 0 ok, 2 usage error, 3 the output could not be written.");
  options.add_options()("markdown", "print the page docs/character-reference.md")(
      "svg", "print the figure docs/figures/joint-signs.svg")("h,help", "show this help")(
      "character", "", cxxopts::value<std::vector<std::string>>());
  // A later [NAME|FILE] argument will choose a character; today it is an error.
  options.parse_positional({"character"});
  options.positional_help("");
  CharacterOutput output = CharacterOutput::Text;
  try {
    cxxopts::ParseResult parsed = options.parse(argc, argv);
    if (parsed.count("help")) {
      std::printf("%s\n", options.help().c_str());
      return 0;
    }
    if (!parsed.unmatched().empty())
      throw cxxopts::exceptions::exception("unexpected argument '" + parsed.unmatched()[0] + "'");
    if (parsed.count("character"))
      throw cxxopts::exceptions::exception(
          "unknown character '" + parsed["character"].as<std::vector<std::string>>().front() +
          "': only the built-in human exists");
    if (parsed.count("markdown") && parsed.count("svg"))
      throw cxxopts::exceptions::exception("give --markdown or --svg, not both");
    if (parsed.count("markdown")) output = CharacterOutput::Markdown;
    if (parsed.count("svg")) output = CharacterOutput::Svg;
  } catch (const cxxopts::exceptions::exception& error) {
    std::fprintf(stderr, "scl character: %s (see 'scl character --help')\n", error.what());
    return 2;
  }
  if (printExactly(render(output))) return 0;
  std::fprintf(stderr, "scl character: cannot write the output\n");
  return 3;
}

}  // namespace scl
