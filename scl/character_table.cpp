#include "scl/character_table.h"

#include <algorithm>
#include <numeric>

namespace scl {

// The tables are aligned by hand, one row per link or joint.
// clang-format off
// Thesis Table 4.1 (lengths, tip thicknesses in cm converted to m; masses in kg).
const std::array<LinkDef, kLinkCount> kLinks = {{
    // name,          length, prox,  dist,   mass,  axis, parent joint,  mirror
    {"head",          0.350, 0.260, 0.220,  5.89, +1.0, -1,             kHead},
    {"neck",          0.020, 0.120, 0.120,  1.10, -1.0, kNeckTop,       kNeck},
    {"trunk",         0.500, 0.300, 0.200, 29.27, -1.0, kNeckBottom,    kTrunk},
    {"pelvis",        0.250, 0.240, 0.270, 16.61, -1.0, kWaist,         kPelvis},
    {"leftArm",       0.320, 0.160, 0.080,  2.79, -1.0, kLeftShoulder,  kRightArm},
    {"rightArm",      0.320, 0.160, 0.080,  2.79, -1.0, kRightShoulder, kLeftArm},
    {"leftForearm",   0.320, 0.084, 0.084,  1.12, -1.0, kLeftElbow,     kRightForearm},
    {"rightForearm",  0.320, 0.084, 0.084,  1.12, -1.0, kRightElbow,    kLeftForearm},
    {"leftHand",      0.170, 0.050, 0.040,  0.55, -1.0, kLeftWrist,     kRightHand},
    {"rightHand",     0.170, 0.050, 0.040,  0.55, -1.0, kRightWrist,    kLeftHand},
    {"leftThigh",     0.500, 0.280, 0.100,  8.35, -1.0, kLeftHip,       kRightThigh},
    {"rightThigh",    0.500, 0.280, 0.100,  8.35, -1.0, kRightHip,      kLeftThigh},
    {"leftShank",     0.480, 0.100, 0.070,  4.16, -1.0, kLeftKnee,      kRightShank},
    {"rightShank",    0.480, 0.100, 0.070,  4.16, -1.0, kRightKnee,     kLeftShank},
    {"leftFoot",      0.226, 0.080, 0.052,  1.34, -1.0, kLeftAnkle,     kRightFoot},
    {"rightFoot",     0.226, 0.080, 0.052,  1.34, -1.0, kRightAnkle,    kLeftFoot},
}};

// Thesis Table 4.2. Shoulders sit at the trunk's upper (neck) end, hips at the
// pelvis's lower end; every other joint at the parent's distal cap centre.
const std::array<JointDef, kJointCount> kJoints = {{
    // name,          parent,        child,          anchor, min,  max,  kp,  kd, maxT, mirror
    {"neckTop",       kHead,         kNeck,          0.000, -30,   90, 170,  5,  60, kNeckTop},
    {"neckBottom",    kNeck,         kTrunk,         0.020, -30,   30, 171, 18, 122, kNeckBottom},
    {"waist",         kTrunk,        kPelvis,        0.500, -40,   90, 674, 61, 250, kWaist},
    {"leftShoulder",  kTrunk,        kLeftArm,       0.000, -90,  180, 386, 33, 180, kRightShoulder},
    {"rightShoulder", kTrunk,        kRightArm,      0.000, -90,  180, 386, 33, 180, kLeftShoulder},
    {"leftElbow",     kLeftArm,      kLeftForearm,   0.320,   0,  160, 300, 20, 180, kRightElbow},
    {"rightElbow",    kRightArm,     kRightForearm,  0.320,   0,  160, 300, 20, 180, kLeftElbow},
    {"leftWrist",     kLeftForearm,  kLeftHand,      0.320, -90,   90, 156, 11, 120, kRightWrist},
    {"rightWrist",    kRightForearm, kRightHand,     0.320, -90,   90, 156, 11, 120, kLeftWrist},
    {"leftHip",       kPelvis,       kLeftThigh,     0.250, -30,  100, 500, 70, 300, kRightHip},
    {"rightHip",      kPelvis,       kRightThigh,    0.250, -30,  100, 500, 70, 300, kLeftHip},
    {"leftKnee",      kLeftThigh,    kLeftShank,     0.500, -160,   0, 600, 70, 300, kRightKnee},
    {"rightKnee",     kRightThigh,   kRightShank,    0.500, -160,   0, 600, 70, 300, kLeftKnee},
    {"leftAnkle",     kLeftShank,    kLeftFoot,      0.480,  30,  150, 500, 60, 300, kRightAnkle},
    {"rightAnkle",    kRightShank,   kRightFoot,     0.480,  30,  150, 500, 60, 300, kLeftAnkle},
}};

const std::array<GroupDef, 6> kLinkGroups = {{
    {"arms", {kLeftArm, kRightArm}},
    {"forearms", {kLeftForearm, kRightForearm}},
    {"hands", {kLeftHand, kRightHand}},
    {"thighs", {kLeftThigh, kRightThigh}},
    {"shanks", {kLeftShank, kRightShank}},
    {"feet", {kLeftFoot, kRightFoot}},
}};

const std::array<GroupDef, 7> kJointGroups = {{
    {"necks", {kNeckTop, kNeckBottom}},
    {"shoulders", {kLeftShoulder, kRightShoulder}},
    {"elbows", {kLeftElbow, kRightElbow}},
    {"wrists", {kLeftWrist, kRightWrist}},
    {"hips", {kLeftHip, kRightHip}},
    {"knees", {kLeftKnee, kRightKnee}},
    {"ankles", {kLeftAnkle, kRightAnkle}},
}};
// clang-format on

double totalMass() {
  return std::accumulate(kLinks.begin(), kLinks.end(), 0.0,
                         [](double sum, const LinkDef& link) { return sum + link.mass; });
}

namespace {
template <typename Table>
std::optional<int> findByName(const Table& table, std::string_view name) {
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const auto& entry) { return entry.name == name; });
  if (it == table.end()) return std::nullopt;
  return static_cast<int>(it - table.begin());
}
}  // namespace

std::optional<int> findLink(std::string_view name) { return findByName(kLinks, name); }
std::optional<int> findJoint(std::string_view name) { return findByName(kJoints, name); }

std::span<const int> findLinkGroup(std::string_view name) {
  auto index = findByName(kLinkGroups, name);
  if (!index) return {};
  return kLinkGroups[*index].members;
}

std::span<const int> findJointGroup(std::string_view name) {
  auto index = findByName(kJointGroups, name);
  if (!index) return {};
  return kJointGroups[*index].members;
}

}  // namespace scl
