#include "tools/plot/plot_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/format.h"
#include "scl/names.h"

namespace scl {

namespace {

// Most ticks an axis draws (a nice step gives at most about ten).
constexpr int kMaxTicks = 50;

constexpr PlotColour kAxis{90, 96, 110};
constexpr PlotColour kGrid{222, 226, 232};
constexpr PlotColour kText{20, 24, 32};
constexpr PlotColour kPhase{120, 120, 140};
constexpr PlotColour kJump{210, 40, 40};
constexpr PlotColour kTimeout{225, 130, 20};
constexpr PlotColour kCursor{20, 110, 220};
constexpr PlotColour kAngle{40, 90, 200};
constexpr PlotColour kTarget{230, 120, 30};
constexpr PlotColour kTorque{120, 60, 170};
constexpr PlotColour kLimit{200, 40, 40};
constexpr PlotColour kComX{214, 40, 40};
constexpr PlotColour kSupport{40, 170, 80};
constexpr PlotColour kHeadColour{40, 90, 200};
constexpr PlotColour kContact{236, 134, 40};

// Heights in text sizes.
constexpr double kHeaderRows = 1.6;
constexpr double kPanelRows = 8.5;
constexpr double kGapRows = 0.7;
constexpr double kContactRows = 1.0;
constexpr double kAxisRows = 2.8;

// The time window: samples [first, last) and the pixel mapping.
struct Window {
  double start = 0.0, end = 1.0;
  double left = 0.0, right = 1.0;
  size_t first = 0, last = 0;
  double x(double time) const { return left + (time - start) / (end - start) * (right - left); }
};

// The value mapping of one panel.
struct Scale {
  double low = 0.0, high = 1.0;
  double top = 0.0, bottom = 1.0;
  double y(double value) const { return bottom - (value - low) / (high - low) * (bottom - top); }
};

double niceStep(double range, int count) {
  const double raw = range / std::max(1, count);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 2.5, 5.0})
    if (raw <= factor * magnitude) return factor * magnitude;
  return 10.0 * magnitude;
}

std::string formatValue(double value, double step) {
  const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 4);
  return formatFixed(value, decimals);
}

// One series over the window: its values and where they are not a number.
struct Series {
  std::string id;
  std::string label;
  const std::vector<double>* values = nullptr;
  PlotColour colour;
  double width = 1.6;
  bool dashed = false;
};

// A constant drawn across a panel (a torque limit).
struct Level {
  std::string id;
  std::string label;
  double value = 0.0;
  PlotColour colour;
};

// Statistics of `values` over the window's samples (NaN skipped).
struct Range {
  double first = std::numeric_limits<double>::quiet_NaN();
  double last = std::numeric_limits<double>::quiet_NaN();
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
};

Range rangeOf(const std::vector<double>& values, const Window& window) {
  Range range;
  for (size_t i = window.first; i < window.last && i < values.size(); ++i) {
    if (!std::isfinite(values[i])) continue;
    if (std::isnan(range.first)) range.first = values[i];
    range.last = values[i];
    range.low = std::min(range.low, values[i]);
    range.high = std::max(range.high, values[i]);
  }
  return range;
}

