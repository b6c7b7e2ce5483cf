// CSV fields as RFC 4180 has them: a field in double quotes may hold commas, line breaks
// of its own and doubled quotes ("" for one ").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace scl {

/// The fields of one CSV line: quotes removed, "" read as ", a trailing CR (of a CRLF
/// file) dropped. An empty line is one empty field.
std::vector<std::string> splitCsvLine(std::string_view line);

/// How many fields splitCsvLine(line) returns, counted without building them: a reader
/// refuses a line of millions of fields before allocating one string per field.
size_t countCsvFields(std::string_view line);

/// `text` as one CSV field in double quotes, a quote in it doubled.
std::string quoteCsvField(std::string_view text);

}  // namespace scl
