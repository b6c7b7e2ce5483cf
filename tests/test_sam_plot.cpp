// SVG slices of a state–action compatibility model (optimize/sam/sam_plot.h) for classifiers
// whose boundary is known (a disc, a ball, a threshold), so that the traced boundary, the
// points drawn near each slice and the document's structure can be checked exactly.
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "optimize/sam/sam_plot.h"

namespace {

std::size_t countOf(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// The document cut at each panel: element k + 1 is panel k (element 0 the header).
std::vector<std::string> panelsOf(const std::string& svg) {
  std::vector<std::string> parts;
  const std::string mark = "<g class=\"panel\"";
  std::size_t start = 0;
  for (std::size_t at = svg.find(mark); at != std::string::npos; at = svg.find(mark, at + 1)) {
    parts.push_back(svg.substr(start, at - start));
    start = at;
  }
  parts.push_back(svg.substr(start));
  return parts;
}

// The vertices (local pixels) of the panel's boundary path; empty without one.
std::vector<std::pair<double, double>> boundaryVertices(const std::string& panel) {
  std::vector<std::pair<double, double>> vertices;
  const std::size_t path = panel.find("class=\"boundary\"");
  if (path == std::string::npos) return vertices;
  const std::size_t begin = panel.find(" d=\"", path) + 4;
  const std::string d = panel.substr(begin, panel.find('"', begin) - begin);
  std::size_t at = 0;
  while (at < d.size()) {
    REQUIRE((d[at] == 'M' || d[at] == 'L'));
    std::size_t used = 0;
    const double x = std::stod(d.substr(at + 1), &used);
    at += 1 + used;
    REQUIRE(d[at] == ' ');
    const double y = std::stod(d.substr(at + 1), &used);
    at += 1 + used;
    vertices.emplace_back(x, y);
  }
  return vertices;
}

constexpr double kPanel = 300.0;

// Data value of a local pixel along an axis spanning [lower, upper] (y grows downwards).
double fromX(double x, double lower, double upper) { return lower + x / kPanel * (upper - lower); }
double fromY(double y, double lower, double upper) {
  return lower + (kPanel - y) / kPanel * (upper - lower);
}

// A disc of radius 0.6 about (0.1, -0.1) in [-1, 1]²: positive inside.
scl::SamPlotData discData() {
  scl::SamPlotData data;
  data.columns = {"x", "y"};
  data.lower = {-1.0, -1.0};
  data.upper = {1.0, 1.0};
  data.scale = {1.0, 1.0};
  data.decision = [](const std::vector<double>& p) {
    return 0.36 - (p[0] - 0.1) * (p[0] - 0.1) - (p[1] + 0.1) * (p[1] + 0.1);
  };
  return data;
}

// The thesis's sit-to-stand space: a chair height in m and two joint angles in degrees,
// scaled (10, 1/40, 1/40); compatible inside the unit ball (scaled) about the focus.
scl::SamPlotData ballData() {
  scl::SamPlotData data;
  data.columns = {"height", "knee", "hip"};
  data.lower = {0.3, 0.0, 0.0};
  data.upper = {0.6, 120.0, 120.0};
  data.scale = {10.0, 1.0 / 40.0, 1.0 / 40.0};
  data.focus = {0.45, 60.0, 60.0};
  data.decision = [](const std::vector<double>& p) {
    const double h = 10.0 * (p[0] - 0.45);
    const double k = (p[1] - 60.0) / 40.0;
    const double a = (p[2] - 60.0) / 40.0;
    return 1.0 - h * h - k * k - a * a;
  };
  data.title = "sit-to-stand";
  return data;
}

void requireWellFormed(const std::string& svg) {
  REQUIRE(svg.rfind("<svg", 0) == 0);
  REQUIRE(svg.size() > 7);
  REQUIRE(svg.substr(svg.size() - 7) == "</svg>\n");
  REQUIRE(countOf(svg, "<svg") == countOf(svg, "</svg>"));
  REQUIRE(countOf(svg, "<g ") + countOf(svg, "<g>") == countOf(svg, "</g>"));
  REQUIRE(countOf(svg, "<text") == countOf(svg, "</text>"));
  // Every other element is self-closing.
  for (const std::string element : {"<rect", "<circle", "<path", "<polygon"}) {
    std::size_t closed = 0;
    for (std::size_t at = svg.find(element); at != std::string::npos;
         at = svg.find(element, at + 1)) {
      const std::size_t end = svg.find('>', at);
      REQUIRE(end != std::string::npos);
      if (svg[end - 1] == '/') ++closed;
    }
    CHECK(closed == countOf(svg, element));
  }
}

}  // namespace

TEST_CASE("sam plot: a disc's boundary is traced on its circle", "[sam_plot]") {
  const std::string svg = scl::samSliceSvg(discData());
  requireWellFormed(svg);
  const std::vector<std::string> parts = panelsOf(svg);
  REQUIRE(parts.size() == 2);
  const std::vector<std::pair<double, double>> vertices = boundaryVertices(parts[1]);
  REQUIRE(vertices.size() > 100);
  const double cell = 2.0 / 60.0;
  std::vector<int> quadrants(4, 0);
  for (const auto& [px, py] : vertices) {
    const double x = fromX(px, -1.0, 1.0) - 0.1;
    const double y = fromY(py, -1.0, 1.0) + 0.1;
    // Linear interpolation on a circle is far better than a cell (error ~ cell² / radius).
    CHECK(std::abs(std::hypot(x, y) - 0.6) < 0.1 * cell);
    ++quadrants[(x >= 0.0 ? 0 : 1) + (y >= 0.0 ? 0 : 2)];
  }
  // The whole circle, not an arc of it.
  for (const int n : quadrants) CHECK(n > 10);
  // Both axis names, no subtitle (no coordinate is off the axes).
  CHECK(svg.find(">x</text>") != std::string::npos);
  CHECK(svg.find(">y</text>") != std::string::npos);
  CHECK(countOf(svg, "class=\"subtitle\"") == 0);
}

TEST_CASE("sam plot: a saddle cell joins the side its centre is on", "[sam_plot]") {
  // 3 × 3 cells over [-1, 1]²: the middle cell's corners are (±1/3, ±1/3), where x·y
  // alternates in sign, so the cell mean (the offset) decides how the four crossings pair.
  for (const double offset : {0.01, -0.01}) {
    scl::SamPlotData data = discData();
    data.decision = [offset](const std::vector<double>& p) { return p[0] * p[1] + offset; };
    scl::SamPlotDef def;
    def.gridCells = 3;
    const std::vector<std::pair<double, double>> vertices =
        boundaryVertices(panelsOf(scl::samSliceSvg(data, {}, def))[1]);
    REQUIRE(vertices.size() % 2 == 0);
    int middle = 0;
    for (std::size_t k = 0; k < vertices.size(); k += 2) {
      const double x =
          0.5 * (fromX(vertices[k].first, -1.0, 1.0) + fromX(vertices[k + 1].first, -1.0, 1.0));
      const double y =
          0.5 * (fromY(vertices[k].second, -1.0, 1.0) + fromY(vertices[k + 1].second, -1.0, 1.0));
      if (std::abs(x) > 1.0 / 3.0 || std::abs(y) > 1.0 / 3.0) continue;
      ++middle;
      // Centre inside (offset > 0): the segments cut off the outside corners, where
      // x·y < 0, and the other way round.
      CHECK((offset > 0.0 ? x * y < 0.0 : x * y > 0.0));
    }
    CHECK(middle == 2);
  }
}

TEST_CASE("sam plot: shading merges runs of equal cells", "[sam_plot]") {
  const std::string svg = scl::samSliceSvg(discData());
  // 60 × 60 cells; each row is at most three runs (out, in, out), so at most 180 rects.
  const std::size_t rects = countOf(svg, "<rect");
  CHECK(rects < 200);
  CHECK(svg.find("class=\"predicted-compatible\"") != std::string::npos);
  CHECK(svg.find("class=\"predicted-incompatible\"") != std::string::npos);

  scl::SamPlotData everywhere = discData();
  everywhere.decision = [](const std::vector<double>&) { return 1.0; };
  const std::string uniform = scl::samSliceSvg(everywhere);
  const std::size_t begin = uniform.find("class=\"predicted-compatible\"");
  const std::string group = uniform.substr(begin, uniform.find("</g>", begin) - begin);
  CHECK(countOf(group, "<rect") == 60);  // one run per row
  CHECK(countOf(uniform, "class=\"boundary\"") == 0);

  scl::SamPlotData none = discData();
  none.decision = nullptr;
  const std::string bare = scl::samSliceSvg(none);
  requireWellFormed(bare);
  CHECK(countOf(bare, "predicted-") == 0);
  CHECK(countOf(bare, "learned boundary") == 0);
}

TEST_CASE("sam plot: a ball in 3-D gives three slices through its centre", "[sam_plot]") {
  const std::string svg = scl::samSliceSvg(ballData());
  requireWellFormed(svg);
  const std::vector<std::string> parts = panelsOf(svg);
  REQUIRE(parts.size() == 4);
  CHECK(countOf(svg, "class=\"panel\"") == 3);
  const scl::SamPlotData data = ballData();
  // Panels (height, knee), (height, hip), (knee, hip), in that order.
  const std::vector<std::pair<int, int>> axes = {{0, 1}, {0, 2}, {1, 2}};
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const auto [i, j] = axes[k];
    const auto si = static_cast<std::size_t>(i);
    const auto sj = static_cast<std::size_t>(j);
    const std::vector<std::pair<double, double>> vertices = boundaryVertices(parts[k + 1]);
    REQUIRE(vertices.size() > 50);
    for (const auto& [px, py] : vertices) {
      const double u =
          data.scale[si] * (fromX(px, data.lower[si], data.upper[si]) - data.focus[si]);
      const double v =
          data.scale[sj] * (fromY(py, data.lower[sj], data.upper[sj]) - data.focus[sj]);
      // One cell is 0.05 in scaled units along every axis here.
      CHECK(std::abs(std::hypot(u, v) - 1.0) < 0.1 * 0.05);
    }
  }
  // Names on the axes, the fixed coordinate in each subtitle, round ticks, the title.
  for (const std::string name : {">height</text>", ">knee</text>", ">hip</text>"}) {
    CHECK(svg.find(name) != std::string::npos);
  }
  CHECK(parts[1].find(">hip = 60</text>") != std::string::npos);
  CHECK(parts[2].find(">knee = 60</text>") != std::string::npos);
  CHECK(parts[3].find(">height = 0.45</text>") != std::string::npos);
  CHECK(svg.find(">0.35</text>") != std::string::npos);
  CHECK(svg.find(">80</text>") != std::string::npos);
  CHECK(svg.find(">sit-to-stand</text>") != std::string::npos);
  CHECK(countOf(svg, "class=\"legend\"") == 1);
}

