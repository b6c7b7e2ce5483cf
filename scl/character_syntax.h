// The syntax tree of a character file (docs/character.md, "Character files"): what the
// parser read, names as written, every node with its location. character_file.h turns it
// into a Character (checking it) and back into canonical text.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "scl/syntax.h"

namespace scl::syntax {

/// `link NAME length: L thickness: (P, D) mass: M` (or `density: D` instead of mass).
struct LinkStatement {
  Name name;
  std::optional<NumberLit> length;
  /// (proximal, distal) cap diameters.
  std::optional<Vec> thickness;
  std::optional<NumberLit> mass;
  std::optional<NumberLit> density;
  SourceLocation location;
  bool operator==(const LinkStatement&) const = default;
};

/// `joint NAME parent: LINK child: LINK [at: A] range: (MIN, MAX) kp: P kd: D torque: T`
struct JointStatement {
  Name name;
  std::optional<Name> parent;
  std::optional<Name> child;
  std::optional<NumberLit> at;
  std::optional<Vec> range;
  std::optional<NumberLit> kp;
  std::optional<NumberLit> kd;
  std::optional<NumberLit> torque;
  SourceLocation location;
  bool operator==(const JointStatement&) const = default;
};

/// `mirror NAME NAME`: a left and a right link (or joint).
struct MirrorStatement {
  Name first;
  Name second;
  SourceLocation location;
  bool operator==(const MirrorStatement&) const = default;
};

/// `group NAME: MEMBER, MEMBER ...`
struct GroupStatement {
  Name name;
  std::vector<Name> members;
  SourceLocation location;
  bool operator==(const GroupStatement&) const = default;
};

/// `role ROLE: NAME [, NAME]`: the link or joint (a pair: left, then right) that plays a
/// role (docs/character.md, Roles).
struct RoleStatement {
  Name role;
  std::vector<Name> members;
  SourceLocation location;
  bool operator==(const RoleStatement&) const = default;
};

/// One joint (or group) angle of a pose: `JOINT: NUM` or `JOINT: flat [NUM]` (the angle
/// that sets a foot flat when its shank is vertical, plus NUM degrees).
struct PoseAngle {
  Name joint;
  bool flat = false;
  std::optional<NumberLit> value;
  bool operator==(const PoseAngle&) const = default;
};

/// `pose NAME ["description"] head: DEG [support: ground|seat] [settles: yes|no]
///  JOINT: ANGLE ...`
struct PoseStatement {
  Name name;
  /// The description without its quotes.
  std::optional<std::string> description;
  std::optional<NumberLit> head;
  std::optional<Name> support;
  std::optional<Name> settles;
  std::vector<PoseAngle> angles;
  SourceLocation location;
  bool operator==(const PoseStatement&) const = default;
};

using CharacterStatement = std::variant<LinkStatement, JointStatement, MirrorStatement,
                                        GroupStatement, RoleStatement, PoseStatement>;

/// `character NAME { statement }`
struct CharacterFile {
  Name name;
  std::vector<CharacterStatement> statements;
  /// Location of `character`.
  SourceLocation location;
  bool operator==(const CharacterFile&) const = default;
};

}  // namespace scl::syntax
