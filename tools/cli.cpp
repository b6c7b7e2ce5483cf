#include "tools/cli.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/files.h"
#include "runtime/output_files.h"
#include "scl/character_file.h"
#include "scl/lexer.h"
#include "scl/printer.h"

namespace scl {

std::optional<cxxopts::ParseResult> parseCommandLine(cxxopts::Options& options, int argc,
                                                     char** argv, const CommandLineDef& def,
                                                     const CommandLineReader& read) {
  auto usageError = [&](const std::string& message) {
    return UsageError(def.pointToHelp ? message + " (see '" + options.program() + " --help')"
                                      : message);
  };
  try {
    cxxopts::ParseResult parsed = options.parse(argc, argv);
    if (parsed.count("help")) {
      std::printf("%s\n", options.help(def.helpGroups).c_str());
      if (!def.helpEpilogue.empty()) std::printf("%s\n", def.helpEpilogue.c_str());
      return std::nullopt;
    }
    if (read) read(parsed);
    if (!parsed.unmatched().empty())
      throw std::invalid_argument("unexpected argument '" + parsed.unmatched()[0] + "'");
    return parsed;
  } catch (const cxxopts::exceptions::exception& error) {
    throw usageError(error.what());
  } catch (const std::invalid_argument& error) {
    throw usageError(error.what());
  }
}

std::string readInputFile(const std::string& path, std::string_view kind) {
  if (path.empty())
    throw InputFileError(kExitUsageError, "an empty path was given for the " + std::string(kind));
  FileRead read = readWholeFile(path);
  if (!read) {
    const bool missing = read.failure == FileReadFailure::Missing;
    throw InputFileError(kExitUsageError, std::string(kind) + " " + read.error +
                                              (missing ? " (check the path)" : ""));
  }
  // A byte-order mark (some Windows editors write one) is no content.
  stripByteOrderMark(read.text);
  // Lines ending in CR alone (classic Mac OS) would read as one line.
  if (hasCrOnlyLineEndings(read.text))
    throw InputFileError(kExitInputError,
                         std::string(kind) + " '" + path +
                             "' has CR-only line endings (classic Mac OS); save it with LF "
                             "(or CRLF) line endings");
  return std::move(read.text);
}

void checkOutputsAgainstInputs(const std::vector<NamedPath>& inputs,
                               const std::vector<NamedPath>& outputs) {
  auto describe = [](const NamedPath& file) { return file.role + " '" + file.path + "'"; };
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (const NamedPath& input : inputs)
      if (sameFile(outputs[i].path, input.path))
        throw UsageError(describe(outputs[i]) + " is the " + describe(input) +
                         ": an output never replaces an input (choose another file)");
    for (size_t j = 0; j < i; ++j)
      if (sameFile(outputs[i].path, outputs[j].path))
        throw UsageError(describe(outputs[i]) + " and " + describe(outputs[j]) +
                         " are the same file: give each output its own file");
  }
}

void addCharacterInput(std::vector<NamedPath>& inputs, const Character& character) {
  if (character.source.empty() || character.source == "built-in") return;
  inputs.push_back({"character", character.source});
}

std::vector<NamedPath> outputsInDirectory(const std::filesystem::path& dir,
                                          const std::vector<std::string>& names) {
  std::vector<NamedPath> outputs;
  outputs.reserve(names.size());
  for (const std::string& name : names)
    outputs.push_back({name + " of --out", (dir / name).string()});
  return outputs;
}

void checkNothingReplaced(const std::filesystem::path& dir, const std::vector<std::string>& names,
                          bool overwrite) {
  if (overwrite) return;
  std::vector<std::string> present;
  for (const std::string& name : names) {
    std::error_code error;
    if (std::filesystem::exists(std::filesystem::symlink_status(dir / name, error)))
      present.push_back(name);
  }
  if (present.empty()) return;
  std::string listed;
  for (size_t i = 0; i < present.size(); ++i)
    listed += (i == 0 ? "" : i + 1 == present.size() ? " and " : ", ") + present[i];
  throw UsageError("'" + dir.string() + "' already holds " + listed +
                   " and no checkpoint to resume; pass --overwrite to replace " +
                   (present.size() == 1 ? "it" : "them") + ", or choose another --out");
}

void checkOutputWritable(const std::string& option, const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) throw UsageError(option + " needs a file name");
  const fs::path target = resolvedOutputPath(path);
  std::error_code error;
  const fs::file_status status = fs::status(target, error);
  if (fs::is_directory(status))
    throw UsageError(option + " '" + path + "' is a directory: give a file name");
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    if (::access(target.c_str(), W_OK) != 0)
      throw UsageError(option + " '" + path + "' cannot be written: " + std::strerror(errno));
    return;  // a device or FIFO is written directly
  }
  const fs::path directory = target.parent_path();
  if (fs::exists(directory, error) && !fs::is_directory(directory, error))
    throw UsageError(option + " '" + path + "': '" + directory.string() +
                     "' is a file, not a directory");
  if (!fs::is_directory(directory, error))
    throw UsageError(option + " '" + path + "': directory '" + directory.string() +
                     "' does not exist (create it first)");
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw UsageError(option + " '" + path + "': directory '" + directory.string() +
                     "' is not writable");
}

namespace {

// What `--character` and `--world` do with a loaded file: a missing one is a usage error,
// its diagnostics are printed, and one with errors is an input error.
template <typename Load>
void checkOptionLoad(const Load& load, std::string_view option, const std::string& value,
                     std::string_view kind) {
  const std::string prefix = std::string(option) + " '" + value + "': ";
  if (load.notFound)
    throw UsageError(prefix + (load.diagnostics.empty() ? std::string("not found")
                                                        : load.diagnostics.front().message));
  if (!load.diagnostics.empty())
    std::fputs(renderDiagnostics(load.diagnostics, "").c_str(), stderr);
  if (!load.ok())
    throw InputFileError(kExitInputError,
                         prefix + "the " + std::string(kind) + " has errors (see above)");
}

}  // namespace

std::shared_ptr<const Character> loadCharacterOption(const std::string& value,
                                                     std::string_view option) {
  CharacterLoad load = loadCharacter(value);
  checkOptionLoad(load, option, value, "character file");
  return load.character;
}

std::shared_ptr<const WorldLoad> loadWorldOption(const std::string& path, std::string_view option) {
  auto load = std::make_shared<WorldLoad>(loadWorldFile(path));
  checkOptionLoad(*load, option, path, "world file");
  return load;
}

std::optional<double> parseNumberOption(std::string_view text) { return parseFiniteNumber(text); }

}  // namespace scl
