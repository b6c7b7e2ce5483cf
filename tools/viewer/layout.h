// Where the viewer puts things in its window: the HUD band at the top, the time bar and
// the status line at the bottom, the plot panel on the right when shown, and the scene in
// what is left, so that no text ever covers the character. Pure math (no SFML), shared
// with the screenshot tests.
#pragma once

#include "primitives/character_state.h"

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
  /// The time bar under the scene.
  PixelRect timeBar;
  /// The status line (the watcher's status, notes).
  PixelRect status;
};

/// The layout of a `width` x `height` window at text size `textSize` pixels, with or
/// without the plot panel.
ViewerLayout viewerLayout(double width, double height, bool plotsShown, double textSize = 15.0);

}  // namespace scl
