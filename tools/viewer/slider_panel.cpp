#include "tools/viewer/slider_panel.h"

#include "base/format.h"
#include "tools/viewer/renderer.h"

namespace scl {

namespace {

void fillRect(sf::RenderTarget& target, const PixelRect& rect, sf::Color fill,
              sf::Color outline = sf::Color::Transparent) {
  sf::RectangleShape shape({static_cast<float>(rect.width), static_cast<float>(rect.height)});
  shape.setPosition(static_cast<float>(rect.x), static_cast<float>(rect.y));
  shape.setFillColor(fill);
  if (outline != sf::Color::Transparent) {
    shape.setOutlineColor(outline);
    shape.setOutlineThickness(-1.0f);
  }
  target.draw(shape);
}

void drawLabel(sf::RenderTarget& target, const sf::Font* font, const std::string& text, double x,
               double y, unsigned size, sf::Color colour, bool alignRight = false) {
  if (!font) return;
  sf::Text label(sf::String::fromUtf8(text.begin(), text.end()), *font, size);
  label.setFillColor(colour);
  const float width = label.getLocalBounds().width;
  label.setPosition(static_cast<float>(alignRight ? x - width : x), static_cast<float>(y));
  target.draw(label);
}

void drawSlider(sf::RenderTarget& target, const sf::Font* font, const SliderPanelLayout& layout,
                int row, const ParameterSlider& slider, bool active) {
  const auto size = static_cast<unsigned>(layout.textSize * 0.9);
  const PixelRect label = layout.label(row);
  const sf::Color nameColour =
      slider.value != slider.written ? sf::Color(20, 110, 60) : palette::kText;
  drawLabel(target, font, slider.name, label.x, label.y, size, nameColour);
  drawLabel(target, font, formatSignificant(slider.value, 4), label.x + label.width, label.y, size,
            nameColour, true);
  const PixelRect track = layout.track(row);
  const double middle = track.y + 0.5 * track.height;
  fillRect(target, {track.x, middle - 2.0, track.width, 4.0}, sf::Color(190, 196, 204));
  // The written value: a tick, so that the way back is visible.
  const double written = sliderPixel(track, slider.written, slider.lower, slider.upper);
  fillRect(target, {written - 1.0, middle - 7.0, 2.0, 14.0}, sf::Color(110, 116, 124));
  const double knob = sliderPixel(track, slider.value, slider.lower, slider.upper);
  const float radius = active ? 8.0f : 7.0f;
  sf::CircleShape circle(radius);
  circle.setOrigin(radius, radius);
  circle.setPosition(static_cast<float>(knob), static_cast<float>(middle));
  circle.setFillColor(kSliderKnob);
  target.draw(circle);
}

}  // namespace

void drawSliderPanel(sf::RenderTarget& target, const sf::Font* font,
                     const SliderPanelLayout& layout, const ParameterTuner& tuner,
                     const SliderPanelView& view) {
  if (layout.panel.width <= 0.0) return;
  fillRect(target, layout.panel, sf::Color(248, 249, 251));
  fillRect(target,
           {layout.panel.x + layout.panel.width - 1.0, layout.panel.y, 1.0, layout.panel.height},
           sf::Color(190, 196, 204));
  const auto size = static_cast<unsigned>(layout.textSize * 0.9);
  const bool modified = tuner.modified();
  fillRect(target, layout.writeBack, modified ? sf::Color(226, 240, 230) : sf::Color(236, 238, 241),
           sf::Color(150, 156, 164));
  drawLabel(target, font, "write back (w)", layout.writeBack.x + 6.0, layout.writeBack.y + 3.0,
            size, modified ? palette::kText : sf::Color(130, 134, 140));
  const auto& sliders = tuner.sliders();
  if (sliders.empty()) {
    drawLabel(target, font, "no @ numbers in the script", layout.label(0).x, layout.label(0).y,
              size, palette::kText);
    return;
  }
  for (int row = 0; row < layout.visibleRows; ++row) {
    const size_t index = static_cast<size_t>(view.firstRow) + static_cast<size_t>(row);
    if (index >= sliders.size()) break;
    drawSlider(target, font, layout, row, sliders[index], view.active == static_cast<int>(index));
  }
}

}  // namespace scl
