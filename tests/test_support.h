// Small helpers shared by the Catch2 tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <variant>

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

/// Radians per degree.
constexpr double kDeg = kPi / 180.0;

}  // namespace scl::testing
