#include "tools/lsp/text_document.h"

#include <algorithm>
#include <cstring>

namespace scl::lsp {

namespace {

// Bytes of the UTF-8 sequence starting with `lead` and the UTF-16 units it stands for; an
// invalid lead byte (a stray continuation byte, 0xF8...) is one byte, one unit.
struct CharSize {
  size_t bytes;
  size_t units;
};

CharSize charSize(std::string_view text, size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  size_t bytes = 1, units = 1;
  if (lead >= 0xF0 && lead < 0xF8)
    bytes = 4, units = 2;
  else if (lead >= 0xE0 && lead < 0xF0)
    bytes = 3;
  else if (lead >= 0xC0 && lead < 0xE0)
    bytes = 2;
  // A truncated or malformed sequence: its lead byte alone.
  if (at + bytes > text.size()) return {1, 1};
  for (size_t i = 1; i < bytes; ++i)
    if ((static_cast<unsigned char>(text[at + i]) & 0xC0) != 0x80) return {1, 1};
  return {bytes, units};
}

}  // namespace

size_t unitCount(std::string_view text, PositionEncoding encoding) {
  if (encoding == PositionEncoding::Utf8) return text.size();
  size_t units = 0;
  for (size_t at = 0; at < text.size();) {
    const CharSize size = charSize(text, at);
    at += size.bytes;
    units += size.units;
  }
  return units;
}

size_t bytesForUnits(std::string_view text, size_t units, PositionEncoding encoding) {
  if (encoding == PositionEncoding::Utf8) {
    size_t at = std::min(units, text.size());
    // Back to the start of a character split by the column.
    while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
      --at;
    return at;
  }
  size_t at = 0, counted = 0;
  while (at < text.size()) {
    const CharSize size = charSize(text, at);
    if (counted + size.units > units) break;
    counted += size.units;
    at += size.bytes;
  }
  return at;
}

TextDocument::TextDocument(std::string text) : text_(std::move(text)) { indexLines(); }

void TextDocument::indexLines() {
  lineStarts_.clear();
  lineStarts_.push_back(0);
  const char* data = text_.data();
  const char* end = data + text_.size();
  for (const char* at = data; at < end;) {
    const void* found = std::memchr(at, '\n', static_cast<size_t>(end - at));
    if (!found) break;
    at = static_cast<const char*>(found) + 1;
    lineStarts_.push_back(static_cast<size_t>(at - data));
  }
  asciiPrefix_.resize(lineStarts_.size());
  for (size_t line = 0; line < lineStarts_.size(); ++line) {
    const size_t begin = lineStarts_[line];
    const size_t stop = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] : text_.size();
    size_t at = begin;
    while (at < stop && static_cast<unsigned char>(text_[at]) < 0x80) ++at;
    asciiPrefix_[line] = at - begin;
  }
}

size_t TextDocument::lineStart(int line) const {
  if (line <= 0) return 0;
  if (line >= lineCount()) return lineStarts_.back();
  return lineStarts_[static_cast<size_t>(line)];
}

std::string_view TextDocument::line(int line) const {
  line = std::clamp(line, 0, lineCount() - 1);
  const size_t begin = lineStart(line);
  size_t end =
      line + 1 < lineCount() ? lineStarts_[static_cast<size_t>(line) + 1] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

int TextDocument::lineOf(size_t offset) const {
  offset = std::min(offset, text_.size());
  const auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<int>(after - lineStarts_.begin()) - 1;
}

size_t TextDocument::offsetAt(Position position, PositionEncoding encoding) const {
  if (position.line < 0) return 0;
  if (position.line >= lineCount()) return text_.size();
  const std::string_view text = line(position.line);
  const size_t units = static_cast<size_t>(std::max(position.character, 0));
  const size_t ascii = std::min(asciiPrefix_[static_cast<size_t>(position.line)], text.size());
  if (units <= ascii) return lineStart(position.line) + units;
  return lineStart(position.line) + ascii +
         bytesForUnits(text.substr(ascii), units - ascii, encoding);
}

Position TextDocument::positionAt(size_t offset, PositionEncoding encoding) const {
  offset = std::min(offset, text_.size());
  const int lineIndex = lineOf(offset);
  const std::string_view text = line(lineIndex);
  const size_t column = std::min(offset - lineStart(lineIndex), text.size());
  const size_t ascii = std::min(asciiPrefix_[static_cast<size_t>(lineIndex)], column);
  return {lineIndex,
          static_cast<int>(ascii + unitCount(text.substr(ascii, column - ascii), encoding))};
}

size_t TextDocument::offsetOf(const SourceLocation& location) const {
  if (location.line <= 0) return 0;
  if (location.line > lineCount()) return text_.size();
  const int lineIndex = location.line - 1;
  const size_t column = static_cast<size_t>(std::max(location.column, 1) - 1);
  return lineStart(lineIndex) + std::min(column, line(lineIndex).size());
}

Position TextDocument::positionOf(const SourceLocation& location, PositionEncoding encoding) const {
  return positionAt(offsetOf(location), encoding);
}

void TextDocument::replace(size_t begin, size_t end, std::string_view replacement) {
  begin = std::min(begin, text_.size());
  end = std::min(end, text_.size());
  if (end < begin) std::swap(begin, end);
  text_.replace(begin, end - begin, replacement);
  indexLines();
}

void TextDocument::setText(std::string text) {
  text_ = std::move(text);
  indexLines();
}

}  // namespace scl::lsp
