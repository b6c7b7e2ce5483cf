// libFuzzer target for character files (scl/character_file.h; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: compileCharacter() never crashes (nor leaks, nor
// hangs), a character is returned exactly when there is no error, every diagnostic is
// located in the file and renders, a returned character has positive masses and lengths
// and ranges with min <= max, and a file that parses cleanly prints to text that parses
// cleanly and prints the same again (`scl fmt` is idempotent), its comments all kept.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_checks.h"
#include "scl/character_file.h"
#include "scl/lexer.h"

namespace {

void checkCharacter(const scl::Character& character) {
  for (const scl::LinkDef& link : character.links)
    if (!(link.mass > 0) || !(link.length > 0)) std::abort();
  for (const scl::JointDef& joint : character.joints)
    if (!(joint.minDeg <= joint.maxDeg)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::CharacterLoad load = scl::compileCharacter(source, "fuzz.character");
  scl::fuzz::checkDiagnostics(load.ok(), load.diagnostics, source, "fuzz.character");
  if (load.ok()) checkCharacter(*load.character);

  const scl::CharacterParseResult parsed = scl::parseCharacterFile(source, "fuzz.character");
  if (!scl::hasErrors(parsed.diagnostics)) {
    const std::vector<scl::Comment> comments = scl::scanComments(source);
    const std::string printed = scl::printCharacterFile(parsed.file, comments);
    const scl::CharacterParseResult again = scl::parseCharacterFile(printed, "printed.character");
    if (scl::hasErrors(again.diagnostics)) std::abort();
    const std::vector<scl::Comment> printedComments = scl::scanComments(printed);
    if (printedComments.size() != comments.size()) std::abort();
    if (scl::printCharacterFile(again.file, printedComments) != printed) std::abort();
  }
  return 0;
}
