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

std::string worldColumnPrefix(const SceneBodyDef& body, int part) {
  if (body.kind == SceneBodyKind::Chain) return body.name + "." + std::to_string(part + 1);
  return body.name;
}

TrajectoryCsv::TrajectoryCsv(const Character& character, std::span<const SceneBodyDef> bodies,
                             std::span<const WorldBodyState> world)
    : character_(&character), worldParts_(world.size()) {
  columns_ = {"time",           "phase",       "phase_name", "root_x",  "root_y",
              "root_angle_deg", "head_height", "pelvis_x",   "pelvis_y"};
  for (const JointDef& joint : character.joints) columns_.push_back(joint.name + "_deg");
  for (const JointDef& joint : character.joints) columns_.push_back(joint.name + "_torque");
  for (const LinkDef& link : character.links) columns_.push_back(link.name + "_contact");
  for (const char* name : {"com_x", "com_y", "com_vx", "com_vy"}) columns_.push_back(name);
  for (const char* point : {"leftHeel", "leftToe", "rightHeel", "rightToe"})
    for (const char* axis : {"_x", "_y"}) columns_.push_back(std::string(point) + axis);
  // A character without hands (a bird) has no hand columns.
  for (int side = 0; side < 2; ++side)
    if (character.roles.sides[static_cast<size_t>(side)].hand >= 0)
      for (const char* axis : {"_x", "_y"})
        columns_.push_back(std::string(side == 0 ? "leftHand" : "rightHand") + axis);
  // Names are identifiers, so a dotted column is no character's.
  for (const WorldBodyState& part : world) {
    const auto body = static_cast<size_t>(part.sceneBody);
    const std::string prefix =
        body < bodies.size() ? worldColumnPrefix(bodies[body], part.part)
                             : "body" + std::to_string(body) + "." + std::to_string(part.part + 1);
    for (const char* field : {".x", ".y", ".angle"}) columns_.push_back(prefix + field);
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i > 0) text_ += ',';
    text_ += columns_[i];
  }
  text_ += '\n';
}

void TrajectoryCsv::addRow(const CharacterState& state, int phaseIndex, std::string_view phaseName,
                           const std::array<double, kMaxJoints>& torques,
                           std::span<const WorldBodyState> world) {
  text_ += formatFixed(state.time, 6) + ',' + std::to_string(phaseIndex) + ',';
  // Phase names are identifiers, but quoted so that any name stays one field.
  text_ += quoteCsvField(phaseName);
  const Character& character = *character_;
  const LinkState& root = state.links[static_cast<size_t>(character.root)];
  appendNumber(text_, root.origin.x());
  appendNumber(text_, root.origin.y());
  appendNumber(text_, radToDeg(root.angle));
  appendNumber(text_, MotionMetrics::headHeight(character, state));
  const LinkState& pelvis = state.links[static_cast<size_t>(character.roles.pelvis)];
  appendNumber(text_, pelvis.com.x());
  appendNumber(text_, pelvis.com.y());
  const auto joints = static_cast<size_t>(character.jointCount());
  for (size_t j = 0; j < joints; ++j) appendNumber(text_, radToDeg(state.jointAngles[j]));
  for (size_t j = 0; j < joints; ++j) appendNumber(text_, torques[j]);
  for (size_t i = 0; i < character.links.size(); ++i) text_ += state.links[i].contact ? ",1" : ",0";
  appendNumber(text_, state.com.x());
  appendNumber(text_, state.com.y());
  appendNumber(text_, state.comVelocity.x());
  appendNumber(text_, state.comVelocity.y());
  for (const int foot : character.roles.feet()) {
    const FootPoints points = footPoints(*character_, state, foot);
    for (const Vec2& point : {points.heel, points.toe}) {
      appendNumber(text_, point.x());
      appendNumber(text_, point.y());
    }
  }
  for (const SideRoles& side : character.roles.sides) {
    const int hand = side.hand;
    if (hand < 0) continue;
    appendNumber(text_, state.links[static_cast<size_t>(hand)].com.x());
    appendNumber(text_, state.links[static_cast<size_t>(hand)].com.y());
  }
  // Every row has the layout's columns: a row without the world's states (a caller that
  // has none) leaves them empty.
  for (size_t i = 0; i < worldParts_; ++i) {
    if (i >= world.size()) {
      text_ += ",,,";
      continue;
    }
    appendNumber(text_, world[i].position.x());
    appendNumber(text_, world[i].position.y());
    appendNumber(text_, radToDeg(world[i].angle));
  }
  text_ += '\n';
  ++rows_;
}

void TrajectoryRecorder::observe(const StepView& step) {
  if (step.state.time + 0.5 * timeStep_ < static_cast<double>(nextSample_) / rate_) return;
  csv_.addRow(step.state, step.phase, step.phaseName, step.torques, step.world);
  ++nextSample_;
}

}  // namespace scl
