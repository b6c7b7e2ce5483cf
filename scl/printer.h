// The SCL printer: a syntax tree back to canonical SCL text.
//
// Canonical form: the scene header on one line, each primitive block as `define NAME {`,
// its primitives and `}` and a blank line, phases as `{` ... `}` with two-space
// indentation, one primitive per line, transitions on their own line between phases,
// `on: L, by: J` for vf and space-separated named arguments elsewhere, numbers in their
// shortest decimal form with `@` kept. For every tree the parser accepts,
// parse(print(tree)) equals the tree (ignoring locations).
//
// Comments are not part of the tree; the overload taking scanComments() output puts
// each back next to the node it was written with: a comment on its own line before the
// line of the next node (at that node's indentation, with the blank line above it kept),
// a comment after code at the end of that node's line, consecutive trailing comments
// aligned. Every comment is printed exactly once, in source order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/lexer.h"
#include "scl/syntax.h"

namespace scl {

std::string print(const syntax::Script& script);
/// print() with the source's comments (scanComments(source)) kept.
std::string print(const syntax::Script& script, const std::vector<Comment>& comments);

/// The shortest decimal text (no exponent) that reads back as exactly `value`.
std::string formatNumber(double value);

/// A finite number written in full (`12`, `-0.5`, `1e-3`: what formatNumber writes and
/// more), else nullopt: text around it, NaN and infinities are no number.
std::optional<double> parseFiniteNumber(std::string_view text);

}  // namespace scl