// Polylines of `values` in the window, broken at NaN; at most two points per pixel column
// (its lowest and highest value), so a long run draws as fast as a short one.
std::vector<std::vector<PlotPoint>> trace(const std::vector<double>& time,
                                          const std::vector<double>& values, const Window& window,
                                          const Scale& scale) {
  std::vector<std::vector<PlotPoint>> lines(1);
  const double columns = std::max(1.0, window.right - window.left);
  const bool decimate = static_cast<double>(window.last - window.first) > 2.0 * columns;
  long column = -1;
  double low = 0.0, high = 0.0;
  auto flush = [&]() {
    if (column < 0) return;
    const double x = window.left + static_cast<double>(column);
    lines.back().push_back({x, scale.y(low)});
    if (high != low) lines.back().push_back({x, scale.y(high)});
  };
  for (size_t i = window.first; i < window.last && i < values.size(); ++i) {
    const double value = values[i];
    if (!std::isfinite(value)) {
      flush();
      column = -1;
      if (!lines.back().empty()) lines.emplace_back();
      continue;
    }
    if (!decimate) {
      lines.back().push_back({window.x(time[i]), scale.y(value)});
      continue;
    }
    const long here = static_cast<long>(window.x(time[i]) - window.left);
    if (here != column) {
      flush();
      column = here;
      low = high = value;
    } else {
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
  flush();
  return lines;
}

class Layout {
 public:
  Layout(PlotCanvas& canvas, const PlotData& data, const PlotFrame& frame)
      : canvas_(canvas), data_(data), frame_(frame), ts_(frame.textSize) {
    window_.left = frame.x + frame.leftMargin;
    window_.right = frame.x + frame.width - 0.6 * ts_;
    const double dataStart = data.time.empty() ? 0.0 : data.time.front();
    const double dataEnd = data.time.empty() ? 1.0 : data.time.back();
    window_.start = frame.start.value_or(dataStart);
    window_.end = frame.end.value_or(dataEnd);
    if (window_.end <= window_.start) window_.end = window_.start + 1.0;
    window_.first = static_cast<size_t>(
        std::lower_bound(data.time.begin(), data.time.end(), window_.start) - data.time.begin());
    window_.last = static_cast<size_t>(
        std::upper_bound(data.time.begin(), data.time.end(), window_.end) - data.time.begin());
    y_ = frame.y + kHeaderRows * ts_;
  }

  // A panel of line series; `extra` values widen its range (limits, support).
  void linePanel(const std::string& title, const std::string& unit,
                 const std::vector<Series>& series, const std::vector<Level>& levels = {},
                 const std::vector<double>* bandLow = nullptr,
                 const std::vector<double>* bandHigh = nullptr) {
    Scale scale;
    // The title and legend take the first row, above the plot: no line runs through them.
    scale.top = y_ + 1.5 * ts_;
    scale.bottom = y_ + kPanelRows * ts_;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const Series& one : series) {
      const Range range = rangeOf(*one.values, window_);
      low = std::min(low, range.low);
      high = std::max(high, range.high);
    }
    for (const Level& level : levels) {
      low = std::min(low, level.value);
      high = std::max(high, level.value);
    }
    if (!(low <= high)) low = 0.0, high = 1.0;
    if (high - low < 1e-6) low -= 0.5, high += 0.5;
    const double margin = 0.06 * (high - low);
    scale.low = low - margin;
    scale.high = high + margin;
    frameAndTicks(scale, unit);
    if (bandLow && bandHigh) band(*bandLow, *bandHigh, scale);
    for (const Level& level : levels) {
      const double y = scale.y(level.value);
      canvas_.beginSeries(level.id, level.value, level.value, level.value, level.value);
      canvas_.polyline(std::vector<PlotPoint>{{window_.left, y}, {window_.right, y}}, level.colour,
                       1.2, true);
      canvas_.endSeries();
    }
    for (const Series& one : series) draw(one, scale);
    std::vector<std::pair<std::string, PlotColour>> extraLegend;
    if (!levels.empty()) extraLegend.emplace_back(levels.front().label, levels.front().colour);
    legend(title, series, y_, extraLegend);
    y_ = scale.bottom + kGapRows * ts_;
  }

  void contactStrip() {
    const double row = kContactRows * ts_;
    const double top = y_;
    canvas_.text(frame_.x + 2.0, top - 0.2 * ts_, "contact", kText, ts_, TextAnchor::Start);
    for (size_t link = 0; link < data_.linkNames.size(); ++link) {
      const double y = top + static_cast<double>(link) * row;
      canvas_.rect(window_.left, y, window_.right - window_.left, row - 1.0,
                   link % 2 ? PlotColour{238, 240, 244} : PlotColour{246, 247, 250}, 1.0);
      canvas_.text(window_.left - 4.0, y + 0.8 * row,
                   linkLabel(data_.linkNames[link], window_.left - 4.0 - (frame_.x + 2.0)), kText,
                   0.8 * ts_, TextAnchor::End);
      const std::vector<std::uint8_t>& touching = data_.contact[link];
      canvas_.beginSeries("contact." + data_.linkNames[link], first(touching), last(touching), 0.0,
                          1.0);
      for (size_t i = window_.first; i < window_.last && i < touching.size();) {
        if (!touching[i]) {
          ++i;
          continue;
        }
        size_t end = i;
        while (end < window_.last && end < touching.size() && touching[end]) ++end;
        const double x0 = window_.x(data_.time[i]);
        const double x1 = end < data_.time.size() ? window_.x(data_.time[end]) : window_.right;
        canvas_.rect(x0, y, std::max(1.0, std::min(x1, window_.right) - x0), row - 1.0, kContact,
                     1.0);
        i = end;
      }
      canvas_.endSeries();
    }
    y_ = top + static_cast<double>(data_.linkNames.size()) * row + kGapRows * ts_;
  }

  void timeAxis() {
    const double axis = y_ - 0.5 * kGapRows * ts_;
    canvas_.polyline(std::vector<PlotPoint>{{window_.left, axis}, {window_.right, axis}}, kAxis,
                     1.0, false);
    const double step = niceStep(window_.end - window_.start, 8);
    const double first = std::ceil(window_.start / step);
    // By tick index, not t += step: at times so large that step is below their spacing
    // (a CSV's column), adding it would not move t and the loop would never end.
    for (int tick = 0; tick <= kMaxTicks; ++tick) {
      const double t = (first + tick) * step;
      if (!(t <= window_.end + 1e-9)) break;
      const double x = window_.x(t);
      canvas_.polyline(std::vector<PlotPoint>{{x, axis}, {x, axis + 0.4 * ts_}}, kAxis, 1.0, false);
      canvas_.text(x, axis + 1.4 * ts_, formatValue(t, step), kText, 0.9 * ts_, TextAnchor::Middle);
    }
    canvas_.text(window_.right, axis + 2.2 * ts_ - 2.0, "time (s)", kText, 0.9 * ts_,
                 TextAnchor::End);
  }

  // Phase boundaries over every panel, named in the header row; then the cursor. Each
  // name has the room up to the next boundary: shortened with "…" when it does not fit,
  // so that names never overlap. Boundaries too close together for even their numbers
  // share one label ("3-4 flight": phases 3 and 4 began there), so that none is dropped.
  void phaseLines(double bottom) {
    const double top = frame_.y + kHeaderRows * ts_;
    struct Shown {
      const PhaseMark* mark;
      double x;
    };
    std::vector<Shown> shown;
    for (const PhaseMark& mark : data_.phases) {
      if (mark.time < window_.start - 1e-9 || mark.time > window_.end + 1e-9) continue;
      const double x = window_.x(mark.time);
      shown.push_back({&mark, x});
      const PlotColour colour = mark.jumped ? kJump : mark.timedOut ? kTimeout : kPhase;
      canvas_.beginSeries("phase." + std::to_string(mark.index + 1), mark.time, mark.time,
                          mark.time, mark.time);
      canvas_.polyline(std::vector<PlotPoint>{{x, top}, {x, bottom}}, colour,
                       mark.jumped ? 1.6 : 1.0, true);
      canvas_.endSeries();
    }
    const double size = 0.85 * ts_;
    // Where the label of a group ending at boundary `last` must end.
    auto endOf = [&](size_t last) {
      return last + 1 < shown.size() ? shown[last + 1].x - 4.0 : frame_.x + frame_.width;
    };
    // "3", "3-5" (phases one after another) or "5,1" (a jump or a cycle).
    auto numbers = [&](size_t first, size_t last) {
      bool consecutive = true;
      for (size_t i = first; i < last; ++i)
        consecutive = consecutive && shown[i + 1].mark->index == shown[i].mark->index + 1;
      std::string text = std::to_string(shown[first].mark->index + 1);
      if (first == last) return text;
      if (consecutive) return text + "-" + std::to_string(shown[last].mark->index + 1);
      for (size_t i = first + 1; i <= last; ++i)
        text += "," + std::to_string(shown[i].mark->index + 1);
      return text;
    };
    for (size_t first = 0, last = 0; first < shown.size(); first = ++last) {
      const double x = shown[first].x + 2.0;
      while (last + 1 < shown.size() &&
             canvas_.textWidth(numbers(first, last), size) > endOf(last) - x)
        ++last;
      const PhaseMark& mark = *shown[last].mark;  // the phase in force after the group
      const std::string number = numbers(first, last);
      std::string label = number;
      if (!mark.name.empty()) label += " " + mark.name;
      if (mark.jumped) label += " (jump)";
      std::string fitted = fitText(canvas_, label, size, endOf(last) - x);
      // Rather the numbers alone than numbers cut short.
      if (fitted.size() < number.size() + 2 || fitted.compare(0, number.size(), number) != 0)
        fitted = canvas_.textWidth(number, size) <= endOf(last) - x ? number : "";
      const PlotColour colour = mark.jumped ? kJump : mark.timedOut ? kTimeout : kPhase;
      if (!fitted.empty())
        canvas_.text(x, top - 0.45 * ts_, fitted, colour, size, TextAnchor::Start);
    }
    if (frame_.cursor && *frame_.cursor >= window_.start && *frame_.cursor <= window_.end) {
      const double x = window_.x(*frame_.cursor);
      canvas_.polyline(std::vector<PlotPoint>{{x, top}, {x, bottom}}, kCursor, 1.5, false);
    }
  }

  double y() const { return y_; }

 private:
  template <typename T>
  double first(const std::vector<T>& values) const {
    return window_.first < values.size() ? static_cast<double>(values[window_.first]) : 0.0;
  }
  template <typename T>
  double last(const std::vector<T>& values) const {
    const size_t end = std::min(window_.last, values.size());
    return end > window_.first ? static_cast<double>(values[end - 1]) : 0.0;
  }

  void frameAndTicks(const Scale& scale, const std::string& unit) {
    canvas_.rect(window_.left, scale.top, window_.right - window_.left, scale.bottom - scale.top,
                 {252, 252, 253}, 1.0);
    const double step = niceStep(scale.high - scale.low, 4);
    const double first = std::ceil(scale.low / step);
    for (int tick = 0; tick <= kMaxTicks; ++tick) {  // by index, as timeAxis
      const double v = (first + tick) * step;
      if (!(v <= scale.high + 1e-12)) break;
      const double y = scale.y(v);
      canvas_.polyline(std::vector<PlotPoint>{{window_.left, y}, {window_.right, y}}, kGrid, 1.0,
                       false);
      canvas_.text(window_.left - 4.0, y + 0.35 * ts_, formatValue(v, step), kText, 0.85 * ts_,
                   TextAnchor::End);
    }
    canvas_.polyline(
        std::vector<PlotPoint>{
            {window_.left, scale.top}, {window_.left, scale.bottom}, {window_.right, scale.bottom}},
        kAxis, 1.0, false);
    canvas_.text(frame_.x + 2.0, scale.top - 0.3 * ts_, unit, kText, 0.85 * ts_, TextAnchor::Start);
  }

  void band(const std::vector<double>& low, const std::vector<double>& high, const Scale& scale) {
    std::vector<PlotPoint> lower, upper;
    auto flush = [&]() {
      if (lower.size() >= 2) {
        std::vector<PlotPoint> outline(lower);
        outline.insert(outline.end(), upper.rbegin(), upper.rend());
        canvas_.polygon(outline, kSupport, 0.25);
      }
      lower.clear();
      upper.clear();
    };
    const double columns = std::max(1.0, window_.right - window_.left);
    const size_t stride = std::max<size_t>(
        1, static_cast<size_t>(static_cast<double>(window_.last - window_.first) / columns));
    for (size_t i = window_.first; i < window_.last && i < low.size(); i += stride) {
      if (!std::isfinite(low[i]) || !std::isfinite(high[i])) {
        flush();
        continue;
      }
      lower.push_back({window_.x(data_.time[i]), scale.y(low[i])});
      upper.push_back({window_.x(data_.time[i]), scale.y(high[i])});
    }
    flush();
  }

  void draw(const Series& series, const Scale& scale) {
    const Range range = rangeOf(*series.values, window_);
    canvas_.beginSeries(series.id, range.first, range.last, range.low, range.high);
    for (const auto& line : trace(data_.time, *series.values, window_, scale))
      if (line.size() >= 2) canvas_.polyline(line, series.colour, series.width, series.dashed);
    canvas_.endSeries();
  }

  // The panel's title and its series' legend on one line above the plot, within the
  // panel: when the whole does not fit, the last values go first, then the labels share
  // the width left, each shortened with "…".
  void legend(const std::string& title, const std::vector<Series>& series, double top,
              const std::vector<std::pair<std::string, PlotColour>>& dashed) {
    struct Entry {
      std::string label, value;
      PlotColour colour;
      double width;
      bool dashed;
    };
    std::vector<Entry> entries;
    for (const Series& one : series) {
      if (one.label.empty()) continue;
      std::string value;
      const Range range = rangeOf(*one.values, window_);
      if (frame_.legendValues && std::isfinite(range.last))
        value = formatSignificant(range.last, 3);
      entries.push_back({one.label, value, one.colour, 2.0, one.dashed});
    }
    for (const auto& [label, colour] : dashed) entries.push_back({label, "", colour, 1.2, true});
    const double labelSize = 0.9 * ts_;
    const double swatch = 2.0 * ts_;  // the line, 1.6 text sizes, and a gap
    const double gap = ts_;
    const double left = window_.left + 6.0;
    const double room = window_.right - left;
    auto shownLabel = [](const Entry& entry, bool values) {
      return values && !entry.value.empty() ? entry.label + " " + entry.value : entry.label;
    };
    auto widthWith = [&](bool values) {
      double width = canvas_.textWidth(title, ts_) + gap;
      for (const Entry& entry : entries)
        width += swatch + canvas_.textWidth(shownLabel(entry, values), labelSize) + gap;
      return width - gap;
    };
    const bool values = widthWith(true) <= room;
    std::string shownTitle = title;
    // Each label's room when even the labels alone do not fit: the title keeps at most
    // half the width, the labels share the rest.
    double labelRoom = std::numeric_limits<double>::infinity();
    if (!values && widthWith(false) > room) {
      shownTitle = fitText(canvas_, title, ts_, 0.5 * room);
      const double rest = room - canvas_.textWidth(shownTitle, ts_) - gap -
                          static_cast<double>(entries.size()) * (swatch + gap);
      labelRoom = entries.empty() ? 0.0 : std::max(0.0, rest / static_cast<double>(entries.size()));
    }
    double x = left;
    const double y = top + 1.0 * ts_;
    canvas_.text(x, y, shownTitle, kText, ts_, TextAnchor::Start);
    x += canvas_.textWidth(shownTitle, ts_) + gap;
    for (const Entry& entry : entries) {
      if (x + 1.6 * ts_ > window_.right) break;  // not even its line fits
      canvas_.polyline(std::vector<PlotPoint>{{x, y - 0.35 * ts_}, {x + 1.6 * ts_, y - 0.35 * ts_}},
                       entry.colour, entry.width, entry.dashed);
      x += swatch;
      const std::string label = fitText(canvas_, shownLabel(entry, values), labelSize,
                                        std::min(labelRoom, window_.right - x));
      canvas_.text(x, y, label, kText, labelSize, TextAnchor::Start);
      x += canvas_.textWidth(label, labelSize) + gap;
    }
  }

  // A link's name in at most `room` pixels: whole, else with "left"/"right" shortened to
  // "l"/"r" (`rForearm`), else cut with "…"; never broken mid-word without the mark.
  std::string linkLabel(std::string_view name, double room) const {
    const double size = 0.8 * ts_;
    if (canvas_.textWidth(name, size) <= room) return std::string(name);
    std::string shorter(name);
    for (std::string_view side : {"left", "right"})
      if (name.starts_with(side) && name.size() > side.size()) {
        shorter = std::string(1, side.front()) + std::string(name.substr(side.size()));
        break;
      }
    return fitText(canvas_, shorter, size, room);
  }

  PlotCanvas& canvas_;
  const PlotData& data_;
  const PlotFrame& frame_;
  double ts_;
  Window window_;
  double y_ = 0.0;
};

}  // namespace

