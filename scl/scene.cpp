#include "scl/scene.h"

#include <array>
#include <cstdio>

#include "scl/character.h"
#include "scl/character_file.h"
#include "scl/names.h"
#include "scl/printer.h"
#include "scl/world.h"

namespace scl {

namespace {

std::string inQuotes(std::string_view text) { return "'" + quoteToken(text) + "'"; }

bool sits(const Character& character, const std::string& pose) {
  const PoseDef* def = character.findPose(pose);
  return def && def->support == PoseSupport::Seat;
}

}  // namespace

bool SceneResolution::ok() const {
  for (const SceneIssue& issue : issues)
    if (issue.severity == Severity::Error) return false;
  return true;
}

SceneResolution resolveScene(const SceneRequest& request, const Scene& base,
                             const Character& character, const SceneSpelling& spelling) {
  SceneResolution out;
  out.scene = base;
  Scene& scene = out.scene;
  auto error = [&](ScenePart part, std::string message) {
    out.issues.push_back({part, Severity::Error, std::move(message)});
  };
  const CharacterNames names(character);
  bool poseKnown = true, environmentKnown = true;
  if (request.pose) {
    NameLookup pose = names.pose(*request.pose);
    poseKnown = pose.ok();
    if (poseKnown)
      scene.pose = *request.pose;
    else
      error(ScenePart::Pose, pose.error);
  }
  // The environment and the chair: the base scene's, with what the request changes.
  Environment environment = environmentOf(base.bodies);
  const ChairDef baseChair = base.chair() ? *base.chair() : ChairDef{};
  ChairDef chair = baseChair;
  if (request.environment) {
    NameLookup lookup = names.environment(*request.environment);
    environmentKnown = lookup.ok();
    if (environmentKnown)
      environment = static_cast<Environment>(lookup.index());
    else
      error(ScenePart::Environment, lookup.error);
  } else if (request.pose && poseKnown && sits(character, scene.pose)) {
    environment = Environment::Chair;  // a sitting pose brings its chair
  }
  if (request.chairHeight) {
    ChairDef asked = chair;
    asked.seatHeight = *request.chairHeight;
    bool heightUsable = true;
    for (const SceneBodyIssue& issue :
         sceneBodyIssues(environmentBodies(Environment::Chair, asked)))
      if (issue.key == "height") {
        error(ScenePart::ChairHeight, issue.message);
        heightUsable = false;
      }
    if (heightUsable) chair = asked;
    if (environmentKnown && environment != Environment::Chair)
      error(ScenePart::ChairHeight, "'" + spelling.chairHeight +
                                        "' is the seat height of a chair; it needs '" +
                                        spelling.environment + " chair'");
  }
  if (environment != environmentOf(base.bodies) || chair != baseChair) {
    // The environment's ground and chair change; the world's other bodies stay, after them.
    std::vector<SceneBodyDef> bodies = environmentBodies(environment, chair);
    if (const SceneBodyDef* ground = findSceneBody(base.bodies, SceneBodyKind::Ground))
      bodies.front() = *ground;  // its friction
    for (const SceneBodyDef& body : base.bodies)
      if (body.kind != SceneBodyKind::Ground && body.kind != SceneBodyKind::Chair)
        bodies.push_back(body);
    scene.bodies = std::move(bodies);
  }
  if (request.duration) {
    const double duration = *request.duration;
    if (!(duration > 0))
      error(ScenePart::Duration,
            "duration must be positive (found " + formatNumber(duration) + " s)");
    else if (duration > kMaxDuration)
      error(ScenePart::Duration, "duration must be at most " + formatNumber(kMaxDuration) +
                                     " s (found " + formatNumber(duration) + " s)");
    else
      scene.duration = duration;
  }
  if (poseKnown && environmentKnown && sits(character, scene.pose) &&
      environment != Environment::Chair) {
    const bool blameEnvironment = request.environment.has_value();
    error(blameEnvironment ? ScenePart::Environment : ScenePart::Pose,
          "pose " + inQuotes(scene.pose) + " sits on a chair; it needs '" + spelling.environment +
              " chair'" + (blameEnvironment ? "" : " (leave out '" + spelling.environment + "')"));
  }
  return out;
}

// scene-args := { [","] ( "character:" ( NAME | STRING ) | "pose:" NAME | "env:" NAME |
//                         "height:" NUM | "duration:" NUM | "world:" STRING ) }
bool parseSceneArguments(TokenCursor& cursor, syntax::SceneHeader& header) {
  std::array<ArgSpec, 6> specs = {{
      {"character", true, "a character name or a \"FILE\" path", &header.character, nullptr,
       nullptr, true},
      {"pose", true, "a pose name", &header.pose, nullptr},
      {"env", true, "an environment name", &header.environment, nullptr},
      {"height", true, "a chair height (metres)", nullptr, &header.height},
      {"duration", true, "a duration (seconds)", nullptr, &header.duration},
      {"world", true, "a world file's \"PATH\"", &header.world, nullptr, nullptr, true},
  }};
  return cursor.parseArgs(specs, "scene");
}

void reportFileDiagnostics(std::string_view what, const syntax::Name& name,
                           const std::vector<Diagnostic>& diagnostics, DiagnosticSink& sink) {
  std::vector<const Diagnostic*> errors, warnings;
  for (const Diagnostic& diagnostic : diagnostics)
    (diagnostic.severity == Severity::Warning ? warnings : errors).push_back(&diagnostic);
  auto report = [&](const std::vector<const Diagnostic*>& group, Severity severity) {
    if (group.empty()) return;
    int count = 0;
    for (const Diagnostic* diagnostic : group) count += diagnostic->severity == severity ? 1 : 0;
    const std::string kind = severity == Severity::Error ? "error" : "warning";
    const std::string message = std::string(what) + " '" + name.text + "' has " +
                                std::to_string(count) + " " + kind + (count == 1 ? "" : "s");
    if (severity == Severity::Error)
      sink.error(name.location, message);
    else
      sink.warning(name.location, WarningKind::CharacterFile, message);
    for (const Diagnostic* diagnostic : group)
      sink.note(diagnostic->location,
                diagnostic->severity == Severity::Note ? diagnostic->message
                                                       : kind + ": " + diagnostic->message,
                diagnostic->fileText);
  };
  report(errors, Severity::Error);
  report(warnings, Severity::Warning);
}

void addSceneWorldFile(const syntax::SceneHeader& header,
                       const std::filesystem::path& baseDirectory, Scene& scene,
                       DiagnosticSink& sink) {
  if (!header.world) return;
  const syntax::Name& name = *header.world;
  WorldLoad load = loadWorldFile(name.text, baseDirectory);
  if (load.notFound) {
    for (const Diagnostic& diagnostic : load.diagnostics)
      sink.error(name.location, diagnostic.message);
    return;
  }
  reportFileDiagnostics("world file", name, load.diagnostics, sink);
  if (!load.ok()) return;
  addWorldBodies(load.statements, "world file '" + name.text + "'", name.location, scene, sink);
}

bool addWorldBodies(std::span<const syntax::WorldStatement> statements, std::string_view what,
                    const SourceLocation& at, Scene& scene, DiagnosticSink& sink) {
  DiagnosticSink checked;  // its bodies were checked in the file; a clash with the scene's
  const size_t before = scene.bodies.size();
  bindWorld(statements, scene.bodies, checked);
  bool added = true;
  for (const Diagnostic& diagnostic : checked.take())
    if (diagnostic.severity == Severity::Error) {
      sink.error(at, std::string(what) + ": " + diagnostic.message);
      scene.bodies.resize(before);
      added = false;
    }
  return added;
}

std::shared_ptr<const Character> loadSceneCharacter(const syntax::SceneHeader& header,
                                                    const std::filesystem::path& baseDirectory,
                                                    DiagnosticSink& sink) {
  if (!header.character) return nullptr;
  const syntax::Name& name = *header.character;
  CharacterLoad load = loadCharacter(name.text, baseDirectory);
  if (load.notFound) {
    for (const Diagnostic& diagnostic : load.diagnostics)
      sink.error(name.location, diagnostic.message);
    return nullptr;
  }
  reportFileDiagnostics("character file", name, load.diagnostics, sink);
  return load.character;
}

Scene bindScene(const syntax::SceneHeader& header, const Scene& base, const Character& character,
                DiagnosticSink& sink) {
  SceneRequest request;
  auto number = [&](const std::optional<syntax::NumberLit>& literal) -> std::optional<double> {
    if (!literal) return std::nullopt;
    if (literal->parameter) {
      sink.error(literal->location, "scene arguments cannot be '@' parameters");
      return std::nullopt;
    }
    return literal->value;
  };
  if (header.pose) request.pose = header.pose->text;
  if (header.environment) request.environment = header.environment->text;
  request.chairHeight = number(header.height);
  request.duration = number(header.duration);
  const SceneResolution resolution = resolveScene(request, base, character);
  for (const SceneIssue& issue : resolution.issues) {
    SourceLocation location = header.location;  // a part taken from `base`
    auto at = [&](const auto& part) {
      if (part) location = part->location;
    };
    switch (issue.part) {
      case ScenePart::Pose:
        at(header.pose);
        break;
      case ScenePart::Environment:
        at(header.environment);
        break;
      case ScenePart::ChairHeight:
        at(header.height);
        break;
      case ScenePart::Duration:
        at(header.duration);
        break;
    }
    if (issue.severity == Severity::Error)
      sink.error(location, issue.message);
    else
      sink.warning(location, WarningKind::Scene, issue.message);
  }
  return resolution.scene;
}

}  // namespace scl
