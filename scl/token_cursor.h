// A cursor over tokens with the error helpers every parser of the front end shares: the
// script parser (parser.h) and the objective parser (objective.h) read their grammars
// through it, so looking ahead, reporting "expected X near 'tok'", noting where a
// bracket was opened and reading named arguments (`on: trunk`, `below: 1.75`) work the
// same in every text format.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/lexer.h"
#include "scl/syntax.h"

namespace scl {

/// One named argument a construct accepts: `name: value` (or `name value` when `colon`
/// is false, as in `strength 0.5`). Exactly one of `nameOut`, `numberOut` and `vecOut` is
/// set.
struct ArgSpec {
  std::string_view name;
  bool colon = true;
  /// What the value is, for messages: "a link name", "a number", ...
  std::string_view what;
  std::optional<syntax::Name>* nameOut = nullptr;
  std::optional<syntax::NumberLit>* numberOut = nullptr;
  /// For a value `(a, b)`.
  std::optional<syntax::Vec>* vecOut = nullptr;
  /// With `nameOut`: a `"string"` is a name too (a file path), read without its quotes.
  bool orString = false;
};

class TokenCursor {
 public:
  /// Over `tokens`, which must end with an EndOfFile or EndOfLine token.
  TokenCursor(std::span<const Token> tokens, FileName fileName, DiagnosticSink& sink);
  /// Over the tokens of `stream`, read as the parser looks ahead: only a small window of
  /// them is held at a time. `stream` must outlive the cursor.
  TokenCursor(TokenStream& stream, FileName fileName, DiagnosticSink& sink);

  // --- looking ------------------------------------------------------------------------

  /// The token `ahead` places on. Past the error limit every look-ahead sees the end, so
  /// every parsing loop ends.
  Token peek(size_t ahead = 0) const { return at(ahead); }
  /// Consumes and returns the current token (the end token stays current).
  Token next();
  /// At the end of the tokens (EndOfFile, or EndOfLine for a one-line statement).
  bool atEnd() const;
  bool isKind(TokenKind kind, size_t ahead = 0) const { return at(ahead).kind == kind; }
  /// The token is the identifier `word`.
  bool isWord(std::string_view word, size_t ahead = 0) const;
  /// Index of the current token; with rewind(), for a bounded look-ahead: a cursor over
  /// a stream keeps kKeptBehind tokens behind the current one.
  size_t position() const { return pos_; }
  void rewind(size_t position);
  static constexpr size_t kKeptBehind = 8;

  // --- reporting ----------------------------------------------------------------------

  const FileName& fileName() const { return file_; }
  DiagnosticSink& sink() { return sink_; }
  SourceLocation location(const Token& token) const { return {file_, token.line, token.column}; }
  void errorAt(const Token& token, std::string message);
  /// "expected WHAT near 'tok'HINT" at `token`; nothing when the lexer already reported
  /// the invalid bytes right before it (errors never cascade).
  void expectedNear(std::string_view what, const Token& token, std::string_view hint = "");
  /// The hint expectedNear() gives, when it has none, at a `<`, `<=`, `>` or `>=` (scripts
  /// take them in one place only).
  void setComparisonHint(std::string hint) { comparisonHint_ = std::move(hint); }
  /// "'(' opened here" after an expectedNear() that was reported.
  void noteOpened(const Token& open);

  // --- reading ------------------------------------------------------------------------

  /// NAME (the current token must be an identifier).
  syntax::Name parseName();
  /// NUM, or "expected WHAT near 'tok'" and nullopt.
  std::optional<syntax::NumberLit> parseNumber(std::string_view what);
  /// vec := "(" NUM "," NUM ")"   (the current token is the "("); `what` names it for
  /// messages ("a force (fx, fy)").
  std::optional<syntax::Vec> parseVec(std::string_view what);
  /// ":" after `word`, or "expected ':' after 'word'".
  bool expectColonAfter(std::string_view word);
  /// named-args := { [","] NAME [":"] value }, each name at most once, in any order.
  /// Stops before a word that is no argument and has no colon after it; an unknown
  /// `word:` is an error "unknown argument 'word:' for OWNER; did you mean ...", except
  /// for the words of `stopAt` (arguments the caller knows but does not take here, and
  /// reports itself), before which it stops (before their comma, if any) as well.
  bool parseArgs(std::span<ArgSpec> specs, std::string_view owner,
                 std::span<const std::string_view> stopAt = {});
  /// The names of `specs`, for suggestions.
  static std::vector<std::string_view> argNames(std::span<const ArgSpec> specs);

 private:
  // The token `ahead` places on, read from the stream when needed; valid until the
  // next call.
  const Token& at(size_t ahead) const;
  bool isEnd(const Token& token) const {
    return token.kind == TokenKind::EndOfFile || token.kind == TokenKind::EndOfLine;
  }

  TokenStream* stream_ = nullptr;
  // Tokens from absolute index windowStart_ on; all of them without a stream.
  mutable std::vector<Token> window_;
  mutable size_t windowStart_ = 0;
  mutable Token end_;  // what every look-ahead sees past the error limit
  size_t pos_ = 0;
  bool suppressedLast_ = false;  // the last expectedNear() was not reported
  std::string comparisonHint_;
  FileName file_;
  DiagnosticSink& sink_;
};

}  // namespace scl
