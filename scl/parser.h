// The SCL parser: tokens -> syntax tree, hand-written recursive descent on the shared
// token cursor (token_cursor.h), one function per grammar rule of docs/language.md,
// "Script structure".
//
// The parser recovers from errors (it skips to the end of the primitive, `]`, or of the
// phase, `}`) and reports each independent mistake once. The grammar has no recursive
// rule, so no input can nest the parser deeper than a few frames.
#pragma once

#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/syntax.h"

namespace scl {

struct ParseResult {
  /// The tree; meaningful only as far as the diagnostics have no errors.
  syntax::Script script;
  std::vector<Diagnostic> diagnostics;
};

/// Lexes and parses one script.
ParseResult parse(std::string_view source, std::string_view fileName);

/// Same, reporting into an existing sink (used by compile()).
syntax::Script parse(std::string_view source, std::string_view fileName, DiagnosticSink& sink);

}  // namespace scl