TEST_CASE("sam plot: only points within the slab are drawn", "[sam_plot]") {
  scl::SamPlotData data = ballData();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  data.points = {
      {0.46, 55.0, 65.0},   // within the slab of every coordinate: every panel
      {0.50, 60.0, 60.0},   // height off by 0.5 scaled: only panels with height on an axis
      {0.45, 100.0, 60.0},  // knee off by 1.0 scaled: only panels with knee on an axis
      {0.45, 60.0, 200.0},  // hip outside its range: nowhere
      {nan, 60.0, 60.0},    // not finite: nowhere
  };
  data.compatible = {true, true, false, true, true};
  const std::string svg = scl::samSliceSvg(data);
  requireWellFormed(svg);
  const std::vector<std::string> parts = panelsOf(svg);
  REQUIRE(parts.size() == 4);
  CHECK(countOf(parts[1], "class=\"compatible\"") == 2);  // (height, knee)
  CHECK(countOf(parts[1], "class=\"incompatible\"") == 1);
  CHECK(countOf(parts[2], "class=\"compatible\"") == 2);  // (height, hip)
  CHECK(countOf(parts[2], "class=\"incompatible\"") == 0);
  CHECK(countOf(parts[3], "class=\"compatible\"") == 1);  // (knee, hip)
  CHECK(countOf(parts[3], "class=\"incompatible\"") == 1);
  // Incompatible points are drawn after (on top of) the compatible ones.
  CHECK(parts[1].find("class=\"incompatible\"") > parts[1].rfind("class=\"compatible\""));

  // An infinite slab draws every finite point inside the axes.
  scl::SamPlotDef wide;
  wide.slab = std::numeric_limits<double>::infinity();
  const std::string all = scl::samSliceSvg(data, {}, wide);
  CHECK(countOf(all, "class=\"compatible\"") == 7);  // 3 + 2 + 2 (the 4th only off-range)
  CHECK(countOf(all, "class=\"incompatible\"") == 3);
}

