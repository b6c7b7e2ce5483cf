// libFuzzer target for the SCL front end (SCL_FUZZ=ON builds it; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: compile() never crashes (nor leaks, nor hangs), a
// program is returned exactly when there is no error, every diagnostic is located in the
// file and renders, and a script that parses cleanly prints to text that parses back to
// the same tree, also when printed with its comments (which must all be kept).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_checks.h"
#include "scl/compile.h"
#include "scl/lexer.h"
#include "scl/parser.h"
#include "scl/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::CompileResult result = scl::compile(source, "fuzz.scl");
  scl::fuzz::checkDiagnostics(result.ok(), result.diagnostics, source, "fuzz.scl");

  scl::ParseResult parsed = scl::parse(source, "fuzz.scl");
  if (!scl::hasErrors(parsed.diagnostics)) {
    const std::string printed = scl::print(parsed.script);
    scl::ParseResult again = scl::parse(printed, "printed.scl");
    if (scl::hasErrors(again.diagnostics)) std::abort();
    if (!(scl::syntax::withoutLocations(again.script) ==
          scl::syntax::withoutLocations(parsed.script)))
      std::abort();
    const std::vector<scl::Comment> comments = scl::scanComments(source);
    const std::string formatted = scl::print(parsed.script, comments);
    scl::ParseResult reparsed = scl::parse(formatted, "formatted.scl");
    if (scl::hasErrors(reparsed.diagnostics)) std::abort();
    if (!(scl::syntax::withoutLocations(reparsed.script) ==
          scl::syntax::withoutLocations(parsed.script)))
      std::abort();
    if (scl::scanComments(formatted).size() != comments.size()) std::abort();
  }
  if (result.ok() && !result.program->parameters.empty()) {
    // The rewrite of @ values must accept the source it was compiled from.
    (void)scl::substituteParameters(source, *result.program);
  }
  return 0;
}
