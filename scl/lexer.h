// The lexer of every text format (scripts, objective files): source text -> tokens with
// line and column. One number grammar everywhere; LexerOptions adds the few tokens a
// format needs beyond the script's.
//
// Keywords are not separate token kinds: `after`, `vf`, `time`, ... are identifiers whose
// meaning depends on where the parser meets them, so a misspelled keyword can be reported
// with a suggestion like any other name. Invalid bytes (NUL, non-ASCII, stray punctuation)
// become one diagnostic per run and are skipped.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"

namespace scl {

enum class TokenKind {
  Identifier,  ///< [A-Za-z_][A-Za-z0-9_]* (LexerOptions::paths widens it)
  Number,      ///< [@][+-](digits[.digits] | .digits)[(e|E)[+-]digits]
  LeftBrace,
  RightBrace,
  LeftBracket,
  RightBracket,
  LeftParen,
  RightParen,
  Comma,
  Colon,
  Less,          ///< `<` (LexerOptions::comparisons)
  LessEqual,     ///< `<=`
  Greater,       ///< `>`
  GreaterEqual,  ///< `>=`
  Slash,         ///< `/` (LexerOptions::slash; `//` always starts a comment)
  String,     ///< `"text"` on one line, no escapes (LexerOptions::strings); `text` has the quotes
  EndOfLine,  ///< never produced by lex(): ends a one-line statement (TokenCursor)
  EndOfFile,
};

/// What a text format adds to the tokens every format shares (names, numbers, `{ } [ ]
/// ( ) , :`, `//` comments). Scripts read strings (`scene character: "FILE"`), objective
/// files comparisons, slashes and paths, character files strings (descriptions).
struct LexerOptions {
  /// `<`, `<=`, `>`, `>=` are tokens (comparisons in conditions); else invalid characters.
  bool comparisons = false;
  /// A lone `/` is a token (fractions such as `1/50000`); else an invalid character.
  bool slash = false;
  /// Names may also contain `.`, `#` and `*`, and start with `*`: quantities
  /// (`pelvis.y`), parameter names (`propel.vf.fx#2`) and their patterns (`*.time`).
  bool paths = false;
  /// `"text"` (one line, no escapes) is a String token: a script's character file path,
  /// descriptions in character files.
  bool strings = false;
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  /// The token as written (a view into the source), including a leading `@`; empty for
  /// EndOfLine and EndOfFile.
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

class Lexer;

/// The tokens of a source one at a time: a parser needs a few tokens of look-ahead, not
/// the whole file's (a 5 MB script has over a million tokens). Lexical errors go to
/// `sink` as the tokens are read.
class TokenStream {
 public:
  TokenStream(std::string_view source, FileName fileName, DiagnosticSink& sink,
              const LexerOptions& options = {});
  ~TokenStream();
  TokenStream(const TokenStream&) = delete;
  TokenStream& operator=(const TokenStream&) = delete;

  /// The next token; EndOfFile at the end, and at every call after it.
  Token next();

 private:
  std::unique_ptr<Lexer> lexer_;
};

/// Splits `source` into tokens ending with one EndOfFile token. Lexical errors go to
/// `sink` with `fileName` in their location.
std::vector<Token> lex(std::string_view source, std::string_view fileName, DiagnosticSink& sink,
                       const LexerOptions& options = {});

/// The length of the number (NUM, without `@`) at the start of `text`; 0 when `text`
/// does not start with one. The one number grammar of every text format.
size_t numberLength(std::string_view text);

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

/// True when `text`'s lines end in CR alone (classic Mac OS): the front end would read the
/// file as one line, so readers refuse it with a message of their own.
bool hasCrOnlyLineEndings(std::string_view text);

/// A text file of ours read for a front end (readSourceFile).
struct SourceFileRead {
  /// The file's text, a UTF-8 byte-order mark dropped; null when it cannot be used.
  std::shared_ptr<std::string> text;
  /// Why it cannot be used, naming it as given ("world file 'a.world' does not exist
  /// (check the path)", "... has CR-only line endings ..."); empty when it can.
  std::string error;
  /// No readable file at the path (missing, a directory, a device): not its contents.
  bool unreadable = false;
  /// The error as a diagnostic: located in the file (line 0) when its contents are the
  /// trouble, without a location when it could not be read.
  Diagnostic diagnostic(const std::filesystem::path& path) const;
};

/// Reads `path` through readWholeFile (base/files.h: no devices, FIFOs or files over its
/// limit), drops a byte-order mark and refuses CR-only line endings. `shown` names the file
/// in the error ("world file 'a.world'"). The one reader of the files a front end loads
/// (character, world and clip files).
SourceFileRead readSourceFile(const std::filesystem::path& path, std::string_view shown);

/// Every comment of `source`, in order: each `//` outside a `"string"` (strings end on
/// their line) starts one.
std::vector<Comment> scanComments(std::string_view source);

/// A token's text for messages: "end of file" for EndOfFile, else quoted text.
std::string describeToken(const Token& token);

}  // namespace scl