TEST_CASE("sam plot: marked points are stars with their numbers", "[sam_plot]") {
  scl::SamPlotData data = ballData();
  data.marked = {{0.45, 60.0, 60.0}, {0.40, 30.0, 62.0}};
  const std::string svg = scl::samSliceSvg(data);
  requireWellFormed(svg);
  const std::vector<std::string> parts = panelsOf(svg);
  REQUIRE(parts.size() == 4);
  // The first is at the focus (every panel); the second within the slab only of hip, so
  // only on (height, knee).
  CHECK(countOf(parts[1], "class=\"marked\"") == 2);
  CHECK(countOf(parts[2], "class=\"marked\"") == 1);
  CHECK(countOf(parts[3], "class=\"marked\"") == 1);
  CHECK(countOf(svg, "font-weight=\"bold\">1</text>") == 3);
  CHECK(countOf(svg, "font-weight=\"bold\">2</text>") == 1);
  CHECK(svg.find("marked (numbered)") != std::string::npos);
}

TEST_CASE("sam plot: the same input gives the same bytes", "[sam_plot]") {
  const auto make = [] {
    scl::SamPlotData data = ballData();
    data.points = {{0.46, 55.0, 65.0}, {0.45, 100.0, 60.0}};
    data.compatible = {true, false};
    data.marked = {{0.45, 60.0, 60.0}};
    return data;
  };
  const scl::SamPlotData data = make();
  const std::string first = scl::samSliceSvg(data, {{2, 1}, {0, 1}});
  const std::string second = scl::samSliceSvg(make(), {{2, 1}, {0, 1}});
  CHECK(first == second);
  CHECK(first == scl::samSliceSvg(data, {{2, 1}, {0, 1}}));
  CHECK(countOf(first, "class=\"panel\"") == 2);
  CHECK(first != scl::samSliceSvg(data));
}

