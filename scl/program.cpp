#include "scl/program.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>
#include <utility>

namespace scl {

namespace {
struct NumberVisitor {
  const std::function<void(Number&)>& visit;
  void operator()(PdPrimitive& pd) const {
    for (auto& target : pd.targets) visit(target.angle);
    visit(pd.duration);
    visit(pd.clip.speed);
    visit(pd.clip.from);
  }
  void operator()(VirtualForcePrimitive& vf) const {
    visit(vf.fx);
    visit(vf.fy);
    visit(vf.kp);
    visit(vf.kd);
  }
  void operator()(GravityCompPrimitive& gc) const { visit(gc.strength); }
  void operator()(IkPrimitive& ik) const {
    for (auto& [x, y] : ik.targets) {
      visit(x);
      visit(y);
    }
    visit(ik.duration);
  }
  void operator()(RelaxPrimitive& relax) const { visit(relax.strength); }
  void operator()(ComPrimitive& com) const {
    visit(com.x);
    visit(com.y);
    visit(com.kp);
    visit(com.kd);
    visit(com.duration);
    visit(com.vx);
    visit(com.vy);
    visit(com.task.weight);
  }
  void operator()(AngularMomentumPrimitive& angmom) const {
    visit(angmom.target);
    visit(angmom.kd);
    visit(angmom.task.weight);
  }
  void operator()(TrackPrimitive& track) const {
    visit(track.x);
    visit(track.y);
    visit(track.kp);
    visit(track.kd);
    visit(track.duration);
    visit(track.vx);
    visit(track.vy);
    visit(track.task.weight);
  }
  void operator()(ForcePrimitive& force) const {
    visit(force.fx);
    visit(force.fy);
    visit(force.max);
    visit(force.task.weight);
  }
  void operator()(SwingPrimitive& swing) const {
    visit(swing.x);
    visit(swing.y);
    visit(swing.lift);
    visit(swing.cd);
    visit(swing.cv);
    visit(swing.kp);
    visit(swing.kd);
    visit(swing.duration);
    visit(swing.task.weight);
  }
  void operator()(PosturePrimitive& posture) const {
    visit(posture.clip.speed);
    visit(posture.clip.from);
    visit(posture.kp);
    visit(posture.kd);
    visit(posture.task.weight);
  }
  void operator()(SupportPrimitive&) const {}
  void operator()(GraspPrimitive& grasp) const {
    visit(grasp.reach);
    visit(grasp.grip);
  }
};
}  // namespace

bool isFeature(const Primitive& primitive) {
  return std::holds_alternative<ComPrimitive>(primitive) ||
         std::holds_alternative<AngularMomentumPrimitive>(primitive) ||
         std::holds_alternative<TrackPrimitive>(primitive) ||
         std::holds_alternative<PosturePrimitive>(primitive) ||
         std::holds_alternative<SupportPrimitive>(primitive) ||
         std::holds_alternative<ForcePrimitive>(primitive) ||
         std::holds_alternative<SwingPrimitive>(primitive);
}

bool hasFeatures(const std::vector<Primitive>& primitives) {
  for (const Primitive& primitive : primitives)
    if (isFeature(primitive)) return true;
  return false;
}

void Program::forEachNumber(const std::function<void(Number&)>& visit) {
  for (auto& phase : phases) {
    for (auto& primitive : phase.primitives) std::visit(NumberVisitor{visit}, primitive);
    if (phase.exit) {
      visit(phase.exit->time);
      visit(phase.exit->timeout);
      visit(phase.exit->comValue);
    }
  }
}

void Program::setParameters(const std::vector<double>& values) {
  assert(values.size() == parameters.size());
  for (size_t i = 0; i < parameters.size(); ++i) parameters[i].value = values[i];
  forEachNumber([&](Number& number) {
    if (number.slot >= 0) number.value = parameters[number.slot].value * number.unitFactor();
  });
  for (const SceneBodyParameter& parameter : sceneParameters)
    for (SceneBodyDef& body : scene.bodies)
      if (body.name == parameter.body)
        if (double* number = sceneBodyNumber(body, parameter.key, parameter.component))
          *number = parameters[static_cast<size_t>(parameter.slot)].value;
}

std::vector<double> Program::parameterValues() const {
  std::vector<double> values;
  values.reserve(parameters.size());
  for (const auto& parameter : parameters) values.push_back(parameter.value);
  return values;
}

const ChairDef* Scene::chair() const {
  const SceneBodyDef* body = findSceneBody(bodies, SceneBodyKind::Chair);
  return body ? &body->chair : nullptr;
}

ChairDef* Scene::chair() { return const_cast<ChairDef*>(std::as_const(*this).chair()); }

void pointContactBodies(Program& program, std::span<const SceneBodyDef> bodies) {
  // The index of the body a primitive names (`what`: "a grasp", "a track").
  auto indexOf = [&](const std::string& name, const char* what) {
    const auto found = std::find_if(bodies.begin(), bodies.end(),
                                    [&](const SceneBodyDef& body) { return body.name == name; });
    if (found == bodies.end())
      throw std::invalid_argument(std::string(what) + " names '" + name +
                                  "', which the scene does not hold");
    return static_cast<int>(found - bodies.begin());
  };
  for (Phase& phase : program.phases) {
    for (Primitive& primitive : phase.primitives) {
      if (auto* grasp = std::get_if<GraspPrimitive>(&primitive))
        grasp->body = indexOf(grasp->bodyName, "a grasp");
      auto* track = std::get_if<TrackPrimitive>(&primitive);
      if (!track) continue;
      if (!track->bodyName.empty()) track->index = indexOf(track->bodyName, "a track");
      if (!track->toBodyName.empty()) track->toBody = indexOf(track->toBodyName, "a track");
    }
    if (!phase.exit || phase.exit->body.empty()) continue;
    Transition& exit = *phase.exit;
    const auto found = std::find_if(bodies.begin(), bodies.end(), [&](const SceneBodyDef& body) {
      return body.name == exit.body;
    });
    const auto index = static_cast<size_t>(found - bodies.begin());
    if (found == bodies.end() || index >= kMaxSceneBodies)
      throw std::invalid_argument("line " + std::to_string(exit.location.line) +
                                  ": the transition waits for contact with '" + exit.body +
                                  "', which the scene does not hold");
    exit.bodyMask = std::uint64_t{1} << index;
  }
}

}  // namespace scl
