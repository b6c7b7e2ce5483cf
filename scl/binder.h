// The SCL binder: syntax tree -> scl::Program.
//
// Resolves names against the script's character (groups expanded), expands `[symm]` and
// mirrored phases, resolves phase references, converts units (degrees -> radians), turns
// `@` numbers into Program::parameters and reports semantic errors and warnings
// (docs/language.md, "Diagnostics").
//
// The character is the one given to the binder (an override, e.g. `--character`), else
// the one the scene header names (`scene character: NAME|"FILE"`, loaded when the header
// is bound, before any phase: the header comes first), else the built-in human. The
// world file likewise: the one given (e.g. `--world`), else the header's `world:`.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "scl/clip_file.h"
#include "scl/diagnostics.h"
#include "scl/parser.h"
#include "scl/program.h"
#include "scl/syntax.h"
#include "scl/world.h"

namespace scl {

/// The bound program, or nullopt when binding reported an error (warnings do not count).
/// Names are resolved against `character` when given (the scene's `character:` is then
/// not read), else against the scene's character (a relative file path from
/// `baseDirectory`), else the human; the program keeps it.
std::optional<Program> bind(const syntax::Script& script, DiagnosticSink& sink,
                            std::shared_ptr<const Character> character = nullptr,
                            const std::filesystem::path& baseDirectory = {});

/// Binds a script as the parser reads it, phase by phase (parser.h's ScriptVisitor): the
/// program grows while each phase's syntax is dropped once bound. The character as for
/// bind(); `world`, when given, replaces the header's `world:` (CompileOptions::world);
/// `clipFiles` are read instead of the script's own (CompileOptions::clipFiles).
class ScriptBinder : public ScriptVisitor {
 public:
  explicit ScriptBinder(DiagnosticSink& sink, std::shared_ptr<const Character> character = nullptr,
                        std::filesystem::path baseDirectory = {},
                        std::shared_ptr<const WorldLoad> world = nullptr, ClipFiles clipFiles = {});
  ~ScriptBinder() override;
  void scene(syntax::SceneHeader header) override;
  void world(syntax::WorldStatement statement) override;
  void clip(syntax::ClipDecl clip) override;
  void define(syntax::Define block) override;
  void phase(syntax::Phase phase, bool last) override;
  void end(std::optional<syntax::Finally> finally) override;
  /// After end(): the program, or nullopt when an error was reported since construction.
  std::optional<Program> take();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A primitive with every link and joint index replaced by its left-right mirror image.
Primitive mirrored(const Primitive& primitive, const Character& character);

}  // namespace scl
