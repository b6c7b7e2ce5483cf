// sceneBodyIssues(): the one check of a scene's bodies (scl/scene.h). Every number a world
// statement, a scene header or a SimulationDef gives a body is checked here against the
// bounds of scl/scene_body.h before Box2D sees it: no input reaches one of Box2D's asserts.
#include <cmath>
#include <numbers>
#include <string>

#include "scl/printer.h"
#include "scl/scene.h"

namespace scl {

namespace {

class BodyChecker {
 public:
  BodyChecker(size_t index, const SceneBodyDef& body, std::vector<SceneBodyIssue>& issues)
      : index_(index), body_(body), issues_(issues) {}

  void issue(std::string_view key, std::string message) {
    issues_.push_back({index_, key, std::move(message)});
  }

  // A number in [lower, upper] (`unit` after it in messages).
  bool within(std::string_view key, std::string_view what, double value, double lower, double upper,
              std::string_view unit) {
    if (std::isfinite(value) && value >= lower && value <= upper) return true;
    if (lower > 0 && !(value > 0)) {
      issue(key, std::string(what) + " must be positive (found " + formatNumber(value) +
                     suffix(unit) + ")");
      return false;
    }
    issue(key, std::string(what) + " must be from " + formatNumber(lower) + " to " +
                   formatNumber(upper) + suffix(unit) + " (found " + formatNumber(value) +
                   suffix(unit) + ")");
    return false;
  }
  bool size(std::string_view key, std::string_view what, double value) {
    return within(key, what, value, kMinBodySize, kMaxBodySize, "m");
  }
  bool reach(std::string_view key, std::string_view what, double x) {
    return within(key, what, x, -kMaxSceneReach, kMaxSceneReach, "m");
  }
  bool height(std::string_view key, std::string_view what, double y) {
    return within(key, what, y, 0.0, kMaxSceneHeight, "m");
  }
  std::string named(std::string_view what) const {
    return std::string(sceneBodyKindName(body_.kind)) + " '" + body_.name +
           "': " + std::string(what);
  }

  void friction() { within("friction", named("friction"), body_.friction, 0.0, kMaxFriction, ""); }

  void chair() {
    within("height", "chair height", body_.chair.seatHeight, kMinChairHeight, kMaxChairHeight, "m");
    within("depth", "chair seat depth", body_.chair.seatDepth, kMinSeatDepth, kMaxSeatDepth, "m");
  }

  // Platform, wall, table: a box from the ground up.
  void block() {
    reach("at", named("left edge"), body_.x);
    size("size", named("width"), body_.size[0]);
    size("size", named("height"), body_.size[1]);
    friction();
    if (!body_.move) return;
    if (body_.kind != SceneBodyKind::Platform) {
      issue("move", named("only a platform moves"));
      return;
    }
    for (double amplitude : body_.move->amplitude)
      within("move", named("amplitude"), amplitude, -kMaxMoveAmplitude, kMaxMoveAmplitude, "m");
    within("frequency", named("frequency"), body_.move->frequency, 0.0, kMaxMoveFrequency, "Hz");
    within("start", named("start time"), body_.move->start, 0.0, kMaxDuration, "s");
    within("ramp", named("ramp"), body_.move->ramp, 0.0, kMaxMoveRamp, "s");
  }

  void stairs() {
    reach("at", named("first riser"), body_.x);
    within("rise", named("rise"), body_.rise, 0.01, 1.0, "m");
    size("run", named("run"), body_.run);
    size("landing", named("landing"), body_.landing);
    if (within("count", named("count"), body_.count, 1, kMaxStairs, ""))
      height("rise", named("top (count × rise)"), body_.count * body_.rise);
    friction();
  }

  void slope() {
    bool ok = reach("from", named("start x"), body_.from[0]) &&
              height("from", named("start height"), body_.from[1]) &&
              reach("to", named("end x"), body_.to[0]) &&
              height("to", named("end height"), body_.to[1]);
    if (ok && std::max(body_.from[1], body_.to[1]) < kMinBodySize)
      issue("to", named("one end must stand at least " + formatNumber(kMinBodySize) +
                        " m above the ground"));
    else if (ok && !(body_.to[0] - body_.from[0] >= kMinBodySize))
      issue("to", named("'to' must lie at least " + formatNumber(kMinBodySize) +
                        " m right of 'from' (found " + formatNumber(body_.to[0] - body_.from[0]) +
                        " m)"));
    else if (ok && std::abs(body_.to[1] - body_.from[1]) > 4.0 * (body_.to[0] - body_.from[0]))
      issue("to", named("steeper than 76° (rise over run above 4): use a wall or stairs"));
    friction();
  }

