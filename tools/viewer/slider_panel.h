// The viewer's `@` slider panel (key t): a "write back" button, then each `@` number of
// the script as a slider (its name, its value, a track with the written value marked),
// drawn with SFML in the layout of tools/viewer/layout.h.
#pragma once

#include <SFML/Graphics.hpp>

#include "tools/viewer/layout.h"
#include "tools/viewer/tuning.h"

namespace scl {

/// The slider knob's colour (the screenshot test finds the knobs by it).
inline const sf::Color kSliderKnob{30, 150, 90};

/// What the panel shows besides the sliders.
struct SliderPanelView {
  /// The topmost slider shown (the panel scrolls with the wheel).
  int firstRow = 0;
  /// The slider being dragged, -1 for none.
  int active = -1;
};

/// Draws the panel in `layout.panel`; `font` nullptr draws no text.
void drawSliderPanel(sf::RenderTarget& target, const sf::Font* font,
                     const SliderPanelLayout& layout, const ParameterTuner& tuner,
                     const SliderPanelView& view);

}  // namespace scl
