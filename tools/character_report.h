// The character reference, generated from the character's data so that it cannot drift:
// the page docs/character-reference.md, the same tables as plain text (`scl character`)
// and the figure docs/figures/joint-signs.svg. tests/test_character_reference.cpp checks
// the committed files against these generators byte for byte.
//
// The generators read the character only through `CharacterReferenceInput`, so a
// character loaded from a data file can be documented the same way as the built-in one.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "kinematics/character_state.h"
#include "scl/character.h"

namespace scl {

/// Which way a point moves, seen side-on with the character facing +x.
enum class Direction {
  Forward,   ///< +x
  Backward,  ///< -x
  Up,        ///< +y
  Down,      ///< -y
};

/// What a positive angle of a joint (or of every joint of a group) means, in words.
/// Written by hand; tests/test_character_reference.cpp checks `childEndMoves` and the
/// claims of `positive` against the forward kinematics.
struct JointSignNote {
  /// A joint name, or a joint group name standing for its members ("hips").
  std::string_view joints;
  /// What a positive angle does, seen from the standing pose; a full sentence.
  std::string_view positive;
  /// The same in a few words, for the figure's label.
  std::string_view shortForm;
  /// Which way the child link's distal end moves as the angle grows, standing.
  Direction childEndMoves = Direction::Forward;
};

/// Everything the reference is generated from.
struct CharacterReferenceInput {
  /// The character's name, shown in headings ("human").
  std::string_view name;
  /// Links in index order (their `parentJoint` and `mirror` index `joints` and `links`).
  std::span<const LinkDef> links;
  /// Joints in index order (their `parentLink`, `childLink` and `mirror` index `links`
  /// and `joints`).
  std::span<const JointDef> joints;
  /// Plural link names (members index `links`).
  std::span<const GroupDef> linkGroups;
  /// Plural joint names (members index `joints`).
  std::span<const GroupDef> jointGroups;
  /// What each joint's sign means; a joint no note covers is listed as such.
  std::span<const JointSignNote> signNotes;
  /// Joint angles of the standing pose, degrees, in `joints` order.
  std::span<const double> standingJointDeg;
  /// World angle at which a foot lies flat on the ground, degrees.
  double footFlatAngleDeg = 180.0;
};

/// The built-in human: characters/human.character, its `standing` pose and the
/// sign notes written for it. The one place the generators' input is read from.
CharacterReferenceInput builtInCharacterReference();
/// The generators' input for any character (its data must outlive the result).
CharacterReferenceInput characterReference(const Character& character);

/// The note covering a joint, by its name or a group containing it; nullptr when none.
const JointSignNote* findSignNote(const CharacterReferenceInput& character, int joint);

/// "forward (+x)", "up (+y)", ...
std::string_view directionWords(Direction direction);

/// The page docs/character-reference.md.
std::string characterReferenceMarkdown(const CharacterReferenceInput& character);
std::string characterReferenceMarkdown();

/// The tables of the page as plain aligned text (the output of `scl character`).
std::string characterReferenceText(const CharacterReferenceInput& character);

/// The figure docs/figures/joint-signs.svg: the character in `standing` (a kinematic state
/// of it, e.g. from forwardKinematics) drawn side-on, facing right, with a curved arrow
/// at each joint showing the way its angle grows, labelled with the sign notes.
std::string jointSignFigureSvg(const CharacterReferenceInput& character,
                               const CharacterState& standing);
/// The figure of the built-in human, standing as the runtime places it on the ground.
std::string jointSignFigureSvg();

/// The built-in human's `standing` pose placed on the ground (runtime/placement.h) and
/// turned into link and joint positions by the project's forward kinematics.
CharacterState builtInStandingState();
/// A character in its `standing` pose as placed (or straight up when it has none).
CharacterState standingState(const Character& character);

}  // namespace scl
