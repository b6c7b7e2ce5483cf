// A bound transition's condition written back as a script would write it, for messages
// about a run (`scl run`'s summary, the viewer's status line): which exit a phase waits for.
#pragma once

#include <string>

#include "scl/character.h"
#include "scl/program.h"

namespace scl {

/// The condition of `transition` in canonical form, from the bound data: `after 0.6`,
/// `when contact all feet or after 0.4`, `and when contact any hands after 0.2`,
/// `when contact leftFoot with step`. Link
/// groups are named again (`hands`), a parameter shows its current value; the default
/// `established`, `any` before a single link and the `backto` part are left out.
std::string transitionText(const Transition& transition, const Character& character);

}  // namespace scl
