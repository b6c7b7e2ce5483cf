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
#include "tools/lsp/check_json.h"

namespace scl {

namespace {

// Parses the options; returns an exit code when the command is already done (help),
// nullopt to go on. Throws UsageError.
std::optional<int> parseOptions(cxxopts::Options& options, int argc, char** argv,
                                std::vector<std::string>& files,
                                std::optional<std::string>* character = nullptr,
                                std::string* format = nullptr) {
  options.add_options()("h,help", "Show this help")("files", "Script files",
                                                    cxxopts::value<std::vector<std::string>>());
  if (character)
    options.add_options()("character",
                          "check scripts for this character (a built-in name or a .character "
                          "file), overriding their scene character:",
                          cxxopts::value<std::string>(), "NAME|FILE");
  if (format)
    options.add_options()("format",
                          "text (file:line:col: error: ... on stderr) or json (one object on "
                          "stdout, for tools and CI annotations)",
                          cxxopts::value<std::string>()->default_value("text"), "text|json");
  options.parse_positional({"files"});
  CommandLineDef def;
  def.pointToHelp = false;
  auto read = [&](const cxxopts::ParseResult& parsed) {
    if (parsed.count("files")) files = parsed["files"].as<std::vector<std::string>>();
    if (character && parsed.count("character")) *character = parsed["character"].as<std::string>();
    if (format) *format = parsed["format"].as<std::string>();
  };
  if (!parseCommandLine(options, argc, argv, def, read)) return kExitOk;
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
  std::string format;
  if (auto done = parseOptions(options, argc, argv, files, &characterOption, &format)) return *done;
  if (format != "text" && format != "json") {
    std::cerr << "scl check: unknown --format '" << format << "' (text or json)\n";
    return 2;
  }
  const bool json = format == "json";
  nlohmann::ordered_json report = nlohmann::ordered_json::array();
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
      if (json) report.push_back(lsp::uncheckedFileJson(file, error.what()));
      code = std::max<int>(code, error.exitCode());
      continue;
    }
    std::vector<Diagnostic> diagnostics;
    bool ok = false;
    if (character) {
      CharacterLoad load = compileCharacter(source, file);
      diagnostics = std::move(load.diagnostics);
      ok = load.ok();
    } else {
      CompileResult result = compile(source, file, compileOptions);
      diagnostics = std::move(result.diagnostics);
      ok = result.ok();
    }
    if (json)
      report.push_back(lsp::checkedFileJson(file, diagnostics, source));
    else
      std::cerr << renderDiagnostics(diagnostics, source);
    if (!ok) code = std::max<int>(code, kExitInputError);
  }
  if (json)
    std::cout << lsp::checkReportJson(std::move(report))
                     .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
              << "\n";
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
