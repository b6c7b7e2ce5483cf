// The scene: the character, the initial pose, the environment (its bodies, checked here:
// sceneBodyIssues) and a run's duration.
// One grammar and one rule for every place a scene is asked for: a script's `scene`
// header, an objective file's `scene` line and `scl run --pose/--env/--chair-height/
// --duration` (docs/language.md, "Scene header").
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/program.h"
#include "scl/syntax.h"
#include "scl/token_cursor.h"

namespace scl {

/// The longest run a scene asks for, seconds.
inline constexpr double kMaxDuration = 3600.0;

/// A problem with one body of a scene.
struct SceneBodyIssue {
  /// The body, index into the list.
  size_t body = 0;
  /// The parameter it is about, as a world statement spells its key ("size", "at", ...;
  /// the chair's "height" and "depth"); empty: the body itself.
  std::string_view key;
  std::string message;
};

/// The one check of a scene's bodies, for the scene rule, the world statements and the
/// simulation alike (scl/scene_body_checks.cpp): every parameter within its physical
/// bounds (scl/scene_body.h), shapes that make sense (a slope rising left to right, no
/// object below the ground), distinct names, the ground first and once, at most one chair,
/// at most kMaxSceneBodies bodies.
std::vector<SceneBodyIssue> sceneBodyIssues(std::span<const SceneBodyDef> bodies);

/// What is asked of a scene; each part may be left out (then the base scene's stays).
struct SceneRequest {
  std::optional<std::string> pose;
  std::optional<std::string> environment;
  /// Seat height, metres.
  std::optional<double> chairHeight;
  /// Run length, seconds.
  std::optional<double> duration;
};

enum class ScenePart { Pose, Environment, ChairHeight, Duration };

/// How the user wrote each part, so that messages speak their language: `env:` in a
/// file, `--env` on the command line.
struct SceneSpelling {
  std::string pose = "pose:";
  std::string environment = "env:";
  std::string chairHeight = "height:";
  std::string duration = "duration:";
  /// The spelling of the command-line options.
  static SceneSpelling options() { return {"--pose", "--env", "--chair-height", "--duration"}; }
};

/// A problem with one part of a request.
struct SceneIssue {
  ScenePart part = ScenePart::Pose;
  Severity severity = Severity::Error;
  std::string message;
};

struct SceneResolution {
  Scene scene;
  std::vector<SceneIssue> issues;
  bool ok() const;
};

/// The scene rule: `base` with the request's parts applied, and what is wrong with them.
/// - A pose or environment must be a known one ("did you mean" otherwise).
/// - A pose that sits (PoseSupport::Seat) implies the chair when no environment is asked
///   for; asked together with another environment it is an error.
/// - A chair height must lie in [kMinChairHeight, kMaxChairHeight] and needs the chair.
/// - A duration must lie in (0, kMaxDuration].
/// Poses are the character's (Character::poses).
SceneResolution resolveScene(const SceneRequest& request, const Scene& base,
                             const Character& character, const SceneSpelling& spelling = {});

/// scene-args := { [","] ( "character:" ( NAME | STRING ) | "pose:" NAME | "env:" NAME |
///                         "height:" NUM | "duration:" NUM | "world:" STRING ) }
/// (each at most once, in any order), read into `header`. False after a syntax error.
/// (A STRING is a token only where the lexer reads strings: in scripts.)
bool parseSceneArguments(TokenCursor& cursor, syntax::SceneHeader& header);

/// The character a header names with `character:`, loaded by loadCharacter() (a relative
/// path from `baseDirectory`); nullptr when it names none or when the character cannot
/// be loaded. Then the errors are reported at the argument: an unknown name ("did you
/// mean"), a missing or unreadable file, or a character file with errors (the error at
/// the argument, each of the file's own diagnostics as a note after it, located in that
/// file and carrying its text). A file's warnings are reported the same way under a
/// warning.
std::shared_ptr<const Character> loadSceneCharacter(const syntax::SceneHeader& header,
                                                    const std::filesystem::path& baseDirectory,
                                                    DiagnosticSink& sink);

/// A file's diagnostics reported at the argument that names it: "WHAT 'NAME' has N
/// errors" (and warnings) there, each of the file's own diagnostics as a note after it,
/// located in that file and carrying its text.
void reportFileDiagnostics(std::string_view what, const syntax::Name& name,
                           const std::vector<Diagnostic>& diagnostics, DiagnosticSink& sink);

/// The bodies of the world file a header names with `world:` (a relative path from
/// `baseDirectory`), appended to `scene`'s; a missing file or one with errors is reported
/// at the argument (reportFileDiagnostics) and adds nothing.
void addSceneWorldFile(const syntax::SceneHeader& header,
                       const std::filesystem::path& baseDirectory, Scene& scene,
                       DiagnosticSink& sink);

/// The bodies of a world file's `statements`, checked in the file (loadWorldFile()),
/// appended to `scene`'s. A clash with the scene's bodies (a name taken, too many bodies)
/// is reported at `at` as "WHAT: MESSAGE", and then nothing is added: false.
bool addWorldBodies(std::span<const syntax::WorldStatement> statements, std::string_view what,
                    const SourceLocation& at, Scene& scene, DiagnosticSink& sink);

/// A parsed header through the scene rule, errors reported at the parts' locations
/// (`@` numbers are errors: a scene is not optimized).
Scene bindScene(const syntax::SceneHeader& header, const Scene& base, const Character& character,
                DiagnosticSink& sink);

}  // namespace scl
