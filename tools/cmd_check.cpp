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
#include "scl/clip_file.h"
#include "scl/compile.h"
#include "scl/objective.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "scl/problem.h"
#include "scl/world.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/lsp/analysis.h"
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

// What `scl check` reads a file as: by its extension, so that an objective is not read
// as a script (whose parser would report a syntax error at its first line).
enum class CheckedKind { Script, Character, Objective, Problem, World, Clip };

CheckedKind checkedKindOf(const std::string& path) {
  const std::filesystem::path extension = std::filesystem::path(path).extension();
  if (extension == ".character") return CheckedKind::Character;
  if (extension == ".objective") return CheckedKind::Objective;
  if (extension == ".problem") return CheckedKind::Problem;
  if (extension == ".world") return CheckedKind::World;
  if (extension == ".clip") return CheckedKind::Clip;
  return CheckedKind::Script;
}

// The name readInputFile() gives a file of `kind` in its messages.
std::string_view fileKindName(CheckedKind kind) {
  switch (kind) {
    case CheckedKind::Character:
      return "character file";
    case CheckedKind::Objective:
      return "objective";
    case CheckedKind::Problem:
      return "problem";
    case CheckedKind::World:
      return "world file";
    case CheckedKind::Clip:
      return "clip file";
    case CheckedKind::Script:
      break;
  }
  return "script";
}

// A clip file's diagnostics: its own, then binding it to `character` (--character), else
// to the built-in it names (a character of a file is not known by name: not bound).
std::vector<Diagnostic> clipFileDiagnostics(const std::string& source, const std::string& file,
                                            const Character* character) {
  ClipParse parsed = parseClip(source, file);
  if (!parsed.ok()) return std::move(parsed.diagnostics);
  std::shared_ptr<const Character> builtin;
  const std::vector<std::string_view> builtins = builtinCharacterNames();
  if (!character &&
      std::find(builtins.begin(), builtins.end(), parsed.clip.character) != builtins.end()) {
    builtin = loadCharacter(parsed.clip.character).character;
    character = builtin.get();
  }
  if (!character) return std::move(parsed.diagnostics);
  DiagnosticSink sink;
  bindClip(parsed.clip, *character, sink);
  std::vector<Diagnostic> diagnostics = std::move(parsed.diagnostics);
  for (Diagnostic& diagnostic : sink.take()) diagnostics.push_back(std::move(diagnostic));
  return diagnostics;
}

}  // namespace

int sclCheckMain(int argc, char** argv) {
  cxxopts::Options options(
      "scl check",
      "Check SCL scripts, character files (*.character), objective files "
      "(*.objective), problem files (*.problem), world files (*.world) and "
      "clip files (*.clip), each told by its extension: print errors and warnings.\n"
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
    const CheckedKind kind = checkedKindOf(file);
    std::string source;
    try {
      source = readInputFile(file, fileKindName(kind));
    } catch (const InputFileError& error) {
      std::cerr << "scl check: " << error.what() << "\n";
      if (json) report.push_back(lsp::uncheckedFileJson(file, error.what()));
      code = std::max<int>(code, error.exitCode());
      continue;
    }
    std::vector<Diagnostic> diagnostics;
    bool ok = false;
    switch (kind) {
      case CheckedKind::Character: {
        CharacterLoad load = compileCharacter(source, file);
        diagnostics = std::move(load.diagnostics);
        ok = load.ok();
        break;
      }
      case CheckedKind::Objective: {
        ObjectiveParseResult parsed = parseObjective(source, file);
        diagnostics = std::move(parsed.diagnostics);
        ok = parsed.ok();
        break;
      }
      case CheckedKind::Problem: {
        ProblemParseResult parsed = parseProblem(source, file);
        diagnostics = std::move(parsed.diagnostics);
        ok = parsed.ok();
        break;
      }
      case CheckedKind::World: {
        diagnostics = lsp::worldFileDiagnostics(source, file);
        ok = !hasErrors(diagnostics);
        break;
      }
      case CheckedKind::Clip: {
        diagnostics = clipFileDiagnostics(source, file, compileOptions.character.get());
        ok = !hasErrors(diagnostics);
        break;
      }
      case CheckedKind::Script: {
        CompileResult result = compile(source, file, compileOptions);
        diagnostics = std::move(result.diagnostics);
        ok = result.ok();
        break;
      }
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
  cxxopts::Options options(
      "scl fmt",
      "Print an SCL script, a character file (*.character), a world file "
      "(*.world) or a clip file (*.clip) in canonical form, its comments kept.\n"
      "Exit 1 with diagnostics when it does not parse, 2 on a usage error.");
  options.positional_help("FILE");
  std::vector<std::string> files;
  if (auto done = parseOptions(options, argc, argv, files)) return *done;
  if (files.size() != 1) {
    std::cerr << "scl fmt: expected exactly one file (try 'scl fmt --help')\n";
    return 2;
  }
  const std::string& file = files.front();
  if (const CheckedKind kind = checkedKindOf(file);
      kind == CheckedKind::Objective || kind == CheckedKind::Problem) {
    // Read as a script, its first statement would be a confusing syntax error.
    std::cerr << "scl fmt: '" << file << "' is " << (kind == CheckedKind::Objective ? "an " : "a ")
              << fileKindName(kind)
              << " file, which has no canonical form to print (one statement per line "
                 "already); 'scl check "
              << file << "' checks it\n";
    return kExitUsageError;
  }
  if (checkedKindOf(file) == CheckedKind::World) {
    const std::string source = readInputFile(file, "world file");
    WorldFileParse parsed = parseWorldFile(source, file);
    if (hasErrors(parsed.diagnostics)) {
      std::cerr << renderDiagnostics(parsed.diagnostics, source);
      return kExitInputError;
    }
    std::cout << printWorldFile(parsed.file, scanComments(source));
    return kExitOk;
  }
  if (checkedKindOf(file) == CheckedKind::Clip) {
    const std::string source = readInputFile(file, "clip file");
    ClipParse parsed = parseClip(source, file);
    if (hasErrors(parsed.diagnostics)) {
      std::cerr << renderDiagnostics(parsed.diagnostics, source);
      return kExitInputError;
    }
    std::cout << printClip(parsed.clip, scanComments(source));
    return kExitOk;
  }
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
