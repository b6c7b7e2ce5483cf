// Small helpers shared by the Catch2 tests.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <variant>

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

/// A file's whole text; the test fails when it cannot be read.
inline std::string readWholeTextFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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
