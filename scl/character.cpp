#include "scl/character.h"

#include <algorithm>
#include <cmath>

namespace scl {

const std::array<std::string_view, kBipedLinkCount> kBipedLinkNames = {
    "head",        "neck",         "trunk",    "pelvis",    "leftArm",   "rightArm",
    "leftForearm", "rightForearm", "leftHand", "rightHand", "leftThigh", "rightThigh",
    "leftShank",   "rightShank",   "leftFoot", "rightFoot",
};

const std::array<std::string_view, kBipedJointCount> kBipedJointNames = {
    "neckTop",   "neckBottom", "waist",     "leftShoulder", "rightShoulder",
    "leftElbow", "rightElbow", "leftWrist", "rightWrist",   "leftHip",
    "rightHip",  "leftKnee",   "rightKnee", "leftAnkle",    "rightAnkle",
};

namespace {

// Mass properties of a capped trapezoid of unit density along +x: the trapezoid from
// x = 0 (half-width r1) to x = L (half-width r2) and a half-disc beyond each end.
struct ShapeMoments {
  double area = 0.0;
  double firstMoment = 0.0;    // ∫ x dA
  double polarAtOrigin = 0.0;  // ∫ (x² + y²) dA about the origin
};

ShapeMoments cappedTrapezoidMoments(double length, double r1, double r2) {
  ShapeMoments m;
  // Trapezoid: width w(x) = 2 (r1 + (r2 - r1) x / L); integrate by Simpson's rule on
  // polynomials of degree <= 3 (exact for w, x w, x² w; w³ is cubic so also exact).
  auto width = [&](double x) { return 2.0 * (r1 + (r2 - r1) * x / length); };
  auto simpson = [&](auto f) {
    constexpr int kIntervals = 64;
    double h = length / kIntervals, sum = f(0.0) + f(length);
    for (int i = 1; i < kIntervals; ++i) sum += f(i * h) * (i % 2 ? 4.0 : 2.0);
    return sum * h / 3.0;
  };
  m.area += simpson([&](double x) { return width(x); });
  m.firstMoment += simpson([&](double x) { return x * width(x); });
  m.polarAtOrigin += simpson([&](double x) {
    double w = width(x);
    return x * x * w + w * w * w / 12.0;
  });
  // Half-discs: area pi r²/2, centroid 4r/(3 pi) beyond the cap centre, polar moment
  // about the cap centre pi r⁴/4.
  auto addHalfDisc = [&](double centre, double r, double outward) {
    double area = kPi * r * r / 2.0;
    double offset = 4.0 * r / (3.0 * kPi);
    double centroid = centre + outward * offset;
    double polarAtCentroid = kPi * r * r * r * r / 4.0 - area * offset * offset;
    m.area += area;
    m.firstMoment += area * centroid;
    m.polarAtOrigin += polarAtCentroid + area * centroid * centroid;
  };
  addHalfDisc(0.0, r1, -1.0);
  addHalfDisc(length, r2, +1.0);
  return m;
}

template <typename Entries>
std::optional<int> indexByName(const Entries& entries, std::string_view name) {
  auto it = std::find_if(entries.begin(), entries.end(),
                         [&](const auto& entry) { return entry.name == name; });
  if (it == entries.end()) return std::nullopt;
  return static_cast<int>(it - entries.begin());
}

}  // namespace

LinkMassProperties linkMassProperties(double length, double proximalThickness,
                                      double distalThickness, double mass) {
  const ShapeMoments m =
      cappedTrapezoidMoments(length, proximalThickness / 2.0, distalThickness / 2.0);
  LinkMassProperties out;
  out.area = m.area;
  out.comOffset = m.firstMoment / m.area;
  const double density = mass / m.area;
  out.inertia = density * (m.polarAtOrigin - m.area * out.comOffset * out.comOffset);
  return out;
}

std::optional<int> Character::findLink(std::string_view name) const {
  return indexByName(links, name);
}

std::optional<int> Character::findJoint(std::string_view name) const {
  return indexByName(joints, name);
}

std::span<const int> Character::findLinkGroup(std::string_view name) const {
  const auto index = indexByName(linkGroups, name);
  if (!index) return {};
  return linkGroups[static_cast<size_t>(*index)].members;
}

std::span<const int> Character::findJointGroup(std::string_view name) const {
  const auto index = indexByName(jointGroups, name);
  if (!index) return {};
  return jointGroups[static_cast<size_t>(*index)].members;
}

const PoseDef* Character::findPose(std::string_view name) const {
  const auto index = indexByName(poses, name);
  return index ? &poses[static_cast<size_t>(*index)] : nullptr;
}

double Character::footFlatAngleDeg(int side) const {
  const int footLink = roles.sides[static_cast<size_t>(side)].foot;
  if (footLink < 0) return 180.0;  // no foot: only while building a malformed file
  const LinkDef& foot = links[static_cast<size_t>(footLink)];
  double capDifference = (foot.proximalThickness - foot.distalThickness) / 2.0;
  return 180.0 - radToDeg(std::asin(capDifference / foot.length));
}

CharacterRoles bipedRoles() {
  CharacterRoles roles;
  roles.head = kHead;
  roles.trunk = kTrunk;
  roles.pelvis = kPelvis;
  roles.sides[0] = {kLeftFoot, kLeftHand, kLeftThigh, kLeftShank, kLeftHip, kLeftKnee, kLeftAnkle};
  roles.sides[1] = {kRightFoot, kRightHand, kRightThigh, kRightShank,
                    kRightHip,  kRightKnee, kRightAnkle};
  return roles;
}

int Character::headJoint() const {
  if (roles.head < 0) return -1;
  const int parent = links[static_cast<size_t>(roles.head)].parentJoint;
  if (parent >= 0) return parent;
  for (size_t j = 0; j < joints.size(); ++j)  // the head is the root: its first joint
    if (joints[j].parentLink == roles.head) return static_cast<int>(j);
  return -1;
}

std::string Character::roleOf(int index, bool ofJoint) const {
  if (!ofJoint) {
    if (index == roles.head) return "head";
    if (index == roles.trunk) return "trunk";
    if (index == roles.pelvis) return "pelvis";
  }
  for (size_t side = 0; side < 2; ++side) {
    const SideRoles& s = roles.sides[side];
    const std::string prefix = side == 0 ? "left " : "right ";
    const std::array<std::pair<int, const char*>, 4> links = {
        {{s.foot, "foot"}, {s.hand, "hand"}, {s.thigh, "thigh"}, {s.shank, "shank"}}};
    const std::array<std::pair<int, const char*>, 3> joints = {
        {{s.hip, "hip"}, {s.knee, "knee"}, {s.ankle, "ankle"}}};
    if (ofJoint) {
      for (const auto& [role, name] : joints)
        if (role == index) return prefix + name;
    } else {
      for (const auto& [role, name] : links)
        if (role == index && role >= 0) return prefix + name;
    }
  }
  return "";
}

double Character::standingAngleDeg(int link) const {
  const PoseDef* standing = findPose("standing");
  if (!standing) return 90.0;
  double angle = standing->headAngleDeg;
  for (int at = link; links[static_cast<size_t>(at)].parentJoint >= 0;) {
    const int joint = links[static_cast<size_t>(at)].parentJoint;
    angle += standing->jointDeg[static_cast<size_t>(joint)];
    at = joints[static_cast<size_t>(joint)].parentLink;
  }
  return angle;
}

int Character::wrist(int side) const {
  const int hand = roles.sides[static_cast<size_t>(side)].hand;
  return hand < 0 ? -1 : links[static_cast<size_t>(hand)].parentJoint;
}

bool Character::isLimbEnd(int joint) const {
  for (int side = 0; side < 2; ++side)
    if (joint == roles.sides[static_cast<size_t>(side)].ankle ||
        (joint >= 0 && joint == wrist(side)))
      return true;
  return false;
}

double Character::legLength(int side) const {
  const SideRoles& leg = roles.sides[static_cast<size_t>(side)];
  if (leg.foot < 0) return 0.0;
  // Hip to ankle along the links between the pelvis and the foot (a bird's leg has one
  // more than a human's), then the ankle's height over the sole.
  double length = 0.0;
  for (int link = leg.foot;;) {
    const int joint = links[static_cast<size_t>(link)].parentJoint;
    if (joint < 0) break;
    link = joints[static_cast<size_t>(joint)].parentLink;
    if (link == roles.pelvis) break;
    length += links[static_cast<size_t>(link)].length;
  }
  return length + links[static_cast<size_t>(leg.foot)].proximalThickness / 2.0;
}

void finishCharacter(Character& character) {
  const size_t linkCount = character.links.size();
  for (LinkDef& link : character.links) link.parentJoint = -1;
  for (size_t j = 0; j < character.joints.size(); ++j)
    character.links[static_cast<size_t>(character.joints[j].childLink)].parentJoint =
        static_cast<int>(j);
  // The root is the link without a parent joint (the head of every shipped body).
  character.root = 0;
  for (size_t i = 0; i < linkCount; ++i) {
    LinkDef& link = character.links[i];
    link.axisSign = link.parentJoint < 0 ? +1.0 : -1.0;
    if (link.parentJoint < 0) character.root = static_cast<int>(i);
  }
  // Joints in an order where each one's parent link is reached first (breadth first).
  std::vector<bool> reached(linkCount, false);
  reached[static_cast<size_t>(character.root)] = true;
  character.treeOrder.clear();
  while (character.treeOrder.size() < character.joints.size()) {
    bool progress = false;
    for (size_t j = 0; j < character.joints.size(); ++j) {
      const JointDef& joint = character.joints[j];
      const auto parent = static_cast<size_t>(joint.parentLink);
      const auto child = static_cast<size_t>(joint.childLink);
      if (reached[child] || !reached[parent]) continue;
      character.treeOrder.push_back(static_cast<int>(j));
      reached[child] = true;
      progress = true;
    }
    if (!progress) break;  // not a tree: the parser reports it before this
  }
  character.totalMass = 0.0;
  for (LinkDef& link : character.links) {
    const LinkMassProperties properties =
        linkMassProperties(link.length, link.proximalThickness, link.distalThickness, link.mass);
    link.comOffset = properties.comOffset;
    link.inertia = properties.inertia;
  }
  for (const LinkDef& link : character.links) character.totalMass += link.mass;
}

}  // namespace scl
