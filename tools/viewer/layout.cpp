#include "tools/viewer/layout.h"

#include <algorithm>

namespace scl {

ViewerLayout viewerLayout(double width, double height, bool plotsShown, double textSize) {
  const double line = 1.35 * textSize;
  ViewerLayout layout;
  layout.hud = {0.0, 0.0, width, 3.0 * line + 12.0};
  layout.status = {0.0, height - line - 10.0, width, line + 10.0};
  layout.timeBar = {0.0, layout.status.y - 26.0, width, 26.0};
  const double top = layout.hud.height;
  const double middle = std::max(1.0, layout.timeBar.y - top);
  if (plotsShown) {
    const double plotWidth = std::clamp(0.45 * width, std::min(360.0, 0.6 * width), 900.0);
    layout.plots = {width - plotWidth, top, plotWidth, middle};
  } else {
    layout.plots = {width, top, 0.0, middle};
  }
  layout.scene = {0.0, top, std::max(1.0, layout.plots.x), middle};
  return layout;
}

}  // namespace scl
