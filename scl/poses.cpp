#include "scl/poses.h"

#include <algorithm>
#include <cmath>

namespace scl {

double footFlatAngleDeg() {
  const LinkDef& foot = kLinks[kLeftFoot];
  double capDifference = (foot.proximalThickness - foot.distalThickness) / 2.0;
  return 180.0 - radToDeg(std::asin(capDifference / foot.length));
}

namespace {
// Ankle angle that sets a foot flat when its shank is vertical (86.45°).
const double kFlatAnkle = footFlatAngleDeg() - 90.0;

// Joint order: neckTop, neckBottom, waist, leftShoulder, rightShoulder, leftElbow,
// rightElbow, leftWrist, rightWrist, leftHip, rightHip, leftKnee, rightKnee,
// leftAnkle, rightAnkle.
const std::array<PoseDef, 5> kPoses = {{
    // Quiet stance leans 2° forward over flat feet: with every link at 90° the centre of
    // mass stands only 3 mm ahead of the heels, and a ±2° perturbation puts it behind them.
    {"standing",
     "upright, leaning 2° forward over flat feet, arms hanging",
     88.0,
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, kFlatAnkle + 2, kFlatAnkle + 2},
     PoseSupport::Ground,
     false},
    {"supine",
     "lying on the back, face up, head toward -x, toes up",
     180.0,
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 90},
     PoseSupport::Ground,
     true},
    {"prone",
     "lying face down, head toward +x, toes tucked under",
     0.0,
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 90},
     PoseSupport::Ground,
     true},
    {"sitting",
     "sitting upright on the chair, feet flat and tucked 20° behind the knees",
     90.0,
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 79, 79, -99, -99, kFlatAnkle + 20, kFlatAnkle + 20},
     PoseSupport::Seat,
     true},
    {"crouching",
     "knees bent 49° over flat feet, trunk upright, arms hanging",
     90.0,
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 19, 19, -49, -49, kFlatAnkle + 30, kFlatAnkle + 30},
     PoseSupport::Ground,
     true},
}};
}  // namespace

std::span<const PoseDef> poses() { return kPoses; }

const PoseDef* findPose(std::string_view name) {
  auto it = std::find_if(kPoses.begin(), kPoses.end(),
                         [&](const PoseDef& pose) { return pose.name == name; });
  return it == kPoses.end() ? nullptr : &*it;
}

}  // namespace scl
