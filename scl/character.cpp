#include "scl/character.h"

#include <algorithm>
#include <cmath>

namespace scl {

const std::array<std::string_view, kLinkCount> kLinkNames = {
    "head",        "neck",         "trunk",    "pelvis",    "leftArm",   "rightArm",
    "leftForearm", "rightForearm", "leftHand", "rightHand", "leftThigh", "rightThigh",
    "leftShank",   "rightShank",   "leftFoot", "rightFoot",
};

const std::array<std::string_view, kJointCount> kJointNames = {
    "neckTop",   "neckBottom", "waist",     "leftShoulder", "rightShoulder",
    "leftElbow", "rightElbow", "leftWrist", "rightWrist",   "leftHip",
    "rightHip",  "leftKnee",   "rightKnee", "leftAnkle",    "rightAnkle",
};

const std::array<JointWiring, kJointCount> kBipedWiring = {{
    {kHead, kNeck},
    {kNeck, kTrunk},
    {kTrunk, kPelvis},
    {kTrunk, kLeftArm},
    {kTrunk, kRightArm},
    {kLeftArm, kLeftForearm},
    {kRightArm, kRightForearm},
    {kLeftForearm, kLeftHand},
    {kRightForearm, kRightHand},
    {kPelvis, kLeftThigh},
    {kPelvis, kRightThigh},
    {kLeftThigh, kLeftShank},
    {kRightThigh, kRightShank},
    {kLeftShank, kLeftFoot},
    {kRightShank, kRightFoot},
}};

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

double Character::footFlatAngleDeg() const {
  const LinkDef& foot = links[kLeftFoot];
  double capDifference = (foot.proximalThickness - foot.distalThickness) / 2.0;
  return 180.0 - radToDeg(std::asin(capDifference / foot.length));
}

void finishCharacter(Character& character) {
  for (LinkDef& link : character.links) link.parentJoint = -1;
  for (int j = 0; j < kJointCount; ++j)
    character.links[static_cast<size_t>(character.joints[j].childLink)].parentJoint = j;
  // The root is the link without a parent joint: the head.
  for (LinkDef& link : character.links) link.axisSign = link.parentJoint < 0 ? +1.0 : -1.0;
  // Joints in an order where each one's parent link is reached first (breadth first).
  std::array<bool, kLinkCount> reached{};
  reached[kHead] = true;
  int placed = 0;
  while (placed < kJointCount) {
    bool progress = false;
    for (int j = 0; j < kJointCount; ++j) {
      const JointDef& joint = character.joints[j];
      if (reached[joint.childLink] || !reached[joint.parentLink]) continue;
      character.treeOrder[placed++] = j;
      reached[joint.childLink] = true;
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
