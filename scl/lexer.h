// The SCL lexer: source text -> tokens with line and column.
//
// Keywords are not separate token kinds: `after`, `vf`, `time`, ... are identifiers whose
// meaning depends on where the parser meets them, so a misspelled keyword can be reported
// with a suggestion like any other name. Invalid bytes (NUL, non-ASCII, stray punctuation)
// become one diagnostic per run and are skipped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"

namespace scl {

enum class TokenKind {
  Identifier,  ///< [A-Za-z_][A-Za-z0-9_]*
  Number,      ///< [@][+-]digits[.digits] or [@][+-].digits
  LeftBrace,
  RightBrace,
  LeftBracket,
  RightBracket,
  LeftParen,
  RightParen,
  Comma,
  Colon,
  EndOfFile,
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  /// The token as written (a view into the source), including a leading `@`.
  std::string_view text;
  /// 1-based line and column (bytes) of the token's first character.
  int line = 1;
  int column = 1;
  /// Value of a Number token (without the `@`).
  double number = 0.0;
  /// True for a Number written with `@` (an optimizer parameter).
  bool parameter = false;
  /// Invalid bytes (already reported) were skipped right before this token; the parser
  /// does not report a second error here.
  bool afterInvalid = false;
};

/// Splits `source` into tokens ending with one EndOfFile token. Lexical errors go to
/// `sink` with `fileName` in their location.
std::vector<Token> lex(std::string_view source, std::string_view fileName, DiagnosticSink& sink);

/// A `//` comment. The parser never sees comments; the formatter (printer.h) puts them
/// back around the nodes they were written next to.
struct Comment {
  /// From `//` to the end of its line, trailing whitespace removed.
  std::string text;
  /// 1-based line and column (bytes) of the `//`.
  int line = 1;
  int column = 1;
  /// Nothing but whitespace before it on its line (else it trails code).
  bool ownLine = false;
  /// The line above it is blank (or whitespace only).
  bool blankLineBefore = false;
};

/// Every comment of `source`, in order. SCL has no string literals, so every `//`
/// starts a comment.
std::vector<Comment> scanComments(std::string_view source);

/// A token's text for messages: "end of file" for EndOfFile, else quoted text.
std::string describeToken(const Token& token);

}  // namespace scl
