// libFuzzer target for the SCL front end (built by bench/fuzz.sh, not by CMake).
//
// Invariants checked on every input: compile() never crashes, a program is returned
// exactly when there is no error, rendering the diagnostics works, and a script that
// parses cleanly prints to text that parses back to the same tree.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  scl::CompileResult result = scl::compile(source, "fuzz.scl");
  if (result.ok() == scl::hasErrors(result.diagnostics)) std::abort();
  (void)scl::renderDiagnostics(result.diagnostics, source);

  scl::ParseResult parsed = scl::parse(source, "fuzz.scl");
  if (!scl::hasErrors(parsed.diagnostics)) {
    const std::string printed = scl::print(parsed.script);
    scl::ParseResult again = scl::parse(printed, "printed.scl");
    if (scl::hasErrors(again.diagnostics)) std::abort();
    if (!(scl::syntax::withoutLocations(again.script) == scl::syntax::withoutLocations(parsed.script)))
      std::abort();
  }
  if (result.ok() && !result.program->parameters.empty()) {
    // The rewrite of @ values must accept the source it was compiled from.
    (void)scl::substituteParameters(source, *result.program);
  }
  return 0;
}
