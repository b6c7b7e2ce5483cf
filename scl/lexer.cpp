#include "scl/lexer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "base/files.h"
#include "base/format.h"

namespace scl {

namespace {

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
bool isPathChar(char c) { return c == '.' || c == '#' || c == '*'; }
bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
char charAt(std::string_view text, size_t i) { return i < text.size() ? text[i] : '\0'; }

}  // namespace

class Lexer {
 public:
  Lexer(std::string_view source, FileName fileName, DiagnosticSink& sink,
        const LexerOptions& options)
      : source_(source), fileName_(std::move(fileName)), sink_(sink), options_(options) {}

  // The next token; EndOfFile at the end (and at every call after it).
  Token next() {
    while (true) {
      skipSpaceAndComments();
      if (pos_ >= source_.size() || sink_.full()) break;
      Token token;
      token.afterInvalid = skippedInvalid_;
      if (lexToken(token)) {
        skippedInvalid_ = false;
        return token;
      }
      skippedInvalid_ = true;
    }
    Token end;
    end.kind = TokenKind::EndOfFile;
    end.afterInvalid = skippedInvalid_;
    end.line = line_;
    end.column = column();
    return end;
  }

 private:
  int column() const { return static_cast<int>(pos_ - lineStart_) + 1; }
  SourceLocation here() const { return {fileName_, line_, column()}; }
  char at(size_t i) const { return charAt(source_, i); }

  void advance() {
    if (source_[pos_] == '\n') {
      ++line_;
      lineStart_ = pos_ + 1;
    }
    ++pos_;
  }

