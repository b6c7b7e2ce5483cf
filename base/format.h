// Numbers as text, the same way everywhere scl writes one: locale-independent
// (std::to_chars), with one rule for the values printf and to_chars disagree on:
//
// - a zero, and a negative number that rounds to zero at the chosen precision, has no sign:
//   "0", "0.0", never "-0" or "-0.0";
// - NaN is "nan" (never "-nan"), the infinities are "inf" and "-inf".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace scl {

/// Longer than any number a person writes out in full (17 significant digits a few places
/// from the point); a longer fixed text is written with an exponent.
inline constexpr size_t kMaxFixedNumberLength = 32;

/// The shortest text that reads back as the same double, without an exponent unless that
/// text would be longer than kMaxFixedNumberLength: 0.1 -> "0.1", 1e-7 -> "0.0000001",
/// 123456.5 -> "123456.5", but 1e300 -> "1e+300" (not 301 digits) and 1e-40 -> "1e-40".
/// For scripts and messages.
std::string formatNumber(double value);

/// The shortest text that reads back as the same double, with an exponent when that is
/// shorter: 1e-7 -> "1e-07", 123456.5 -> "123456.5". For data files (CSV columns).
std::string formatExact(double value);

/// `decimals` fixed decimals (0 to 40): formatFixed(2.345, 1) -> "2.3", (-0.04, 1) -> "0.0".
std::string formatFixed(double value, int decimals);

/// At most `decimals` decimals, trailing zeros and a trailing point dropped:
/// formatTrimmed(0.350, 2) -> "0.35", (90.0, 2) -> "90".
std::string formatTrimmed(double value, int decimals);

/// `digits` significant digits (1 to 40) as printf's %g writes them:
/// formatSignificant(1234.5, 3) -> "1.23e+03", (0.25, 3) -> "0.25".
std::string formatSignificant(double value, int digits);

/// The most bytes of user input a message quotes (a line of a file, a field, a value).
inline constexpr size_t kMaxQuotedLength = 80;

/// `text` in single quotes for a message, cut to kMaxQuotedLength bytes (never inside a
/// UTF-8 character) with its size when longer: "'abc'", "'1234...…' (104857600 bytes)".
/// A 100 MB field or number is never echoed whole.
std::string quoteForMessage(std::string_view text);

/// Columns `text` takes on a terminal: its UTF-8 characters (continuation bytes take none).
size_t displayWidth(std::string_view text);

/// `text` padded with spaces to `width` columns (displayWidth), on the right, or on the left
/// when `alignRight`; a longer text is returned whole.
std::string padded(std::string_view text, size_t width, bool alignRight = false);

/// A finite number written in full (`12`, `-0.5`, `1e-3`: what formatNumber writes and
/// more), else nullopt: text around it, NaN and infinities are no number.
std::optional<double> parseFiniteNumber(std::string_view text);

}  // namespace scl
