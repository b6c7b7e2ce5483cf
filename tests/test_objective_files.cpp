// Objective files with inline expectations (tests/inline_expectations.h): every
// tests/objectives/*.objective file states the exact set of errors it must produce.
#include <catch2/catch.hpp>

#include "scl/objective.h"
#include "tests/inline_expectations.h"

TEST_CASE("every tests/objectives file produces exactly its expected diagnostics") {
  const auto files =
      scl::testing::filesWithExtension(SCL_SOURCE_DIR "/tests/objectives", ".objective");
  REQUIRE(files.size() >= 5);
  for (const auto& path : files) {
    const std::string source = scl::testing::readTextFile(path);
    const std::string name = path.filename().string();
    const scl::ObjectiveParseResult result = scl::parseObjective(source, name);
    scl::testing::checkInlineExpectations(name, source, result.diagnostics, result.ok());
  }
}

TEST_CASE("the shipped objectives parse without a diagnostic") {
  const auto files =
      scl::testing::filesWithExtension(SCL_SOURCE_DIR "/scripts/optimize", ".objective");
  REQUIRE(files.size() >= 7);
  for (const auto& path : files) {
    const std::string source = scl::testing::readTextFile(path);
    const scl::ObjectiveParseResult result = scl::parseObjective(source, path.string());
    INFO(scl::renderDiagnostics(result.diagnostics, source));
    CHECK(result.ok());
    CHECK(result.diagnostics.empty());
  }
}
