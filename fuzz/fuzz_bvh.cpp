// libFuzzer target for BVH files (scl/bvh.h, `scl clip import`; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: reading never crashes (nor leaks, nor hangs, nor
// allocates beyond the text's size), every diagnostic is located in the file and renders;
// a file that reads has a root, each joint after its parent, channels numbered in order,
// frameCount × channelCount values and a positive frame time; imported through the CMU
// mapping (scripts/clips/cmu.bvhmap's lines) it gives a clip without clipIssues() whose
// values are finite, or errors located in the mapping.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/fuzz_checks.h"
#include "scl/bvh.h"

namespace {

constexpr std::string_view kMapping = R"(mapping cmu
character human
scale 0.01
forward z
up y
root pelvis from Hips axis: x sign: -1 offset: 90
joint leftHip from LeftUpLeg axis: x sign: -1
joint leftKnee from LeftLeg axis: x sign: -1
joint waist from Spine axis: x
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::BvhParse parsed = scl::parseBvh(source, "fuzz.bvh");
  scl::fuzz::checkDiagnostics(parsed.ok(), parsed.diagnostics, source, "fuzz.bvh");
  if (!parsed.ok()) return 0;
  const scl::Bvh& bvh = parsed.bvh;
  if (bvh.joints.empty() || bvh.joints.front().parent != -1 || !(bvh.frameTime > 0)) std::abort();
  int channel = 0;
  for (size_t j = 0; j < bvh.joints.size(); ++j) {
    const scl::BvhJoint& joint = bvh.joints[j];
    if (j > 0 && (joint.parent < 0 || joint.parent >= static_cast<int>(j))) std::abort();
    if (joint.firstChannel != channel) std::abort();
    channel += static_cast<int>(joint.channels.size());
  }
  if (channel != bvh.channelCount) std::abort();
  if (bvh.values.size() != static_cast<size_t>(bvh.frameCount) * static_cast<size_t>(channel))
    std::abort();

  const scl::BvhMappingParse mapping = scl::parseBvhMapping(kMapping, "cmu.bvhmap");
  if (!mapping.ok()) std::abort();
  scl::DiagnosticSink sink;
  const std::optional<scl::Clip> clip =
      scl::importBvh(bvh, mapping.mapping, *scl::humanCharacter(), sink, "fuzz");
  const std::vector<scl::Diagnostic> diagnostics = sink.take();
  scl::fuzz::checkDiagnostics(clip.has_value(), diagnostics, kMapping, "cmu.bvhmap");
  if (clip && !scl::clipIssues(*clip).empty()) std::abort();
  return 0;
}
