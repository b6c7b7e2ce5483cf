// Where the viewer puts things in its window: the HUD band at the top, the time bar and
// the status line at the bottom, the plot panel on the right when shown, and the scene in
// what is left, so that no text ever covers the character. Pure math (no SFML), shared
// with the screenshot tests.
#pragma once

#include "kinematics/character_state.h"

namespace scl {

/// A rectangle of the window, pixels (+y down).
struct PixelRect {
  double x = 0.0, y = 0.0, width = 0.0, height = 0.0;
  /// Whether the point lies inside.
  bool contains(double px, double py) const {
    return px >= x && px < x + width && py >= y && py < y + height;
  }
};

/// The window's regions.
struct ViewerLayout {
  /// The HUD's lines (phase and time, mode, the summary's figures).
  PixelRect hud;
  /// Where the scene is drawn (the camera's viewport).
  PixelRect scene;
  /// The plot panel (zero width when hidden).
  PixelRect plots;
  /// The `@` slider panel on the left (zero width when hidden).
  PixelRect sliders;
  /// The time bar under the scene.
  PixelRect timeBar;
  /// The status line (the watcher's status, notes).
  PixelRect status;
};

/// The layout of a `width` x `height` window at text size `textSize` pixels, with or
/// without the plot panel and the slider panel.
ViewerLayout viewerLayout(double width, double height, bool plotsShown, double textSize = 15.0,
                          bool slidersShown = false);

/// The slider panel's parts: a row of buttons at the top, then one row per slider (its
/// name and value on a line, the track under it), `firstRow` the topmost shown.
struct SliderPanelLayout {
  /// The panel's textSize (as viewerLayout's), pixels.
  double textSize = 15.0;
  PixelRect panel;
  /// The "write back" button.
  PixelRect writeBack;
  /// Height of a slider's row, pixels.
  double rowHeight = 0.0;
  /// Slider rows that fit under the buttons.
  int visibleRows = 0;
  /// Where row `row` (0 = the topmost shown) has its label line and its track.
  PixelRect label(int row) const;
  PixelRect track(int row) const;
};

/// The parts of the slider panel `panel`.
SliderPanelLayout sliderPanelLayout(const PixelRect& panel, double textSize = 15.0);

/// The value at pixel column `x` of `track` for a slider from `lower` to `upper`
/// (clamped to the range).
double sliderValueAt(const PixelRect& track, double x, double lower, double upper);
/// The pixel column of `value` on `track` (clamped to the track).
double sliderPixel(const PixelRect& track, double value, double lower, double upper);

}  // namespace scl
