#include "scl/token_cursor.h"

#include <algorithm>
#include <stdexcept>

namespace scl {

TokenCursor::TokenCursor(std::span<const Token> tokens, FileName fileName, DiagnosticSink& sink)
    : file_(std::move(fileName)), sink_(sink) {
  window_.assign(tokens.begin(), tokens.end());
  end_ = window_.back();
}

TokenCursor::TokenCursor(TokenStream& stream, FileName fileName, DiagnosticSink& sink)
    : file_(std::move(fileName)), sink_(sink) {
  stream_ = &stream;
  window_.push_back(stream.next());
  end_ = window_.back();
  end_.kind = TokenKind::EndOfFile;
}

const Token& TokenCursor::at(size_t ahead) const {
  const size_t index = pos_ + ahead;
  while (stream_ && windowStart_ + window_.size() <= index && !isEnd(window_.back()))
    window_.push_back(stream_->next());
  const Token& token = window_[std::min(index - windowStart_, window_.size() - 1)];
  if (!sink_.full()) return token;
  // Past the error limit every look-ahead sees the end, here.
  end_.line = token.line;
  end_.column = token.column;
  return end_;
}

Token TokenCursor::next() {
  const Token token = at(0);
  if (isEnd(token)) return token;
  ++pos_;
  // Forget what lies far behind: a long script never holds all its tokens.
  if (stream_ && window_.size() > 256) {
    const size_t drop = pos_ - windowStart_ - kKeptBehind;
    window_.erase(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(drop));
    windowStart_ += drop;
  }
  return token;
}

void TokenCursor::rewind(size_t position) {
  // A programmer error: the parsers look back at most a few tokens.
  if (position < windowStart_) throw std::logic_error("TokenCursor: rewound past its window");
  pos_ = position;
}

bool TokenCursor::atEnd() const { return isEnd(at(0)); }

bool TokenCursor::isWord(std::string_view word, size_t ahead) const {
  const Token& token = at(ahead);
  return token.kind == TokenKind::Identifier && token.text == word;
}

void TokenCursor::errorAt(const Token& token, std::string message) {
  sink_.error(location(token), std::move(message));
}

void TokenCursor::expectedNear(std::string_view what, const Token& token, std::string_view hint) {
  suppressedLast_ = token.afterInvalid;
  if (suppressedLast_) return;
  const bool comparison = token.kind == TokenKind::Less || token.kind == TokenKind::LessEqual ||
                          token.kind == TokenKind::Greater || token.kind == TokenKind::GreaterEqual;
  if (hint.empty() && comparison) hint = comparisonHint_;
  errorAt(token,
          "expected " + std::string(what) + " near " + describeToken(token) + std::string(hint));
}

void TokenCursor::noteOpened(const Token& open) {
  if (suppressedLast_) return;
  sink_.note(location(open), "'" + std::string(open.text) + "' opened here");
}

syntax::Name TokenCursor::parseName() {
  const Token token = next();
  return syntax::Name{std::string(token.text), location(token)};
}

std::optional<syntax::NumberLit> TokenCursor::parseNumber(std::string_view what) {
  if (!isKind(TokenKind::Number)) {
    expectedNear(what, peek());
    return std::nullopt;
  }
  const Token token = next();
  return syntax::NumberLit{token.number, token.parameter, location(token)};
}

std::optional<syntax::Vec> TokenCursor::parseVec(std::string_view what) {
  const Token open = next();
  std::vector<syntax::NumberLit> numbers;
  while (!isKind(TokenKind::RightParen)) {
    if (!isKind(TokenKind::Number)) {
      expectedNear("a number in " + std::string(what), peek());
      if (!isKind(TokenKind::Identifier) && !isKind(TokenKind::Comma)) noteOpened(open);
      return std::nullopt;
    }
    numbers.push_back(*parseNumber(""));
    if (isKind(TokenKind::Comma)) {
      next();
    } else if (!isKind(TokenKind::RightParen)) {
      expectedNear("',' or ')'", peek());
      noteOpened(open);
      return std::nullopt;
    }
  }
  next();
  if (numbers.size() != 2) {
    errorAt(open, "expected 2 numbers in " + std::string(what) + ", found " +
                      std::to_string(numbers.size()));
    return std::nullopt;
  }
  return syntax::Vec{numbers[0], numbers[1], location(open)};
}

bool TokenCursor::expectColonAfter(std::string_view word) {
  if (isKind(TokenKind::Colon)) {
    next();
    return true;
  }
  expectedNear("':' after '" + std::string(word) + "'", peek());
  return false;
}

bool TokenCursor::parseArgs(std::span<ArgSpec> specs, std::string_view owner,
                            std::span<const std::string_view> stopAt) {
  while (true) {
    const size_t save = position();
    if (isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1)) next();
    if (!isKind(TokenKind::Identifier)) {
      rewind(save);
      return true;
    }
    const Token word = peek();
    ArgSpec* spec = nullptr;
    for (ArgSpec& candidate : specs)
      if (candidate.name == word.text) spec = &candidate;
    if (!spec) {
      const bool stop = std::find(stopAt.begin(), stopAt.end(), word.text) != stopAt.end();
      if (!stop && isKind(TokenKind::Colon, 1)) {
        errorAt(word, "unknown argument '" + quoteToken(word.text) + ":' for " +
                          std::string(owner) + didYouMean(word.text, argNames(specs)));
        return false;
      }
      rewind(save);
      return true;
    }
    next();
    if (spec->colon && !expectColonAfter(spec->name)) return false;
    if ((spec->nameOut && spec->nameOut->has_value()) ||
        (spec->numberOut && spec->numberOut->has_value()) ||
        (spec->vecOut && spec->vecOut->has_value())) {
      errorAt(word, "duplicate argument '" + std::string(spec->name) + (spec->colon ? ":'" : "'"));
      return false;
    }
    std::string what =
        std::string(spec->what) + " after '" + std::string(spec->name) + (spec->colon ? ":'" : "'");
    if (spec->nameOut) {
      if (spec->orString && isKind(TokenKind::String)) {
        const Token string = next();
        *spec->nameOut = syntax::Name{std::string(string.text.substr(1, string.text.size() - 2)),
                                      location(string)};
        continue;
      }
      if (!isKind(TokenKind::Identifier)) {
        expectedNear(what, peek());
        return false;
      }
      *spec->nameOut = parseName();
    } else if (spec->vecOut) {
      if (!isKind(TokenKind::LeftParen)) {
        expectedNear(what, peek());
        return false;
      }
      *spec->vecOut = parseVec(what);
      if (!spec->vecOut->has_value()) return false;
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
