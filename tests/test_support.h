// Small helpers shared by the Catch2 tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "scl/compile.h"

namespace scl::testing {

/// The program of a script that must compile (the test fails with its diagnostics).
inline Program compileOk(const std::string& source, const std::string& fileName = "t.scl") {
  CompileResult result = compile(source, fileName);
  INFO(renderDiagnostics(result.diagnostics, source));
  REQUIRE(result.ok());
  return *result.program;
}

}  // namespace scl::testing
