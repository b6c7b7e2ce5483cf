// What the language server knows about one document: the front end's single pass over
// it (scl::compile, the same diagnostics as `scl check`, with the syntax tree kept), the
// character its names bind against, and every place a phase or a primitive block is
// named, declared or referred to.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/character.h"
#include "scl/diagnostics.h"
#include "scl/lexer.h"
#include "scl/program.h"
#include "scl/syntax.h"

namespace scl::lsp {

/// What a name names in a script (beyond the character's links and joints).
enum class SymbolKind {
  Phase,  ///< `{ (NAME) ...`, `: (NAME)`, `backto NAME`
  Block,  ///< `define NAME { ... }`, `[NAME]`
};

/// One place where a phase or a block is named.
struct Occurrence {
  /// A phase's or a block's name.
  SymbolKind kind = SymbolKind::Phase;
  /// The name as written.
  std::string name;
  /// Where the name is written (1-based line, byte column); it is name.size() bytes long.
  SourceLocation location;
  /// The definition (`(NAME)` after `{`, `define NAME`) rather than a reference.
  bool declaration = false;
};

/// The analysis of one document.
struct Analysis {
  /// A character file (`*.character`) rather than a script: only `diagnostics` are set.
  bool characterFile = false;
  /// An objective or problem file (`*.objective`, `*.problem`): only `diagnostics` are set
  /// (as `scl check` reports them); they have no canonical form and no completion.
  bool statementFile = false;
  /// A world file (`*.world`): `diagnostics` are set (worldFileDiagnostics()); completion
  /// and hover read its statements as they read a script's world statements.
  bool worldFile = false;
  /// The syntax tree as far as the parser could read it.
  syntax::Script tree;
  /// Errors, warnings and notes, as `scl check` reports them (notes after their diagnostic).
  std::vector<Diagnostic> diagnostics;
  /// The bound program, when there is no error.
  std::optional<Program> program;
  /// The character the script's names bind against (the scene's, else the human); never null.
  std::shared_ptr<const Character> character;
  /// Every place a phase or a block is named, in source order.
  std::vector<Occurrence> occurrences;
  /// Phase i's name, or `phaseN` (1-based) for an unnamed phase, as parameter names say.
  std::vector<std::string> phaseNames;
};

/// Runs the front end on a script or character file (`fileName` ending in `.character`):
/// `fileName` is what diagnostics are located in and where a relative `scene character:`
/// file is read from.
Analysis analyze(std::string_view text, const std::string& fileName);

/// True when `fileName` is a character file (by its extension).
bool isCharacterFileName(std::string_view fileName);
/// True when `fileName` is an objective or a problem file (by its extension).
bool isStatementFileName(std::string_view fileName);
/// True when `fileName` is a world file (by its extension).
bool isWorldFileName(std::string_view fileName);

/// A world file's diagnostics, as `scl check` reports them: its syntax, then its bodies
/// bound on flat ground (unknown or missing keys, values out of bounds).
/// `statements`, when given, receives its statements as far as they parse.
std::vector<Diagnostic> worldFileDiagnostics(
    std::string_view text, const std::string& fileName,
    std::vector<syntax::WorldStatement>* statements = nullptr);

/// The occurrence whose name covers byte `column` (1-based) of `line` (1-based), if any.
const Occurrence* occurrenceAt(const Analysis& analysis, int line, int column);

/// Every occurrence of the same kind and name as `of` (declarations first when
/// `declarationsFirst`).
std::vector<const Occurrence*> occurrencesLike(const Analysis& analysis, const Occurrence& of);

/// The tokens of bytes [begin, end) of `text` (tokens never span lines, so any line start is
/// a safe place to begin), without the final EndOfFile. Token texts point into `text`.
std::vector<Token> tokensOf(std::string_view text, size_t begin, size_t end);

/// Byte offset of `token` in `text` (tokens from tokensOf(text, ...)).
inline size_t offsetIn(std::string_view text, const Token& token) {
  return static_cast<size_t>(token.text.data() - text.data());
}

/// Byte length of the token written at byte `offset` of `text` (1 for a byte that starts no
/// token; 0 at the end of the text or of a line).
size_t tokenLengthAt(std::string_view text, size_t offset);

/// Where the world statement that `tokens` end in begins: the index of its kind word (a
/// kind of worldKinds() not written as a value or as a body's name), or nullopt when the
/// tokens end in none (a `define` after the kind word ends it too).
std::optional<size_t> worldStatementStart(std::span<const Token> tokens);

/// A phase's exit transition as written in short: "after 0.4 s", "when contact lost all
/// feet or after 0.4 s", "and when contact rightFoot after 0.22 s".
std::string describeTransition(const syntax::Transition& transition);

/// Where phase `index`'s exit leads, in words: "after 0.4 s → standup", "mirror of a; ...",
/// "finally after 0.3 s → right_swing"; empty for a last phase without `finally`.
std::string describeExit(const Analysis& analysis, size_t index);

}  // namespace scl::lsp