double PlotCanvas::textWidth(std::string_view text, double size) const {
  // Characters, not bytes: a UTF-8 continuation byte starts none ("…" is three bytes).
  double characters = 0.0;
  for (char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) == 0x80 ? 0.0 : 1.0;
  return 0.62 * size * characters;
}

std::string fitText(const PlotCanvas& canvas, std::string_view text, double size, double width) {
  if (canvas.textWidth(text, size) <= width) return std::string(text);
  constexpr std::string_view kEllipsis = "\u2026";
  // The start of `length` bytes with the mark (no space before it).
  auto cut = [&](size_t length) {
    std::string candidate(text.substr(0, length));
    while (!candidate.empty() && candidate.back() == ' ') candidate.pop_back();
    return candidate += kEllipsis;
  };
  // Cut at a character's first byte only; the longest start that fits, by bisection (a
  // start is never narrower than a shorter one).
  std::vector<size_t> cuts;
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
  size_t low = 0, high = cuts.size();  // cuts[low] fits (checked below), cuts[high] not
  if (canvas.textWidth(cut(0), size) > width) return "";
  while (high - low > 1) {
    const size_t middle = low + (high - low) / 2;
    if (canvas.textWidth(cut(cuts[middle]), size) <= width)
      low = middle;
    else
      high = middle;
  }
  return cut(cuts[low]);
}

