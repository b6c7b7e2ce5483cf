#include "scl/statement_parser.h"

#include <cmath>
#include <set>

#include "scl/character.h"
#include "scl/lexer.h"

namespace scl {

namespace {

LexerOptions statementLexing() { return {.comparisons = true, .slash = true, .paths = true}; }

}  // namespace

// file := { statement }   (one statement per line)
std::vector<Diagnostic> StatementParser::parseFile() {
  const std::vector<Token> tokens = lex(source_, file_, sink_, statementLexing());
  // A line the lexer already reported is not parsed: its errors would only repeat it.
  std::set<int> badLines;
  for (const Diagnostic& diagnostic : sink_.diagnostics())
    badLines.insert(diagnostic.location.line);
  std::vector<Token> statement;
  for (size_t i = 0; i + 1 < tokens.size() && !sink_.full(); ++i) {
    statement.push_back(tokens[i]);
    if (tokens[i + 1].line == tokens[i].line && tokens[i + 1].kind != TokenKind::EndOfFile)
      continue;
    if (!badLines.count(tokens[i].line)) parseLine(statement);
    statement.clear();
  }
  if (sink_.errorCount() == 0) checkComplete();
  return sink_.take();
}

// statement := scene | duration | population | (the grammar's own statements)
void StatementParser::parseLine(std::vector<Token>& tokens) {
  const Token& last = tokens.back();
  Token end;
  end.kind = TokenKind::EndOfLine;
  end.line = last.line;
  end.column = last.column + static_cast<int>(last.text.size());
  tokens.push_back(end);
  TokenCursor cursor(tokens, std::string(file_), sink_);
  in_ = &cursor;
  statement_ = &tokens;
  const Token& head = in_->next();
  if (head.kind != TokenKind::Identifier) {
    // The same words for a problem file, whose statements differ (kept as it always was).
    error(in_->location(head),
          "expected a statement (scene, duration, population, bounds, bound, term, stop, "
          "trial, combine), found " +
              describeToken(head));
    return;
  }
  const std::string_view word = head.text;
  if (word == "scene")
    parseScene(head);
  else if (word == "duration")
    parseDuration();
  else if (word == "population")
    parsePopulation();
  else
    parseStatement(head);
}

void StatementParser::error(const SourceLocation& location, std::string message) {
  sink_.error(location, std::move(message));
}

bool StatementParser::fail(std::string message) {
  error(here(), std::move(message));
  return false;
}

bool StatementParser::expected(std::string_view what) {
  return fail("expected " + std::string(what) + ", found " + describeToken(peek()));
}

bool StatementParser::expectNumber(double& value, std::string_view what) {
  if (!peekKind(TokenKind::Number)) return expected(what);
  if (peek().parameter)
    return fail("objective numbers cannot be '@' parameters ('@' marks a script's numbers)");
  value = in_->next().number;
  return true;
}

bool StatementParser::expectWord(std::string& word, std::string_view what) {
  if (!peekKind(TokenKind::Identifier)) return expected(what);
  word = std::string(in_->next().text);
  return true;
}

bool StatementParser::expectColon() {
  if (!peekKind(TokenKind::Colon)) return expected("':'");
  in_->next();
  return true;
}

bool StatementParser::expectLineEnd() {
  if (!atEnd()) return fail("unexpected " + describeToken(peek()) + " at the end of the statement");
  return true;
}

void StatementParser::fileError(std::string message) {
  sink_.error({std::string(file_), 0, 0}, std::move(message));
}

// weight := NUM [ "/" NUM ]
bool StatementParser::parseWeight(double& weight) {
  if (!expectNumber(weight, "a weight (e.g. 10 or 1/50000)")) return false;
  if (peekKind(TokenKind::Slash)) {
    in_->next();
    const SourceLocation at = here();
    double denominator = 0;
    if (!expectNumber(denominator, "the weight's denominator")) return false;
    if (denominator == 0) return error(at, "division by zero in the weight"), false;
    weight /= denominator;
  }
  return true;
}

// scene := "scene" ( "from" "script" | scene-args )   (scene-args: scl/scene.h)
bool StatementParser::parseScene(const Token& keyword) {
  if (sceneSeen_) return error(in_->location(keyword), "the scene is given twice"), false;
  sceneSeen_ = true;
  if (peekWord("from")) {
    in_->next();
    const SourceLocation wordAt = here();
    std::string word;
    if (!expectWord(word, "'script'")) return false;
    if (word != "script") return error(wordAt, "expected 'script' after 'scene from'"), false;
    return expectLineEnd();
  }
  syntax::SceneHeader header;
  header.location = in_->location(keyword);
  if (!parseSceneArguments(*in_, header) || !expectLineEnd()) return false;
  // The character is the script's: one objective measures motions of any body.
  if (header.character)
    return error(header.character->location,
                 "an objective does not choose the character: the script's 'scene "
                 "character:' or 'scl optimize --character' does"),
           false;
  const int errorsBefore = sink_.errorCount();
  Scene scene = bindScene(header, Scene{}, *humanCharacter(), sink_);
  if (sink_.errorCount() > errorsBefore) return false;
  if (scene.duration) {
    if (shared_.duration)
      return error(header.duration->location, "the duration is given twice"), false;
    shared_.duration = scene.duration;
    scene.duration.reset();
  }
  shared_.scene = scene;
  return true;
}

// duration := "duration" NUM
bool StatementParser::parseDuration() {
  if (shared_.duration) return fail("the duration is given twice");
  const SourceLocation at = here();
  double duration = 0;
  if (!expectNumber(duration, "the simulated time in seconds")) return false;
  if (!(duration > 0) || duration > kMaxDuration)
    return error(at, "the duration must be in (0, 3600] seconds"), false;
  shared_.duration = duration;
  return expectLineEnd();
}

bool StatementParser::parseCount(int& count, std::string_view what, std::string_view name,
                                 int lowest, int highest) {
  const SourceLocation at = here();
  double value = 0;
  if (!expectNumber(value, what)) return false;
  if (value != std::floor(value) || value < lowest || value > highest)
    return error(at, std::string(name) + " must be a whole number from " + std::to_string(lowest) +
                         " to " + std::to_string(highest)),
           false;
  count = static_cast<int>(value);
  return true;
}

// population := "population" count
bool StatementParser::parsePopulation() {
  return parseCount(shared_.populationSize, "the number of candidates per generation",
                    "the population", 2, 10000) &&
         expectLineEnd();
}

}  // namespace scl