TEST_CASE("sam plot: non-finite decisions and points never reach the SVG", "[sam_plot]") {
  scl::SamPlotData data = discData();
  // Not a number on the right half, infinite on a band at the bottom.
  data.decision = [](const std::vector<double>& p) {
    if (p[0] > 0.3) return std::numeric_limits<double>::quiet_NaN();
    if (p[1] < -0.9) return -std::numeric_limits<double>::infinity();
    return 0.36 - p[0] * p[0] - p[1] * p[1];
  };
  const double inf = std::numeric_limits<double>::infinity();
  data.points = {{inf, 0.0}, {0.0, 0.0}};
  data.compatible = {true, false};
  data.marked = {{std::nan(""), 0.0}};
  const std::string svg = scl::samSliceSvg(data);
  requireWellFormed(svg);
  std::string lower = svg;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  CHECK(lower.find("nan") == std::string::npos);
  CHECK(lower.find("inf") == std::string::npos);
  // The boundary is still traced where the decision is finite.
  const std::vector<std::pair<double, double>> vertices = boundaryVertices(panelsOf(svg)[1]);
  REQUIRE_FALSE(vertices.empty());
  for (const auto& [px, py] : vertices) {
    CHECK(fromX(px, -1.0, 1.0) <= 0.3 + 1e-9);
    CHECK(std::abs(std::hypot(fromX(px, -1.0, 1.0), fromY(py, -1.0, 1.0)) - 0.6) < 2.0 / 60.0);
  }
  CHECK(countOf(svg, "class=\"compatible\"") == 0);
  CHECK(countOf(svg, "class=\"incompatible\"") == 1);
  CHECK(countOf(svg, "class=\"marked\"") == 0);
}

TEST_CASE("sam plot: one coordinate is a 1-D strip", "[sam_plot]") {
  scl::SamPlotData data;
  data.columns = {"height"};
  data.lower = {0.3};
  data.upper = {0.6};
  data.scale = {10.0};
  data.decision = [](const std::vector<double>& p) { return 0.47 - p[0]; };
  data.points = {{0.35}, {0.55}};
  data.compatible = {true, false};
  const std::string svg = scl::samSliceSvg(data);
  requireWellFormed(svg);
  CHECK(countOf(svg, "class=\"panel\"") == 1);
  const std::vector<std::pair<double, double>> vertices = boundaryVertices(panelsOf(svg)[1]);
  REQUIRE(vertices.size() == 2);  // one vertical line
  for (const auto& [px, py] : vertices) CHECK(std::abs(px - (0.47 - 0.3) / 0.3 * kPanel) < 0.11);
  CHECK(vertices[0].second != vertices[1].second);
  CHECK(countOf(svg, "class=\"compatible\"") == 1);
  CHECK(countOf(svg, "class=\"incompatible\"") == 1);
  CHECK(svg.find(">height</text>") != std::string::npos);
  CHECK_THROWS_AS(scl::samSliceSvg(data, {{0, 0}}), std::invalid_argument);
}

