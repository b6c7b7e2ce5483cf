// The SCL printer: a syntax tree back to canonical SCL text.
//
// Canonical form: the scene header on one line, phases as `{` ... `}` with two-space
// indentation, one primitive per line, transitions on their own line between phases,
// `on: L, by: J` for vf and space-separated named arguments elsewhere, numbers in their
// shortest decimal form with `@` kept. Comments are not part of the tree and are not
// printed. For every tree the parser accepts, parse(print(tree)) equals the tree
// (ignoring locations).
#pragma once

#include <string>

#include "scl/syntax.h"

namespace scl {

std::string print(const syntax::Script& script);

/// The shortest decimal text (no exponent) that reads back as exactly `value`.
std::string formatNumber(double value);

}  // namespace scl
