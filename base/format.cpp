#include "base/format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace scl {

namespace {

// Room for the widest text asked for: 309 integer digits of the largest double, a point
// and 40 decimals.
using Buffer = std::array<char, 400>;

// The one rule for the values every formatter must agree on (see format.h).
std::string finish(const char* begin, const char* end, double value) {
  if (std::isnan(value)) return "nan";
  std::string text(begin, end);
  const bool roundsToZero =
      !text.empty() && text[0] == '-' && text.find_first_not_of("0.", 1) == std::string::npos;
  if (roundsToZero) text.erase(0, 1);
  return text;
}

template <typename... Format>
std::string convert(double value, Format... format) {
  Buffer buffer;
  const auto [end, error] =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format...);
  // Unreachable with Buffer's size and the clamped precisions; "nan" rather than garbage.
  if (error != std::errc()) return "nan";
  return finish(buffer.data(), end, value);
}

constexpr int kMaxPrecision = 40;

}  // namespace

std::string formatNumber(double value) {
  std::string text = convert(value, std::chars_format::fixed);
  return text.size() <= kMaxFixedNumberLength ? text : convert(value);
}

std::optional<double> parseFiniteNumber(std::string_view text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string quoteForMessage(std::string_view text) {
  if (text.size() <= kMaxQuotedLength) return "'" + std::string(text) + "'";
  size_t cut = kMaxQuotedLength;
  const auto continuesCharacter = [&](size_t i) {
    return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
  };
  while (cut > 0 && continuesCharacter(cut)) --cut;
  return "'" + std::string(text.substr(0, cut)) + "\u2026' (" + std::to_string(text.size()) +
         " bytes)";
}

std::string formatExact(double value) { return convert(value); }

std::string formatFixed(double value, int decimals) {
  return convert(value, std::chars_format::fixed, std::clamp(decimals, 0, kMaxPrecision));
}

std::string formatTrimmed(double value, int decimals) {
  std::string text = formatFixed(value, decimals);
  if (std::isfinite(value) && text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string formatSignificant(double value, int digits) {
  return convert(value, std::chars_format::general, std::clamp(digits, 1, kMaxPrecision));
}

size_t displayWidth(std::string_view text) {
  return static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string padded(std::string_view text, size_t width, bool alignRight) {
  const std::string padding(width - std::min(width, displayWidth(text)), ' ');
  return alignRight ? padding + std::string(text) : std::string(text) + padding;
}

}  // namespace scl
