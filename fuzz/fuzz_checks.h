// Checks shared by the libFuzzer targets of fuzz/: what every diagnostic of any input must
// satisfy. A failed check aborts, which libFuzzer reports as a crash with the input.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "scl/diagnostics.h"

namespace scl::fuzz {

/// `ok` (a result was produced) exactly when no diagnostic is an error; every diagnostic
/// is located in the file (line 0: the file as a whole) with its message, and they render.
inline void checkDiagnostics(bool ok, std::span<const Diagnostic> diagnostics,
                             std::string_view source, std::string_view fileName) {
  if (ok == hasErrors(diagnostics)) std::abort();
  const auto lines = static_cast<long>(std::count(source.begin(), source.end(), '\n')) + 1;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.message.empty()) std::abort();
    if (diagnostic.location.file != fileName) std::abort();
    if (diagnostic.location.line < 0 || diagnostic.location.line > lines) std::abort();
    if (diagnostic.location.column < 0) std::abort();
  }
  const std::string rendered = renderDiagnostics(diagnostics, source);
  if (diagnostics.empty() != rendered.empty()) std::abort();
}

}  // namespace scl::fuzz
