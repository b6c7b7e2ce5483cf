// SVG slices of a state–action compatibility model (see sam_plot.h): layout, the
// classifier's grid (shading and marching-squares boundary), points, axes and legend.
#include "optimize/sam/sam_plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/format.h"
#include "base/svg.h"
#include "base/xml.h"

namespace scl {
namespace {

// Layout, in pixels. The margins hold the subtitle (top), the tick labels and axis names
// (left, bottom); the legend is one column right of the panels.
constexpr double kMarginLeft = 64.0;
constexpr double kMarginRight = 20.0;
constexpr double kMarginTop = 34.0;
constexpr double kMarginBottom = 48.0;
constexpr double kStripHeight = 48.0;
constexpr double kLegendWidth = 200.0;
constexpr double kLegendRow = 20.0;
constexpr double kTitleHeight = 30.0;
constexpr double kTopPad = 8.0;
constexpr double kTickLength = 5.0;
constexpr double kPointRadius = 2.6;
constexpr double kCrossHalf = 3.0;
constexpr double kStarOuter = 7.0;
constexpr double kStarInner = 3.0;
constexpr double kPi = 3.14159265358979323846;

constexpr const char* kShadeCompatible = "#d9f0d3";
constexpr const char* kShadeIncompatible = "#f6d8d8";
constexpr const char* kPointCompatible = "#1b7837";
constexpr const char* kPointIncompatible = "#d62728";
constexpr const char* kStarFill = "#ffd92f";

constexpr int kMaxGridCells = 1000;
constexpr double kMinPanelSize = 50.0;
constexpr double kMaxPanelSize = 10000.0;
constexpr int kMaxTicks = 100;

[[noreturn]] void fail(const std::string& message) {
  throw std::invalid_argument("samSliceSvg: " + message);
}

// Pixels: one decimal is a tenth of a pixel, finer than any display.
std::string px(double value) { return formatFixed(value, 1); }

double round1(double value) { return std::round(value * 10.0) / 10.0; }

// A coordinate's value for a subtitle: three decimals (more for small values, to keep three
// significant digits), trailing zeros dropped: 0.45, 90, 0.00123.
std::string valueText(double value) {
  int decimals = 3;
  const double magnitude = std::abs(value);
  if (magnitude > 0.0 && magnitude < 0.01) {
    decimals = std::min(12, 2 - static_cast<int>(std::floor(std::log10(magnitude))));
  }
  return formatTrimmed(value, decimals);
}

// Decimals that show every tick of spacing `step` distinctly.
int tickDecimals(double step) {
  const int exponent = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  return std::clamp(-exponent, 0, 15);
}

double tickStep(double lower, double upper) {
  const double raw = (upper - lower) / 5.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double factor = norm < 1.5 ? 1.0 : norm < 3.5 ? 2.0 : norm < 7.5 ? 5.0 : 10.0;
  return factor * magnitude;
}

void validate(const SamPlotData& data, const std::vector<std::pair<int, int>>& panels,
              const SamPlotDef& def) {
  const std::size_t dims = data.columns.size();
  if (dims == 0) fail("columns is empty; need at least one coordinate");
  const auto checkSize = [dims](std::size_t size, const std::string& name) {
    if (size != dims) {
      fail(name + " has " + std::to_string(size) + " values, expected " + std::to_string(dims) +
           " (one per column)");
    }
  };
  checkSize(data.lower.size(), "lower");
  checkSize(data.upper.size(), "upper");
  checkSize(data.scale.size(), "scale");
  if (!data.focus.empty()) checkSize(data.focus.size(), "focus");
  for (std::size_t d = 0; d < dims; ++d) {
    const std::string which = " of column " + std::to_string(d) + " '" + data.columns[d] + "'";
    const double lower = data.lower[d];
    const double upper = data.upper[d];
    if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper) ||
        !std::isfinite(upper - lower)) {
      fail("range" + which + " is [" + valueText(lower) + ", " + valueText(upper) +
           "]; need finite lower < upper");
    }
    if (!std::isfinite(data.scale[d]) || !(data.scale[d] > 0.0)) {
      fail("scale" + which + " is " + valueText(data.scale[d]) + "; need a finite scale > 0");
    }
    if (!data.focus.empty() && !std::isfinite(data.focus[d]))
      fail("focus" + which + " is not finite");
  }
  if (data.compatible.size() != data.points.size()) {
    fail("compatible has " + std::to_string(data.compatible.size()) + " labels for " +
         std::to_string(data.points.size()) + " points");
  }
  for (std::size_t k = 0; k < data.points.size(); ++k) {
    checkSize(data.points[k].size(), "points[" + std::to_string(k) + "]");
  }
  for (std::size_t k = 0; k < data.marked.size(); ++k) {
    checkSize(data.marked[k].size(), "marked[" + std::to_string(k) + "]");
  }
  if (dims == 1 && !panels.empty()) {
    fail("panels must be empty with a single coordinate (the figure is a 1-D strip)");
  }
  const int count = static_cast<int>(dims);
  for (const auto& [i, j] : panels) {
    const std::string pair = "panel (" + std::to_string(i) + ", " + std::to_string(j) + ")";
    if (i < 0 || i >= count || j < 0 || j >= count) {
      fail(pair + " is out of range; coordinates are 0…" + std::to_string(count - 1));
    }
    if (i == j) fail(pair + " puts one coordinate on both axes");
  }
  if (def.gridCells < 1 || def.gridCells > kMaxGridCells) {
    fail("gridCells is " + std::to_string(def.gridCells) + "; need 1…" +
         std::to_string(kMaxGridCells));
  }
  if (!(def.slab >= 0.0)) fail("slab is " + valueText(def.slab) + "; need slab ≥ 0");
  if (!std::isfinite(def.panelSize) || def.panelSize < kMinPanelSize ||
      def.panelSize > kMaxPanelSize) {
    fail("panelSize is " + valueText(def.panelSize) + "; need 50…10000 pixels");
  }
  if (def.panelsPerRow < 1) fail("panelsPerRow must be at least 1");
}

