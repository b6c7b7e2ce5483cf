// The SCL binder: syntax tree -> scl::Program.
//
// Resolves names against character_table.h (groups expanded), expands `[symm]` and
// mirrored phases, resolves phase references, converts units (degrees -> radians), turns
// `@` numbers into Program::parameters and reports semantic errors and warnings
// (docs/language.md, "Diagnostics").
#pragma once

#include <optional>

#include "scl/diagnostics.h"
#include "scl/program.h"
#include "scl/syntax.h"

namespace scl {

/// The bound program, or nullopt when binding reported an error (warnings do not count).
std::optional<Program> bind(const syntax::Script& script, DiagnosticSink& sink);

/// A primitive with every link and joint index replaced by its left-right mirror image.
Primitive mirrored(const Primitive& primitive);

}  // namespace scl
