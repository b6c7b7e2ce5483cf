// TEMPORARY (issue 14, step 1): the thesis human built from the former C++ tables, until
// characters/human.character replaces it.
#include "scl/character.h"

namespace scl {

namespace {

// clang-format off
struct LegacyLink { const char* name; double length, prox, dist, mass, axis; int parentJoint, mirror; };
const LegacyLink kLegacyLinks[] = {
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
};

// Thesis Table 4.2. Shoulders sit at the trunk's upper (neck) end, hips at the
// pelvis's lower end; every other joint at the parent's distal cap centre.
struct LegacyJoint { const char* name; int parent, child; double anchor, min, max, kp, kd, maxT; int mirror; };
const LegacyJoint kLegacyJoints[] = {
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
};

struct LegacyGroup { const char* name; int a, b; };
const LegacyGroup kLegacyLinkGroups[] = {
    {"arms", kLeftArm, kRightArm},
    {"forearms", kLeftForearm, kRightForearm},
    {"hands", kLeftHand, kRightHand},
    {"thighs", kLeftThigh, kRightThigh},
    {"shanks", kLeftShank, kRightShank},
    {"feet", kLeftFoot, kRightFoot},
};

const LegacyGroup kLegacyJointGroups[] = {
    {"necks", kNeckTop, kNeckBottom},
    {"shoulders", kLeftShoulder, kRightShoulder},
    {"elbows", kLeftElbow, kRightElbow},
    {"wrists", kLeftWrist, kRightWrist},
    {"hips", kLeftHip, kRightHip},
    {"knees", kLeftKnee, kRightKnee},
    {"ankles", kLeftAnkle, kRightAnkle},
};
// clang-format on

Character buildLegacyHuman() {
  Character human;
  human.name = "human";
  human.source = "built-in";
  for (int i = 0; i < kLinkCount; ++i) {
    const LegacyLink& l = kLegacyLinks[i];
    human.links[i] = {l.name, l.length,      l.prox,   l.dist, l.mass,
                      l.axis, l.parentJoint, l.mirror, 0.0,    0.0};
  }
  for (int j = 0; j < kJointCount; ++j) {
    const LegacyJoint& d = kLegacyJoints[j];
    human.joints[j] = {d.name, d.parent, d.child, d.anchor, d.min,
                       d.max,  d.kp,     d.kd,    d.maxT,   d.mirror};
  }
  for (const LegacyGroup& g : kLegacyLinkGroups) human.linkGroups.push_back({g.name, {g.a, g.b}});
  for (const LegacyGroup& g : kLegacyJointGroups) human.jointGroups.push_back({g.name, {g.a, g.b}});
  finishCharacter(human);
  const double flatAnkle = human.footFlatAngleDeg() - 90.0;
  auto pose = [&](const char* name, const char* description, double head,
                  std::array<double, kJointCount> joints, PoseSupport support, bool settles) {
    human.poses.push_back({name, description, head, joints, support, settles});
  };
  pose("standing", "upright, leaning 2° forward over flat feet, arms hanging", 88.0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, flatAnkle + 2, flatAnkle + 2}, PoseSupport::Ground,
       false);
  pose("supine", "lying on the back, face up, head toward -x, toes up", 180.0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 90}, PoseSupport::Ground, true);
  pose("prone", "lying face down, head toward +x, toes tucked under", 0.0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 90}, PoseSupport::Ground, true);
  pose("sitting", "sitting upright on the chair, feet flat and tucked 20° behind the knees", 90.0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 79, 79, -99, -99, flatAnkle + 20, flatAnkle + 20},
       PoseSupport::Seat, true);
  pose("crouching", "knees bent 49° over flat feet, trunk upright, arms hanging", 90.0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 19, 19, -49, -49, flatAnkle + 30, flatAnkle + 30},
       PoseSupport::Ground, true);
  return human;
}

}  // namespace

const std::shared_ptr<const Character>& humanCharacter() {
  static const std::shared_ptr<const Character> kHuman =
      std::make_shared<const Character>(buildLegacyHuman());
  return kHuman;
}

}  // namespace scl
