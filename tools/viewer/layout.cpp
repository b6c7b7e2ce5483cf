#include "tools/viewer/layout.h"

#include <algorithm>

namespace scl {

ViewerLayout viewerLayout(double width, double height, bool plotsShown, double textSize,
                          bool slidersShown) {
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
  const double sliderWidth =
      slidersShown ? std::clamp(0.28 * width, std::min(240.0, 0.4 * width), 380.0) : 0.0;
  layout.sliders = {0.0, top, std::min(sliderWidth, std::max(0.0, layout.plots.x - 1.0)), middle};
  layout.scene = {layout.sliders.width, top, std::max(1.0, layout.plots.x - layout.sliders.width),
                  middle};
  return layout;
}

SliderPanelLayout sliderPanelLayout(const PixelRect& panel, double textSize) {
  const double line = 1.35 * textSize;
  SliderPanelLayout layout;
  layout.textSize = textSize;
  layout.panel = panel;
  layout.writeBack = {panel.x + 8.0, panel.y + 6.0, std::max(0.0, panel.width - 16.0), line + 6.0};
  layout.rowHeight = 2.0 * line + 10.0;
  const double rowsTop = layout.writeBack.y + layout.writeBack.height + 8.0;
  layout.visibleRows =
      std::max(0, static_cast<int>((panel.y + panel.height - rowsTop) / layout.rowHeight));
  return layout;
}

PixelRect SliderPanelLayout::label(int row) const {
  const double top = writeBack.y + writeBack.height + 8.0 + row * rowHeight;
  return {panel.x + 8.0, top, std::max(0.0, panel.width - 16.0), 1.35 * textSize};
}

PixelRect SliderPanelLayout::track(int row) const {
  const PixelRect above = label(row);
  // Inset by the knob's radius, so that both ends can be reached and drawn whole.
  return {above.x + 8.0, above.y + above.height + 2.0, std::max(1.0, above.width - 16.0),
          rowHeight - above.height - 10.0};
}

double sliderValueAt(const PixelRect& track, double x, double lower, double upper) {
  const double fraction = std::clamp((x - track.x) / std::max(1.0, track.width), 0.0, 1.0);
  return lower + fraction * (upper - lower);
}

double sliderPixel(const PixelRect& track, double value, double lower, double upper) {
  const double span = upper - lower;
  const double fraction = span > 0.0 ? std::clamp((value - lower) / span, 0.0, 1.0) : 0.5;
  return track.x + fraction * track.width;
}

}  // namespace scl
