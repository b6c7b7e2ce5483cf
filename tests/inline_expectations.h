// Test files that carry their expected diagnostics inline, as comments:
//   // expect error 3:10: unknown joint 'leftShoulderr'
//   // expect warning 5:3: outside the joint range
// (line:column and a substring of the message). Notes are checked only when expected. A
// file without expectations must produce no error or warning. Used for every text
// format of the front end: scripts (tests/lang/*.scl), objectives
// (tests/objectives/*.objective), character files (tests/characters/*.character).
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "scl/diagnostics.h"

namespace scl::testing {

struct ExpectedDiagnostic {
  Severity severity;
  int line, column;
  std::string message;
};

inline std::string readTextFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<ExpectedDiagnostic> inlineExpectations(const std::string& source) {
  static const std::regex pattern(
      R"(//\s*expect\s+(error|warning|note)\s+(\d+):(\d+):\s*(.*?)\s*$)");
  std::vector<ExpectedDiagnostic> out;
  std::istringstream lines(source);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (!std::regex_search(line, match, pattern)) continue;
    Severity severity = match[1] == "error"     ? Severity::Error
                        : match[1] == "warning" ? Severity::Warning
                                                : Severity::Note;
    out.push_back({severity, std::stoi(match[2]), std::stoi(match[3]), match[4]});
  }
  return out;
}

/// The files of `directory` ending in `extension`, sorted.
inline std::vector<std::filesystem::path> filesWithExtension(const std::filesystem::path& directory,
                                                             const std::string& extension) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Checks that `actual` (from `source`, named `name`) is exactly the expected set; `ok`
/// is whether the front end produced its result (it must, unless an error is expected).
inline void checkInlineExpectations(const std::string& name, const std::string& source,
                                    const std::vector<Diagnostic>& actual, bool ok) {
  const std::vector<ExpectedDiagnostic> expected = inlineExpectations(source);
  INFO(name << "\n" << renderDiagnostics(actual, source));
  std::vector<bool> used(actual.size(), false);
  for (const ExpectedDiagnostic& want : expected) {
    bool found = false;
    for (size_t i = 0; i < actual.size() && !found; ++i) {
      const Diagnostic& d = actual[i];
      if (used[i] || d.severity != want.severity || d.location.line != want.line ||
          d.location.column != want.column || d.message.find(want.message) == std::string::npos)
        continue;
      used[i] = found = true;
    }
    INFO("expected " << want.line << ":" << want.column << ": " << want.message);
    CHECK(found);
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const Diagnostic& d = actual[i];
    if (used[i] || d.severity == Severity::Note) continue;
    INFO("unexpected " << d.location.line << ":" << d.location.column << ": " << d.message);
    CHECK(false);
  }
  const bool expectsError =
      std::any_of(expected.begin(), expected.end(),
                  [](const ExpectedDiagnostic& e) { return e.severity == Severity::Error; });
  CHECK(ok == !expectsError);
}

}  // namespace scl::testing