// An incompatible point's × mark, as path data.
std::string cross(double x, double y) {
  return "M" + px(x - kCrossHalf) + " " + px(y - kCrossHalf) + "L" + px(x + kCrossHalf) + " " +
         px(y + kCrossHalf) + "M" + px(x - kCrossHalf) + " " + px(y + kCrossHalf) + "L" +
         px(x + kCrossHalf) + " " + px(y - kCrossHalf);
}

// A marked point's five-pointed star, as polygon points.
std::string star(double x, double y) {
  std::string points;
  for (int k = 0; k < 10; ++k) {
    const double radius = k % 2 == 0 ? kStarOuter : kStarInner;
    const double angle = kPi * k / 5.0 - kPi / 2.0;
    if (k > 0) points += " ";
    points += px(x + radius * std::cos(angle)) + "," + px(y + radius * std::sin(angle));
  }
  return points;
}

// One panel: coordinate `x` across, coordinate `y` up (−1: the 1-D strip), its plot area
// `width` × `height` pixels; everything is drawn in the panel's local pixels.
struct Panel {
  int x = 0;
  int y = -1;
  double width = 0.0;
  double height = 0.0;
};

class SliceWriter {
 public:
  SliceWriter(const SamPlotData& data, const SamPlotDef& def, std::vector<double> focus)
      : data_(data), def_(def), focus_(std::move(focus)) {}

  void panel(const Panel& panel, std::string& out) {
    computeGrid(panel);
    shading(panel, out);
    boundary(panel, out);
    axes(panel, out);
    points(panel, out);
  }

