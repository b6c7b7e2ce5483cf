// What every subcommand of the `scl` program shares: the exit codes, the usage-error
// exception, reading an input file and parsing option values.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

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
};

/// A mistake in the invocation; what() is the one-line message (without "scl CMD: ").
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The bytes of an input file, or nullopt (directories and unreadable files included).
std::optional<std::string> readInputFile(const std::string& path);

/// A finite number written in full (`12`, `-0.5`, `1e-3`), else nullopt.
std::optional<double> parseNumberOption(std::string_view text);

/// `value` with `decimals` decimals, never "-0.000".
std::string fixedDecimals(double value, int decimals);

}  // namespace scl
