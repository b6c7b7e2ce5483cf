// An open document of the language server: its text, where its lines start, and the
// conversion between the protocol's positions (a 0-based line and a column counted in
// UTF-16 code units, or UTF-8 bytes when the client chose that encoding) and byte offsets
// or the front end's locations (1-based line and byte column).
//
// Lines end at '\n' only, as for the front end; a '\r' before it is no part of the line's
// columns. Any position is accepted: one beyond a line's end or the text's end is clamped
// to it, one inside a multi-byte character to that character's start.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scl/source_location.h"

namespace scl::lsp {

/// How columns of positions are counted (LSP `positionEncoding`).
enum class PositionEncoding {
  Utf16,  ///< UTF-16 code units, the protocol's default
  Utf8,   ///< bytes
};

/// A position in the protocol's terms: 0-based line, 0-based column in encoding units.
struct Position {
  /// 0-based line.
  int line = 0;
  /// 0-based column, in encoding units.
  int character = 0;
  bool operator==(const Position&) const = default;
};

/// A half-open range of positions.
struct Range {
  /// The first position in the range.
  Position start;
  /// The position just past the range.
  Position end;
  bool operator==(const Range&) const = default;
};

/// The text of an open document with its line index.
class TextDocument {
 public:
  explicit TextDocument(std::string text = {});

  /// The whole text.
  const std::string& text() const { return text_; }
  /// Number of lines (one more than the number of '\n').
  int lineCount() const { return static_cast<int>(lineStarts_.size()); }
  /// Byte offset where line `line` (0-based, clamped) starts.
  size_t lineStart(int line) const;
  /// Line `line` (0-based, clamped) without its '\n' and a '\r' before it.
  std::string_view line(int line) const;
  /// The 0-based line holding byte `offset` (clamped to the text).
  int lineOf(size_t offset) const;

  /// The byte offset of `position`, clamped into the text.
  size_t offsetAt(Position position, PositionEncoding encoding) const;
  /// The position of byte `offset` (clamped to the text).
  Position positionAt(size_t offset, PositionEncoding encoding) const;
  /// The position of a front-end location (1-based line, 1-based byte column); line 0
  /// (the file as a whole) is the text's start.
  Position positionOf(const SourceLocation& location, PositionEncoding encoding) const;
  /// The byte offset of a front-end location (clamped into the text).
  size_t offsetOf(const SourceLocation& location) const;
  /// The position at the end of the text.
  Position end(PositionEncoding encoding) const { return positionAt(text_.size(), encoding); }

  /// Replaces bytes [begin, end) (clamped, swapped when reversed) with `replacement`.
  void replace(size_t begin, size_t end, std::string_view replacement);
  /// Replaces the whole text.
  void setText(std::string text);

 private:
  void indexLines();
  std::string text_;
  /// Byte offset of each line's first byte.
  std::vector<size_t> lineStarts_;
  /// Bytes of each line before its first non-ASCII byte: columns there are bytes in every
  /// encoding, so converting them costs nothing however long the line (a 1 MB line).
  std::vector<size_t> asciiPrefix_;
};

/// Encoding units (UTF-16 code units or bytes) of `text`; an invalid UTF-8 byte counts as
/// one unit (as the replacement character a client would show).
size_t unitCount(std::string_view text, PositionEncoding encoding);

/// Bytes of the longest prefix of `text` that is at most `units` encoding units long and
/// does not split a character.
size_t bytesForUnits(std::string_view text, size_t units, PositionEncoding encoding);

}  // namespace scl::lsp