double plotHeight(const PlotSelection& selection, double textSize) {
  double rows = kHeaderRows + kAxisRows;
  const double panels = 2.0 * static_cast<double>(selection.joints.size()) +
                        2.0 * static_cast<double>(selection.objects.size()) +
                        (selection.com ? 1.0 : 0.0) + (selection.heights ? 1.0 : 0.0) +
                        (selection.feet ? 1.0 : 0.0) + (selection.hands ? 1.0 : 0.0);
  rows += panels * (kPanelRows + kGapRows);
  if (selection.contacts) rows += selection.contactLinks * kContactRows + kGapRows;
  return rows * textSize;
}

void drawPlots(PlotCanvas& canvas, const PlotData& data, const PlotSelection& selection,
               const PlotFrame& frame) {
  Layout layout(canvas, data, frame);
  for (int joint : selection.joints) {
    const auto j = static_cast<size_t>(joint);
    const std::string name = j < data.jointNames.size() ? data.jointNames[j] : "joint";
    std::vector<Series> angle = {{name + ".angle", "angle", &data.angleDeg[j], kAngle, 1.8}};
    if (data.hasTargets)
      angle.push_back({name + ".target", "PD target", &data.targetDeg[j], kTarget, 1.4, true});
    layout.linePanel(name, "deg", angle);
    const double limit = data.torqueLimit[j];
    layout.linePanel(name + " torque", "N m",
                     {{name + ".torque", "torque", &data.torque[j], kTorque, 1.4}},
                     {{name + ".limit.low", "limit", -limit, kLimit},
                      {name + ".limit.high", "limit", limit, kLimit}});
  }
  if (selection.com)
    layout.linePanel("centre of mass x", "m",
                     {{"com.x", "COM x", &data.comX, kComX, 1.8},
                      {"support.low", "support", &data.supportLow, kSupport, 1.0},
                      {"support.high", "", &data.supportHigh, kSupport, 1.0}},
                     {}, &data.supportLow, &data.supportHigh);
  if (selection.heights)
    layout.linePanel("heights", "m",
                     {{"com.height", "COM height", &data.comHeight, kComX, 1.8},
                      {"head.height", "head height", &data.headHeight, kHeadColour, 1.8}});
  if (selection.feet)
    layout.linePanel(
        "feet", "m",
        {{"leftHeel.height", "left heel", &data.heelHeight[0], kComX, 1.6},
         {"leftToe.height", "left toe", &data.toeHeight[0], kComX, 1.2, true},
         {"rightHeel.height", "right heel", &data.heelHeight[1], kHeadColour, 1.6},
         {"rightToe.height", "right toe", &data.toeHeight[1], kHeadColour, 1.2, true}});
  if (selection.hands)
    layout.linePanel("hands", "m",
                     {{"leftHand.height", "left hand", &data.handHeight[0], kComX, 1.6},
                      {"rightHand.height", "right hand", &data.handHeight[1], kHeadColour, 1.6}});
  for (int index : selection.objects) {
    const auto i = static_cast<size_t>(index);
    if (i >= data.objects.size()) continue;
    const PlotObject& object = data.objects[i];
    layout.linePanel(object.name, "m",
                     {{object.name + ".x", "x", &object.x, kComX, 1.8},
                      {object.name + ".y", "y", &object.y, kHeadColour, 1.8}});
    layout.linePanel(object.name + " angle", "deg",
                     {{object.name + ".angle", "angle", &object.angleDeg, kAngle, 1.8}});
  }
  if (selection.contacts) layout.contactStrip();
  const double bottom = layout.y() - 0.5 * kGapRows * frame.textSize;
  layout.phaseLines(bottom);
  layout.timeAxis();
}

