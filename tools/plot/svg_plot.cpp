#include "tools/plot/svg_plot.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "tools/xml_text.h"

namespace scl {

namespace {

// Pixels to 0.1 px: enough for a plot, and a long run stays a small file.
std::string px(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// An opacity, 0 to 1: px()'s one decimal made 0.25 into 0.2.
std::string fraction(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// A data value with every digit the trajectory CSV has.
std::string exact(double value) {
  if (!std::isfinite(value)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", value);
  return text;
}

std::string rgb(PlotColour colour) {
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", colour.r, colour.g, colour.b);
  return text;
}

class SvgCanvas : public PlotCanvas {
 public:
  explicit SvgCanvas(std::ostringstream& out) : out_(out) {}

  void polyline(std::span<const PlotPoint> points, PlotColour colour, double width,
                bool dashed) override {
    out_ << "<polyline fill=\"none\" stroke=\"" << rgb(colour) << "\" stroke-width=\"" << px(width)
         << "\"" << (dashed ? " stroke-dasharray=\"5 3\"" : "") << " points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      out_ << (i ? " " : "") << px(points[i].x) << "," << px(points[i].y);
    out_ << "\"/>\n";
  }

  void polygon(std::span<const PlotPoint> points, PlotColour fill, double opacity) override {
    out_ << "<polygon fill=\"" << rgb(fill) << "\" fill-opacity=\"" << fraction(opacity)
         << "\" points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      out_ << (i ? " " : "") << px(points[i].x) << "," << px(points[i].y);
    out_ << "\"/>\n";
  }

  void rect(double x, double y, double width, double height, PlotColour fill,
            double opacity) override {
    out_ << "<rect x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(width)
         << "\" height=\"" << px(height) << "\" fill=\"" << rgb(fill) << "\"";
    if (opacity < 1.0) out_ << " fill-opacity=\"" << fraction(opacity) << "\"";
    out_ << "/>\n";
  }

  void text(double x, double y, std::string_view text, PlotColour colour, double size,
            TextAnchor anchor) override {
    const char* anchors[] = {"start", "middle", "end"};
    out_ << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" font-size=\"" << px(size)
         << "\" fill=\"" << rgb(colour) << "\" text-anchor=\"" << anchors[static_cast<int>(anchor)]
         << "\">" << escapeXml(text) << "</text>\n";
  }

  void beginSeries(std::string_view id, double first, double last, double min,
                   double max) override {
    out_ << "<g id=\"series-" << escapeXml(id) << "\" data-first=\"" << exact(first)
         << "\" data-last=\"" << exact(last) << "\" data-min=\"" << exact(min) << "\" data-max=\""
         << exact(max) << "\">\n";
  }

  void endSeries() override { out_ << "</g>\n"; }

 private:
  std::ostringstream& out_;
};

}  // namespace

std::string renderPlotSvg(const PlotData& data, const PlotSelection& selection,
                          const SvgPlotDef& def) {
  const double titleHeight = def.title.empty() ? 0.0 : 2.0 * def.textSize;
  const double height = titleHeight + plotHeight(selection, def.textSize);
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(def.width) << "\" height=\""
      << px(height) << "\" viewBox=\"0 0 " << px(def.width) << " " << px(height)
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!def.title.empty())
    out << "<text x=\"8\" y=\"" << px(1.4 * def.textSize) << "\" font-size=\""
        << px(1.15 * def.textSize) << "\" fill=\"#141820\">" << escapeXml(def.title)
        << (data.hasTargets ? "" : " (trajectory CSV: no PD targets)") << "</text>\n";
  SvgCanvas canvas(out);
  PlotFrame frame;
  frame.y = titleHeight;
  frame.width = def.width;
  frame.height = height - titleHeight;
  frame.textSize = def.textSize;
  drawPlots(canvas, data, selection, frame);
  out << "</svg>\n";
  return out.str();
}

}  // namespace scl
