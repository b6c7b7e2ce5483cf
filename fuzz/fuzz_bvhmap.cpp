// libFuzzer target for BVH mapping files (scl/bvh.h, `scl clip import --map`; fuzz/fuzz.sh
// runs it).
//
// Invariants checked on every input: parsing never crashes (nor leaks, nor hangs), every
// diagnostic is located in the file and renders; a mapping that parses has a character,
// axes and signs in range and a forward axis other than its up axis; importing a small
// CMU-style BVH (a squat's hips, knees and spine) through it gives a clip without
// clipIssues() or errors located in the mapping.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/fuzz_checks.h"
#include "scl/bvh.h"

namespace {

constexpr std::string_view kBvh = R"(HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LeftUpLeg
  {
    OFFSET 9 -5 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT LeftLeg
    {
      OFFSET 0 -45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 -43 0
      }
    }
  }
  JOINT Spine
  {
    OFFSET 0 8 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 40 0
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.25
0 95 0 0 0 0 0 0 0 0 0 0 0 0 0
0 80 2 0 20 0 0 -60 0 0 90 0 0 10 0
0 95 0 0 350 0 0 -200 0 0 181 0 0 -10 0
)";

bool isAxis(int axis) { return axis >= 0 && axis <= 2; }
bool isSign(double sign) { return sign == 1 || sign == -1; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::BvhMappingParse parsed = scl::parseBvhMapping(source, "fuzz.bvhmap");
  scl::fuzz::checkDiagnostics(parsed.ok(), parsed.diagnostics, source, "fuzz.bvhmap");
  if (!parsed.ok()) return 0;
  const scl::BvhMapping& mapping = parsed.mapping;
  if (mapping.character.empty() || !(mapping.scale > 0)) std::abort();
  if (!isAxis(mapping.forwardAxis) || !isAxis(mapping.upAxis) ||
      mapping.forwardAxis == mapping.upAxis || !isSign(mapping.forwardSign) ||
      !isSign(mapping.upSign))
    std::abort();
  for (const scl::BvhMapLine& line : mapping.joints)
    if (!isAxis(line.axis) || !isSign(line.sign)) std::abort();

  const scl::BvhParse bvh = scl::parseBvh(kBvh, "squat.bvh");
  if (!bvh.ok()) std::abort();
  scl::DiagnosticSink sink;
  const std::optional<scl::Clip> clip =
      scl::importBvh(bvh.bvh, mapping, *scl::humanCharacter(), sink, "fuzz");
  const std::vector<scl::Diagnostic> diagnostics = sink.take();
  scl::fuzz::checkDiagnostics(clip.has_value(), diagnostics, source, "fuzz.bvhmap");
  if (clip && !scl::clipIssues(*clip).empty()) std::abort();
  return 0;
}
