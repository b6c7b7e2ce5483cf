#include "base/csv.h"

namespace scl {

std::vector<std::string> splitCsvLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

size_t countCsvFields(std::string_view line) {
  size_t fields = 1;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"')
      quoted = !quoted;  // a doubled quote toggles twice
    else if (c == ',' && !quoted)
      ++fields;
  }
  return fields;
}

std::string quoteCsvField(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

}  // namespace scl
