#include "tools/run_report.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "runtime/metrics.h"
#include "tools/cli.h"

namespace scl {

namespace {

std::string phaseLabel(const PhaseStart& phase) {
  return phase.name.empty() ? "#" + std::to_string(phase.index) : phase.name;
}

// "human (built-in)", "tall (chars/tall.character)".
std::string characterText(const Character& character) {
  return character.name + " (" + (character.source.empty() ? "built-in" : character.source) + ")";
}

std::string sceneText(const Scene& scene) {
  const ChairDef* chair = scene.chair();
  std::string text = scene.pose + " on " + (chair ? "a chair" : "flat ground");
  if (chair) text += " of height " + formatFixed(chair->seatHeight, 2) + " m";
  return text;
}

// The chair's seat height; a scene without a chair reports the height its chair would
// get (the summary has always had one).
double chairHeightOf(const Scene& scene) {
  const ChairDef* chair = scene.chair();
  return chair ? chair->seatHeight : kDefaultChairHeight;
}

// "(x, y)" in metres, three decimals.
std::string pointText(const Vec2& point) {
  return "(" + formatFixed(point.x(), 3) + ", " + formatFixed(point.y(), 3) + ")";
}

// The names of the links an object's touchedBy marks, in table order.
std::vector<std::string> touchingLinks(const Character& character, const ObjectSummary& object) {
  std::vector<std::string> names;
  for (int link = 0; link < character.linkCount(); ++link)
    if (object.touchedBy[static_cast<size_t>(link)])
      names.push_back(character.links[static_cast<size_t>(link)].name);
  return names;
}

// A number, or null when absent or not finite (JSON has no NaN or infinity).
nlohmann::ordered_json number(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

}  // namespace

std::string runSummaryText(const RunRequest& request, const RunOutcome& run) {
  const MotionSummary& s = run.summary;
  const Character& character = *run.def.character;
  std::string out;
  auto line = [&](const char* label, const std::string& value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%-18s ", label);
    out += buffer + value + '\n';
  };
  auto seconds = [](const std::optional<double>& t) {
    return t ? formatFixed(*t, 3) + " s" : std::string();
  };
  line("script", request.script);
  line("character", characterText(*run.def.character));
  line("scene", sceneText(run.def.scene));
  if (request.world) line("world", *request.world + " (--world)");
  line("simulated", formatFixed(run.simulatedTime, 3) + " s in " + std::to_string(run.steps) +
                        " steps of " + formatFixed(run.def.timeStep * 1e3, 3) +
                        " ms (end: " + run.endReason + ")");
  line("ended", "in " + phaseStandingLabel(run.ended) + ", active " +
                    formatFixed(run.ended.active, 3) + " s: " + run.endReason);
  if (const std::string waiting = waitingMessage(run.ended); !waiting.empty()) line("", waiting);
  if (!run.parameters.empty()) {
    std::string values;
    for (const Parameter& parameter : run.parameters)
      values += (values.empty() ? "" : ", ") + parameter.name + "=" +
                formatSignificant(parameter.value, 6);
    line("parameters", values);
  }
  for (const Push& push : run.pushes)
    line("push", pushTargetName(push, character, run.def.scene.bodies) + " (" +
                     formatFixed(push.force.x(), 1) + ", " + formatFixed(push.force.y(), 1) +
                     ") N from " + formatFixed(push.start, 3) + " s for " +
                     formatFixed(push.duration, 3) + " s" + (push.fromScript ? " (script)" : ""));
  if (request.perturbDeg)
    line("perturbation", "±" + formatFixed(*request.perturbDeg, 2) + "° per joint, seed " +
                             std::to_string(request.seed));
  constexpr size_t kShownPhases = 40;
  for (size_t i = 0; i < run.timeline.size() && i < kShownPhases; ++i)
    line(i == 0 ? "phases" : "",
         formatFixed(run.timeline[i].time, 3) + " s  " + phaseLabel(run.timeline[i]) +
             (run.timeline[i].timedOut ? "  (the previous phase's 'or after' fired)" : ""));
  if (run.timeline.size() > kShownPhases)
    line("", "... " + std::to_string(run.timeline.size() - kShownPhases) + " more (see --json)");
  // "Since" is the start of the standing that lasts to the end; it may have stood before.
  std::string standing = "no";
  if (s.standing) {
    standing = "yes, standing since " + seconds(s.standingSince);
    if (s.firstStanding != s.standingSince)
      standing += " (first stood at " + seconds(s.firstStanding) + ")";
  } else {
    standing += s.firstStanding ? " (first stood at " + seconds(s.firstStanding) + ")" : " (never)";
  }
  line("standing at end", standing);
  line("fell", s.fell ? "yes, at " + seconds(s.fell) : "no");
  const double riseHeight = metricsFor(*run.def.character).riseHeadHeight;
  line("rise time", s.riseTime ? seconds(s.riseTime)
                               : "never (the head did not rise to " + formatFixed(riseHeight, 2) +
                                     " m; none when it started that high)");
  line("max pelvis height",
       formatFixed(s.maxPelvisHeight, 3) + " m overall, " +
           (s.maxAirbornePelvisHeight ? formatFixed(*s.maxAirbornePelvisHeight, 3) + " m in the air"
                                      : std::string("never in the air")));
  line("airborne time", formatFixed(s.airborneTime, 3) + " s in all, longest " +
                            formatFixed(s.longestAirborne, 3) + " s at once");
  line("head height", formatFixed(s.headHeight, 3) + " m at the end");
  line("energy", formatFixed(s.energy, 0) + " (N·m)²·s");
  line("distance", formatFixed(s.distance, 3) + " m (pelvis, +x forward), farthest " +
                       formatFixed(s.farthest, 3) + " m");
  std::string touched;
  for (int link = 0; link < character.linkCount(); ++link)
    if (s.touched[link])
      touched += (touched.empty() ? "" : ", ") + character.links[static_cast<size_t>(link)].name;
  line("touched", touched.empty() ? "nothing" : touched);
  for (size_t i = 0; i < run.objects.size(); ++i) {
    const ObjectSummary& object = run.objects[i];
    std::string by;
    for (const std::string& link : touchingLinks(character, object))
      by += (by.empty() ? "" : ", ") + link;
    line(i == 0 ? "objects" : "", object.name + " (" + std::string(sceneBodyKindName(object.kind)) +
                                      ") " + pointText(object.start) + " to " +
                                      pointText(object.final) + " m, " +
                                      (by.empty() ? "not touched" : "touched by " + by));
  }
  line("phase changes", std::to_string(s.phaseChanges));
  double factor = run.runWall > 0.0 ? run.simulatedTime / run.runWall : 0.0;
  line("wall time", formatFixed(run.runWall, 3) + " s (" + formatFixed(factor, 2) +
                        "x real time), setup " + formatFixed(run.setupWall, 3) + " s");
  if (request.csvPath)
    line("trajectory", *request.csvPath + " (" + std::to_string(run.trajectoryRows) + " rows)");
  if (request.svgPath)
    line("filmstrip", *request.svgPath + " (" + std::to_string(run.filmstripFrames) + " frames)");
  if (request.clipPath)
    line("clip", *request.clipPath + " (" + std::to_string(run.clipFrames) + " frames)");
  if (request.bvhPath)
    line("bvh", *request.bvhPath + " (" + std::to_string(run.bvhFrames) + " frames)");
  return out;
}

nlohmann::ordered_json runSummaryJson(const RunRequest& request, const RunOutcome& run) {
  using Json = nlohmann::ordered_json;
  const MotionSummary& s = run.summary;
  const Character& character = *run.def.character;
  Json phases = Json::array();
  for (const PhaseStart& phase : run.timeline)
    phases.push_back({{"time", number(phase.time)},
                      {"index", phase.index},
                      {"name", phase.name},
                      {"timed_out", phase.timedOut}});
  Json parameters = Json::object();
  for (const Parameter& parameter : run.parameters)
    parameters[parameter.name] = number(parameter.value);
  Json pushes = Json::array();
  for (const Push& push : run.pushes) {
    // On a link: its name; on an object: the object's name and, for a chain, the link
    // pushed (from 1 at its start).
    const bool object = push.sceneBody >= 0;
    const SceneBodyDef* body =
        object ? &run.def.scene.bodies[static_cast<size_t>(push.sceneBody)] : nullptr;
    pushes.push_back({{"link", object ? Json(nullptr)
                                      : Json(character.links[static_cast<size_t>(push.link)].name)},
                      {"object", object ? Json(body->name) : Json(nullptr)},
                      {"part", object && body->kind == SceneBodyKind::Chain ? Json(push.part + 1)
                                                                            : Json(nullptr)},
                      {"fx", number(push.force.x())},
                      {"fy", number(push.force.y())},
                      {"start", number(push.start)},
                      {"duration", number(push.duration)},
                      {"source", push.fromScript ? "script" : "--push"}});
  }
  auto path = [](const std::optional<std::string>& value) -> Json {
    return value ? Json(*value) : Json(nullptr);
  };
  Json out;
  out["script"] = request.script;
  out["scene"] = {{"character", run.def.character->name},
                  {"character_source", run.def.character->source},
                  {"pose", run.def.scene.pose},
                  {"environment", environmentName(environmentOf(run.def.scene.bodies))},
                  {"chair_height", number(chairHeightOf(run.def.scene))}};
  if (request.world) out["scene"]["world"] = *request.world;  // only when asked for
  out["time_step"] = number(run.def.timeStep);
  out["pd"] = request.stablePd ? "stable" : "explicit";
  out["duration"] = number(run.simulatedTime);
  out["steps"] = run.steps;
  out["end"] = run.endReason;
  const bool waiting = !run.ended.exit.empty();
  out["ended"] = {{"phase", run.ended.name},
                  {"phase_index", run.ended.phase},
                  {"phase_count", run.ended.phaseCount},
                  {"active", number(run.ended.active)},
                  {"reason", run.endReason},
                  {"waiting_for", waiting ? Json(run.ended.exit) : Json(nullptr)},
                  {"waited", waiting ? number(run.ended.active) : Json(nullptr)},
                  {"never_fired", !waitingMessage(run.ended).empty()}};
  out["parameters"] = parameters;
  out["pushes"] = pushes;
  out["perturb_deg"] = number(request.perturbDeg);
  out["seed"] = request.perturbDeg ? Json(request.seed) : Json(nullptr);
  out["phases"] = phases;
  out["standing"] = s.standing;
  out["first_standing"] = number(s.firstStanding);
  out["standing_since"] = number(s.standingSince);
  out["fell"] = number(s.fell);
  out["rise_time"] = number(s.riseTime);
  out["max_pelvis_height"] = number(s.maxPelvisHeight);
  out["max_airborne_pelvis_height"] = number(s.maxAirbornePelvisHeight);
  out["airborne_time"] = number(s.airborneTime);
  out["longest_airborne"] = number(s.longestAirborne);
  out["head_height"] = number(s.headHeight);
  out["energy"] = number(s.energy);
  out["distance"] = number(s.distance);
  out["farthest"] = number(s.farthest);
  Json touchedLinks = Json::array();
  for (int link = 0; link < character.linkCount(); ++link)
    if (s.touched[link]) touchedLinks.push_back(character.links[static_cast<size_t>(link)].name);
  out["touched"] = touchedLinks;
  Json objects = Json::array();
  for (const ObjectSummary& object : run.objects)
    objects.push_back({{"name", object.name},
                       {"kind", std::string(sceneBodyKindName(object.kind))},
                       {"start_x", number(object.start.x())},
                       {"start_y", number(object.start.y())},
                       {"final_x", number(object.final.x())},
                       {"final_y", number(object.final.y())},
                       {"min_x", number(object.min.x())},
                       {"max_x", number(object.max.x())},
                       {"min_y", number(object.min.y())},
                       {"max_y", number(object.max.y())},
                       {"final_vx", number(object.finalVelocity.x())},
                       {"final_vy", number(object.finalVelocity.y())},
                       {"final_angle", number(radToDeg(object.finalAngle))},
                       {"touched_by", touchingLinks(character, object)}});
  out["objects"] = objects;
  out["phase_changes"] = s.phaseChanges;
  out["wall_time"] = number(run.runWall);
  out["setup_wall_time"] = number(run.setupWall);
  out["real_time_factor"] =
      run.runWall > 0.0 ? number(run.simulatedTime / run.runWall) : Json(nullptr);
  out["trajectory"] = path(request.csvPath);
  out["filmstrip"] = path(request.svgPath);
  out["clip"] = path(request.clipPath);
  out["bvh"] = path(request.bvhPath);
  return out;
}

}  // namespace scl
