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

std::vector<std::string_view> names(std::span<const std::string_view> all) {
  return {all.begin(), all.end()};
}

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
    reportMissing();
    if (sink_.errorCount() == errorsBefore) checkTree();
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* mirror = std::get_if<sx::MirrorStatement>(&statement)) addMirror(*mirror);
    if (sink_.errorCount() == errorsBefore) checkMirrors();
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* group = std::get_if<sx::GroupStatement>(&statement)) addGroup(*group);
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
    const auto index = nameIndex(kLinkNames, statement.name, "link");
    if (!index || !firstDefinition(linkAt_, *index, statement.name, "link")) return;
    LinkDef& link = character_.links[*index];
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
    const auto index = nameIndex(kJointNames, statement.name, "joint");
    if (!index || !firstDefinition(jointAt_, *index, statement.name, "joint")) return;
    JointDef& joint = character_.joints[*index];
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
          sink_.error(statement.at->location, "'at:' " + formatNumber(statement.at->value) +
                                                  " m is off " + inQuotes(kLinkNames[*parent]) +
                                                  ", which is " + formatNumber(parentLength) +
                                                  " m long (give 0 to " +
                                                  formatNumber(parentLength) + ")");
      }
    }
  }

  void reportMissing() {
    std::string links, joints;
    for (int i = 0; i < kLinkCount; ++i)
      if (!linkAt_.count(i)) links += (links.empty() ? "" : ", ") + std::string(kLinkNames[i]);
    for (int j = 0; j < kJointCount; ++j)
      if (!jointAt_.count(j)) joints += (joints.empty() ? "" : ", ") + std::string(kJointNames[j]);
    if (!links.empty())
      sink_.error(file_.location, "the character does not define these links of the biped: " +
                                      links + " (every character has all 16)");
    if (!joints.empty())
      sink_.error(file_.location, "the character does not define these joints of the biped: " +
                                      joints + " (every character has all 15)");
  }

  // Every link but the head hangs from one joint, the joints make a tree rooted at the head
  // with no cycle, and the tree is the biped's.
  void checkTree() {
    std::map<int, int> hangsFrom;  // link -> joint
    for (int j = 0; j < kJointCount; ++j) {
      const JointDef& joint = character_.joints[j];
      const SourceLocation& at = jointStatement(j).child->location;
      if (joint.childLink == kHead) {
        sink_.error(at, "the head is the root: no joint may have it as its child");
        continue;
      }
      auto [it, inserted] = hangsFrom.emplace(joint.childLink, j);
      if (!inserted)
        sink_.error(at, "link " + inQuotes(kLinkNames[joint.childLink]) +
                            " hangs from two joints, " + inQuotes(kJointNames[it->second]) +
                            " and " + inQuotes(joint.name));
    }
    for (int link = 0; link < kLinkCount; ++link)
      if (link != kHead && !hangsFrom.count(link))
        sink_.error(linkStatementLocation(link),
                    "link " + inQuotes(kLinkNames[link]) +
                        " is attached to nothing: no joint has it as its child");
    if (sink_.errorCount() > 0) return;
    // Walking up from each link must reach the head within 16 links, else joints loop.
    for (int start = 0; start < kLinkCount; ++start) {
      std::vector<int> path;
      int link = start;
      while (link != kHead && path.size() <= kLinkCount) {
        const int joint = hangsFrom.at(link);
        if (std::find(path.begin(), path.end(), joint) != path.end()) break;
        path.push_back(joint);
        link = character_.joints[joint].parentLink;
      }
      if (link == kHead) continue;
      std::string loop;
      for (int joint : path) loop += (loop.empty() ? "" : ", ") + inQuotes(kJointNames[joint]);
      sink_.error(jointStatement(path.front()).location,
                  "joints " + loop + " form a cycle: the links must hang from the head as a tree");
      return;
    }
    for (int j = 0; j < kJointCount; ++j) {
      const JointDef& joint = character_.joints[j];
      if (joint.parentLink == kBipedWiring[j].parent && joint.childLink == kBipedWiring[j].child)
        continue;
      sink_.error(jointStatement(j).location,
                  "joint " + inQuotes(joint.name) + " must join " +
                      inQuotes(kLinkNames[kBipedWiring[j].parent]) + " to " +
                      inQuotes(kLinkNames[kBipedWiring[j].child]) +
                      ": every character is the same biped (docs/character.md)");
    }
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
    for (const auto& [index, name] :
         {std::pair{first, statement.first}, {second, statement.second}}) {
      if (!isLeft(name.text) && !isRight(name.text)) {
        sink_.error(name.location,
                    inQuotes(name.text) + " lies on the midline: it is its own mirror image");
        return;
      }
      if (pairs.count(index)) {
        sink_.error(name.location, inQuotes(name.text) + " is in two mirror pairs");
        return;
      }
    }
    if (isLeft(statement.first.text) == isLeft(statement.second.text)) {
      sink_.error(statement.second.location,
                  "a mirror pairs a left and a right one: " + inQuotes(statement.first.text) +
                      " and " + inQuotes(statement.second.text) + " are on the same side");
      return;
    }
    pairs[first] = {second, statement.location};
    pairs[second] = {first, statement.location};
  }

  void checkMirrors() {
    for (int i = 0; i < kLinkCount; ++i) {
      LinkDef& link = character_.links[i];
      link.mirror = i;
      if (!isLeft(link.name) && !isRight(link.name)) continue;
      auto it = linkMirrors_.find(i);
      if (it == linkMirrors_.end()) {
        missingMirror(link.name, linkStatementLocation(i));
        continue;
      }
      link.mirror = it->second.first;
      if (isLeft(link.name)) checkSameShape(link, character_.links[link.mirror], it->second.second);
    }
    for (int j = 0; j < kJointCount; ++j) {
      JointDef& joint = character_.joints[j];
      joint.mirror = j;
      if (!isLeft(joint.name) && !isRight(joint.name)) continue;
      auto it = jointMirrors_.find(j);
      if (it == jointMirrors_.end()) {
        missingMirror(joint.name, jointStatement(j).location);
        continue;
      }
      joint.mirror = it->second.first;
      if (isLeft(joint.name))
        checkSameJoint(joint, character_.joints[joint.mirror], it->second.second);
    }
  }

  void missingMirror(const std::string& name, const SourceLocation& at) {
    std::string other = isLeft(name) ? "right" + name.substr(4) : "left" + name.substr(5);
    const std::string left = isLeft(name) ? name : other, right = isLeft(name) ? other : name;
    sink_.error(at,
                inQuotes(name) + " has no mirror image: add 'mirror " + left + " " + right + "'");
  }

  void differs(const SourceLocation& at, const std::string& a, const std::string& b,
               std::string_view what, double x, double y, std::string_view unit) {
    sink_.error(at, "the mirror pair " + inQuotes(a) + " and " + inQuotes(b) + " differ in " +
                        std::string(what) + ": " + formatNumber(x) + std::string(unit) + " and " +
                        formatNumber(y) + std::string(unit) +
                        " (a mirror image has the same shape)");
  }

  void checkSameShape(const LinkDef& a, const LinkDef& b, const SourceLocation& at) {
    if (a.length != b.length) differs(at, a.name, b.name, "length", a.length, b.length, " m");
    if (a.proximalThickness != b.proximalThickness)
      differs(at, a.name, b.name, "proximal thickness", a.proximalThickness, b.proximalThickness,
              " m");
    if (a.distalThickness != b.distalThickness)
      differs(at, a.name, b.name, "distal thickness", a.distalThickness, b.distalThickness, " m");
    if (a.mass != b.mass) differs(at, a.name, b.name, "mass", a.mass, b.mass, " kg");
  }

  void checkSameJoint(const JointDef& a, const JointDef& b, const SourceLocation& at) {
    if (a.anchorOnParent != b.anchorOnParent)
      differs(at, a.name, b.name, "anchor", a.anchorOnParent, b.anchorOnParent, " m");
    if (a.minDeg != b.minDeg) differs(at, a.name, b.name, "minimum", a.minDeg, b.minDeg, "°");
    if (a.maxDeg != b.maxDeg) differs(at, a.name, b.name, "maximum", a.maxDeg, b.maxDeg, "°");
    if (a.kp != b.kp) differs(at, a.name, b.name, "kp", a.kp, b.kp, "");
    if (a.kd != b.kd) differs(at, a.name, b.name, "kd", a.kd, b.kd, "");
    if (a.maxTorque != b.maxTorque)
      differs(at, a.name, b.name, "torque limit", a.maxTorque, b.maxTorque, " N·m");
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
    const double flatAnkle = character_.footFlatAngleDeg() - 90.0;
    std::set<int> named;
    for (const sx::PoseAngle& angle : statement.angles) {
      std::vector<int> joints;
      if (auto joint = character_.findJoint(angle.joint.text)) {
        joints = {*joint};
      } else if (auto group = character_.findJointGroup(angle.joint.text); !group.empty()) {
        joints.assign(group.begin(), group.end());
      } else {
        std::vector<std::string_view> candidates = names(kJointNames);
        for (const GroupDef& g : character_.jointGroups) candidates.push_back(g.name);
        sink_.error(angle.joint.location,
                    unknownNameMessage("joint", angle.joint.text, candidates));
        continue;
      }
      for (int joint : joints) {
        if (!named.insert(joint).second) {
          sink_.error(angle.joint.location, "pose " + inQuotes(pose.name) + " gives " +
                                                inQuotes(kJointNames[joint]) + " twice");
          continue;
        }
        if (angle.flat && joint != kLeftAnkle && joint != kRightAnkle) {
          sink_.error(angle.joint.location, "'flat' is an ankle angle (it sets the foot flat); " +
                                                inQuotes(kJointNames[joint]) + " is no ankle");
          continue;
        }
        if (angle.value) {
          notParameter(*angle.value);
          within(*angle.value, "the angle of " + inQuotes(kJointNames[joint]), kJointAngleBounds,
                 " deg");
        }
        pose.jointDeg[joint] = angle.flat
                                   ? (angle.value ? flatAnkle + angle.value->value : flatAnkle)
                                   : angle.value->value;
      }
    }
    character_.poses.push_back(std::move(pose));
  }

  // --- pieces -----------------------------------------------------------------------

  // The index of a biped link or joint name, or an error with the choices.
  std::optional<int> nameIndex(std::span<const std::string_view> all, const sx::Name& name,
                               std::string_view kind) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i] == name.text) return static_cast<int>(i);
    sink_.error(name.location, unknownNameMessage(kind, name.text, all) +
                                   " (a character has the biped's " + std::string(kind) +
                                   "s, docs/character.md)");
    return std::nullopt;
  }

  bool firstDefinition(std::map<int, SourceLocation>& seen, int index, const sx::Name& name,
                       std::string_view kind) {
    auto [it, inserted] = seen.emplace(index, name.location);
    if (inserted) return true;
    sink_.error(name.location, std::string(kind) + " " + inQuotes(name.text) + " is defined twice");
    sink_.note(it->second, "first defined here");
    return false;
  }

  std::optional<int> linkName(const sx::Name& name) {
    if (auto link = character_.findLink(name.text)) return link;
    if (const auto index = std::find(kLinkNames.begin(), kLinkNames.end(), name.text);
        index != kLinkNames.end()) {
      sink_.error(name.location, "link " + inQuotes(name.text) + " is not defined in this file");
      return std::nullopt;
    }
    sink_.error(name.location, unknownNameMessage("link", name.text, kLinkNames));
    return std::nullopt;
  }

  void unknownLinkOrJoint(const sx::Name& name) {
    const bool biped =
        std::find(kLinkNames.begin(), kLinkNames.end(), name.text) != kLinkNames.end() ||
        std::find(kJointNames.begin(), kJointNames.end(), name.text) != kJointNames.end();
    if (biped) {
      sink_.error(name.location, inQuotes(name.text) + " is not defined in this file");
      return;
    }
    std::vector<std::string_view> candidates = names(kLinkNames);
    candidates.insert(candidates.end(), kJointNames.begin(), kJointNames.end());
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
    for (const sx::CharacterStatement& statement : file_.statements)
      if (auto* j = std::get_if<sx::JointStatement>(&statement);
          j && j->name.text == kJointNames[joint])
        return *j;
    return fallbackJoint_;
  }

  SourceLocation linkStatementLocation(int link) const {
    auto it = linkAt_.find(link);
    return it == linkAt_.end() ? file_.location : it->second;
  }

  const sx::CharacterFile& file_;
  DiagnosticSink& sink_;
  Character character_;
  std::map<int, SourceLocation> linkAt_, jointAt_;
  std::map<int, std::pair<int, SourceLocation>> linkMirrors_, jointMirrors_;
  sx::JointStatement fallbackJoint_;
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
