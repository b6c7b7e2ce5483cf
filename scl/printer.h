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

#include "base/format.h"  // formatNumber and parseFiniteNumber, the one number text
#include "scl/lexer.h"
#include "scl/syntax.h"

namespace scl {

std::string print(const syntax::Script& script);
/// print() with the source's comments (scanComments(source)) kept.
std::string print(const syntax::Script& script, const std::vector<Comment>& comments);
/// A transition's condition in canonical form, without its `backto` part
/// (`when contact all feet or after 0.4`), for messages that quote it.
std::string printTransitionCondition(const syntax::Transition& transition);

}  // namespace scl
