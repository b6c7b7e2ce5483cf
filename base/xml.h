// Text inside the XML (SVG) files scl writes.
#pragma once

#include <string>
#include <string_view>

namespace scl {

/// `text` with XML's special characters escaped (& < > and the double quote), for element
/// text and double-quoted attribute values.
std::string escapeXml(std::string_view text);

}  // namespace scl
