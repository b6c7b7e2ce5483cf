#include "tools/plot/svg_plot.h"

#include <cstdio>
#include <string>
#include <vector>

#include "base/format.h"
#include "base/svg.h"

namespace scl {

namespace {

// An opacity, 0 to 1, to three significant digits (one decimal made 0.25 into 0.2).
std::string fraction(double value) { return formatSignificant(value, 3); }

// A data value with every digit the trajectory CSV has.
std::string exact(double value) { return formatSignificant(value, 7); }

std::string rgb(PlotColour colour) {
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", colour.r, colour.g, colour.b);
  return text;
}

std::vector<SvgPoint> svgPoints(std::span<const PlotPoint> points) {
  std::vector<SvgPoint> out;
  out.reserve(points.size());
  for (const PlotPoint& point : points) out.push_back({point.x, point.y});
  return out;
}

// Coordinates to a tenth of a pixel: enough for a plot, and a long run stays a small file.
class SvgCanvas : public PlotCanvas {
 public:
  explicit SvgCanvas(SvgWriter& svg) : svg_(svg) {}

  void polyline(std::span<const PlotPoint> points, PlotColour colour, double width,
                bool dashed) override {
    SvgElement line = svg_.element("polyline");
    line.attribute("fill", "none")
        .attribute("stroke", rgb(colour))
        .attribute("stroke-width", width);
    if (dashed) line.attribute("stroke-dasharray", "5 3");
    line.points(svgPoints(points)).close();
  }

  void polygon(std::span<const PlotPoint> points, PlotColour fill, double opacity) override {
    svg_.element("polygon")
        .attribute("fill", rgb(fill))
        .attribute("fill-opacity", fraction(opacity))
        .points(svgPoints(points))
        .close();
  }

  void rect(double x, double y, double width, double height, PlotColour fill,
            double opacity) override {
    SvgElement box = svg_.rect(x, y, width, height);
    box.attribute("fill", rgb(fill));
    if (opacity < 1.0) box.attribute("fill-opacity", fraction(opacity));
    box.close();
  }

  void text(double x, double y, std::string_view text, PlotColour colour, double size,
            TextAnchor anchor) override {
    const char* anchors[] = {"start", "middle", "end"};
    svg_.text(x, y)
        .attribute("font-size", size)
        .attribute("fill", rgb(colour))
        .attribute("text-anchor", anchors[static_cast<int>(anchor)])
        .text(text);
  }

  void beginSeries(std::string_view id, double first, double last, double min,
                   double max) override {
    svg_.element("g")
        .attribute("id", "series-" + std::string(id))
        .attribute("data-first", exact(first))
        .attribute("data-last", exact(last))
        .attribute("data-min", exact(min))
        .attribute("data-max", exact(max))
        .open();
  }

  void endSeries() override { svg_.closeGroup(); }

 private:
  SvgWriter& svg_;
};

}  // namespace

std::string renderPlotSvg(const PlotData& data, const PlotSelection& selection,
                          const SvgPlotDef& def) {
  const double titleHeight = def.title.empty() ? 0.0 : 2.0 * def.textSize;
  const double height = titleHeight + plotHeight(selection, def.textSize);
  SvgDef page;
  page.width = def.width;
  page.height = height;
  page.rootAttributes = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";
  SvgWriter svg(page);
  svg.background("#ffffff");
  if (!def.title.empty())
    svg.element("text")
        .attribute("x", "8")
        .attribute("y", 1.4 * def.textSize)
        .attribute("font-size", 1.15 * def.textSize)
        .attribute("fill", "#141820")
        .text(def.title + (data.hasTargets ? "" : " (trajectory CSV: no PD targets)"));
  SvgCanvas canvas(svg);
  PlotFrame frame;
  frame.y = titleHeight;
  frame.width = def.width;
  frame.height = height - titleHeight;
  frame.textSize = def.textSize;
  drawPlots(canvas, data, selection, frame);
  return svg.finish();
}

}  // namespace scl
