// The front end in one call: source text -> diagnostics and, when there is no error, the
// bound program. Also the source rewrite the optimizer uses to save tuned `@` values.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/clip_file.h"
#include "scl/diagnostics.h"
#include "scl/program.h"
#include "scl/syntax.h"
#include "scl/world.h"

namespace scl {

struct CompileResult {
  /// Present exactly when `diagnostics` has no error.
  std::optional<Program> program;
  /// Errors, warnings and notes in the order they were found.
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return program.has_value(); }
};

/// How to compile a script beyond its text.
struct CompileOptions {
  /// The character to bind against (e.g. `--character`): it wins over the script's
  /// `scene character:`, which is then not read. nullptr: the script's choice, else the
  /// built-in human.
  std::shared_ptr<const Character> character;
  /// Where a relative `scene character: "FILE"` is read from. Empty: the directory of
  /// `fileName` (the working directory for a bare file name).
  std::filesystem::path baseDirectory;
  /// When set, receives the syntax tree as the parser read it (every phase kept, so it
  /// costs memory in proportion to the script), beside the binding: an editor's outline,
  /// references and hovers come from the same single pass as the diagnostics.
  syntax::Script* syntaxTree = nullptr;
  /// The world file to place the script in (e.g. `--world`), loaded by loadWorldFile()
  /// without errors: it wins over the script's `scene world:`, which is then not read. Its
  /// bodies come first, then the script's own world statements, as a header's world file's
  /// would; a clash with the scene (a body named `chair` in a chair scene) is an error
  /// about the file. nullptr: the script's `world:`, if any.
  std::shared_ptr<const WorldLoad> world = nullptr;
  /// Clip files read instead of the script's own (e.g. `scl run --use-clip NAME=FILE`):
  /// the declaration `clip NAME: "FILE"` of each key reads the key's file, a path as given
  /// (relative to the working directory), in its place. A key the script does not declare
  /// is an error at its first line, with a suggestion.
  ClipFiles clipFiles = {};
};

/// Lexes, parses and binds one script. Never throws on any input.
CompileResult compile(std::string_view source, std::string_view fileName,
                      const CompileOptions& options = {});

/// Rewrites each `@number` of `source` (found at its Parameter::location) with the
/// parameter's current value, keeping the `@`; everything else is kept byte for byte.
/// `program` must have been compiled from `source`; throws std::invalid_argument when a
/// location does not hold an `@` number.
/// When `newLocations` is given, it receives each parameter's location in the result.
std::string substituteParameters(std::string_view source, const Program& program,
                                 std::vector<SourceLocation>* newLocations = nullptr);

/// `source` with its scene header's argument `key:` (e.g. `height`) set to `value`: the
/// existing value replaced, else the argument added at the header's end, else a header
/// line `scene key: value` added at the top. Everything else is kept byte for byte.
std::string withSceneArgument(std::string_view source, std::string_view key,
                              std::string_view value);

}  // namespace scl
