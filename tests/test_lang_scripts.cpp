// Script tests with inline expectations: every tests/lang/*.scl file states the exact
// set of errors and warnings it must produce, as comments
//   // expect error 3:10: unknown joint 'leftShoulderr'
//   // expect warning 5:3: outside the joint range
// (line:column and a substring of the message). Notes are checked only when expected.
// A file without expectations must compile without any error or warning.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "scl/compile.h"

namespace {

struct Expected {
  scl::Severity severity;
  int line, column;
  std::string message;
};

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<Expected> expectations(const std::string& source) {
  static const std::regex pattern(
      R"(//\s*expect\s+(error|warning|note)\s+(\d+):(\d+):\s*(.*?)\s*$)");
  std::vector<Expected> out;
  std::istringstream lines(source);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (!std::regex_search(line, match, pattern)) continue;
    scl::Severity severity = match[1] == "error"     ? scl::Severity::Error
                             : match[1] == "warning" ? scl::Severity::Warning
                                                     : scl::Severity::Note;
    out.push_back({severity, std::stoi(match[2]), std::stoi(match[3]), match[4]});
  }
  return out;
}

bool matches(const Expected& expected, const scl::Diagnostic& actual) {
  return expected.severity == actual.severity && expected.line == actual.location.line &&
         expected.column == actual.location.column &&
         actual.message.find(expected.message) != std::string::npos;
}

std::vector<std::filesystem::path> scriptFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(SCL_SOURCE_DIR "/tests/lang"))
    if (entry.path().extension() == ".scl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every tests/lang script produces exactly its expected diagnostics") {
  const auto files = scriptFiles();
  REQUIRE(files.size() >= 15);
  for (const auto& path : files) {
    const std::string source = readFile(path);
    const std::string name = path.filename().string();
    const scl::CompileResult result = scl::compile(source, name);
    const std::vector<Expected> expected = expectations(source);
    INFO(name << "\n" << scl::renderDiagnostics(result.diagnostics, source));

    std::vector<bool> used(result.diagnostics.size(), false);
    for (const Expected& want : expected) {
      bool found = false;
      for (size_t i = 0; i < result.diagnostics.size() && !found; ++i) {
        if (used[i] || !matches(want, result.diagnostics[i])) continue;
        used[i] = found = true;
      }
      INFO("expected " << want.line << ":" << want.column << ": " << want.message);
      CHECK(found);
    }
    for (size_t i = 0; i < result.diagnostics.size(); ++i) {
      const scl::Diagnostic& actual = result.diagnostics[i];
      if (used[i] || actual.severity == scl::Severity::Note) continue;
      INFO("unexpected " << actual.location.line << ":" << actual.location.column << ": "
                         << actual.message);
      CHECK(false);
    }
    const bool expectsError = std::any_of(expected.begin(), expected.end(), [](const Expected& e) {
      return e.severity == scl::Severity::Error;
    });
    CHECK(result.ok() == !expectsError);
  }
}
