// The SCL parser: tokens -> syntax tree, hand-written recursive descent on the shared
// token cursor (token_cursor.h), one function per grammar rule of docs/language.md,
// "Script structure".
//
// The parser recovers from errors (it skips to the end of the primitive, `]`, or of the
// phase, `}`) and reports each independent mistake once. The grammar has no recursive
// rule, so no input can nest the parser deeper than a few frames.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/lexer.h"
#include "scl/syntax.h"

namespace scl {

struct ParseResult {
  /// The tree; meaningful only as far as the diagnostics have no errors.
  syntax::Script script;
  std::vector<Diagnostic> diagnostics;
};

/// Receives a script as it is parsed, piece by piece: compile() binds a long script
/// phase by phase without ever holding its whole syntax tree; parse() collects the
/// pieces into a syntax::Script.
class ScriptVisitor {
 public:
  virtual ~ScriptVisitor() = default;
  /// The scene header (the first one; a later one is an error and is not passed on).
  virtual void scene(syntax::SceneHeader header) = 0;
  /// Each world statement (before the first phase), in order.
  virtual void world(syntax::WorldStatement statement) = 0;
  /// Each clip declaration `clip NAME: "FILE"` (before the first phase), in order.
  virtual void clip(syntax::ClipDecl clip) = 0;
  /// Each primitive block `define NAME { ... }`, in order, as soon as it is read.
  virtual void define(syntax::Define block) = 0;
  /// Each phase, in order, once its exit transition is known; `last` for the last one.
  virtual void phase(syntax::Phase phase, bool last) = 0;
  /// After the last phase, with the `finally` clause if there is one.
  virtual void end(std::optional<syntax::Finally> finally) = 0;
};

/// The words that start a primitive (`vf`, `ik`, ... `support`), for suggestions.
std::span<const std::string_view> primitiveKeywords();

/// How scripts are lexed: strings for the one file path (`scene character: "FILE"`), and
/// `<` `>` for the centre-of-mass conditions (`when com vy < 0`); a `<` anywhere else is a
/// token the parser expects nowhere, and reports as such.
LexerOptions scriptLexing();

/// Lexes and parses one script into `visitor`, reporting into `sink`.
void parse(std::string_view source, std::string_view fileName, DiagnosticSink& sink,
           ScriptVisitor& visitor);

/// Lexes and parses one script.
ParseResult parse(std::string_view source, std::string_view fileName);

/// Same, reporting into an existing sink (used by compile()).
syntax::Script parse(std::string_view source, std::string_view fileName, DiagnosticSink& sink);

}  // namespace scl