  void object() {
    switch (body_.kind) {
      case SceneBodyKind::Box:
        size("size", named("width"), body_.size[0]);
        size("size", named("height"), body_.size[1]);
        break;
      case SceneBodyKind::Ball:
        size("radius", named("radius"), body_.radius);
        break;
      case SceneBodyKind::Capsule:
        size("radius", named("radius"), body_.radius);
        size("length", named("length"), body_.length);
        break;
      case SceneBodyKind::Chain:
        size("size", named("link length"), body_.size[0]);
        size("size", named("link thickness"), body_.size[1]);
        within("count", named("count"), body_.count, 1, kMaxChainLinks, "");
        break;
      default:
        break;
    }
    reach("at", named("x"), body_.at[0]);
    height("at", named("y"), body_.at[1]);
    within("angle", named("angle"), body_.angle, -360.0, 360.0, "°");
    if (body_.mass != 0.0)
      within("mass", named("mass"), body_.mass, kMinBodyMass, kMaxBodyMass, "kg");
    else if (within("density", named("density"), body_.density, 0.0, 1e5, "kg/m²") &&
             body_.density > 0.0)
      within("density", named("mass from density"), body_.density * area(), kMinBodyMass,
             kMaxBodyMass, "kg");
    else if (body_.density == 0.0)
      issue("mass", named("give a mass (kg) or a density (kg/m²)"));
    for (double v : body_.velocity)
      within("velocity", named("speed"), v, -kMaxBodySpeed, kMaxBodySpeed, "m/s");
    within("spin", named("spin"), body_.spin, -kMaxBodySpin, kMaxBodySpin, "rad/s");
    within("restitution", named("restitution"), body_.restitution, 0.0, 1.0, "");
    if (body_.launch) within("launch", named("launch time"), *body_.launch, 0.0, kMaxDuration, "s");
    friction();
    if (body_.kind != SceneBodyKind::Chain && std::isfinite(body_.at[1]) &&
        body_.at[1] - lowestBelowCentre() < -1e-9)
      issue("at", named("reaches below the ground (its lowest point at y = " +
                        formatNumber(body_.at[1] - lowestBelowCentre()) + " m)"));
  }

 private:
  static std::string suffix(std::string_view unit) {
    return unit.empty() ? "" : (unit == "°" ? std::string(unit) : " " + std::string(unit));
  }
  // The body's area, m² (a chain's per link).
  double area() const {
    switch (body_.kind) {
      case SceneBodyKind::Ball:
        return std::numbers::pi * body_.radius * body_.radius;
      case SceneBodyKind::Capsule:
        return std::numbers::pi * body_.radius * body_.radius + 2.0 * body_.radius * body_.length;
      default:
        return body_.size[0] * body_.size[1];
    }
  }
  // How far the body reaches below its centre at its angle, metres.
  double lowestBelowCentre() const {
    const double angle = body_.angle * std::numbers::pi / 180.0;
    const double c = std::abs(std::cos(angle)), s = std::abs(std::sin(angle));
    switch (body_.kind) {
      case SceneBodyKind::Ball:
        return body_.radius;
      case SceneBodyKind::Capsule:
        return body_.radius + body_.length / 2.0 * s;
      default:
        return body_.size[0] / 2.0 * s + body_.size[1] / 2.0 * c;
    }
  }

  size_t index_;
  const SceneBodyDef& body_;
  std::vector<SceneBodyIssue>& issues_;
};

}  // namespace

std::vector<SceneBodyIssue> sceneBodyIssues(std::span<const SceneBodyDef> bodies) {
  std::vector<SceneBodyIssue> issues;
  if (bodies.size() > kMaxSceneBodies)
    issues.push_back({kMaxSceneBodies, "",
                      "a scene holds at most " + std::to_string(kMaxSceneBodies) +
                          " bodies (found " + std::to_string(bodies.size()) + ")"});
  for (size_t i = 0; i < bodies.size(); ++i) {
    const SceneBodyDef& body = bodies[i];
    BodyChecker check(i, body, issues);
    switch (body.kind) {
      case SceneBodyKind::Ground:
        check.friction();
        break;
      case SceneBodyKind::Chair:
        check.chair();
        break;
      case SceneBodyKind::Platform:
      case SceneBodyKind::Wall:
      case SceneBodyKind::Table:
        check.block();
        break;
      case SceneBodyKind::Stairs:
        check.stairs();
        break;
      case SceneBodyKind::Slope:
        check.slope();
        break;
      case SceneBodyKind::Box:
      case SceneBodyKind::Ball:
      case SceneBodyKind::Capsule:
      case SceneBodyKind::Chain:
        check.object();
        break;
    }
    if (body.move && body.kind != SceneBodyKind::Platform && body.kind != SceneBodyKind::Wall &&
        body.kind != SceneBodyKind::Table)
      check.issue("move", check.named("only a platform moves"));
    if (body.launch && !body.movable())
      check.issue("launch", check.named("only a movable body is launched"));
    // The simulation places the character on the ground and a sitting pose on the chair:
    // one of each.
    const bool single = body.kind == SceneBodyKind::Ground || body.kind == SceneBodyKind::Chair;
    if (single && findSceneBody(bodies.first(i), body.kind))
      check.issue("", "a scene has at most one " + std::string(sceneBodyKindName(body.kind)) +
                          " (body " + std::to_string(i + 1) + " is a second)");
    else if (!single && body.name.empty())
      check.issue("", "a " + std::string(sceneBodyKindName(body.kind)) + " needs a name");
    else if (!single && findSceneBody(bodies.first(i), body.name))
      check.issue("", "two bodies are named '" + body.name + "'");
  }
  if (!findSceneBody(bodies, SceneBodyKind::Ground))
    issues.push_back({0, "", "a scene needs the ground (it has none)"});
  else if (bodies.front().kind != SceneBodyKind::Ground)
    issues.push_back({0, "", "the ground must be the scene's first body"});
  return issues;
}

}  // namespace scl
