// Name lookup for every text format and the command line: the character's links,
// joints and their groups, poses and environments. The messages a misspelled or
// misplaced name gets ("unknown joint 'x'; did you mean 'y'?", "'trunk' is a link;
// expected a joint") are made here and nowhere else.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/character.h"
#include "scl/program.h"

namespace scl {

/// The outcome of looking up one name.
struct NameLookup {
  /// The indices the name stands for (one, or a group's members); empty on failure.
  std::vector<int> indices;
  /// Why the name does not fit, with a suggestion when one is close; empty on success.
  std::string error;
  bool ok() const { return error.empty(); }
  /// The single index of a successful lookup.
  int index() const { return indices.empty() ? -1 : indices.front(); }
};

/// Whether a group (`knees`, `feet`) may stand where a name is looked up.
enum class Groups {
  Allowed,   ///< a group stands for its members
  Rejected,  ///< one name only: a group is an error naming `argument`
};

/// "unknown KIND 'name'" followed by "; did you mean 'x'?" when a candidate is close.
std::string unknownNameMessage(std::string_view kind, std::string_view name,
                               std::span<const std::string_view> candidates);

/// unknownNameMessage(), or when no candidate is close, the message followed by every
/// choice: "unknown pose 'lying' (poses: standing, supine, ...)".
std::string unknownChoiceMessage(std::string_view kind, std::string_view name,
                                 std::span<const std::string_view> choices);

/// An `@` parameter of a program by its name (Parameter::name, e.g. "lean.pd.waist"):
/// its slot, or "unknown parameter 'x'; did you mean 'y'? (parameters: ...)".
NameLookup lookupParameter(const std::vector<Parameter>& parameters, std::string_view name);

/// The names of a character and the scenes, with one rule for each kind of lookup. Holds
/// views into `character`, which must outlive it.
class CharacterNames {
 public:
  explicit CharacterNames(const Character& character);

  /// A joint, or a joint group when `groups` allows it. `argument` names the place for
  /// the message about a group where one joint is needed (e.g. "by:").
  NameLookup joints(std::string_view name, Groups groups, std::string_view argument = "") const;
  /// A link, or a link group when `groups` allows it.
  NameLookup links(std::string_view name, Groups groups, std::string_view argument = "") const;
  /// A pose of the character (index into Character::poses).
  NameLookup pose(std::string_view name) const;
  /// An environment of kEnvironments (index into it).
  NameLookup environment(std::string_view name) const;

  /// Every link name (and group name when `withGroups`), in table order.
  std::vector<std::string_view> linkNames(bool withGroups) const;
  std::vector<std::string_view> jointNames(bool withGroups) const;
  std::vector<std::string_view> poseNames() const;
  /// "a, b, c" for messages that list every choice.
  static std::string joined(std::span<const std::string_view> names);

 private:
  const Character* character_;
  std::vector<std::string_view> links_, linkGroups_, joints_, jointGroups_;
};

}  // namespace scl
