// The front end in one call: source text -> diagnostics and, when there is no error, the
// bound program. Also the source rewrite the optimizer uses to save tuned `@` values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/program.h"

namespace scl {

struct CompileResult {
  /// Present exactly when `diagnostics` has no error.
  std::optional<Program> program;
  /// Errors, warnings and notes in the order they were found.
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return program.has_value(); }
};

/// Lexes, parses and binds one script. Never throws on any input.
CompileResult compile(std::string_view source, std::string_view fileName);

/// Rewrites each `@number` of `source` (found at its Parameter::location) with the
/// parameter's current value, keeping the `@`; everything else is kept byte for byte.
/// `program` must have been compiled from `source`; throws std::invalid_argument when a
/// location does not hold an `@` number.
/// When `newLocations` is given, it receives each parameter's location in the result.
std::string substituteParameters(std::string_view source, const Program& program,
                                 std::vector<SourceLocation>* newLocations = nullptr);

}  // namespace scl