 private:
  // Local pixel of a value of the x coordinate (left to right) or the y one (bottom to top).
  double toX(const Panel& panel, double value) const {
    const double lower = data_.lower[static_cast<std::size_t>(panel.x)];
    const double upper = data_.upper[static_cast<std::size_t>(panel.x)];
    return (value - lower) / (upper - lower) * panel.width;
  }
  double toY(const Panel& panel, double value) const {
    if (panel.y < 0) return 0.5 * panel.height;
    const double lower = data_.lower[static_cast<std::size_t>(panel.y)];
    const double upper = data_.upper[static_cast<std::size_t>(panel.y)];
    return panel.height - (value - lower) / (upper - lower) * panel.height;
  }
  // Pixel of grid line `k` (0…gridCells), rounded as written so adjacent cells share edges.
  double gridX(const Panel& panel, int k) const {
    return round1(panel.width * k / static_cast<double>(def_.gridCells));
  }
  double gridY(const Panel& panel, int k) const {
    if (panel.y < 0) return 0.0;
    return round1(panel.height - panel.height * k / static_cast<double>(def_.gridCells));
  }
  int rows(const Panel& panel) const { return panel.y < 0 ? 0 : def_.gridCells; }
  double value(int col, int row) const {
    return grid_[static_cast<std::size_t>(row) * static_cast<std::size_t>(def_.gridCells + 1) +
                 static_cast<std::size_t>(col)];
  }

  // The classifier at every grid corner (rows of corners bottom to top); NaN where it is
  // absent or not finite.
  void computeGrid(const Panel& panel) {
    grid_.clear();
    if (!data_.decision) return;
    const int cells = def_.gridCells;
    std::vector<double> point = focus_;
    const auto at = [cells](double lower, double upper, int k) {
      return k == cells ? upper : lower + (upper - lower) * k / static_cast<double>(cells);
    };
    const auto xs = static_cast<std::size_t>(panel.x);
    for (int row = 0; row <= rows(panel); ++row) {
      if (panel.y >= 0) {
        const auto ys = static_cast<std::size_t>(panel.y);
        point[ys] = at(data_.lower[ys], data_.upper[ys], row);
      }
      for (int col = 0; col <= cells; ++col) {
        point[xs] = at(data_.lower[xs], data_.upper[xs], col);
        const double v = data_.decision(point);
        grid_.push_back(std::isfinite(v) ? v : std::nan(""));
      }
    }
  }

  // 0: unknown (no finite corner), 1: predicted compatible, 2: predicted incompatible.
  int cellState(const Panel& panel, int col, int row) const {
    double sum = 0.0;
    int finite = 0;
    const int top = panel.y < 0 ? row : row + 1;
    for (int r = row; r <= top; ++r) {
      for (int c = col; c <= col + 1; ++c) {
        const double v = value(c, r);
        if (std::isfinite(v)) {
          sum += v;
          ++finite;
        }
      }
    }
    if (finite == 0) return 0;
    return sum / finite > 0.0 ? 1 : 2;
  }

  void shading(const Panel& panel, std::string& out) const {
    if (grid_.empty()) return;
    std::array<std::string, 3> rects;
    const int cells = def_.gridCells;
    for (int row = 0; row < std::max(1, rows(panel)); ++row) {
      const double yTop = panel.y < 0 ? 0.0 : gridY(panel, row + 1);
      const double yBottom = panel.y < 0 ? round1(panel.height) : gridY(panel, row);
      int start = 0;
      int state = cellState(panel, 0, row);
      for (int col = 1; col <= cells; ++col) {
        const int next = col < cells ? cellState(panel, col, row) : -1;
        if (next == state) continue;
        if (state != 0) {
          const double x0 = gridX(panel, start);
          rects[static_cast<std::size_t>(state)] += "<rect x=\"" + px(x0) + "\" y=\"" + px(yTop) +
                                                    "\" width=\"" + px(gridX(panel, col) - x0) +
                                                    "\" height=\"" + px(yBottom - yTop) + "\"/>\n";
        }
        start = col;
        state = next;
      }
    }
    // One group per colour keeps each rect to its geometry; crisp edges avoid seams.
    out += "<g class=\"predicted-compatible\" fill=\"" + std::string(kShadeCompatible) +
           "\" shape-rendering=\"crispEdges\">\n" + rects[1] + "</g>\n";
    out += "<g class=\"predicted-incompatible\" fill=\"" + std::string(kShadeIncompatible) +
           "\" shape-rendering=\"crispEdges\">\n" + rects[2] + "</g>\n";
  }

