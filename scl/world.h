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
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/lexer.h"
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

/// One kind of body a world statement can make.
struct WorldKind {
  SceneBodyKind kind = SceneBodyKind::Ground;
  /// For hover and completion.
  std::string_view description;
  std::vector<WorldKey> keys;
};

/// Every kind a world statement can name (ground, platform, wall, table, stairs, slope,
/// box, ball, capsule, chain), in canonical order.
std::span<const WorldKind> worldKinds();
/// The kind named `word`, or nullptr.
const WorldKind* findWorldKind(std::string_view word);
/// Their names, for suggestions and completion.
std::vector<std::string_view> worldKindNames();

/// Whether `cursor` is on a word that begins a world statement.
bool isWorldStatementStart(const TokenCursor& cursor);

/// world-statement := KIND [ NAME ] { [","] KEY ":" value }
/// value := NUM | vec | NAME
/// (`cursor` on the KIND word). A body's name is required except for the ground's.
/// Reports errors and returns nullopt after a syntax error.
std::optional<syntax::WorldStatement> parseWorldStatement(TokenCursor& cursor);

/// The canonical text of a statement (one line, keys in the kind's order).
std::string printWorldStatement(const syntax::WorldStatement& statement);

/// Binds world statements onto `bodies` (a scene's, the ground first): a `ground` statement
/// sets the ground's friction, every other statement appends a body. Reports each error at
/// its key (unknown kind or key, a missing key, a value out of its bounds); a statement
/// with errors adds nothing.
void bindWorld(std::span<const syntax::WorldStatement> statements,
               std::vector<SceneBodyDef>& bodies, DiagnosticSink& sink);

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
