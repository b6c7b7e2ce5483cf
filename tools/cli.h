// What every subcommand of the `scl` program shares: the exit codes, the usage-error
// exception, parsing the command line, reading an input file and parsing option values.
#pragma once

#include <cxxopts.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/format.h"
#include "scl/character.h"
#include "scl/world.h"

namespace scl {

/// The exit codes of every subcommand (docs/cli.md, "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  /// A script, objective or other input file has errors (diagnostics printed).
  kExitInputError = 1,
  /// The invocation is wrong: an unknown option, a malformed value, a missing file.
  kExitUsageError = 2,
  /// The work failed: the simulation diverged, an output could not be written.
  kExitFailure = 3,
  /// The work ran but what the input claims does not hold: `scl run --seeds` on a script
  /// whose `// outcome:` lines fail on more starts than they allow.
  kExitClaimsFailed = 4,
};

/// A mistake in the invocation; what() is the one-line message (without "scl CMD: ").
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An input file that cannot be used; what() names it and says why.
class InputFileError : public std::runtime_error {
 public:
  InputFileError(ExitCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  /// kExitUsageError when the file cannot be read (missing, a directory, no permission),
  /// kExitInputError when its bytes cannot be a text file of ours (CR-only lines).
  ExitCode exitCode() const { return code_; }

 private:
  ExitCode code_;
};

/// How parseCommandLine treats a subcommand's command line.
struct CommandLineDef {
  /// The option groups --help shows, in order; empty: every group.
  std::vector<std::string> helpGroups;
  /// A line --help prints after the options (the exit codes); empty: none.
  std::string helpEpilogue;
  /// Whether a usage error ends with " (see 'scl CMD --help')" (scl check's and fmt's
  /// do not).
  bool pointToHelp = true;
};

/// Reads and checks a parsed command line's values; throws UsageError (passed on as it
/// is) or std::invalid_argument (made a usage error pointing to --help).
using CommandLineReader = std::function<void(const cxxopts::ParseResult&)>;

/// The one parser of a subcommand's command line: parses it with `options` (which has
/// "h,help") and hands it to `read`. Returns nullopt after printing the help for
/// -h/--help: the command is done (exit 0). Throws UsageError, "MESSAGE (see 'scl CMD
/// --help')", on an unknown option, a malformed value, a std::invalid_argument from
/// `read`, or an argument left over after `read` (which may report one its own way).
std::optional<cxxopts::ParseResult> parseCommandLine(cxxopts::Options& options, int argc,
                                                     char** argv, const CommandLineDef& def = {},
                                                     const CommandLineReader& read = {});

/// The commands' reader of input files (scripts, objectives, ...), through readWholeFile
/// (base/files.h): the file's text, a UTF-8 byte-order mark dropped; a device, FIFO or
/// file above base's size limit is refused. Throws InputFileError naming `kind` ("script",
/// "objective") and the path: "script 'x.scl' does not exist", "... is a directory, not a file",
/// "... cannot be read: Permission denied", "... has CR-only line endings ...".
std::string readInputFile(const std::string& path, std::string_view kind);

/// A file a command reads or writes, as the user named it.
struct NamedPath {
  /// How it was given, for messages: "script", "--out", "best.scl of --out".
  std::string role;
  std::string path;
};

/// An output must never replace an input, nor another output of the same command. Throws
/// UsageError naming both when one resolves (symbolic links, `.`, `..`, hard links) to
/// an input or to another output: "--out 's.scl' is the script 's.scl' ...".
void checkOutputsAgainstInputs(const std::vector<NamedPath>& inputs,
                               const std::vector<NamedPath>& outputs);

/// Adds the character file `character` was read from (its `source`: `--character FILE`'s
/// path, or a script's `scene character:` resolved against the script's directory) to a
/// command's inputs. A built-in character has no file.
void addCharacterInput(std::vector<NamedPath>& inputs, const Character& character);

/// The files `names` of an output directory as a command's outputs, each with the role
/// "NAME of --out".
std::vector<NamedPath> outputsInDirectory(const std::filesystem::path& dir,
                                          const std::vector<std::string>& names);

/// A new run in an output directory that holds no checkpoint must not silently replace what
/// is there (a finished run's outputs, the user's own files). Unless `overwrite`, throws
/// UsageError naming every one of `names` that exists in `dir` (a symbolic link too).
void checkNothingReplaced(const std::filesystem::path& dir, const std::vector<std::string>& names,
                          bool overwrite);

/// Fails fast, before any work, on an output that cannot be written: an empty name, a
/// directory, a missing or unwritable directory (of the file a symbolic link names), a
/// device or FIFO that cannot be opened for writing. Throws UsageError naming `option`.
void checkOutputWritable(const std::string& option, const std::string& path);

/// The character of `--character NAME|FILE`: a built-in name or a character file's path
/// (relative to the working directory). Throws UsageError for an unknown name or a file
/// that is missing or unreadable; for a file with errors prints its diagnostics on stderr
/// and throws InputFileError(kExitInputError). Prints a file's warnings.
std::shared_ptr<const Character> loadCharacterOption(const std::string& value,
                                                     std::string_view option = "--character");

/// The world file of `--world FILE` (relative to the working directory), for
/// CompileOptions::world. Throws UsageError for a file that is missing or unreadable; for a
/// file with errors prints its diagnostics (located in it) on stderr and throws
/// InputFileError(kExitInputError). Prints a file's warnings.
std::shared_ptr<const WorldLoad> loadWorldOption(const std::string& path,
                                                 std::string_view option = "--world");

/// A finite number written in full (`12`, `-0.5`, `1e-3`), else nullopt.
std::optional<double> parseNumberOption(std::string_view text);

}  // namespace scl
