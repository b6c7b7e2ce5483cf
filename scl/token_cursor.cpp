#include "scl/token_cursor.h"

#include <algorithm>

namespace scl {

const Token& TokenCursor::peek(size_t ahead) const {
  if (sink_.full()) return tokens_.back();
  return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}

const Token& TokenCursor::next() {
  const Token& token = peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return token;
}

bool TokenCursor::atEnd() const {
  const TokenKind kind = peek().kind;
  return kind == TokenKind::EndOfFile || kind == TokenKind::EndOfLine;
}

bool TokenCursor::isWord(std::string_view word, size_t ahead) const {
  const Token& token = peek(ahead);
  return token.kind == TokenKind::Identifier && token.text == word;
}

void TokenCursor::errorAt(const Token& token, std::string message) {
  sink_.error(location(token), std::move(message));
}

void TokenCursor::expectedNear(std::string_view what, const Token& token, std::string_view hint) {
  suppressedLast_ = token.afterInvalid;
  if (suppressedLast_) return;
  errorAt(token,
          "expected " + std::string(what) + " near " + describeToken(token) + std::string(hint));
}

void TokenCursor::noteOpened(const Token& open) {
  if (suppressedLast_) return;
  sink_.note(location(open), "'" + std::string(open.text) + "' opened here");
}

syntax::Name TokenCursor::parseName() {
  const Token& token = next();
  return syntax::Name{std::string(token.text), location(token)};
}

std::optional<syntax::NumberLit> TokenCursor::parseNumber(std::string_view what) {
  if (!isKind(TokenKind::Number)) {
    expectedNear(what, peek());
    return std::nullopt;
  }
  const Token& token = next();
  return syntax::NumberLit{token.number, token.parameter, location(token)};
}

bool TokenCursor::expectColonAfter(std::string_view word) {
  if (isKind(TokenKind::Colon)) {
    next();
    return true;
  }
  expectedNear("':' after '" + std::string(word) + "'", peek());
  return false;
}

bool TokenCursor::parseArgs(std::span<ArgSpec> specs, std::string_view owner) {
  while (true) {
    const size_t save = pos_;
    if (isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1)) next();
    if (!isKind(TokenKind::Identifier)) {
      pos_ = save;
      return true;
    }
    const Token& word = peek();
    ArgSpec* spec = nullptr;
    for (ArgSpec& candidate : specs)
      if (candidate.name == word.text) spec = &candidate;
    if (!spec) {
      if (isKind(TokenKind::Colon, 1)) {
        errorAt(word, "unknown argument '" + quoteToken(word.text) + ":' for " +
                          std::string(owner) + didYouMean(word.text, argNames(specs)));
        return false;
      }
      pos_ = save;
      return true;
    }
    next();
    if (spec->colon && !expectColonAfter(spec->name)) return false;
    if ((spec->nameOut && spec->nameOut->has_value()) ||
        (spec->numberOut && spec->numberOut->has_value())) {
      errorAt(word, "duplicate argument '" + std::string(spec->name) + (spec->colon ? ":'" : "'"));
      return false;
    }
    std::string what =
        std::string(spec->what) + " after '" + std::string(spec->name) + (spec->colon ? ":'" : "'");
    if (spec->nameOut) {
      if (!isKind(TokenKind::Identifier)) {
        expectedNear(what, peek());
        return false;
      }
      *spec->nameOut = parseName();
    } else {
      *spec->numberOut = parseNumber(what);
      if (!spec->numberOut->has_value()) return false;
    }
  }
}

std::vector<std::string_view> TokenCursor::argNames(std::span<const ArgSpec> specs) {
  std::vector<std::string_view> names;
  for (const ArgSpec& spec : specs) names.push_back(spec.name);
  return names;
}

}  // namespace scl
