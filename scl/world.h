// The world statements: a scene's terrain and movable objects as text (docs/scene.md).
//
//   platform step   at: 0.35 size: (1, 0.15)
//   ball     ball   at: (3, 1.3) radius: 0.11 mass: 2 velocity: (-3, 0) launch: 1
//   ground          friction: 0.4
//
// Written in a script after its scene header, or in a world file (`world NAME` and then
// statements) that a scene names with `world: "FILE"`. One grammar for both, read by the
// shared lexer and token cursor; each kind takes the keys of its row in worldKinds(), and
// the bound bodies are checked by sceneBodyIssues() (scl/scene.h), every issue located at
// the key it is about.
//
// A script's statements may also make a body's numbers `@` parameters (`box crate mass: @2`
// is the parameter `crate.mass`) and carry pushes (`push trunk force: (120, 0) at: 4 for:
// 0.5`); a world file's may not.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/lexer.h"
#include "scl/program.h"
#include "scl/push.h"
#include "scl/scene_body.h"
#include "scl/syntax.h"
#include "scl/token_cursor.h"

namespace scl {

/// What a world key's value is.
enum class WorldValueType { Number, Vec, Word };

/// One key a kind of body takes.
struct WorldKey {
  std::string_view key;
  WorldValueType type = WorldValueType::Number;
  /// What it is, with its unit, for messages and hover ("the left edge's x (m)").
  std::string_view what;
  /// A body of this kind needs it (mass and density: one of the two).
  bool required = false;
};

/// One kind of body a world statement can make, or the push.
struct WorldKind {
  SceneBodyKind kind = SceneBodyKind::Ground;
  /// For hover and completion.
  std::string_view description;
  std::vector<WorldKey> keys;
  /// `push NAME ...`: a push the script carries (bindPushStatement()), not a body; `kind`
  /// is then unused.
  bool push = false;
  /// The word that begins the statement ("box", "push").
  std::string_view name() const;
  /// Whether a name follows that word (every kind but the ground).
  bool named() const { return push || kind != SceneBodyKind::Ground; }
};

/// Every kind a world statement can name (ground, platform, wall, table, stairs, slope,
/// box, ball, capsule, chain, push), in canonical order.
std::span<const WorldKind> worldKinds();
/// The kind named `word`, or nullptr.
const WorldKind* findWorldKind(std::string_view word);
/// Their names, for suggestions and completion.
std::vector<std::string_view> worldKindNames();

/// Whether `cursor` is on a word that begins a world statement.
bool isWorldStatementStart(const TokenCursor& cursor);

/// world-statement := KIND [ NAME ] { [","] KEY ":" value }
/// value := NUM | vec | NAME
/// (`cursor` on the KIND word). A body's name is required except for the ground's; a
/// push's may name a chain's link, `rope.3` (written without spaces).
/// Reports errors and returns nullopt after a syntax error.
std::optional<syntax::WorldStatement> parseWorldStatement(TokenCursor& cursor);

/// Whether `statement` is a push (`push NAME ...`) rather than a body.
bool isPushStatement(const syntax::WorldStatement& statement);

/// The canonical text of a statement (one line, keys in the kind's order).
std::string printWorldStatement(const syntax::WorldStatement& statement);

/// A body's number written `@x` in a world statement: a parameter of the script.
struct WorldParameter {
  /// Its name: BODY.KEY, or for a pair BODY.KEY.x and BODY.KEY.y ("crate.mass",
  /// "crate.at.x"; the ground's are "ground.friction").
  std::string name;
  /// The body's name and the number it sets (sceneBodyNumber()).
  std::string body;
  std::string key;
  size_t component = 0;
  /// The number as written (its value in script units, its `@` location).
  syntax::NumberLit literal;
};

/// Binds world statements onto `bodies` (a scene's, the ground first): a `ground` statement
/// sets the ground's friction, every other statement appends a body (a `push` statement is
/// skipped: bindPushStatement() binds it). Reports each error at its key (unknown kind or
/// key, a missing key, a value out of its bounds); a statement with errors adds nothing.
/// `parameters` receives the `@` numbers of the bodies bound (a script's); without it (a
/// world file's statements) an `@` number is an error.
void bindWorld(std::span<const syntax::WorldStatement> statements,
               std::vector<SceneBodyDef>& bodies, DiagnosticSink& sink,
               std::vector<WorldParameter>* parameters = nullptr);

/// Binds a `push` statement against `character`'s links and the scene's `bodies`
/// (findPushTarget(): a link, a movable object, `CHAIN.N`), reporting each error where it
/// is: the name (with "did you mean"), a start before 0 s, a length not above 0 s, an `@`
/// number (a push is not tuned). `quietUnknown`: a name found nowhere is not reported (its
/// body's statement had errors, reported there). nullopt after an error.
std::optional<ScriptPush> bindPushStatement(const syntax::WorldStatement& statement,
                                            const Character& character,
                                            std::span<const SceneBodyDef> bodies,
                                            DiagnosticSink& sink, bool quietUnknown = false);

/// A problem that the values of `program`'s parameters give a scene body (sceneBodyIssues()
/// after Program::setParameters, e.g. `--set crate.mass=-1`).
struct WorldParameterIssue {
  /// The parameters it is about (slots): those setting the issue's key of its body, else
  /// every parameter of that body.
  std::vector<int> slots;
  /// What is wrong, with the bound ("box 'crate': mass must be from 0.01 to 5000 kg (found
  /// -1 kg)").
  std::string message;
};

/// The problems of `program`'s scene bodies that its scene parameters are about (none when
/// each body is within its bounds).
std::vector<WorldParameterIssue> worldParameterIssues(const Program& program);

/// A world file's syntax tree.
struct WorldFile {
  std::optional<syntax::Name> name;
  std::vector<syntax::WorldStatement> statements;
  SourceLocation location;
};

struct WorldFileParse {
  WorldFile file;
  std::vector<Diagnostic> diagnostics;
};

/// world-file := "world" NAME { world-statement }
WorldFileParse parseWorldFile(std::string_view source, std::string_view fileName);

/// The canonical text of a world file, its comments kept (`scl fmt`).
std::string printWorldFile(const WorldFile& file, const std::vector<Comment>& comments);

/// A world file's statements, or why not.
struct WorldLoad {
  /// The path read: a relative one joined to the base directory.
  std::string path;
  std::vector<syntax::WorldStatement> statements;
  std::vector<Diagnostic> diagnostics;
  /// No readable file at that path (one diagnostic without a location says why).
  bool notFound = false;
  bool ok() const;
};

/// Reads and parses the world file at `path` (relative paths from `baseDirectory`). Its
/// diagnostics carry its text (Diagnostic::fileText). Never throws.
WorldLoad loadWorldFile(std::string_view path, const std::filesystem::path& baseDirectory = {});

}  // namespace scl