  // Where decision = 0 on the edge from corner a (value va, pixel pa) to corner b, by linear
  // interpolation; called only when exactly one of va, vb is > 0, so va ≠ vb.
  static std::pair<double, double> crossing(double va, double vb, std::pair<double, double> pa,
                                            std::pair<double, double> pb) {
    const double t = va / (va - vb);
    return {pa.first + t * (pb.first - pa.first), pa.second + t * (pb.second - pa.second)};
  }

  static void segment(std::string& d, std::pair<double, double> a, std::pair<double, double> b) {
    d += "M" + px(a.first) + " " + px(a.second) + "L" + px(b.first) + " " + px(b.second);
  }

  void boundary(const Panel& panel, std::string& out) const {
    if (grid_.empty()) return;
    std::string d;
    const int cells = def_.gridCells;
    const auto cornerX = [&](int col) { return panel.width * col / static_cast<double>(cells); };
    const auto cornerY = [&](int row) {
      return panel.height - panel.height * row / static_cast<double>(cells);
    };
    if (panel.y < 0) {
      for (int col = 0; col < cells; ++col) {
        const double va = value(col, 0);
        const double vb = value(col + 1, 0);
        if (!std::isfinite(va) || !std::isfinite(vb) || (va > 0.0) == (vb > 0.0)) continue;
        const double x = crossing(va, vb, {cornerX(col), 0.0}, {cornerX(col + 1), 0.0}).first;
        segment(d, {x, 0.0}, {x, panel.height});
      }
    }
    for (int row = 0; row < rows(panel); ++row) {
      for (int col = 0; col < cells; ++col) {
        // Corners counter-clockwise from bottom left; edge e joins corner e and e + 1.
        const std::array<double, 4> v = {value(col, row), value(col + 1, row),
                                         value(col + 1, row + 1), value(col, row + 1)};
        if (!std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) continue;
        const std::array<std::pair<double, double>, 4> p = {
            std::pair{cornerX(col), cornerY(row)}, std::pair{cornerX(col + 1), cornerY(row)},
            std::pair{cornerX(col + 1), cornerY(row + 1)},
            std::pair{cornerX(col), cornerY(row + 1)}};
        std::array<bool, 4> inside{};
        for (std::size_t c = 0; c < 4; ++c) inside.at(c) = v.at(c) > 0.0;
        std::array<std::pair<double, double>, 4> cross{};
        std::array<bool, 4> crosses{};
        int count = 0;
        for (std::size_t e = 0; e < 4; ++e) {
          const std::size_t f = (e + 1) % 4;
          crosses.at(e) = inside.at(e) != inside.at(f);
          if (crosses.at(e)) {
            cross.at(e) = crossing(v.at(e), v.at(f), p.at(e), p.at(f));
            ++count;
          }
        }
        if (count == 2) {
          std::array<std::size_t, 2> ends{};
          std::size_t n = 0;
          for (std::size_t e = 0; e < 4; ++e) {
            if (crosses.at(e)) ends.at(n++) = e;
          }
          segment(d, cross.at(ends[0]), cross.at(ends[1]));
        } else if (count == 4) {
          // Saddle: the cell's mean decides whether the centre is inside; the segments then
          // cut off the two corners on the other side. Corner c lies between edges c − 1, c.
          const bool centre = (v[0] + v[1] + v[2] + v[3]) > 0.0;
          for (std::size_t c = 0; c < 4; ++c) {
            if (inside.at(c) != centre) segment(d, cross.at((c + 3) % 4), cross.at(c));
          }
        }
      }
    }
    if (d.empty()) return;
    out +=
        "<path class=\"boundary\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.6\" "
        "stroke-linecap=\"round\" d=\"" +
        d + "\"/>\n";
  }

