// The viewer's plot panel and time bar: the panels of tools/plot (the same layout as
// `scl plot`'s SVG) drawn with SFML, and the bar under the scene to scrub through time.
#pragma once

#include <SFML/Graphics.hpp>
#include <optional>

#include "tools/plot/plot_layout.h"
#include "tools/viewer/layout.h"

namespace scl {

/// What the plot panel shows.
struct PlotPanelView {
  PlotSelection selection;
  /// The time window, seconds.
  double start = 0.0;
  double end = 1.0;
  /// The time the scene shows (live or scrubbed), seconds.
  double cursor = 0.0;
};

/// The time window of the panel: the last `span` seconds up to `cursor` (or from the
/// start while the run is shorter).
PlotPanelView plotWindow(const PlotSelection& selection, double cursor, double span = 8.0);

/// Where drawPlotPanel lays the panels out in `area`: the text size that fits the
/// selection's panels into its height.
PlotFrame plotPanelFrame(const PixelRect& area, const PlotPanelView& view);

/// Draws the plot panel in `area` (a white background, the panels, the cursor).
void drawPlotPanel(sf::RenderTarget& target, const sf::Font* font, const PixelRect& area,
                   const PlotData& data, const PlotPanelView& view);

/// The time bar: the history kept from `start` to `end` seconds, the shown time, phase
/// boundaries (jumps in red).
struct TimeBarView {
  double start = 0.0;
  double end = 1.0;
  double shown = 0.0;
  /// True while the scene shows an earlier moment (not the live run).
  bool scrubbing = false;
};

/// The time at pixel column `x` of the bar, seconds (clamped to the bar's span).
double timeBarTime(const PixelRect& bar, const TimeBarView& view, double x);

void drawTimeBar(sf::RenderTarget& target, const sf::Font* font, const PixelRect& bar,
                 const TimeBarView& view, const PlotData& data);

}  // namespace scl
