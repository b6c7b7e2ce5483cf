#include "tools/viewer/plot_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scl {

namespace {

sf::Color toSfml(PlotColour colour, double opacity = 1.0) {
  return {colour.r, colour.g, colour.b, static_cast<sf::Uint8>(std::lround(255.0 * opacity))};
}

// PlotCanvas on an SFML target: lines as quads (SFML has no wide lines), dashes as
// alternate segments.
class SfmlCanvas : public PlotCanvas {
 public:
  SfmlCanvas(sf::RenderTarget& target, const sf::Font* font) : target_(target), font_(font) {}

  void polyline(std::span<const PlotPoint> points, PlotColour colour, double width,
                bool dashed) override {
    const sf::Color c = toSfml(colour);
    sf::VertexArray quads(sf::Triangles);
    double dashLeft = 5.0;
    bool drawing = true;
    for (size_t i = 1; i < points.size(); ++i) {
      PlotPoint a = points[i - 1];
      const PlotPoint b = points[i];
      double length = std::hypot(b.x - a.x, b.y - a.y);
      if (length <= 0.0) continue;
      while (length > 0.0) {
        const double piece = dashed ? std::min(length, dashLeft) : length;
        const double t = piece / length;
        const PlotPoint end{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
        if (drawing) segment(quads, a, end, width, c);
        a = end;
        length -= piece;
        if (dashed) {
          dashLeft -= piece;
          if (dashLeft <= 1e-9) {
            drawing = !drawing;
            dashLeft = drawing ? 5.0 : 3.0;
          }
        }
      }
    }
    target_.draw(quads);
  }

  void polygon(std::span<const PlotPoint> points, PlotColour fill, double opacity) override {
    // The band of the support region: a strip between a lower and an upper line, the
    // upper one reversed (plot_layout.cpp), drawn as a triangle strip.
    const size_t half = points.size() / 2;
    sf::VertexArray strip(sf::TriangleStrip);
    const sf::Color c = toSfml(fill, opacity);
    for (size_t i = 0; i < half; ++i) {
      const PlotPoint low = points[i];
      const PlotPoint high = points[points.size() - 1 - i];
      strip.append({{static_cast<float>(low.x), static_cast<float>(low.y)}, c});
      strip.append({{static_cast<float>(high.x), static_cast<float>(high.y)}, c});
    }
    target_.draw(strip);
  }

  void rect(double x, double y, double width, double height, PlotColour fill,
            double opacity) override {
    sf::RectangleShape shape({static_cast<float>(width), static_cast<float>(height)});
    shape.setPosition(static_cast<float>(x), static_cast<float>(y));
    shape.setFillColor(toSfml(fill, opacity));
    target_.draw(shape);
  }

  double textWidth(std::string_view text, double size) const override {
    if (!font_) return PlotCanvas::textWidth(text, size);
    // Measured as text() draws it: the font's glyphs at the rounded size.
    const sf::Text label(sf::String::fromUtf8(text.begin(), text.end()), *font_,
                         static_cast<unsigned>(std::lround(size)));
    const sf::FloatRect bounds = label.getLocalBounds();
    return bounds.left + bounds.width;
  }

  void text(double x, double y, std::string_view text, PlotColour colour, double size,
            TextAnchor anchor) override {
    if (!font_) return;
    sf::Text label(sf::String::fromUtf8(text.begin(), text.end()), *font_,
                   static_cast<unsigned>(std::lround(size)));
    label.setFillColor(toSfml(colour));
    const sf::FloatRect bounds = label.getLocalBounds();
    const double width = bounds.left + bounds.width;
    const double shift = anchor == TextAnchor::Start    ? 0.0
                         : anchor == TextAnchor::Middle ? 0.5 * width
                                                        : width;
    // SVG places text by its baseline; SFML by its top: about one size above it.
    label.setPosition(static_cast<float>(std::round(x - shift)),
                      static_cast<float>(std::round(y - 0.95 * size)));
    target_.draw(label);
  }

 private:
  static void segment(sf::VertexArray& quads, PlotPoint a, PlotPoint b, double width,
                      sf::Color colour) {
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    if (length <= 0.0) return;
    const double nx = -(b.y - a.y) / length * 0.5 * width;
    const double ny = (b.x - a.x) / length * 0.5 * width;
    const sf::Vector2f p1(static_cast<float>(a.x + nx), static_cast<float>(a.y + ny));
    const sf::Vector2f p2(static_cast<float>(a.x - nx), static_cast<float>(a.y - ny));
    const sf::Vector2f p3(static_cast<float>(b.x + nx), static_cast<float>(b.y + ny));
    const sf::Vector2f p4(static_cast<float>(b.x - nx), static_cast<float>(b.y - ny));
    for (const sf::Vector2f& p : {p1, p2, p3, p2, p4, p3}) quads.append({p, colour});
  }

  sf::RenderTarget& target_;
  const sf::Font* font_;
};

}  // namespace

PlotPanelView plotWindow(const PlotSelection& selection, double cursor, double span) {
  PlotPanelView view;
  view.selection = selection;
  view.cursor = cursor;
  view.end = std::max(cursor, span);
  view.start = view.end - span;
  return view;
}

void drawPlotPanel(sf::RenderTarget& target, const sf::Font* font, const PixelRect& area,
                   const PlotData& data, const PlotPanelView& view) {
  sf::RectangleShape background({static_cast<float>(area.width), static_cast<float>(area.height)});
  background.setPosition(static_cast<float>(area.x), static_cast<float>(area.y));
  background.setFillColor(sf::Color::White);
  target.draw(background);
  SfmlCanvas canvas(target, font);
  drawPlots(canvas, data, view.selection, plotPanelFrame(area, view));
}

PlotFrame plotPanelFrame(const PixelRect& area, const PlotPanelView& view) {
  // The panels shrink to fit the area's height: the text size scales them.
  const double wanted = plotHeight(view.selection, 12.0);
  PlotFrame frame;
  frame.x = area.x;
  frame.y = area.y;
  frame.width = area.width;
  frame.height = area.height;
  frame.textSize = std::clamp(12.0 * area.height / wanted, 6.0, 13.0);
  frame.leftMargin = 6.0 * frame.textSize;
  frame.start = view.start;
  frame.end = view.end;
  frame.cursor = view.cursor;
  return frame;
}

double timeBarTime(const PixelRect& bar, const TimeBarView& view, double x) {
  const double left = bar.x + 70.0, right = bar.x + bar.width - 90.0;
  const double fraction = std::clamp((x - left) / std::max(1.0, right - left), 0.0, 1.0);
  return view.start + fraction * (view.end - view.start);
}

void drawTimeBar(sf::RenderTarget& target, const sf::Font* font, const PixelRect& bar,
                 const TimeBarView& view, const PlotData& data) {
  const float left = static_cast<float>(bar.x + 70.0);
  const float right = static_cast<float>(bar.x + bar.width - 90.0);
  const float middle = static_cast<float>(bar.y + 0.5 * bar.height);
  sf::RectangleShape background({static_cast<float>(bar.width), static_cast<float>(bar.height)});
  background.setPosition(static_cast<float>(bar.x), static_cast<float>(bar.y));
  background.setFillColor(sf::Color(250, 250, 252, 235));
  target.draw(background);
  auto xOf = [&](double time) {
    const double span = std::max(1e-9, view.end - view.start);
    return left + static_cast<float>((time - view.start) / span) * (right - left);
  };
  sf::RectangleShape track({std::max(1.0f, right - left), 4.0f});
  track.setPosition(left, middle - 2.0f);
  track.setFillColor(sf::Color(180, 186, 198));
  target.draw(track);
  for (const PhaseMark& mark : data.phases) {
    if (mark.time < view.start || mark.time > view.end) continue;
    const bool jump = mark.jumped;
    sf::RectangleShape tick({jump ? 3.0f : 1.5f, jump ? 18.0f : 12.0f});
    tick.setPosition(xOf(mark.time) - tick.getSize().x / 2, middle - tick.getSize().y / 2);
    tick.setFillColor(jump            ? sf::Color(210, 40, 40)
                      : mark.timedOut ? sf::Color(225, 130, 20)
                                      : sf::Color(90, 96, 110));
    target.draw(tick);
  }
  sf::CircleShape knob(7.0f);
  knob.setOrigin(7.0f, 7.0f);
  knob.setPosition(xOf(view.shown), middle);
  knob.setFillColor(view.scrubbing ? sf::Color(20, 110, 220) : sf::Color(60, 64, 72));
  target.draw(knob);
  if (!font) return;
  char text[64];
  std::snprintf(text, sizeof text, "%.2f s", view.start);
  sf::Text start(text, *font, 13);
  start.setFillColor(sf::Color(20, 24, 32));
  start.setPosition(static_cast<float>(bar.x) + 6.0f, middle - 9.0f);
  target.draw(start);
  std::snprintf(text, sizeof text, "%s%.3f s", view.scrubbing ? "< " : "", view.shown);
  sf::Text shown(text, *font, 13);
  shown.setFillColor(view.scrubbing ? sf::Color(20, 110, 220) : sf::Color(20, 24, 32));
  shown.setPosition(right + 10.0f, middle - 9.0f);
  target.draw(shown);
}

}  // namespace scl