  void axes(const Panel& panel, std::string& out) const {
    const auto xs = static_cast<std::size_t>(panel.x);
    out += "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"" + px(panel.width) + "\" height=\"" +
           px(panel.height) + "\" fill=\"none\" stroke=\"#333\"/>\n";
    std::string ticks;
    std::string labels;
    const std::vector<double> xTicks = samPlotTicks(data_.lower[xs], data_.upper[xs]);
    const int xDecimals = xTicks.size() > 1 ? tickDecimals(xTicks[1] - xTicks[0]) : 3;
    for (const double t : xTicks) {
      const std::string x = px(toX(panel, t));
      ticks += "M" + x + " " + px(panel.height) + "v" + px(kTickLength);
      labels += "<text class=\"tick-label\" x=\"" + x + "\" y=\"" + px(panel.height + 17.0) +
                "\" text-anchor=\"middle\">" + formatFixed(t, xDecimals) + "</text>\n";
    }
    labels += "<text class=\"axis-label\" x=\"" + px(0.5 * panel.width) + "\" y=\"" +
              px(panel.height + 36.0) + "\" text-anchor=\"middle\" font-size=\"12\">" +
              escapeXml(data_.columns[xs]) + "</text>\n";
    if (panel.y >= 0) {
      const auto ys = static_cast<std::size_t>(panel.y);
      const std::vector<double> yTicks = samPlotTicks(data_.lower[ys], data_.upper[ys]);
      const int yDecimals = yTicks.size() > 1 ? tickDecimals(yTicks[1] - yTicks[0]) : 3;
      for (const double t : yTicks) {
        const std::string y = px(toY(panel, t));
        ticks += "M0.0 " + y + "h" + px(-kTickLength);
        labels += "<text class=\"tick-label\" x=\"" + px(-8.0) + "\" y=\"" + y +
                  "\" dy=\"0.35em\" text-anchor=\"end\">" + formatFixed(t, yDecimals) + "</text>\n";
      }
      labels += "<text class=\"axis-label\" transform=\"translate(" + px(-48.0) + " " +
                px(0.5 * panel.height) +
                ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" +
                escapeXml(data_.columns[ys]) + "</text>\n";
    }
    out += "<path class=\"ticks\" fill=\"none\" stroke=\"#333\" d=\"" + ticks + "\"/>\n";
    out += labels;
    std::string fixedValues;
    for (std::size_t d = 0; d < data_.columns.size(); ++d) {
      if (static_cast<int>(d) == panel.x || static_cast<int>(d) == panel.y) continue;
      if (!fixedValues.empty()) fixedValues += ", ";
      fixedValues += data_.columns[d] + " = " + valueText(focus_[d]);
    }
    if (!fixedValues.empty()) {
      out += "<text class=\"subtitle\" x=\"" + px(0.5 * panel.width) + "\" y=\"" + px(-12.0) +
             "\" text-anchor=\"middle\">" + escapeXml(fixedValues) + "</text>\n";
    }
  }

  // Whether `p` shows on the panel: finite, on-axis values inside the axes, every off-axis
  // value within the slab of the focus.
  bool shown(const Panel& panel, const std::vector<double>& p) const {
    for (std::size_t d = 0; d < p.size(); ++d) {
      if (!std::isfinite(p[d])) return false;
      if (static_cast<int>(d) == panel.x || static_cast<int>(d) == panel.y) {
        if (p[d] < data_.lower[d] || p[d] > data_.upper[d]) return false;
      } else if (!(std::abs(data_.scale[d] * (p[d] - focus_[d])) <= def_.slab)) {
        return false;
      }
    }
    return true;
  }