  void skipSpaceAndComments() {
    while (pos_ < source_.size()) {
      char c = source_[pos_];
      if (isSpace(c)) {
        advance();
      } else if (c == '/' && at(pos_ + 1) == '/') {
        while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool startsName(char c) const { return isIdentStart(c) || (options_.paths && c == '*'); }
  bool continuesName(char c) const { return isIdentChar(c) || (options_.paths && isPathChar(c)); }

  // Lexes one token at pos_; false (with a diagnostic) for invalid input, which is skipped.
  bool lexToken(Token& token) {
    token.line = line_;
    token.column = column();
    const size_t start = pos_;
    const char c = source_[pos_];
    if (startsName(c)) {
      while (pos_ < source_.size() && continuesName(source_[pos_])) ++pos_;
      token.kind = TokenKind::Identifier;
      token.text = source_.substr(start, pos_ - start);
      return true;
    }
    if (c == '@' || c == '-' || c == '+' || c == '.' || isDigit(c)) return lexNumber(token);
    TokenKind kind;
    size_t length = 1;
    switch (c) {
      case '{':
        kind = TokenKind::LeftBrace;
        break;
      case '}':
        kind = TokenKind::RightBrace;
        break;
      case '[':
        kind = TokenKind::LeftBracket;
        break;
      case ']':
        kind = TokenKind::RightBracket;
        break;
      case '(':
        kind = TokenKind::LeftParen;
        break;
      case ')':
        kind = TokenKind::RightParen;
        break;
      case ',':
        kind = TokenKind::Comma;
        break;
      case ':':
        kind = TokenKind::Colon;
        break;
      case '<':
      case '>':
        if (!options_.comparisons) return skipInvalid(), false;
        length = at(pos_ + 1) == '=' ? 2 : 1;
        kind = c == '<' ? (length == 2 ? TokenKind::LessEqual : TokenKind::Less)
                        : (length == 2 ? TokenKind::GreaterEqual : TokenKind::Greater);
        break;
      case '"':
        if (!options_.strings) return skipInvalid(), false;
        return lexString(token);
      case '/':
        if (!options_.slash) return skipInvalid(), false;
        kind = TokenKind::Slash;
        break;
      default:
        skipInvalid();
        return false;
    }
    pos_ += length;
    token.kind = kind;
    token.text = source_.substr(start, length);
    return true;
  }

  // STRING := '"' { any byte but '"' and a line break } '"'
  bool lexString(Token& token) {
    const size_t start = pos_;
    const SourceLocation location = here();
    size_t end = pos_ + 1;
    while (end < source_.size() && source_[end] != '"' && source_[end] != '\n') ++end;
    if (end >= source_.size() || source_[end] != '"') {
      sink_.error(location, "unterminated string: a '\"' must close it on the same line");
      pos_ = end;
      return false;
    }
    pos_ = end + 1;
    token.kind = TokenKind::String;
    token.text = source_.substr(start, pos_ - start);
    return true;
  }

  // NUM := [ "@" ] number (numberLength())
  bool lexNumber(Token& token) {
    const size_t start = pos_;
    const SourceLocation location = here();
    if (source_[pos_] == '@') {
      token.parameter = true;
      ++pos_;
    }
    const size_t numberStart = pos_;
    const size_t length = numberLength(source_.substr(pos_));
    if (length == 0) {
      pos_ = start + 1;
      std::string what(1, source_[start]);
      sink_.error(location, what == "@" ? "'@' must be followed directly by a number"
                                        : "unexpected character '" + what + "'");
      return false;
    }
    pos_ += length;
    token.kind = TokenKind::Number;
    token.text = source_.substr(start, pos_ - start);
    std::string_view digits = source_.substr(numberStart, length);
    if (digits.front() == '+') digits.remove_prefix(1);
    double value = 0.0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size() || !std::isfinite(value)) {
      sink_.error(location, "number '" + quoteToken(token.text) + "' is out of range");
      value = 0.0;
    }
    token.number = value;
    skipUnitSuffix(start, value, location);
    return true;
  }

  // A unit written after a number (`0.5s`, `500ms`, `90deg`) would otherwise be the
  // number and a stray name, and the parser's "expected ..." says nothing of units; the
  // error says which unit the language uses, and the suffix is skipped so that nothing
  // else is reported about it.
  void skipUnitSuffix(size_t start, double value, const SourceLocation& location) {
    size_t end = pos_;
    while (end < source_.size() && isIdentChar(source_[end])) ++end;
    const std::string_view unit = source_.substr(pos_, end - pos_);
    std::string hint;
    if (unit == "s" || unit == "sec" || unit == "secs" || unit == "seconds")
      hint = "times are seconds: write " + formatNumber(value);
    else if (unit == "ms")
      hint = "times are seconds: write " + formatNumber(value / 1000.0) + " for " +
             formatNumber(value) + " ms";
    else if (unit == "deg" || unit == "degs" || unit == "degrees")
      hint = "angles are degrees: write " + formatNumber(value);
    else if (unit == "rad" || unit == "rads" || unit == "radians")
      hint = "angles are degrees: write " +
             formatNumber(std::round(value * 1800.0 / 3.14159265358979323846) / 10.0) + " for " +
             formatNumber(value) + " rad";
    if (hint.empty()) return;
    sink_.error(location, "'" + quoteToken(source_.substr(start, end - start)) +
                              "': no unit after a number; " + hint);
    pos_ = end;
  }

  // Skips a run of bytes that start no token and reports it once.
  void skipInvalid() {
    const SourceLocation location = here();
    const unsigned char first = static_cast<unsigned char>(source_[pos_]);
    while (pos_ < source_.size()) {
      char c = source_[pos_];
      if (isSpace(c) || startsName(c) || isDigit(c) || c == '@' || c == '-' || c == '+' ||
          c == '.' || std::string_view("{}[](),:").find(c) != std::string_view::npos ||
          (options_.strings && c == '"') || (options_.comparisons && (c == '<' || c == '>')) ||
          (c == '/' && at(pos_ + 1) == '/') || (options_.slash && c == '/'))
        break;
      ++pos_;
    }
    std::string message;
    if (first == 0) {
      message = "NUL byte in source";
    } else if (first < 0x20 || first >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", first);
      message = std::string("invalid byte ") + hex + " in source (SCL is plain ASCII)";
    } else {
      message = std::string("unexpected character '") + static_cast<char>(first) + "'";
    }
    sink_.error(location, message);
  }

  std::string_view source_;
  FileName fileName_;
  DiagnosticSink& sink_;
  LexerOptions options_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  bool skippedInvalid_ = false;
  int line_ = 1;
};

TokenStream::TokenStream(std::string_view source, FileName fileName, DiagnosticSink& sink,
                         const LexerOptions& options)
    : lexer_(std::make_unique<Lexer>(source, std::move(fileName), sink, options)) {}

TokenStream::~TokenStream() = default;

Token TokenStream::next() { return lexer_->next(); }

std::vector<Token> lex(std::string_view source, std::string_view fileName, DiagnosticSink& sink,
                       const LexerOptions& options) {
  TokenStream stream(source, FileName(fileName), sink, options);
  std::vector<Token> tokens;
  do tokens.push_back(stream.next());
  while (tokens.back().kind != TokenKind::EndOfFile);
  return tokens;
}

// number := [ "+" | "-" ] ( digits [ "." digits? ] | "." digits ) [ ( "e" | "E" ) [ "+" | "-" ]
// digits ]
size_t numberLength(std::string_view text) {
  size_t pos = 0;
  if (charAt(text, pos) == '-' || charAt(text, pos) == '+') ++pos;
  const size_t digitsStart = pos;
  while (isDigit(charAt(text, pos))) ++pos;
  bool hasDigits = pos > digitsStart;
  if (charAt(text, pos) == '.' && (hasDigits || isDigit(charAt(text, pos + 1)))) {
    ++pos;
    while (isDigit(charAt(text, pos))) ++pos;
    hasDigits = true;
  }
  if (!hasDigits) return 0;
  // An exponent only when digits follow: `2e` is the number 2 and the name `e`.
  if (charAt(text, pos) == 'e' || charAt(text, pos) == 'E') {
    size_t exponent = pos + 1;
    if (charAt(text, exponent) == '-' || charAt(text, exponent) == '+') ++exponent;
    if (isDigit(charAt(text, exponent))) {
      while (isDigit(charAt(text, exponent))) ++exponent;
      pos = exponent;
    }
  }
  return pos;
}

std::string describeToken(const Token& token) {
  if (token.kind == TokenKind::EndOfFile) return "end of file";
  if (token.kind == TokenKind::EndOfLine) return "end of line";
  std::string quoted = "'";
  quoted += quoteToken(token.text);
  quoted += '\'';
  return quoted;
}

bool hasCrOnlyLineEndings(std::string_view text) {
  const size_t cr = text.find('\r');
  return cr != std::string_view::npos && text.find('\n') == std::string_view::npos &&
         cr + 1 < text.size();
}

Diagnostic SourceFileRead::diagnostic(const std::filesystem::path& path) const {
  Diagnostic result{Severity::Error, {}, error};
  if (!unreadable) result.location.file = FileName(path.string());
  return result;
}

SourceFileRead readSourceFile(const std::filesystem::path& path, std::string_view shown) {
  SourceFileRead result;
  FileRead read = readWholeFile(path);
  if (!read) {
    result.unreadable = true;
    result.error = std::string(shown) + " " + read.reason;
    return result;
  }
  // A byte-order mark (some Windows editors write one) is no content, as for scripts.
  stripByteOrderMark(read.text);
  // Lines ending in CR alone (classic Mac OS) would read as one line.
  if (hasCrOnlyLineEndings(read.text)) {
    result.error = std::string(shown) +
                   " has CR-only line endings (classic Mac OS); save it with LF (or CRLF) line "
                   "endings";
    return result;
  }
  result.text = std::make_shared<std::string>(std::move(read.text));
  return result;
}

std::vector<Comment> scanComments(std::string_view source) {
  std::vector<Comment> comments;
  bool previousBlank = false;
  int lineNumber = 1;
  size_t start = 0;
  while (start <= source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view line = source.substr(start, end - start);
    size_t slash = std::string_view::npos;
    bool inString = false;
    for (size_t i = 0; i + 1 < line.size() && slash == std::string_view::npos; ++i) {
      if (line[i] == '"')
        inString = !inString;
      else if (!inString && line[i] == '/' && line[i + 1] == '/')
        slash = i;
    }
    const size_t firstNonSpace = line.find_first_not_of(" \t\r\f\v");
    if (slash != std::string_view::npos) {
      Comment comment;
      std::string_view text = line.substr(slash);
      while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
      comment.text = std::string(text);
      comment.line = lineNumber;
      comment.column = static_cast<int>(slash) + 1;
      comment.ownLine = firstNonSpace == slash;
      comment.blankLineBefore = previousBlank;
      comments.push_back(std::move(comment));
    }
    previousBlank = firstNonSpace == std::string_view::npos;
    if (end == source.size()) break;
    start = end + 1;
    ++lineNumber;
  }
  return comments;
}

}  // namespace scl
