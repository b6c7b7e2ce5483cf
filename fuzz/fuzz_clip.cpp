// libFuzzer target for clip files (scl/clip_file.h; fuzz/fuzz.sh runs it).
//
// Invariants checked on every input: parsing never crashes (nor leaks, nor hangs), every
// diagnostic is located in the file and renders, a clip that parses has no clipIssues(),
// prints to text that parses cleanly and prints the same again (`scl fmt` is idempotent)
// with every comment kept, binds to the human or fails with located errors only, and
// samples finite values anywhere in time (before, inside and after it).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_checks.h"
#include "scl/clip_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const scl::ClipParse parsed = scl::parseClip(source, "fuzz.clip");
  scl::fuzz::checkDiagnostics(parsed.ok(), parsed.diagnostics, source, "fuzz.clip");
  if (!parsed.ok()) return 0;
  const scl::Clip& clip = parsed.clip;
  if (!scl::clipIssues(clip).empty()) std::abort();

  const std::vector<scl::Comment> comments = scl::scanComments(source);
  const std::string printed = scl::printClip(clip, comments);
  const scl::ClipParse again = scl::parseClip(printed, "printed.clip");
  if (!again.ok()) std::abort();
  const std::vector<scl::Comment> printedComments = scl::scanComments(printed);
  if (printedComments.size() != comments.size()) std::abort();
  if (scl::printClip(again.clip, printedComments) != printed) std::abort();
  if (again.clip.frames.size() != clip.frames.size()) std::abort();

  scl::DiagnosticSink sink;
  const bool bound = scl::bindClip(clip, *scl::humanCharacter(), sink).has_value();
  const std::vector<scl::Diagnostic> binding = sink.take();
  scl::fuzz::checkDiagnostics(bound, binding, source, "fuzz.clip");

  scl::ClipPose pose = scl::makeClipPose(clip);
  const double duration = clip.duration();
  for (double t : {-1.0, 0.0, duration / 3, duration, duration + 1}) {
    scl::sampleClip(clip, t, pose);
    for (double angle : pose.jointAngles)
      if (!std::isfinite(angle)) std::abort();
    if (!std::isfinite(pose.root.x) || !std::isfinite(pose.root.angle)) std::abort();
    if (pose.outside != !scl::clipTimeError(clip, t).empty()) std::abort();
  }
  return 0;
}