  void points(const Panel& panel, std::string& out) const {
    const auto xs = static_cast<std::size_t>(panel.x);
    const auto ys = static_cast<std::size_t>(std::max(panel.y, 0));
    const auto position = [&](const std::vector<double>& p) {
      return std::pair{toX(panel, p[xs]), toY(panel, p[ys])};
    };
    std::string good;
    std::string bad;
    for (std::size_t k = 0; k < data_.points.size(); ++k) {
      const std::vector<double>& p = data_.points[k];
      if (!shown(panel, p)) continue;
      const auto [x, y] = position(p);
      if (data_.compatible[k]) {
        good += "<circle class=\"compatible\" cx=\"" + px(x) + "\" cy=\"" + px(y) + "\" r=\"" +
                px(kPointRadius) + "\"/>\n";
      } else {
        bad += "<path class=\"incompatible\" d=\"" + cross(x, y) + "\"/>\n";
      }
    }
    // Incompatible on top of compatible: they are rarer, and marked points above both.
    out += "<g fill=\"" + std::string(kPointCompatible) + "\">\n" + good + "</g>\n";
    out += "<g fill=\"none\" stroke=\"" + std::string(kPointIncompatible) +
           "\" stroke-width=\"1.6\">\n" + bad + "</g>\n";
    for (std::size_t k = 0; k < data_.marked.size(); ++k) {
      const std::vector<double>& p = data_.marked[k];
      if (!shown(panel, p)) continue;
      const auto [x, y] = position(p);
      out += "<polygon class=\"marked\" fill=\"" + std::string(kStarFill) +
             "\" stroke=\"#000\" stroke-width=\"1\" points=\"" + star(x, y) + "\"/>\n";
      out += "<text class=\"marked-label\" x=\"" + px(x + 8.0) + "\" y=\"" + px(y - 6.0) +
             "\" font-weight=\"bold\">" + std::to_string(k + 1) + "</text>\n";
    }
  }

 private:
  const SamPlotData& data_;
  const SamPlotDef& def_;
  std::vector<double> focus_;
  std::vector<double> grid_;
};

void legend(const SamPlotData& data, const SamPlotDef& def, double left, double top,
            std::string& out) {
  out += "<g class=\"legend\" transform=\"translate(" + px(left) + " " + px(top) + ")\">\n";
  double y = 0.0;
  const auto label = [&](const std::string& text) {
    out += "<text x=\"24.0\" y=\"" + px(y) + "\" dy=\"0.35em\">" + escapeXml(text) + "</text>\n";
    y += kLegendRow;
  };
  if (data.decision) {
    for (const auto& [fill, text] : {std::pair{kShadeCompatible, "predicted compatible"},
                                     std::pair{kShadeIncompatible, "predicted incompatible"}}) {
      out += "<rect x=\"2.0\" y=\"" + px(y - 6.0) + "\" width=\"14.0\" height=\"12.0\" fill=\"" +
             fill + "\" stroke=\"#999\"/>\n";
      label(text);
    }
    out += "<path d=\"M0.0 " + px(y) + "h18.0\" stroke=\"#000\" stroke-width=\"1.6\"/>\n";
    label("learned boundary");
  }
  out += "<circle cx=\"9.0\" cy=\"" + px(y) + "\" r=\"" + px(kPointRadius) + "\" fill=\"" +
         kPointCompatible + "\"/>\n";
  label("compatible");
  out += "<path d=\"" + cross(9.0, y) + "\" fill=\"none\" stroke=\"" + kPointIncompatible +
         "\" stroke-width=\"1.6\"/>\n";
  label("incompatible");
  if (!data.marked.empty()) {
    out += "<polygon points=\"" + star(9.0, y) + "\" fill=\"" + kStarFill +
           "\" stroke=\"#000\" stroke-width=\"1\"/>\n";
    label("marked (numbered)");
  }
  if (data.columns.size() > 2) {
    // How far off the slice the drawn points may lie, so a reader can judge the overlay.
    out += "<text x=\"0.0\" y=\"" + px(y) + "\" dy=\"0.35em\" fill=\"#555\">points within " +
           escapeXml(valueText(def.slab)) + " (scaled)</text>\n";
    y += kLegendRow;
    out += "<text x=\"0.0\" y=\"" + px(y) + "\" dy=\"0.35em\" fill=\"#555\">of each slice</text>\n";
  }
  out += "</g>\n";
}

}  // namespace

