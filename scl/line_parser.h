// The base of the front ends of the data files read one statement or one row a line: clip
// files (scl/clip_file.h) and BVH mapping files (scl/bvh.h). It reads a file's tokens
// through the shared token cursor, the line each token starts on ending its statement, and
// holds the helpers both grammars share: the end of a line, a word or number that must
// follow a statement's word, a choice among words, a list of names each given once.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/syntax.h"
#include "scl/token_cursor.h"

namespace scl {

class LineParser : protected TokenCursor {
 protected:
  LineParser(TokenStream& tokens, FileName fileName, DiagnosticSink& sink, std::string_view what)
      : TokenCursor(tokens, std::move(fileName), sink), what_(what) {}

  /// Starts reading the line of the current token; `head` is its statement's first word
  /// (for "expected X after 'head'"), read by the caller.
  void beginLine() { line_ = peek().line; }
  void setHead(const Token& head) { head_ = head; }
  /// The current line has no more tokens.
  bool atLineEnd() const { return atEnd() || peek().line != line_; }
  /// After a statement: anything left on its line is an error (unless the line already had
  /// one), and is skipped.
  void finishLine();

  /// After a file's missing first line was reported: the line it has instead is skipped
  /// unless it begins with one of `statements` (a misspelled header is not reported again).
  void skipUnknownLine(std::span<const std::string_view> statements);

  /// "expected WHAT after 'HEAD'" when the line ends here; true then.
  bool endsTooSoon(std::string_view what);
  /// A plain number (an `@` one is an error naming the file's kind); nullopt after an error.
  std::optional<double> number(std::string_view what);
  /// A number after the statement's word.
  std::optional<double> lineNumber(std::string_view what);
  /// A name (or, when `orString`, a `"string"`, read without its quotes) after the
  /// statement's word.
  std::optional<syntax::Name> lineWord(std::string_view what, bool orString = false);
  /// One of `choices` after the statement's word; else "unknown KIND 'x': WHAT; did you
  /// mean ...".
  std::optional<std::string> choice(std::string_view what,
                                    std::span<const std::string_view> choices,
                                    std::string_view kind);
  /// NAME { NAME } to the end of the line, each once ("KIND 'x' is given twice", with a note
  /// where it first was).
  void names(std::vector<std::string>& out, std::vector<SourceLocation>& locations,
             std::string_view what, std::string_view kind);

 private:
  std::string_view what_;  // the file's kind in messages ("a clip", "a mapping")
  int line_ = 1;
  Token head_;
  int errorsAtLine_ = 0;
};

}  // namespace scl
