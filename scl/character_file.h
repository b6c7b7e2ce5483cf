// Character files: a character's body as text (docs/character.md, "Character files"),
// read by the same front end as scripts and objectives — the same lexer and token cursor,
// located diagnostics with "did you mean", a canonical form for `scl fmt`.
//
//   character human
//   link head  length: 0.35 thickness: (0.26, 0.22) mass: 5.89
//   ...
//   joint neckTop parent: head child: neck at: 0 range: (-30, 90) kp: 170 kd: 5 torque: 60
//   mirror leftArm rightArm
//   group knees: leftKnee, rightKnee
//   pose standing "upright" head: 88 support: ground settles: no ankles: flat 2
//
// The built-in characters (human, child, robot) are characters/*.character, compiled into
// the program; a script names one with `scene character: NAME` (or a file path), the
// command line with `--character NAME|FILE`.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/character.h"
#include "scl/character_syntax.h"
#include "scl/diagnostics.h"
#include "scl/lexer.h"

namespace scl {

/// The roles a character file's `role` lines may name (docs/character.md, Roles): links
/// `head`, `trunk`, `pelvis` (one each) and `foot`, `hand`, `thigh`, `shank` (left, right);
/// joints `hip`, `knee`, `ankle` (left, right).
inline constexpr std::array<std::string_view, 10> kRoleNames = {
    "head", "trunk", "pelvis", "foot", "hand", "thigh", "shank", "hip", "knee", "ankle"};
inline constexpr std::string_view kRoleNamesText =
    "head, trunk, pelvis, foot, hand, thigh, shank, hip, knee, ankle";

/// A character file's syntax tree and what the parser said.
struct CharacterParseResult {
  syntax::CharacterFile file;
  std::vector<Diagnostic> diagnostics;
};

/// Lexes and parses a character file (no checks of the body: see buildCharacter()).
CharacterParseResult parseCharacterFile(std::string_view source, std::string_view fileName);

/// A character, or why not.
struct CharacterLoad {
  /// Present exactly when `diagnostics` has no error.
  std::shared_ptr<const Character> character;
  std::vector<Diagnostic> diagnostics;
  /// The name or path named nothing usable: no built-in of that name and no readable file
  /// (one diagnostic without a location says why; on the command line a usage error).
  /// False when a file was read: its own errors, if any, are located in it.
  bool notFound = false;
  bool ok() const { return character != nullptr; }
};

/// Parses and checks a character file: links and joints with distinct names, positive
/// sizes and masses, one tree (one root, no cycle, every link attached), ranges with min
/// <= max, mirror pairs of a left and a right one, roles that name what they play, groups
/// of known names, a `standing` pose.
/// Never throws on any input.
CharacterLoad compileCharacter(std::string_view source, std::string_view fileName);

/// The canonical text of a parsed character file, its comments kept (`scl fmt`).
std::string printCharacterFile(const syntax::CharacterFile& file,
                               const std::vector<Comment>& comments);

/// A built-in character: its name and its file's text.
struct BuiltinCharacter {
  std::string_view name;
  std::string_view source;
};
/// The characters compiled into the program (characters/*.character), by name.
std::span<const BuiltinCharacter> builtinCharacters();

/// A character by built-in name (`human`, `child`, `robot`) or by file path (relative
/// paths from `baseDirectory`, e.g. the script's directory; empty: the working
/// directory). Built-ins are loaded once and shared. The diagnostics of a file carry its
/// text (Diagnostic::fileText), so they render with their source line wherever they are
/// shown. Never throws.
CharacterLoad loadCharacter(std::string_view nameOrPath,
                            const std::filesystem::path& baseDirectory = {});

/// The names of the built-in characters, for messages ("human, child, robot").
std::vector<std::string_view> builtinCharacterNames();

}  // namespace scl