namespace {

// The names of a comma-separated list, each checked non-empty ("empty WHAT name in ...").
std::vector<std::string_view> splitNameList(std::string_view list, std::string_view what) {
  std::vector<std::string_view> names;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view name = list.substr(start, comma - start);
    start = comma + 1;
    if (name.empty())
      throw std::invalid_argument("empty " + std::string(what) + " name in '" + std::string(list) +
                                  "'");
    names.push_back(name);
  }
  return names;
}

void addOnce(std::vector<int>& indices, int index) {
  if (std::find(indices.begin(), indices.end(), index) == indices.end()) indices.push_back(index);
}

}  // namespace

std::vector<int> parseJointList(std::string_view list, const Character& character) {
  const CharacterNames names(character);
  std::vector<int> joints;
  for (std::string_view name : splitNameList(list, "joint")) {
    const NameLookup found = names.joints(name, Groups::Allowed);
    if (!found.ok()) throw std::invalid_argument(found.error);
    for (int joint : found.indices) addOnce(joints, joint);
  }
  return joints;
}

std::vector<int> parseObjectList(std::string_view list, const PlotData& data) {
  std::vector<std::string_view> names;
  for (const PlotObject& object : data.objects) names.push_back(object.name);
  if (names.empty())
    throw std::invalid_argument(
        "the scene has no movable object or moving platform to plot (world statements: "
        "docs/scene.md)");
  std::vector<int> objects;
  for (std::string_view name : splitNameList(list, "object")) {
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end())
      throw std::invalid_argument(unknownChoiceMessage("object", name, names));
    addOnce(objects, static_cast<int>(found - names.begin()));
  }
  return objects;
}

}  // namespace scl
