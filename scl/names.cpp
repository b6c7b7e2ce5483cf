#include "scl/names.h"

#include <algorithm>
#include <cctype>

#include "scl/character.h"
#include "scl/diagnostics.h"
#include "scl/scene_body.h"

namespace scl {

namespace {

std::string quoted(std::string_view text) { return "'" + quoteToken(text) + "'"; }

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

NameLookup failure(std::string message) { return {{}, std::move(message)}; }

// The joints at a link's ends (the one it hangs from and those it carries).
std::vector<int> jointsAt(const Character& character, int link) {
  std::vector<int> joints;
  for (size_t j = 0; j < character.joints.size(); ++j)
    if (character.joints[j].childLink == link || character.joints[j].parentLink == link)
      joints.push_back(static_cast<int>(j));
  return joints;
}

// For a link or link group named where a joint belongs: the joint(s) that turn it.
std::string turningHint(const Character& character, std::string_view name) {
  if (auto link = character.findLink(name)) {
    const std::vector<int> joints = jointsAt(character, *link);
    if (joints.size() == 1)
      return " (the joint that turns it: " + quoted(character.joints[joints[0]].name) + ")";
    std::string names;
    for (int joint : joints)
      names += (names.empty() ? "" : ", ") + quoted(character.joints[joint].name);
    return joints.empty() ? "" : " (the joints at its ends: " + names + ")";
  }
  // A group of end links (hands, feet): the joint group that turns them, if there is one.
  std::vector<int> joints;
  for (int link : character.findLinkGroup(name)) {
    const std::vector<int> at = jointsAt(character, link);
    if (at.size() != 1) return "";
    joints.push_back(at[0]);
  }
  std::sort(joints.begin(), joints.end());
  for (const GroupDef& group : character.jointGroups) {
    std::vector<int> members = group.members;
    std::sort(members.begin(), members.end());
    if (members == joints) return " (the joints that turn them: " + quoted(group.name) + ")";
  }
  return "";
}

// The words of a name in any convention, lower case: split at `_` and `-` and where a
// lower-case letter or digit is followed by a capital (`L_Knee`, `LeftKnee`, `left-knee`).
// The thesis biped's names that name roles: on a character without a link or joint of
// that name they stand for what plays the role there (docs/character.md, Roles).
struct RoleName {
  std::string_view role;
  bool ofJoint;
  int side;  // 0 left, 1 right, -1 both (a plural) or the midline
  std::string_view plural;
};

constexpr std::array<std::pair<std::string_view, RoleName>, 27> kRoleNames = {{
    {"head", {"head", false, -1, ""}},          {"trunk", {"trunk", false, -1, ""}},
    {"pelvis", {"pelvis", false, -1, ""}},      {"leftFoot", {"foot", false, 0, ""}},
    {"rightFoot", {"foot", false, 1, ""}},      {"feet", {"foot", false, -1, "feet"}},
    {"leftHand", {"hand", false, 0, ""}},       {"rightHand", {"hand", false, 1, ""}},
    {"hands", {"hand", false, -1, "hands"}},    {"leftThigh", {"thigh", false, 0, ""}},
    {"rightThigh", {"thigh", false, 1, ""}},    {"thighs", {"thigh", false, -1, "thighs"}},
    {"leftShank", {"shank", false, 0, ""}},     {"rightShank", {"shank", false, 1, ""}},
    {"shanks", {"shank", false, -1, "shanks"}}, {"leftHip", {"hip", true, 0, ""}},
    {"rightHip", {"hip", true, 1, ""}},         {"hips", {"hip", true, -1, "hips"}},
    {"leftKnee", {"knee", true, 0, ""}},        {"rightKnee", {"knee", true, 1, ""}},
    {"knees", {"knee", true, -1, "knees"}},     {"leftAnkle", {"ankle", true, 0, ""}},
    {"rightAnkle", {"ankle", true, 1, ""}},     {"ankles", {"ankle", true, -1, "ankles"}},
    {"leftWrist", {"wrist", true, 0, ""}},      {"rightWrist", {"wrist", true, 1, ""}},
    {"wrists", {"wrist", true, -1, "wrists"}},
}};

const RoleName* roleNamed(std::string_view name) {
  const auto entry = std::find_if(kRoleNames.begin(), kRoleNames.end(),
                                  [&](const auto& e) { return e.first == name; });
  return entry == kRoleNames.end() ? nullptr : &entry->second;
}

bool isMidline(const RoleName& role) {
  return role.role == "head" || role.role == "trunk" || role.role == "pelvis";
}

// What plays `role` on `side` (0 or 1; either for the midline roles), or -1.
int playedBy(const Character& character, const RoleName& role, int side) {
  const CharacterRoles& roles = character.roles;
  const SideRoles& s = roles.sides[static_cast<size_t>(side)];
  if (role.role == "head") return roles.head;
  if (role.role == "trunk") return roles.trunk;
  if (role.role == "pelvis") return roles.pelvis;
  if (role.role == "foot") return s.foot;
  if (role.role == "hand") return s.hand;
  if (role.role == "thigh") return s.thigh;
  if (role.role == "shank") return s.shank;
  if (role.role == "hip") return s.hip;
  if (role.role == "knee") return s.knee;
  if (role.role == "ankle") return s.ankle;
  return character.wrist(side);  // the wrist: the joint holding the hand
}

// The indices a role name stands for on a character without that name: one, or a
// plural's two; empty when the name is no role name of `ofJoint`'s kind or the character
// has no such role.
std::vector<int> roleIndices(const Character& character, std::string_view name, bool ofJoint) {
  const RoleName* role = roleNamed(name);
  if (!role || role->ofJoint != ofJoint) return {};
  if (isMidline(*role) || role->side >= 0) {
    const int index = playedBy(character, *role, std::max(role->side, 0));
    return index < 0 ? std::vector<int>{} : std::vector<int>{index};
  }
  const int left = playedBy(character, *role, 0), right = playedBy(character, *role, 1);
  return left < 0 || right < 0 ? std::vector<int>{} : std::vector<int>{left, right};
}

// A thesis-biped name this character lacks and no role fills: "character 'bird' has no
// joint 'leftWrist'; 'bird' has no hands", or for a name of no role, that it is the
// biped's. Empty when `name` is no biped name.
std::string missingBipedName(const Character& character, std::string_view kind,
                             std::string_view name) {
  const std::string lacks =
      "character " + quoted(character.name) + " has no " + std::string(kind) + " " + quoted(name);
  const RoleName* role = roleNamed(name);
  if (!role) {
    const bool biped =
        std::find(kBipedLinkNames.begin(), kBipedLinkNames.end(), name) != kBipedLinkNames.end() ||
        std::find(kBipedJointNames.begin(), kBipedJointNames.end(), name) !=
            kBipedJointNames.end() ||
        name == "necks" || name == "arms" || name == "forearms" || name == "shoulders" ||
        name == "elbows";
    return biped ? lacks + " (a name of the thesis biped that plays no role; see 'scl character " +
                       character.name + "' for its names)"
                 : "";
  }
  const std::string_view what =
      role->role == "wrist" || role->role == "hand" ? "hands" : role->role;
  return lacks + "; " + quoted(character.name) + " has no " + std::string(what);
}

std::vector<std::string> nameWords(std::string_view name) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    const bool separator = c == '_' || c == '-';
    const bool capitalAfterLower = i > 0 && std::isupper(c) &&
                                   (std::islower(static_cast<unsigned char>(name[i - 1])) ||
                                    std::isdigit(static_cast<unsigned char>(name[i - 1])));
    if ((separator || capitalAfterLower) && !words.back().empty()) words.emplace_back();
    if (!separator) words.back() += static_cast<char>(std::tolower(c));
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

std::string_view sideOf(std::string_view word) {
  if (word == "l" || word == "left") return "left";
  if (word == "r" || word == "right") return "right";
  return "";
}

// What a name means whatever its convention: its side and the rest of its words run
// together, e.g. "left|knee" for `leftKnee`, `l_knee`, `L_Knee`, `left_knee`, `LeftKnee`,
// `knee_l` and `lknee`. A name glued to a one-letter side (`lknee`) cannot be told from
// a word that starts with l or r, so it has a second key: both are compared.
std::vector<std::string> conventionKeys(std::string_view name) {
  std::vector<std::string> words = nameWords(name);
  if (words.empty()) return {};
  std::string side;
  if (words.size() > 1 && !sideOf(words.front()).empty()) {
    side = sideOf(words.front());
    words.erase(words.begin());
  } else if (words.size() > 1 && !sideOf(words.back()).empty()) {
    side = sideOf(words.back());
    words.pop_back();
  }
  std::string rest;
  for (const std::string& word : words) rest += word;
  std::vector<std::string> keys = {side + "|" + rest};
  if (side.empty()) {
    for (std::string_view prefix : {"left", "right", "l", "r"})
      if (rest.size() > prefix.size() + 1 && rest.starts_with(prefix)) {
        keys.push_back(std::string(sideOf(prefix)) + "|" + rest.substr(prefix.size()));
        break;
      }
  }
  return keys;
}

// The candidate `name` means in another naming convention (`l_knee` for `leftKnee`,
// `R_HIP` for `rightHip`), else the closest by edit distance when it is a likely typo;
// empty when none is close.
std::string_view suggestionFor(std::string_view name,
                               std::span<const std::string_view> candidates) {
  const std::vector<std::string> keys = conventionKeys(name);
  for (std::string_view candidate : candidates) {
    const std::vector<std::string> candidateKeys = conventionKeys(candidate);
    if (!candidateKeys.empty() &&
        std::find(keys.begin(), keys.end(), candidateKeys.front()) != keys.end())
      return candidate;
  }
  return closestMatch(name, candidates);
}

}  // namespace

std::string unknownNameMessage(std::string_view kind, std::string_view name,
                               std::span<const std::string_view> candidates) {
  const std::string_view suggestion = suggestionFor(name, candidates);
  return "unknown " + std::string(kind) + " " + quoted(name) +
         (suggestion.empty() ? "" : "; did you mean " + quoted(suggestion) + "?");
}

CharacterNames::CharacterNames(const Character& character) : character_(&character) {
  for (const LinkDef& link : character.links) links_.push_back(link.name);
  for (const GroupDef& group : character.linkGroups) linkGroups_.push_back(group.name);
  for (const JointDef& joint : character.joints) joints_.push_back(joint.name);
  for (const GroupDef& group : character.jointGroups) jointGroups_.push_back(group.name);
}

NameLookup CharacterNames::joints(std::string_view name, Groups groups,
                                  std::string_view argument) const {
  if (auto joint = character_->findJoint(name)) return {{*joint}, ""};
  if (auto members = character_->findJointGroup(name); !members.empty()) {
    if (groups == Groups::Allowed) return {{members.begin(), members.end()}, ""};
    return failure(quoted(name) + " is a group; '" + std::string(argument) +
                   "' needs a single joint");
  }
  if (contains(links_, name))
    return failure(quoted(name) + " is a link; expected a joint" + turningHint(*character_, name));
  if (contains(linkGroups_, name))
    return failure(quoted(name) + " is a link group; expected a joint" +
                   turningHint(*character_, name));
  // The human's names of roles stand for the roles on a body without them.
  if (std::vector<int> role = roleIndices(*character_, name, true); !role.empty()) {
    if (role.size() > 1 && groups == Groups::Rejected)
      return failure(quoted(name) + " stands for two joints on " + quoted(character_->name) +
                     "; '" + std::string(argument) + "' needs a single joint");
    return {std::move(role), ""};
  }
  if (std::string missing = missingBipedName(*character_, "joint", name); !missing.empty())
    return failure(missing);
  return failure(unknownNameMessage("joint", name, jointNames(groups == Groups::Allowed)));
}

NameLookup CharacterNames::links(std::string_view name, Groups groups,
                                 std::string_view argument) const {
  if (auto link = character_->findLink(name)) return {{*link}, ""};
  if (auto members = character_->findLinkGroup(name); !members.empty()) {
    if (groups == Groups::Allowed) return {{members.begin(), members.end()}, ""};
    return failure(quoted(name) + " is a group; '" + std::string(argument) +
                   "' needs a single link");
  }
  if (contains(joints_, name)) return failure(quoted(name) + " is a joint; expected a link");
  if (contains(jointGroups_, name))
    return failure(quoted(name) + " is a joint group; expected a link");
  if (std::vector<int> role = roleIndices(*character_, name, false); !role.empty()) {
    if (role.size() > 1 && groups == Groups::Rejected)
      return failure(quoted(name) + " stands for two links on " + quoted(character_->name) + "; '" +
                     std::string(argument) + "' needs a single link");
    return {std::move(role), ""};
  }
  if (std::string missing = missingBipedName(*character_, "link", name); !missing.empty())
    return failure(missing);
  return failure(unknownNameMessage("link", name, linkNames(groups == Groups::Allowed)));
}

// Of a small closed set, the message names every choice when no suggestion is close.
std::string unknownChoiceMessage(std::string_view kind, std::string_view name,
                                 std::span<const std::string_view> choices) {
  if (!suggestionFor(name, choices).empty()) return unknownNameMessage(kind, name, choices);
  return unknownNameMessage(kind, name, choices) + " (" + std::string(kind) +
         "s: " + CharacterNames::joined(choices) + ")";
}

NameLookup CharacterNames::pose(std::string_view name) const {
  const std::vector<PoseDef>& all = character_->poses;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return {{static_cast<int>(i)}, ""};
  return failure(unknownChoiceMessage("pose", name, poseNames()));
}

NameLookup CharacterNames::environment(std::string_view name) const {
  for (size_t i = 0; i < kEnvironments.size(); ++i)
    if (kEnvironments[i] == name) return {{static_cast<int>(i)}, ""};
  return failure(unknownChoiceMessage("environment", name, kEnvironments));
}

NameLookup lookupParameter(const std::vector<Parameter>& parameters, std::string_view name) {
  std::vector<std::string_view> names;
  names.reserve(parameters.size());
  for (const Parameter& parameter : parameters) names.push_back(parameter.name);
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return {{static_cast<int>(i)}, ""};
  if (names.empty())
    return failure("unknown parameter " + quoted(name) +
                   ": the script has no @ parameters (write @ before a number to make one)");
  return failure(unknownNameMessage("parameter", name, names) +
                 " (parameters: " + CharacterNames::joined(names) + ")");
}

std::vector<std::string_view> CharacterNames::linkNames(bool withGroups) const {
  std::vector<std::string_view> names = links_;
  if (withGroups) names.insert(names.end(), linkGroups_.begin(), linkGroups_.end());
  return names;
}

std::vector<std::string_view> CharacterNames::jointNames(bool withGroups) const {
  std::vector<std::string_view> names = joints_;
  if (withGroups) names.insert(names.end(), jointGroups_.begin(), jointGroups_.end());
  return names;
}

std::vector<std::string_view> CharacterNames::poseNames() const {
  std::vector<std::string_view> names;
  for (const PoseDef& pose : character_->poses) names.push_back(pose.name);
  return names;
}

std::string CharacterNames::joined(std::span<const std::string_view> names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace scl
