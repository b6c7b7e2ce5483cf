// libFuzzer target for world files (scl/world.h; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: parsing and binding never crash (nor leak, nor hang),
// every diagnostic is located in the file and renders, a file that parses cleanly prints to
// text that parses cleanly and prints the same again (`scl fmt` is idempotent) with every
// comment kept, every body bound without an error passes sceneBodyIssues(), and a scene of
// those bodies simulates a few steps without tripping Box2D, its state finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_checks.h"
#include "runtime/simulation.h"
#include "scl/lexer.h"
#include "scl/scene.h"
#include "scl/world.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::WorldFileParse parsed = scl::parseWorldFile(source, "fuzz.world");
  scl::DiagnosticSink sink;
  std::vector<scl::SceneBodyDef> bodies = {scl::groundBody()};
  scl::bindWorld(parsed.file.statements, bodies, sink);
  std::vector<scl::Diagnostic> diagnostics = parsed.diagnostics;
  for (scl::Diagnostic& diagnostic : sink.take()) diagnostics.push_back(std::move(diagnostic));
  scl::fuzz::checkDiagnostics(!scl::hasErrors(diagnostics), diagnostics, source, "fuzz.world");
  if (!scl::sceneBodyIssues(bodies).empty()) std::abort();  // what binds is always valid

  if (!scl::hasErrors(parsed.diagnostics)) {
    const std::vector<scl::Comment> comments = scl::scanComments(source);
    const std::string printed = scl::printWorldFile(parsed.file, comments);
    const scl::WorldFileParse again = scl::parseWorldFile(printed, "printed.world");
    if (scl::hasErrors(again.diagnostics)) std::abort();
    const std::vector<scl::Comment> printedComments = scl::scanComments(printed);
    if (printedComments.size() != comments.size()) std::abort();
    if (scl::printWorldFile(again.file, printedComments) != printed) std::abort();
  }

  if (bodies.size() > 1) {
    scl::SimulationDef def;
    def.scene.bodies = bodies;
    scl::Simulation simulation(def);
    for (int i = 0; i < 40; ++i) simulation.step();
    for (const scl::WorldBodyState& state : simulation.worldBodies())
      if (!std::isfinite(state.position.x()) || !std::isfinite(state.position.y())) std::abort();
  }
  return 0;
}
