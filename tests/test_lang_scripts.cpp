// Script tests with inline expectations (tests/inline_expectations.h): every
// tests/lang/*.scl file states the exact set of errors and warnings it must produce.
#include <catch2/catch.hpp>

#include "scl/compile.h"
#include "tests/inline_expectations.h"

TEST_CASE("every tests/lang script produces exactly its expected diagnostics") {
  const auto files = scl::testing::filesWithExtension(SCL_SOURCE_DIR "/tests/lang", ".scl");
  REQUIRE(files.size() >= 15);
  for (const auto& path : files) {
    const std::string source = scl::testing::readTextFile(path);
    const std::string name = path.filename().string();
    scl::CompileOptions options;
    options.baseDirectory = path.parent_path();  // `scene character: "FILE"` beside the script
    const scl::CompileResult result = scl::compile(source, name, options);
    scl::testing::checkInlineExpectations(name, source, result.diagnostics, result.ok());
  }
}
