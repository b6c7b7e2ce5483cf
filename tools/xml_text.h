// Text inside the SVG files scl writes (filmstrips, plots, the character figure).
#pragma once

#include <string>
#include <string_view>

namespace scl {

/// `text` with XML's special characters escaped, for element text and attribute values.
inline std::string escapeXml(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

}  // namespace scl
