// libFuzzer target for trajectory CSVs as `scl plot` reads them (readTrajectoryCsv,
// tools/plot/plot_data.h; fuzz/fuzz.sh runs it), and the SVG plot drawn from what it read.
//
// Invariants checked on every input: reading never crashes (nor leaks, nor hangs, nor
// allocates without bound) and fails only with std::invalid_argument, whose message says
// where ("line N: ...") or that the file holds no rows ("the file is empty", "the file has
// a header but no rows": the campaign's one finding was a header alone, when this check
// knew only the first two forms) in at most a few hundred bytes, however long the input's
// fields (two more findings were real: a time and a phase index beyond what an integer
// holds, undefined behaviour, regressions-trajectory/); a file that reads gives series of one
// length with times increasing (its objects' too), and every plot of it renders to an SVG
// document.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "scl/character.h"
#include "tools/plot/plot_data.h"
#include "tools/plot/plot_layout.h"
#include "tools/plot/svg_plot.h"

namespace {

// The longest message: a fixed sentence, a line number, a column name and a field, the
// two quoted by quoteForMessage (about 80 bytes each).
constexpr size_t kMaxMessage = 400;

void checkData(const scl::PlotData& data) {
  const size_t size = data.size();
  if (size == 0 || data.hasTargets) std::abort();
  if (data.comX.size() != size || data.comHeight.size() != size || data.headHeight.size() != size ||
      data.supportLow.size() != size || data.supportHigh.size() != size)
    std::abort();
  for (size_t joint = 0; joint < scl::kBipedJointCount; ++joint)
    if (data.angleDeg[joint].size() != size || data.torque[joint].size() != size) std::abort();
  for (size_t link = 0; link < scl::kBipedLinkCount; ++link)
    if (data.contact[link].size() != size) std::abort();
  for (const scl::PlotObject& object : data.objects)
    if (object.name.empty() || object.x.size() != size || object.y.size() != size ||
        object.angleDeg.size() != size)
      std::abort();
  for (size_t i = 1; i < size; ++i)
    if (!(data.time[i - 1] < data.time[i])) std::abort();
}

void checkSvg(const scl::PlotData& data) {
  scl::PlotSelection selection;
  selection.joints = {0, 4, static_cast<int>(scl::kBipedJointCount) - 1};
  selection.com = selection.heights = selection.contacts = true;
  for (size_t i = 0; i < data.objects.size() && i < 3; ++i)
    selection.objects.push_back(static_cast<int>(i));
  const std::string svg = scl::renderPlotSvg(data, selection);
  if (svg.rfind("<svg", 0) != 0 && svg.rfind("<?xml", 0) != 0) std::abort();
  if (svg.find("</svg>") == std::string::npos) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const scl::Character& human = *scl::humanCharacter();
  try {
    const scl::PlotData plot = scl::readTrajectoryCsv(text, human);
    checkData(plot);
    checkSvg(plot);
  } catch (const std::invalid_argument& error) {
    const std::string_view message = error.what();
    if (message.empty() || message.size() > kMaxMessage) std::abort();
    if (message.rfind("line ", 0) != 0 && message != "the file is empty" &&
        message != "the file has a header but no rows")
      std::abort();
  }
  return 0;
}
