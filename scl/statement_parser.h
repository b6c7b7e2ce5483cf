// The base of the two line-oriented file parsers, objectives (scl/objective_parser.cpp)
// and state-action problems (scl/problem_parser.cpp): one statement per line, lexed by the
// script lexer with the objective's LexerOptions and read through the shared token cursor.
// The base holds what both grammars share: splitting the tokens into statements (a line
// the lexer already reported is skipped), the token helpers and their diagnostics, and the
// statements both files have (scene, duration, population) and the weight.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/scene.h"
#include "scl/token_cursor.h"

namespace scl {

/// The statements of an objective file (a problem file names them when one is misplaced).
inline constexpr std::array<std::string_view, 9> kObjectiveStatements = {
    "scene", "duration", "population", "bounds", "bound", "term", "stop", "trial", "combine"};

template <typename Names>
bool containsName(const Names& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The statements both grammars share, as parsed.
struct SharedStatements {
  /// `scene ...`; nullopt: none, or `scene from script`.
  std::optional<Scene> scene;
  /// `duration` (or the scene's `duration:`), seconds.
  std::optional<double> duration;
  /// `population`; 0 when not given.
  int populationSize = 0;
};

class StatementParser {
 public:
  StatementParser(const StatementParser&) = delete;
  StatementParser& operator=(const StatementParser&) = delete;

 protected:
  StatementParser(std::string_view source, std::string_view fileName)
      : source_(source), file_(fileName) {
    sink_.readAllowComments(source, FileName(fileName));
  }
  virtual ~StatementParser() = default;

  /// Parses every line, then (when no line had an error) checkComplete(); returns the
  /// diagnostics of the whole file.
  std::vector<Diagnostic> parseFile();

  /// A statement other than scene, duration and population; `head` is its first word.
  virtual void parseStatement(const Token& head) = 0;
  /// What the whole file must have (e.g. a term), once every line parsed cleanly.
  virtual void checkComplete() = 0;

  const SharedStatements& shared() const { return shared_; }
  std::string_view fileName() const { return file_; }

  // --- the statement's tokens -------------------------------------------------------

  TokenCursor& in() { return *in_; }
  bool atEnd() const { return in_->atEnd(); }
  Token peek() const { return in_->peek(); }
  bool peekWord(std::string_view word) const { return in_->isWord(word); }
  bool peekKind(TokenKind kind) const { return in_->isKind(kind); }
  SourceLocation here() const { return in_->location(peek()); }
  /// The statement's tokens, ending with an EndOfLine.
  const std::vector<Token>& statement() const { return *statement_; }

  void error(const SourceLocation& location, std::string message);
  /// Reports at the current token and returns false, so callers can `return fail(...)`.
  bool fail(std::string message);
  bool expected(std::string_view what);
  bool expectNumber(double& value, std::string_view what);
  bool expectWord(std::string& word, std::string_view what);
  bool expectColon();
  bool expectLineEnd();
  /// An error at the whole file (line 0).
  void fileError(std::string message);
  int errorCount() const { return sink_.errorCount(); }

  // weight := NUM [ "/" NUM ]
  bool parseWeight(double& weight);
  // count := NUM   (whole, in [lowest, highest]; else "NAME must be a whole number from
  //                 LOWEST to HIGHEST")
  bool parseCount(int& count, std::string_view what, std::string_view name, int lowest,
                  int highest);

 private:
  void parseLine(std::vector<Token>& tokens);
  bool parseScene(const Token& keyword);
  bool parseDuration();
  bool parsePopulation();

  std::string_view source_;
  std::string_view file_;
  DiagnosticSink sink_;
  SharedStatements shared_;
  TokenCursor* in_ = nullptr;                      // the statement being parsed
  const std::vector<Token>* statement_ = nullptr;  // its tokens, ending with EndOfLine
  bool sceneSeen_ = false;
};

}  // namespace scl
