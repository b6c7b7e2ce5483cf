// Small helpers shared by the Catch2 tests.
#pragma once

#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "scl/character_file.h"
#include "scl/compile.h"

namespace scl::testing {

/// The program of a script that must compile (the test fails with its diagnostics).
inline Program compileOk(const std::string& source, const std::string& fileName = "t.scl") {
  CompileResult result = compile(source, fileName);
  INFO(renderDiagnostics(result.diagnostics, source));
  REQUIRE(result.ok());
  return *result.program;
}

/// The `index`th bound primitive of phase `phase`, which must be a T.
template <typename T>
const T& primitive(const Program& program, size_t phase, size_t index) {
  REQUIRE(phase < program.phases.size());
  REQUIRE(index < program.phases[phase].primitives.size());
  REQUIRE(std::holds_alternative<T>(program.phases[phase].primitives[index]));
  return std::get<T>(program.phases[phase].primitives[index]);
}

/// A quiet stance (scripts/stand.scl's phase) standing for `seconds` in a world of
/// `statements` (world statements, one a line, or none).
inline std::string standingIn(const std::string& statements, double seconds) {
  std::ostringstream script;
  script << "scene pose: standing env: flat duration: " << seconds << "\n"
         << statements << R"(
{
  (quiet_stance)
  [necks 0, waist 0, hips 0, knees 0 time: 0.5]
  [relax ankles strength 0.1]
  [vf sb(600, 300) on: trunk, by: leftAnkle]
  [symm]
  [gc]
}
)";
  return script.str();
}

/// A file's whole text; the test fails when it cannot be read.
inline std::string readWholeTextFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The first Markdown table after `heading` in `page`: its rows by their first cell, each a
/// map from the column's heading to the cell's number (cells that are no number are left
/// out). The test fails when the heading is missing.
inline std::map<std::string, std::map<std::string, double>> numericTableAfter(
    const std::string& page, const std::string& heading) {
  const size_t section = page.find(heading);
  REQUIRE(section != std::string::npos);
  std::istringstream lines(page.substr(section));
  std::vector<std::string> columns;
  std::map<std::string, std::map<std::string, double>> rows;
  auto cellsOf = [](const std::string& row) {
    std::vector<std::string> cells;
    std::string cell;
    for (char c : row.substr(1)) {
      if (c != '|') {
        cell += c;
        continue;
      }
      const size_t first = cell.find_first_not_of(' ');
      cells.push_back(first == std::string::npos
                          ? ""
                          : cell.substr(first, cell.find_last_not_of(' ') - first + 1));
      cell.clear();
    }
    return cells;
  };
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind('|', 0) != 0) {
      if (!columns.empty()) break;  // the end of the first table
      continue;
    }
    std::vector<std::string> cells = cellsOf(line);
    if (columns.empty()) {
      columns = cells;
      continue;
    }
    if (cells.empty() || cells[0].rfind("---", 0) == 0) continue;
    for (size_t i = 1; i < cells.size() && i < columns.size(); ++i)
      if (!cells[i].empty() && (std::isdigit(static_cast<unsigned char>(cells[i][0])) != 0))
        rows[cells[0]][columns[i]] = std::stod(cells[i]);
  }
  return rows;
}

/// A built-in character that must load (the test fails with its diagnostics).
inline std::shared_ptr<const Character> builtinCharacter(const std::string& name) {
  CharacterLoad load = loadCharacter(name);
  INFO(renderDiagnostics(load.diagnostics, ""));
  REQUIRE(load.ok());
  return load.character;
}

/// Radians per degree.
constexpr double kDeg = kPi / 180.0;

}  // namespace scl::testing
