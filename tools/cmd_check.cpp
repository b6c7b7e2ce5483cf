// `scl check` and `scl fmt`: the language front end on the command line.
#include <algorithm>
#include <cxxopts.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "scl/character_file.h"
#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "tools/cli.h"
#include "tools/commands.h"

namespace scl {

namespace {

// Parses the options; returns an exit code when the command is already done (help or a
// usage error), nullopt to go on.
std::optional<int> parseOptions(cxxopts::Options& options, int argc, char** argv,
                                std::vector<std::string>& files,
                                std::optional<std::string>* character = nullptr) {
  options.add_options()("h,help", "Show this help")("files", "Script files",
                                                    cxxopts::value<std::vector<std::string>>());
  if (character)
    options.add_options()("character",
                          "check scripts for this character (a built-in name or a .character "
                          "file), overriding their scene character:",
                          cxxopts::value<std::string>(), "NAME|FILE");
  options.parse_positional({"files"});
  try {
    auto result = options.parse(argc, argv);
    if (result.count("help")) {
      std::cout << options.help() << '\n';
      return 0;
    }
    if (result.count("files")) files = result["files"].as<std::vector<std::string>>();
    if (character && result.count("character")) *character = result["character"].as<std::string>();
  } catch (const cxxopts::exceptions::exception& error) {
    std::cerr << options.program() << ": " << error.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

// A character file is told by its extension; everything else is a script.
bool isCharacterFile(const std::string& path) {
  return std::filesystem::path(path).extension() == ".character";
}

}  // namespace

int sclCheckMain(int argc, char** argv) {
  cxxopts::Options options("scl check",
                           "Check SCL scripts and character files (*.character): print errors "
                           "and warnings.\n"
                           "Exit 0 when no file has an error, 1 otherwise, 2 on a usage error.");
  options.positional_help("FILE...");
  std::vector<std::string> files;
  std::optional<std::string> characterOption;
  if (auto done = parseOptions(options, argc, argv, files, &characterOption)) return *done;
  if (files.empty()) {
    std::cerr << "scl check: no file given (try 'scl check --help')\n";
    return 2;
  }
  CompileOptions compileOptions;
  if (characterOption) compileOptions.character = loadCharacterOption(*characterOption);
  // Every file is checked; the exit code is the worst: a file that cannot be read (2)
  // before one with errors (1).
  int code = kExitOk;
  for (const std::string& file : files) {
    const bool character = isCharacterFile(file);
    std::string source;
    try {
      source = readInputFile(file, character ? "character file" : "script");
    } catch (const InputFileError& error) {
      std::cerr << "scl check: " << error.what() << "\n";
      code = std::max<int>(code, error.exitCode());
      continue;
    }
    if (character) {
      const CharacterLoad load = compileCharacter(source, file);
      std::cerr << renderDiagnostics(load.diagnostics, source);
      if (!load.ok()) code = std::max<int>(code, kExitInputError);
      continue;
    }
    CompileResult result = compile(source, file, compileOptions);
    std::cerr << renderDiagnostics(result.diagnostics, source);
    if (!result.ok()) code = std::max<int>(code, kExitInputError);
  }
  return code;
}

int sclFmtMain(int argc, char** argv) {
  cxxopts::Options options("scl fmt",
                           "Print an SCL script or a character file (*.character) in canonical "
                           "form, its comments kept.\n"
                           "Exit 1 with diagnostics when it does not parse, 2 on a usage error.");
  options.positional_help("FILE");
  std::vector<std::string> files;
  if (auto done = parseOptions(options, argc, argv, files)) return *done;
  if (files.size() != 1) {
    std::cerr << "scl fmt: expected exactly one file (try 'scl fmt --help')\n";
    return 2;
  }
  const std::string& file = files.front();
  if (isCharacterFile(file)) {
    const std::string source = readInputFile(file, "character file");
    CharacterParseResult parsed = parseCharacterFile(source, file);
    if (hasErrors(parsed.diagnostics)) {
      std::cerr << renderDiagnostics(parsed.diagnostics, source);
      return kExitInputError;
    }
    std::cout << printCharacterFile(parsed.file, scanComments(source));
    return kExitOk;
  }
  const std::string source = readInputFile(file, "script");
  ParseResult parsed = parse(source, file);
  if (hasErrors(parsed.diagnostics)) {
    std::cerr << renderDiagnostics(parsed.diagnostics, source);
    return kExitInputError;
  }
  std::cout << print(parsed.script, scanComments(source));
  return kExitOk;
}

}  // namespace scl
