// PlotData as an SVG document (`scl plot`): the panels of plot_layout.h, each series a
// <g id="series-NAME"> with its first, last, lowest and highest plotted value as data-*
// attributes, so scripts and tests can read the numbers back.
#pragma once

#include <string>

#include "tools/plot/plot_layout.h"

namespace scl {

/// Options of the SVG document.
struct SvgPlotDef {
  /// Width, pixels (the height follows from the selection).
  double width = 900.0;
  /// Text size, pixels.
  double textSize = 12.0;
  /// A title line above the panels (e.g. the script's name); empty: none.
  std::string title;
};

/// The whole SVG document of the selected plots of `data`.
std::string renderPlotSvg(const PlotData& data, const PlotSelection& selection,
                          const SvgPlotDef& def = {});

}  // namespace scl
