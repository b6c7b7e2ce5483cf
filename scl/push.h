// Pushes: a constant force at the centre of mass of a link of the character or of a
// movable object of the scene, over a time window. A script carries the pushes it is meant
// to survive (`push trunk force: (120, 0) at: 4 for: 0.5`, docs/scene.md); `scl run --push`
// adds more (docs/cli.md). Both name what they push the same way (findPushTarget()).
//
// The data (PushTarget, ScriptPush) is the bound program's (scl_core); findPushTarget() is
// the front end's (scl_lang, push.cpp), since it looks names up.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "scl/character.h"
#include "scl/scene_body.h"
#include "scl/source_location.h"

namespace scl {

/// What a push acts on: a link of the character, or a part of a movable scene body.
struct PushTarget {
  /// The link, index into the character's links (when `body` is empty).
  int link = 0;
  /// The movable scene body pushed, by its name (SceneBodyDef::name); empty for a link.
  std::string body;
  /// The body's part: a chain's link, from 0 at its start; 0 for a body of one part.
  int part = 0;
  bool operator==(const PushTarget&) const = default;
};

/// A push a script carries: `push NAME force: (FX, FY) at: T for: D`, the force at NAME's
/// centre of mass in every step that starts in [start, start + duration), as
/// `--push NAME:FX,FY@T+D`.
struct ScriptPush {
  PushTarget target;
  /// The name as written: "trunk", "crate", "rope.3".
  std::string name;
  /// Force (x, y), newtons.
  std::array<double, 2> force{};
  /// Start of the window, seconds (>= 0).
  double start = 0.0;
  /// Length of the window, seconds (> 0).
  double duration = 0.0;
  /// Where the statement is written.
  SourceLocation location;
  bool operator==(const ScriptPush&) const = default;
};

/// A push's target, or why there is none.
struct PushTargetLookup {
  std::optional<PushTarget> target;
  /// Why not, in words (without a prefix): an unknown name with "did you mean" and the
  /// links and objects there are, terrain (which does not move), a group, a chain link
  /// out of range.
  std::string error;
};

/// `name` as a push names it: a link of `character` (not a group); else a movable object
/// of `bodies` (a box, ball or capsule: its centre of mass; a chain: its last link), or
/// `CHAIN.N`, the chain's link N counted from 1 at its start. A name that is both a link's
/// and an object's is the link. `argument` names the pusher in messages ("--push", "push").
/// Why `seconds` cannot be a push's start (`duration` false: from 0 s) or duration (`duration`
/// true: above 0 s), at most kMaxDuration: "a push lasts more than 0 s, at most 3600 s (found
/// 0 s)"; empty when it can.
std::string pushTimeError(double seconds, bool duration);

PushTargetLookup findPushTarget(std::string_view name, const Character& character,
                                std::span<const SceneBodyDef> bodies, std::string_view argument);

}  // namespace scl
