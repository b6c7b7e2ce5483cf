#include "scl/line_parser.h"

#include <algorithm>

namespace scl {

void LineParser::finishLine() {
  if (!atLineEnd() && sink().errorCount() == errorsAtLine_)
    expectedNear("the end of the line", peek());
  while (!atLineEnd()) next();
  errorsAtLine_ = sink().errorCount();
}

void LineParser::skipUnknownLine(std::span<const std::string_view> statements) {
  if (!isKind(TokenKind::Identifier) ||
      std::find(statements.begin(), statements.end(), peek().text) != statements.end())
    return;
  beginLine();
  while (!atLineEnd()) next();
  errorsAtLine_ = sink().errorCount();
}

bool LineParser::endsTooSoon(std::string_view what) {
  if (!atLineEnd()) return false;
  errorAt(head_, "expected " + std::string(what) + " after '" + std::string(head_.text) + "'");
  return true;
}

std::optional<double> LineParser::number(std::string_view what) {
  if (!isKind(TokenKind::Number)) {
    expectedNear(what, peek());
    return std::nullopt;
  }
  const Token token = next();
  if (token.parameter) {
    errorAt(token,
            std::string(what_) + "'s numbers cannot be '@' parameters (it is data, not tuned)");
    return std::nullopt;
  }
  return token.number;
}

std::optional<double> LineParser::lineNumber(std::string_view what) {
  if (endsTooSoon(what)) return std::nullopt;
  return number(what);
}

std::optional<syntax::Name> LineParser::lineWord(std::string_view what, bool orString) {
  if (endsTooSoon(what)) return std::nullopt;
  if (orString && isKind(TokenKind::String)) {
    const Token token = next();
    return syntax::Name{std::string(token.text.substr(1, token.text.size() - 2)), location(token)};
  }
  if (!isKind(TokenKind::Identifier)) {
    expectedNear(what, peek());
    return std::nullopt;
  }
  return parseName();
}

std::optional<std::string> LineParser::choice(std::string_view what,
                                              std::span<const std::string_view> choices,
                                              std::string_view kind) {
  std::optional<syntax::Name> name = lineWord(what);
  if (!name) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), name->text) == choices.end()) {
    sink().error(name->location, "unknown " + std::string(kind) + " '" + quoteToken(name->text) +
                                     "': " + std::string(what) + didYouMean(name->text, choices));
    return std::nullopt;
  }
  return name->text;
}

void LineParser::names(std::vector<std::string>& out, std::vector<SourceLocation>& locations,
                       std::string_view what, std::string_view kind) {
  if (endsTooSoon(what)) return;
  while (!atLineEnd()) {
    if (!isKind(TokenKind::Identifier)) return expectedNear(what, peek());
    const syntax::Name name = parseName();
    const auto it = std::find(out.begin(), out.end(), name.text);
    if (it != out.end()) {
      sink().error(name.location, std::string(kind) + " '" + name.text + "' is given twice");
      sink().note(locations[static_cast<size_t>(it - out.begin())], "first given here");
      continue;
    }
    out.push_back(name.text);
    locations.push_back(name.location);
  }
}

}  // namespace scl
