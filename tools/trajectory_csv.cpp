#include "tools/trajectory_csv.h"

#include <cstdio>

namespace scl {

namespace {
void appendNumber(std::string& out, double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ",%.6g", value);
  out += buffer;
}
}  // namespace

TrajectoryCsv::TrajectoryCsv() {
  std::string header = "time,phase,phase_name,root_x,root_y,root_angle_deg";
  for (const JointDef& joint : kJoints) header += "," + std::string(joint.name) + "_deg";
  for (const JointDef& joint : kJoints) header += "," + std::string(joint.name) + "_torque";
  for (const LinkDef& link : kLinks) header += "," + std::string(link.name) + "_contact";
  header += ",com_x,com_y,com_vx,com_vy";
  columns_ = 1;
  for (char c : header) columns_ += c == ',';
  text_ = header + "\n";
}

void TrajectoryCsv::addRow(const CharacterState& state, int phaseIndex, const std::string& phaseName,
                           const std::array<double, kJointCount>& torques) {
  char start[64];
  std::snprintf(start, sizeof start, "%.6f,%d,", state.time, phaseIndex);
  text_ += start;
  // Phase names are identifiers, but quote them so any name stays one field.
  text_ += "\"" + phaseName + "\"";
  const LinkState& head = state.links[kHead];
  appendNumber(text_, head.origin.x());
  appendNumber(text_, head.origin.y());
  appendNumber(text_, radToDeg(head.angle));
  for (double angle : state.jointAngles) appendNumber(text_, radToDeg(angle));
  for (double torque : torques) appendNumber(text_, torque);
  for (const LinkState& link : state.links) text_ += link.contact ? ",1" : ",0";
  appendNumber(text_, state.com.x());
  appendNumber(text_, state.com.y());
  appendNumber(text_, state.comVelocity.x());
  appendNumber(text_, state.comVelocity.y());
  text_ += "\n";
}

}  // namespace scl
