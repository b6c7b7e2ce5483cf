// A parsed character file checked and turned into a Character (character_file.h). Every
// problem is a located diagnostic; nothing here throws or asserts on user input.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "scl/character_file.h"
#include "scl/names.h"
#include "scl/printer.h"

namespace scl {

namespace {

namespace sx = syntax;

std::string inQuotes(std::string_view text) { return "'" + quoteToken(text) + "'"; }

bool isLeft(std::string_view name) { return name.starts_with("left"); }
bool isRight(std::string_view name) { return name.starts_with("right"); }

class CharacterBuilder {
 public:
  CharacterBuilder(const sx::CharacterFile& file, DiagnosticSink& sink)
      : file_(file), sink_(sink) {}

  std::shared_ptr<const Character> build() {
    const int errorsBefore = sink_.errorCount();
    character_.name = file_.name.text;
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* link = std::get_if<sx::LinkStatement>(&statement)) addLink(*link);
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* joint = std::get_if<sx::JointStatement>(&statement)) addJoint(*joint);
    if (character_.links.empty())
      sink_.error(file_.location, "the character has no links ('link NAME length: ...')");
    if (sink_.errorCount() == errorsBefore) checkTree();
    if (sink_.errorCount() == errorsBefore) orderAsTree();
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* mirror = std::get_if<sx::MirrorStatement>(&statement)) addMirror(*mirror);
    if (sink_.errorCount() == errorsBefore) checkMirrors();
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* group = std::get_if<sx::GroupStatement>(&statement)) addGroup(*group);
    if (sink_.errorCount() == errorsBefore) assignRoles();
    if (sink_.errorCount() > errorsBefore) return nullptr;
    finishCharacter(character_);  // geometry first: a pose's `flat` needs the feet
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* pose = std::get_if<sx::PoseStatement>(&statement)) addPose(*pose);
    if (!character_.findPose("standing") && sink_.errorCount() == errorsBefore)
      sink_.error(file_.location,
                  "the character has no 'standing' pose; every character needs one (a "
                  "script without a scene starts from it)");
    if (sink_.errorCount() > errorsBefore) return nullptr;
    return std::make_shared<const Character>(std::move(character_));
  }

 private:
  // --- links ------------------------------------------------------------------------

  void addLink(const sx::LinkStatement& statement) {
    if (!newName(statement.name, "link")) return;
    if (character_.links.size() >= static_cast<size_t>(kMaxLinks)) {
      sink_.error(statement.name.location,
                  "a character has at most " + std::to_string(kMaxLinks) + " links");
      return;
    }
    const int index = static_cast<int>(character_.links.size());
    linkAt_.emplace(index, statement.name.location);
    LinkDef& link = character_.links.emplace_back();
    link.name = statement.name.text;
    const bool lengthOk = positive(statement.length, statement.name, "length", "link") &&
                          within(*statement.length, "'length:'", kLinkLengthBounds, " m");
    bool thicknessOk =
        require(statement.thickness.has_value(), statement.name,
                "link " + inQuotes(statement.name.text) + " needs 'thickness: (P, D)'");
    if (thicknessOk) {
      // Both checked, so that both errors are reported.
      const bool proximalOk =
          positiveValue(statement.thickness->x, "the proximal thickness") &&
          within(statement.thickness->x, "the proximal thickness", kLinkThicknessBounds, " m");
      const bool distalOk =
          positiveValue(statement.thickness->y, "the distal thickness") &&
          within(statement.thickness->y, "the distal thickness", kLinkThicknessBounds, " m");
      thicknessOk = proximalOk && distalOk;
    }
    if (lengthOk && thicknessOk) {
      // The sides are tangent to both caps, which needs the radii to differ by less than
      // the distance between the caps (else one cap holds the other and the shape has no
      // sides: asin of more than 1).
      const double radiusDifference =
          std::abs(statement.thickness->x.value - statement.thickness->y.value) / 2;
      if (!(radiusDifference < statement.length->value)) {
        sink_.error(statement.thickness->location,
                    "the caps of link " + inQuotes(link.name) + " (" +
                        formatNumber(statement.thickness->x.value) + " and " +
                        formatNumber(statement.thickness->y.value) +
                        " m across) differ in radius by more than its length " +
                        formatNumber(statement.length->value) + " m: one cap would hold the other");
        thicknessOk = false;
      }
    }
    if (lengthOk) link.length = statement.length->value;
    if (thicknessOk) {
      link.proximalThickness = statement.thickness->x.value;
      link.distalThickness = statement.thickness->y.value;
    }
    if (statement.mass && statement.density) {
      sink_.error(statement.density->location,
                  "give 'mass:' or 'density:', not both (link " + inQuotes(link.name) + ")");
    } else if (statement.density) {
      if (positiveValue(*statement.density, "the density") &&
          within(*statement.density, "the density", kLinkDensityBounds, " kg/m²") && lengthOk &&
          thicknessOk) {
        link.mass =
            statement.density->value *
            linkMassProperties(link.length, link.proximalThickness, link.distalThickness, 1.0).area;
        if (!kLinkMassBounds.contains(link.mass))
          outOfBounds(statement.density->location, "the mass it gives", link.mass, kLinkMassBounds,
                      " kg");
      }
    } else if (positive(statement.mass, statement.name, "mass", "link") &&
               within(*statement.mass, "'mass:'", kLinkMassBounds, " kg")) {
      link.mass = statement.mass->value;
    }
  }

  // --- joints -----------------------------------------------------------------------

  void addJoint(const sx::JointStatement& statement) {
    if (!newName(statement.name, "joint")) return;
    const int index = static_cast<int>(character_.joints.size());
    jointAt_.emplace(index, statement.name.location);
    jointStatements_.push_back(&statement);
    JointDef& joint = character_.joints.emplace_back();
    joint.name = statement.name.text;
    const std::string who = "joint " + inQuotes(joint.name);
    std::optional<int> parent, child;
    if (require(statement.parent.has_value(), statement.name, who + " needs 'parent: LINK'"))
      parent = linkName(*statement.parent);
    if (require(statement.child.has_value(), statement.name, who + " needs 'child: LINK'"))
      child = linkName(*statement.child);
    if (parent) joint.parentLink = *parent;
    if (child) joint.childLink = *child;
    if (parent && child && *parent == *child)
      sink_.error(statement.child->location,
                  who + " joins " + inQuotes(statement.child->text) + " to itself");
    if (require(statement.range.has_value(), statement.name, who + " needs 'range: (MIN, MAX)'")) {
      joint.minDeg = statement.range->x.value;
      joint.maxDeg = statement.range->y.value;
      if (joint.minDeg > joint.maxDeg)
        sink_.error(statement.range->location,
                    "the range of " + who + " has its minimum " + formatNumber(joint.minDeg) +
                        " above its maximum " + formatNumber(joint.maxDeg) + " (write (MIN, MAX))");
      notParameter(statement.range->x);
      notParameter(statement.range->y);
      within(statement.range->x, "the range's minimum", kJointAngleBounds, " deg");
      within(statement.range->y, "the range's maximum", kJointAngleBounds, " deg");
    }
    if (nonNegative(statement.kp, statement.name, "kp", who) &&
        within(*statement.kp, "'kp:'", kJointKpBounds, " N·m/rad"))
      joint.kp = statement.kp->value;
    if (nonNegative(statement.kd, statement.name, "kd", who) &&
        within(*statement.kd, "'kd:'", kJointKdBounds, " N·m·s/rad"))
      joint.kd = statement.kd->value;
    if (positive(statement.torque, statement.name, "torque", "joint") &&
        within(*statement.torque, "'torque:'", kJointTorqueBounds, " N·m"))
      joint.maxTorque = statement.torque->value;
    // The anchor: along the parent, from its origin; by default at its distal cap.
    // (Not along a parent whose length is missing or wrong: that is reported already.)
    if (parent && linkAt_.count(*parent) && character_.links[*parent].length > 0) {
      const double parentLength = character_.links[*parent].length;
      joint.anchorOnParent = parentLength;
      if (statement.at) {
        notParameter(*statement.at);
        joint.anchorOnParent = statement.at->value;
        if (statement.at->value < 0 || statement.at->value > parentLength)
          sink_.error(statement.at->location,
                      "'at:' " + formatNumber(statement.at->value) + " m is off " +
                          inQuotes(character_.links[*parent].name) + ", which is " +
                          formatNumber(parentLength) + " m long (give 0 to " +
                          formatNumber(parentLength) + ")");
      }
    }
  }

  // Every link but one (the root) hangs from one joint, and walking up from any link
  // reaches the root: the joints make one tree.
  void checkTree() {
    const int linkCount = character_.linkCount();
    std::map<int, int> hangsFrom;  // link -> joint
    for (int j = 0; j < character_.jointCount(); ++j) {
      const JointDef& joint = character_.joints[j];
      auto [it, inserted] = hangsFrom.emplace(joint.childLink, j);
      if (!inserted)
        sink_.error(jointStatement(j).child->location,
                    "link " + inQuotes(character_.links[joint.childLink].name) +
                        " hangs from two joints, " + inQuotes(character_.joints[it->second].name) +
                        " and " + inQuotes(joint.name) + " (a character is a tree)");
    }
    std::vector<int> roots;
    for (int link = 0; link < linkCount; ++link)
      if (!hangsFrom.count(link)) roots.push_back(link);
    if (roots.size() > 1) {
      std::string list;
      for (int link : roots)
        list += (list.empty() ? "" : ", ") + inQuotes(character_.links[link].name);
      sink_.error(linkStatementLocation(roots[1]),
                  "the character has " + std::to_string(roots.size()) + " roots (" + list +
                      "): every link but one must be some joint's child; attach " +
                      inQuotes(character_.links[roots[1]].name) + " with a joint");
    }
    if (sink_.errorCount() > 0) return;
    // Walking up from each link must reach a root, else joints loop.
    for (int start = 0; start < linkCount; ++start) {
      std::vector<int> path;
      int link = start;
      while (hangsFrom.count(link)) {
        const int joint = hangsFrom.at(link);
        if (std::find(path.begin(), path.end(), joint) != path.end()) break;
        path.push_back(joint);
        link = character_.joints[joint].parentLink;
      }
      if (!hangsFrom.count(link)) continue;
      std::string loop;
      for (int joint : path)
        loop += (loop.empty() ? "" : ", ") + inQuotes(character_.joints[joint].name);
      sink_.error(jointStatement(path.front()).location,
                  "joints " + loop + " form a cycle: the links must hang from one root as a tree");
      return;
    }
  }

  // The links and joints in the order the dynamics walks them: the root first, joint j
  // moving link j + 1, every parent before its children — each joint taken, in the file's
  // order, as soon as its parent is placed. A file written root first with each joint after
  // its parent's joint (every shipped one) keeps its order.
  void orderAsTree() {
    const int linkCount = character_.linkCount();
    std::vector<int> linkOrder, jointOrder;  // new index -> old index
    std::vector<int> newLink(static_cast<size_t>(linkCount), -1);
    for (int link = 0; link < linkCount; ++link)
      if (std::none_of(character_.joints.begin(), character_.joints.end(),
                       [&](const JointDef& joint) { return joint.childLink == link; })) {
        newLink[static_cast<size_t>(link)] = 0;
        linkOrder.push_back(link);
      }
    while (static_cast<int>(jointOrder.size()) < character_.jointCount()) {
      for (int j = 0; j < character_.jointCount(); ++j) {
        const JointDef& joint = character_.joints[static_cast<size_t>(j)];
        if (newLink[static_cast<size_t>(joint.parentLink)] < 0 ||
            newLink[static_cast<size_t>(joint.childLink)] >= 0)
          continue;
        newLink[static_cast<size_t>(joint.childLink)] = static_cast<int>(linkOrder.size());
        linkOrder.push_back(joint.childLink);
        jointOrder.push_back(j);
      }
    }
    std::vector<LinkDef> links;
    std::vector<JointDef> joints;
    std::map<int, SourceLocation> linkAt, jointAt;
    std::vector<const sx::JointStatement*> statements;
    for (size_t i = 0; i < linkOrder.size(); ++i) {
      links.push_back(std::move(character_.links[static_cast<size_t>(linkOrder[i])]));
      linkAt.emplace(static_cast<int>(i), linkAt_.at(linkOrder[i]));
    }
    for (size_t j = 0; j < jointOrder.size(); ++j) {
      JointDef joint = std::move(character_.joints[static_cast<size_t>(jointOrder[j])]);
      joint.parentLink = newLink[static_cast<size_t>(joint.parentLink)];
      joint.childLink = newLink[static_cast<size_t>(joint.childLink)];
      joints.push_back(std::move(joint));
      jointAt.emplace(static_cast<int>(j), jointAt_.at(jointOrder[j]));
      statements.push_back(jointStatements_[static_cast<size_t>(jointOrder[j])]);
    }
    character_.links = std::move(links);
    character_.joints = std::move(joints);
    linkAt_ = std::move(linkAt);
    jointAt_ = std::move(jointAt);
    jointStatements_ = std::move(statements);
  }

  // --- mirrors ----------------------------------------------------------------------

  void addMirror(const sx::MirrorStatement& statement) {
    const auto firstLink = character_.findLink(statement.first.text);
    const auto firstJoint = character_.findJoint(statement.first.text);
    if (!firstLink && !firstJoint) {
      unknownLinkOrJoint(statement.first);
      return;
    }
    const auto secondIndex = firstLink ? character_.findLink(statement.second.text)
                                       : character_.findJoint(statement.second.text);
    if (!secondIndex) {
      sink_.error(statement.second.location,
                  inQuotes(statement.second.text) + " is no " + (firstLink ? "link" : "joint") +
                      " of the character; a mirror pairs two " + (firstLink ? "links" : "joints"));
      return;
    }
    const int first = firstLink ? *firstLink : *firstJoint;
    const int second = *secondIndex;
    auto& pairs = firstLink ? linkMirrors_ : jointMirrors_;
    if (first == second) {
      sink_.error(statement.second.location,
                  "a mirror pairs two; " + inQuotes(statement.first.text) +
                      " is its own mirror image (a link on the midline needs no mirror)");
      return;
    }
    for (const auto& [index, name] :
         {std::pair{first, statement.first}, {second, statement.second}}) {
      if (pairs.count(index)) {
        sink_.error(name.location, inQuotes(name.text) + " is in two mirror pairs");
        return;
      }
    }
    // Names that say their side must say opposite ones; others take the statement's order
    // (left first).
    const auto sided = [](const std::string& name) { return isLeft(name) || isRight(name); };
    if (sided(statement.first.text) && sided(statement.second.text) &&
        isLeft(statement.first.text) == isLeft(statement.second.text)) {
      sink_.error(statement.second.location,
                  "a mirror pairs a left and a right one: " + inQuotes(statement.first.text) +
                      " and " + inQuotes(statement.second.text) + " are on the same side");
      return;
    }
    pairs[first] = {second, statement.location};
    pairs[second] = {first, statement.location};
    if (firstLink) {
      const bool swapped = isRight(statement.first.text) || isLeft(statement.second.text);
      leftLinks_.insert(swapped ? second : first);
    }
  }

  void checkMirrors() {
    for (int i = 0; i < character_.linkCount(); ++i) {
      LinkDef& link = character_.links[i];
      link.mirror = i;
      link.side = -1;
      auto it = linkMirrors_.find(i);
      if (it == linkMirrors_.end()) {
        if (isLeft(link.name) || isRight(link.name))
          missingMirror(link.name, linkStatementLocation(i));
        continue;
      }
      link.mirror = it->second.first;
      link.side = leftLinks_.count(i) ? 0 : 1;
    }
    for (int j = 0; j < character_.jointCount(); ++j) {
      JointDef& joint = character_.joints[j];
      joint.mirror = j;
      auto it = jointMirrors_.find(j);
      if (it == jointMirrors_.end()) {
        if (isLeft(joint.name) || isRight(joint.name))
          missingMirror(joint.name, jointStatement(j).location);
        continue;
      }
      joint.mirror = it->second.first;
    }
  }

  void missingMirror(const std::string& name, const SourceLocation& at) {
    std::string other = isLeft(name) ? "right" + name.substr(4) : "left" + name.substr(5);
    const std::string left = isLeft(name) ? name : other, right = isLeft(name) ? other : name;
    sink_.error(at,
                inQuotes(name) + " has no mirror image: add 'mirror " + left + " " + right + "'");
  }

  // --- groups -----------------------------------------------------------------------

  void addGroup(const sx::GroupStatement& statement) {
    const std::string& name = statement.name.text;
    if (character_.findLink(name) || character_.findJoint(name)) {
      sink_.error(statement.name.location,
                  "group " + inQuotes(name) + " has the name of a link or joint");
      return;
    }
    if (!character_.findLinkGroup(name).empty() || !character_.findJointGroup(name).empty()) {
      sink_.error(statement.name.location, "group " + inQuotes(name) + " is defined twice");
      return;
    }
    GroupDef group{name, {}};
    std::optional<bool> ofLinks;
    for (const sx::Name& member : statement.members) {
      const auto link = character_.findLink(member.text);
      const auto joint = character_.findJoint(member.text);
      if (!link && !joint) {
        unknownLinkOrJoint(member);
        return;
      }
      if (ofLinks && *ofLinks != link.has_value()) {
        sink_.error(member.location,
                    "group " + inQuotes(name) + " mixes links and joints; a group is of one kind");
        return;
      }
      ofLinks = link.has_value();
      const int index = link ? *link : *joint;
      if (std::find(group.members.begin(), group.members.end(), index) != group.members.end()) {
        sink_.warning(member.location, WarningKind::GroupDuplicate,
                      inQuotes(member.text) + " is twice in group " + inQuotes(name));
        continue;
      }
      group.members.push_back(index);
    }
    (*ofLinks ? character_.linkGroups : character_.jointGroups).push_back(std::move(group));
  }

  // --- roles ------------------------------------------------------------------------

  struct RoleSlots {
    std::string_view role;
    bool ofJoints;
    // The thesis biped's names it defaults to: one (midline) or left and right.
    std::vector<std::string_view> defaults;
  };

  static const std::vector<RoleSlots>& roleSlots() {
    static const std::vector<RoleSlots> slots = {
        {"head", false, {"head"}},
        {"trunk", false, {"trunk"}},
        {"pelvis", false, {"pelvis"}},
        {"foot", false, {"leftFoot", "rightFoot"}},
        {"hand", false, {"leftHand", "rightHand"}},
        {"thigh", false, {"leftThigh", "rightThigh"}},
        {"shank", false, {"leftShank", "rightShank"}},
        {"hip", true, {"leftHip", "rightHip"}},
        {"knee", true, {"leftKnee", "rightKnee"}},
        {"ankle", true, {"leftAnkle", "rightAnkle"}},
    };
    return slots;
  }

  std::vector<int*> roleTargets(std::string_view role) {
    CharacterRoles& r = character_.roles;
    if (role == "head") return {&r.head};
    if (role == "trunk") return {&r.trunk};
    if (role == "pelvis") return {&r.pelvis};
    std::vector<int*> out;
    for (SideRoles& side : r.sides) {
      if (role == "foot") out.push_back(&side.foot);
      if (role == "hand") out.push_back(&side.hand);
      if (role == "thigh") out.push_back(&side.thigh);
      if (role == "shank") out.push_back(&side.shank);
      if (role == "hip") out.push_back(&side.hip);
      if (role == "knee") out.push_back(&side.knee);
      if (role == "ankle") out.push_back(&side.ankle);
    }
    return out;
  }

  // Roles from `role` lines, else from the thesis biped's names; then checked against the
  // tree (a knee joins the thigh to the shank, ...). Only the hands may be missing.
  void assignRoles() {
    std::map<std::string, SourceLocation> declared;
    for (const sx::CharacterStatement& statement : file_.statements) {
      const auto* role = std::get_if<sx::RoleStatement>(&statement);
      if (!role) continue;
      const auto slot = std::find_if(roleSlots().begin(), roleSlots().end(),
                                     [&](const RoleSlots& s) { return s.role == role->role.text; });
      if (slot == roleSlots().end()) {
        sink_.error(role->role.location, unknownChoiceMessage("role", role->role.text, kRoleNames));
        continue;
      }
      if (auto [it, inserted] = declared.emplace(role->role.text, role->role.location); !inserted) {
        sink_.error(role->role.location, "role " + inQuotes(role->role.text) + " is given twice");
        sink_.note(it->second, "first given here");
        continue;
      }
      std::vector<int*> targets = roleTargets(slot->role);
      if (role->members.size() != targets.size()) {
        sink_.error(role->location, "role " + inQuotes(role->role.text) + " names " +
                                        (targets.size() == 1 ? "one " : "two ") +
                                        (slot->ofJoints ? "joint" : "link") +
                                        (targets.size() == 1 ? "" : "s, the left one first") +
                                        " (found " + std::to_string(role->members.size()) + ")");
        continue;
      }
      for (size_t i = 0; i < targets.size(); ++i) {
        const sx::Name& member = role->members[i];
        const auto index =
            slot->ofJoints ? character_.findJoint(member.text) : character_.findLink(member.text);
        if (!index) {
          const bool otherKind = slot->ofJoints ? character_.findLink(member.text).has_value()
                                                : character_.findJoint(member.text).has_value();
          sink_.error(member.location,
                      otherKind
                          ? inQuotes(member.text) + " is a " + (slot->ofJoints ? "link" : "joint") +
                                "; role " + inQuotes(role->role.text) + " is played by a " +
                                (slot->ofJoints ? "joint" : "link")
                          : unknownNameMessage(slot->ofJoints ? "joint" : "link", member.text,
                                               slot->ofJoints ? jointNames() : linkNames()));
          continue;
        }
        *targets[i] = *index;
      }
      roleAt_[std::string(slot->role)] = role->location;
    }
    std::vector<std::string_view> missing;
    for (const RoleSlots& slot : roleSlots()) {
      if (declared.count(std::string(slot.role))) continue;
      std::vector<int*> targets = roleTargets(slot.role);
      for (size_t i = 0; i < targets.size(); ++i) {
        const auto index = slot.ofJoints ? character_.findJoint(slot.defaults[i])
                                         : character_.findLink(slot.defaults[i]);
        if (index) *targets[i] = *index;
      }
      const bool complete =
          std::all_of(targets.begin(), targets.end(), [](const int* t) { return *t >= 0; });
      if (!complete && slot.role != "hand") missing.push_back(slot.role);
      if (!complete) {
        for (int* target : targets) *target = -1;  // half a pair is no role
      }
    }
    if (!missing.empty()) {
      std::string list;
      for (std::string_view role : missing) list += (list.empty() ? "" : ", ") + std::string(role);
      sink_.error(file_.location,
                  "the character lacks the role" + std::string(missing.size() > 1 ? "s " : " ") +
                      list + ": add 'role " + std::string(missing.front()) +
                      ": ...' lines naming what plays them (docs/character.md, Roles; without "
                      "one, a role is taken from the thesis biped's names, e.g. leftFoot, "
                      "rightFoot)");
    }
    if (sink_.errorCount() == 0) checkRoles();
  }

  // Where a role's error is shown: at its `role` line, else (a role taken from the
  // biped's names) at the statement of the joint or link that plays it.
  SourceLocation roleLocation(std::string_view role, int index, bool ofJoint) const {
    auto it = roleAt_.find(std::string(role));
    if (it != roleAt_.end()) return it->second;
    if (ofJoint) return jointStatement(index).location;
    return linkStatementLocation(index);
  }

  // The legs' roles fit the tree: the hip joins the pelvis to the thigh, the knee the
  // thigh to the shank, the ankle holds the foot; a hand is not on a leg.
  void checkRoles() {
    const CharacterRoles& r = character_.roles;
    auto joins = [&](int joint, int parent, int child) {
      const JointDef& def = character_.joints[static_cast<size_t>(joint)];
      return def.parentLink == parent && def.childLink == child;
    };
    auto link = [&](int index) {
      return inQuotes(character_.links[static_cast<size_t>(index)].name);
    };
    auto joint = [&](int index) {
      return inQuotes(character_.joints[static_cast<size_t>(index)].name);
    };
    for (const SideRoles& side : r.sides) {
      if (!joins(side.hip, r.pelvis, side.thigh))
        sink_.error(roleLocation("hip", side.hip, true),
                    "the hip " + joint(side.hip) + " must join the pelvis " + link(r.pelvis) +
                        " to the thigh " + link(side.thigh));
      if (!joins(side.knee, side.thigh, side.shank))
        sink_.error(roleLocation("knee", side.knee, true),
                    "the knee " + joint(side.knee) + " must join the thigh " + link(side.thigh) +
                        " to the shank " + link(side.shank));
      if (character_.joints[static_cast<size_t>(side.ankle)].childLink != side.foot)
        sink_.error(roleLocation("ankle", side.ankle, true),
                    "the ankle " + joint(side.ankle) + " must hold the foot " + link(side.foot) +
                        " (its child is " +
                        link(character_.joints[static_cast<size_t>(side.ankle)].childLink) + ")");
      if (!below(side.foot, side.shank))
        sink_.error(
            roleLocation("foot", side.foot, false),
            "the foot " + link(side.foot) + " must hang below the shank " + link(side.shank));
    }
    for (const SideRoles& side : r.sides) {
      // An IK primitive drives a hand through the two joints above its wrist.
      if (side.hand < 0) continue;
      int joint = parentJointOf(side.hand), above = 0;
      while (joint >= 0 && above < 3) {
        ++above;
        joint = parentJointOf(character_.joints[static_cast<size_t>(joint)].parentLink);
      }
      if (above < 3)
        sink_.error(roleLocation("hand", side.hand, false),
                    "the hand " + link(side.hand) +
                        " must hang three joints below the root (an arm: shoulder, elbow, wrist)");
    }
    if (r.sides[0].foot == r.sides[1].foot)
      sink_.error(roleLocation("foot", r.sides[0].foot, false),
                  "the left and right foot are one link " + link(r.sides[0].foot));
  }

  // The joint `link` hangs from, or -1 (finishCharacter() has not set parentJoint yet).
  int parentJointOf(int link) const {
    for (int j = 0; j < character_.jointCount(); ++j)
      if (character_.joints[static_cast<size_t>(j)].childLink == link) return j;
    return -1;
  }

  // Whether `link` is `ancestor` or hangs (through any joints) below it.
  bool below(int link, int ancestor) const {
    for (int at = link; at >= 0;) {
      if (at == ancestor) return true;
      const int parentJoint = parentJointOf(at);
      if (parentJoint < 0) return false;
      at = character_.joints[static_cast<size_t>(parentJoint)].parentLink;
    }
    return false;
  }

  // --- poses ------------------------------------------------------------------------

  void addPose(const sx::PoseStatement& statement) {
    if (character_.findPose(statement.name.text)) {
      sink_.error(statement.name.location,
                  "pose " + inQuotes(statement.name.text) + " is defined twice");
      return;
    }
    PoseDef pose;
    pose.name = statement.name.text;
    pose.description = statement.description.value_or("");
    if (!require(statement.head.has_value(), statement.name,
                 "pose " + inQuotes(pose.name) + " needs 'head: DEGREES' (the head's world angle)"))
      return;
    notParameter(*statement.head);
    within(*statement.head, "'head:'", kJointAngleBounds, " deg");
    pose.headAngleDeg = statement.head->value;
    if (statement.support) {
      const std::string& support = statement.support->text;
      if (support == "seat") {
        pose.support = PoseSupport::Seat;
      } else if (support != "ground") {
        sink_.error(statement.support->location,
                    "unknown support " + inQuotes(support) +
                        didYouMean(support, std::array<std::string_view, 2>{"ground", "seat"}) +
                        " (ground or seat)");
      }
    }
    if (statement.settles) {
      const std::string& settles = statement.settles->text;
      if (settles == "yes") {
        pose.settles = true;
      } else if (settles != "no") {
        sink_.error(statement.settles->location,
                    "'settles:' is yes or no, not " + inQuotes(settles));
      }
    }
    pose.jointDeg.assign(character_.joints.size(), 0.0);
    std::set<int> named;
    for (const sx::PoseAngle& angle : statement.angles) {
      std::vector<int> joints;
      if (auto joint = character_.findJoint(angle.joint.text)) {
        joints = {*joint};
      } else if (auto group = character_.findJointGroup(angle.joint.text); !group.empty()) {
        joints.assign(group.begin(), group.end());
      } else {
        std::vector<std::string_view> candidates = jointNames();
        for (const GroupDef& g : character_.jointGroups) candidates.push_back(g.name);
        sink_.error(angle.joint.location,
                    unknownNameMessage("joint", angle.joint.text, candidates));
        continue;
      }
      for (int joint : joints) {
        if (!named.insert(joint).second) {
          sink_.error(angle.joint.location, "pose " + inQuotes(pose.name) + " gives " +
                                                inQuotes(jointName(joint)) + " twice");
          continue;
        }
        const int side = ankleSide(joint);
        if (angle.flat && side < 0) {
          sink_.error(angle.joint.location, "'flat' is an ankle angle (it sets the foot flat); " +
                                                inQuotes(jointName(joint)) +
                                                " is no ankle (role ankle)");
          continue;
        }
        if (angle.value) {
          notParameter(*angle.value);
          within(*angle.value, "the angle of " + inQuotes(jointName(joint)), kJointAngleBounds,
                 " deg");
        }
        const double flatAnkle = side < 0 ? 0.0 : character_.footFlatAngleDeg(side) - 90.0;
        pose.jointDeg[static_cast<size_t>(joint)] =
            angle.flat ? (angle.value ? flatAnkle + angle.value->value : flatAnkle)
                       : angle.value->value;
      }
    }
    character_.poses.push_back(std::move(pose));
  }

  // --- pieces -----------------------------------------------------------------------

  // A link or joint name not used before (links and joints share one namespace: a
  // script's name must say which it is).
  bool newName(const sx::Name& name, std::string_view kind) {
    const auto link = character_.findLink(name.text);
    const auto joint = character_.findJoint(name.text);
    if (!link && !joint) return true;
    sink_.error(name.location, std::string(kind) + " " + inQuotes(name.text) + " is defined twice" +
                                   (link && kind == "joint" ? " (a link has that name)" : "") +
                                   (joint && kind == "link" ? " (a joint has that name)" : ""));
    sink_.note(link ? linkAt_.at(*link) : jointAt_.at(*joint), "first defined here");
    return false;
  }

  std::vector<std::string_view> linkNames() const {
    std::vector<std::string_view> out;
    for (const LinkDef& link : character_.links) out.push_back(link.name);
    return out;
  }
  std::vector<std::string_view> jointNames() const {
    std::vector<std::string_view> out;
    for (const JointDef& joint : character_.joints) out.push_back(joint.name);
    return out;
  }
  const std::string& jointName(int joint) const {
    return character_.joints[static_cast<size_t>(joint)].name;
  }

  // The side whose ankle role `joint` plays, or -1.
  int ankleSide(int joint) const {
    for (int side = 0; side < 2; ++side)
      if (character_.roles.sides[static_cast<size_t>(side)].ankle == joint) return side;
    return -1;
  }

  std::optional<int> linkName(const sx::Name& name) {
    if (auto link = character_.findLink(name.text)) return link;
    if (character_.findJoint(name.text)) {
      sink_.error(name.location, inQuotes(name.text) + " is a joint; expected a link");
      return std::nullopt;
    }
    sink_.error(name.location, unknownNameMessage("link", name.text, linkNames()) +
                                   " (links are defined by 'link NAME ...' lines)");
    return std::nullopt;
  }

  void unknownLinkOrJoint(const sx::Name& name) {
    std::vector<std::string_view> candidates = linkNames();
    for (std::string_view joint : jointNames()) candidates.push_back(joint);
    sink_.error(name.location, unknownNameMessage("link or joint", name.text, candidates));
  }

  bool require(bool present, const sx::Name& owner, const std::string& message) {
    if (!present) sink_.error(owner.location, message);
    return present;
  }

  void notParameter(const sx::NumberLit& number) {
    if (number.parameter)
      sink_.error(number.location, "a character's numbers cannot be '@' parameters");
  }

  bool positiveValue(const sx::NumberLit& number, std::string_view what) {
    notParameter(number);
    if (number.value > 0) return true;
    sink_.error(number.location,
                std::string(what) + " must be positive (found " + formatNumber(number.value) + ")");
    return false;
  }

  // A number outside its physical bounds (scl/character.h) is an error at the number.
  bool within(const sx::NumberLit& number, std::string_view what, PhysicalBounds bounds,
              std::string_view unit) {
    if (bounds.contains(number.value)) return true;
    outOfBounds(number.location, what, number.value, bounds, unit);
    return false;
  }

  void outOfBounds(const SourceLocation& at, std::string_view what, double value,
                   PhysicalBounds bounds, std::string_view unit) {
    sink_.error(at, std::string(what) + " must be from " + formatNumber(bounds.min) + " to " +
                        formatNumber(bounds.max) + std::string(unit) + " (found " +
                        formatNumber(value) + std::string(unit) + ")");
  }

  bool positive(const std::optional<sx::NumberLit>& number, const sx::Name& owner,
                std::string_view argument, std::string_view kind) {
    if (!number) {
      sink_.error(owner.location, std::string(kind) + " " + inQuotes(owner.text) + " needs '" +
                                      std::string(argument) + ":'");
      return false;
    }
    return positiveValue(*number, "'" + std::string(argument) + ":'");
  }

  bool nonNegative(const std::optional<sx::NumberLit>& number, const sx::Name& owner,
                   std::string_view argument, const std::string& who) {
    if (!number) {
      sink_.error(owner.location, who + " needs '" + std::string(argument) + ":'");
      return false;
    }
    notParameter(*number);
    if (number->value >= 0) return true;
    sink_.error(number->location, "'" + std::string(argument) + ":' must not be negative (found " +
                                      formatNumber(number->value) + ")");
    return false;
  }

  const sx::JointStatement& jointStatement(int joint) const {
    return *jointStatements_[static_cast<size_t>(joint)];
  }

  SourceLocation linkStatementLocation(int link) const {
    auto it = linkAt_.find(link);
    return it == linkAt_.end() ? file_.location : it->second;
  }

  const sx::CharacterFile& file_;
  DiagnosticSink& sink_;
  Character character_;
  std::map<int, SourceLocation> linkAt_, jointAt_;
  std::map<std::string, SourceLocation> roleAt_;
  std::set<int> leftLinks_;  // the left member of each link mirror pair
  std::map<int, std::pair<int, SourceLocation>> linkMirrors_, jointMirrors_;
  std::vector<const sx::JointStatement*> jointStatements_;
};

}  // namespace

CharacterLoad compileCharacter(std::string_view source, std::string_view fileName) {
  CharacterParseResult parsed = parseCharacterFile(source, fileName);
  CharacterLoad load;
  if (hasErrors(parsed.diagnostics)) {
    load.diagnostics = std::move(parsed.diagnostics);
    return load;
  }
  DiagnosticSink sink;
  sink.readAllowComments(source, FileName(fileName));
  std::shared_ptr<const Character> character = CharacterBuilder(parsed.file, sink).build();
  load.diagnostics = std::move(parsed.diagnostics);
  for (Diagnostic& diagnostic : sink.take()) load.diagnostics.push_back(std::move(diagnostic));
  if (!hasErrors(load.diagnostics)) load.character = std::move(character);
  return load;
}

}  // namespace scl