std::vector<double> samPlotTicks(double lower, double upper) {
  if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper) ||
      !std::isfinite(upper - lower)) {
    throw std::invalid_argument("samPlotTicks: need finite lower < upper");
  }
  const double step = tickStep(lower, upper);
  // A tiny fraction of a step of slack keeps ends that are round up to rounding error.
  const double slack = 1e-9 * step;
  const double first = std::ceil((lower - slack) / step);
  const double last = std::floor((upper + slack) / step);
  // Steps below the values' resolution would repeat ticks (or never end): show the ends.
  if (!(last - first >= 0.0) || last - first > kMaxTicks || std::abs(first) > 1e15 ||
      std::abs(last) > 1e15) {
    return {lower, upper};
  }
  std::vector<double> ticks;
  const int count = static_cast<int>(last - first);
  for (int k = 0; k <= count; ++k) ticks.push_back((first + k) * step);
  return ticks;
}

std::string samSliceSvg(const SamPlotData& data, const std::vector<std::pair<int, int>>& panels,
                        const SamPlotDef& def) {
  validate(data, panels, def);
  const int dims = static_cast<int>(data.columns.size());
  std::vector<double> focus = data.focus;
  if (focus.empty()) {
    for (std::size_t d = 0; d < data.columns.size(); ++d) {
      focus.push_back(0.5 * (data.lower[d] + data.upper[d]));
    }
  }
  std::vector<Panel> layout;
  if (dims == 1) {
    layout.push_back({0, -1, def.panelSize, kStripHeight});
  } else if (panels.empty()) {
    for (int i = 0; i < dims; ++i) {
      for (int j = i + 1; j < dims; ++j) layout.push_back({i, j, def.panelSize, def.panelSize});
    }
  } else {
    for (const auto& [i, j] : panels) layout.push_back({i, j, def.panelSize, def.panelSize});
  }

  const auto count = static_cast<int>(layout.size());
  const int perRow = std::min(def.panelsPerRow, count);
  const int rowCount = (count + perRow - 1) / perRow;
  const double cellWidth = kMarginLeft + def.panelSize + kMarginRight;
  const double cellHeight = kMarginTop + layout.front().height + kMarginBottom;
  const double header = data.title.empty() ? kTopPad : kTitleHeight;
  const double width = perRow * cellWidth + kLegendWidth;
  // The legend (at most eight rows) may be taller than a 1-D strip's row.
  const double height = header + std::max(rowCount * cellHeight, kMarginTop + 8 * kLegendRow);

  SvgDef page;
  page.width = width;
  page.height = height;
  page.xmlDeclaration = false;
  page.rootAttributes = "font-family=\"sans-serif\" font-size=\"11\"";
  SvgWriter svg(page);
  svg.background("#fff");
  if (!data.title.empty()) {
    svg.element("text")
        .attribute("class", "title")
        .attribute("x", 0.5 * width)
        .attribute("y", 21.0)
        .attribute("text-anchor", "middle")
        .attribute("font-size", "15")
        .text(data.title);
  }
  // The panels and the legend are built as markup of their own (shading, boundary and
  // points grouped by colour), then written into the document.
  std::string out;
  SliceWriter writer(data, def, focus);
  for (int k = 0; k < count; ++k) {
    const Panel& panel = layout[static_cast<std::size_t>(k)];
    const int column = k % perRow;
    const int row = k / perRow;
    const double left = column * cellWidth + kMarginLeft;
    const double top = header + row * cellHeight + kMarginTop;
    out += "<g class=\"panel\" transform=\"translate(" + px(left) + " " + px(top) + ")\">\n";
    writer.panel(panel, out);
    out += "</g>\n";
  }
  legend(data, def, perRow * cellWidth + 10.0, header + kMarginTop, out);
  svg.raw(out);
  return svg.finish();
}

}  // namespace scl
