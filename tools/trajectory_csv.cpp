#include "tools/trajectory_csv.h"

#include "base/csv.h"
#include "base/format.h"
#include "runtime/metrics.h"

namespace scl {

namespace {

// Seven significant digits: 0.1 mm at 100 m, 0.0001° for angles.
void appendNumber(std::string& out, double value) {
  out += ',';
  out += formatSignificant(value, 7);
}

}  // namespace

TrajectoryCsv::TrajectoryCsv(const Character& character) : character_(&character) {
  columns_ = {"time",           "phase",       "phase_name", "root_x",  "root_y",
              "root_angle_deg", "head_height", "pelvis_x",   "pelvis_y"};
  for (std::string_view joint : kJointNames) columns_.push_back(std::string(joint) + "_deg");
  for (std::string_view joint : kJointNames) columns_.push_back(std::string(joint) + "_torque");
  for (std::string_view link : kLinkNames) columns_.push_back(std::string(link) + "_contact");
  for (const char* name : {"com_x", "com_y", "com_vx", "com_vy"}) columns_.push_back(name);
  for (const char* point :
       {"leftHeel", "leftToe", "rightHeel", "rightToe", "leftHand", "rightHand"})
    for (const char* axis : {"_x", "_y"}) columns_.push_back(std::string(point) + axis);
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i > 0) text_ += ',';
    text_ += columns_[i];
  }
  text_ += '\n';
}

void TrajectoryCsv::addRow(const CharacterState& state, int phaseIndex, std::string_view phaseName,
                           const std::array<double, kJointCount>& torques) {
  text_ += formatFixed(state.time, 6) + ',' + std::to_string(phaseIndex) + ',';
  // Phase names are identifiers, but quoted so that any name stays one field.
  text_ += quoteCsvField(phaseName);
  const LinkState& head = state.links[kHead];
  appendNumber(text_, head.origin.x());
  appendNumber(text_, head.origin.y());
  appendNumber(text_, radToDeg(head.angle));
  appendNumber(text_, MotionMetrics::headHeight(state));
  appendNumber(text_, state.links[kPelvis].com.x());
  appendNumber(text_, state.links[kPelvis].com.y());
  for (double angle : state.jointAngles) appendNumber(text_, radToDeg(angle));
  for (double torque : torques) appendNumber(text_, torque);
  for (const LinkState& link : state.links) text_ += link.contact ? ",1" : ",0";
  appendNumber(text_, state.com.x());
  appendNumber(text_, state.com.y());
  appendNumber(text_, state.comVelocity.x());
  appendNumber(text_, state.comVelocity.y());
  for (const int foot : {kLeftFoot, kRightFoot}) {
    const FootPoints points = footPoints(*character_, state, foot);
    for (const Vec2& point : {points.heel, points.toe}) {
      appendNumber(text_, point.x());
      appendNumber(text_, point.y());
    }
  }
  for (const int hand : {kLeftHand, kRightHand}) {
    appendNumber(text_, state.links[static_cast<size_t>(hand)].com.x());
    appendNumber(text_, state.links[static_cast<size_t>(hand)].com.y());
  }
  text_ += '\n';
  ++rows_;
}

void TrajectoryRecorder::observe(const StepView& step) {
  if (step.state.time + 0.5 * timeStep_ < static_cast<double>(nextSample_) / rate_) return;
  csv_.addRow(step.state, step.phase, step.phaseName, step.torques);
  ++nextSample_;
}

}  // namespace scl