TEST_CASE("sam plot: ticks are round", "[sam_plot]") {
  CHECK(scl::samPlotTicks(0.0, 1.0) ==
        std::vector<double>{0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0});
  CHECK(scl::samPlotTicks(0.0, 120.0) ==
        std::vector<double>{0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0});
  const std::vector<double> ticks = scl::samPlotTicks(0.3, 0.6);
  REQUIRE(ticks.size() == 7);
  CHECK(ticks.front() == Approx(0.3));
  CHECK(ticks.back() == Approx(0.6));
  for (const double t : scl::samPlotTicks(-7.3, 13.1)) CHECK(std::fmod(std::abs(t), 5.0) == 0.0);
  CHECK(scl::samPlotTicks(1e20, 1e20 + 16384.0).size() >= 2);  // ends when too narrow
  CHECK_THROWS_AS(scl::samPlotTicks(1.0, 1.0), std::invalid_argument);
}

TEST_CASE("sam plot: invalid input throws", "[sam_plot]") {
  using Catch::Matchers::Contains;
  const auto throws = [](const scl::SamPlotData& data,
                         const std::vector<std::pair<int, int>>& panels = {},
                         const scl::SamPlotDef& def = {}) {
    CHECK_THROWS_AS(scl::samSliceSvg(data, panels, def), std::invalid_argument);
  };
  REQUIRE_NOTHROW(scl::samSliceSvg(ballData()));
  scl::SamPlotData data = ballData();
  data.lower.pop_back();
  CHECK_THROWS_WITH(scl::samSliceSvg(data), Contains("lower has 2 values, expected 3"));
  data = ballData();
  data.upper[1] = data.lower[1];
  CHECK_THROWS_WITH(scl::samSliceSvg(data), Contains("range of column 1 'knee'"));
  data = ballData();
  data.scale[2] = 0.0;
  CHECK_THROWS_WITH(scl::samSliceSvg(data), Contains("scale of column 2 'hip'"));
  data = ballData();
  data.focus = {0.45, 60.0};
  throws(data);
  data = ballData();
  data.focus[0] = std::nan("");
  throws(data);
  data = ballData();
  data.points = {{0.4, 1.0, 2.0}};
  throws(data);  // no label
  data.compatible = {true};
  data.points = {{0.4, 1.0}};
  throws(data);  // two values for three columns
  data = ballData();
  data.marked = {{0.4}};
  throws(data);
  CHECK_THROWS_WITH(scl::samSliceSvg(ballData(), {{0, 3}}), Contains("out of range"));
  throws(ballData(), {{-1, 2}});
  throws(ballData(), {{1, 1}});
  scl::SamPlotDef def;
  def.gridCells = 0;
  throws(ballData(), {}, def);
  def = {};
  def.slab = -1.0;
  throws(ballData(), {}, def);
  def = {};
  def.panelSize = std::numeric_limits<double>::infinity();
  throws(ballData(), {}, def);
  def = {};
  def.panelsPerRow = 0;
  throws(ballData(), {}, def);
  throws(scl::SamPlotData{});
}

TEST_CASE("sam plot: text is escaped and panels wrap after three", "[sam_plot]") {
  scl::SamPlotData data = ballData();
  data.title = "a < b & \"c\"";
  data.columns[0] = "h<1>";
  const std::string svg = scl::samSliceSvg(data, {{0, 1}, {0, 2}, {1, 2}, {2, 0}});
  requireWellFormed(svg);
  CHECK(svg.find("a &lt; b &amp; &quot;c&quot;") != std::string::npos);
  CHECK(svg.find(">h&lt;1&gt;</text>") != std::string::npos);
  CHECK(svg.find("h<1>") == std::string::npos);
  // The fourth panel starts a second row, under the first.
  const std::vector<std::string> parts = panelsOf(svg);
  REQUIRE(parts.size() == 5);
  const auto translate = [](const std::string& panel) {
    const std::size_t at = panel.find("translate(") + 10;
    std::size_t used = 0;
    const double x = std::stod(panel.substr(at), &used);
    const double y = std::stod(panel.substr(at + used + 1));
    return std::pair{x, y};
  };
  CHECK(translate(parts[4]).first == translate(parts[1]).first);
  CHECK(translate(parts[4]).second > translate(parts[1]).second + kPanel);
  CHECK(translate(parts[3]).second == translate(parts[1]).second);
}
