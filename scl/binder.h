// The SCL binder: syntax tree -> scl::Program.
//
// Resolves names against character_table.h (groups expanded), expands `[symm]` and
// mirrored phases, resolves phase references, converts units (degrees -> radians), turns
// `@` numbers into Program::parameters and reports semantic errors and warnings
// (docs/language.md, "Diagnostics").
#pragma once

#include <memory>
#include <optional>

#include "scl/diagnostics.h"
#include "scl/parser.h"
#include "scl/program.h"
#include "scl/syntax.h"

namespace scl {

/// The bound program, or nullopt when binding reported an error (warnings do not count).
/// Names are resolved against `character`, which the program keeps.
std::optional<Program> bind(const syntax::Script& script, DiagnosticSink& sink,
                            std::shared_ptr<const Character> character = humanCharacter());

/// Binds a script as the parser reads it, phase by phase (parser.h's ScriptVisitor): the
/// program grows while each phase's syntax is dropped once bound.
class ScriptBinder : public ScriptVisitor {
 public:
  explicit ScriptBinder(DiagnosticSink& sink,
                        std::shared_ptr<const Character> character = humanCharacter());
  ~ScriptBinder() override;
  void scene(syntax::SceneHeader header) override;
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
