// What `scl optimize` writes: log.csv, progress.svg and the before/after report.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string_view>

#include "optimize/optimizer.h"

namespace scl {

namespace {

std::string exact(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
}

// Appends pieces in order without the temporaries of a chain of '+'.
void appendAll(std::string& out, std::initializer_list<std::string_view> pieces) {
  for (std::string_view piece : pieces) out += piece;
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string general(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace

std::string logCsvHeader(const OptimizationProblem& problem) {
  std::string text = "generation,evaluations,best,generation_best,mean,sigma,infeasible,wall_time";
  for (const Parameter& parameter : problem.program.parameters) text += ',' + parameter.name;
  return text + '\n';
}

std::string logCsvRow(const GenerationRecord& record) {
  std::string text = std::to_string(record.generation) + ',' + std::to_string(record.evaluations) +
                     ',' + exact(record.best) + ',' + exact(record.generationBest) + ',' +
                     exact(record.mean) + ',' + exact(record.sigma) + ',' +
                     std::to_string(record.infeasible) + ',' + exact(record.wallTime);
  for (double value : record.bestParameters) text += ',' + exact(value);
  return text + '\n';
}

std::string logCsv(const OptimizationProblem& problem, const std::vector<GenerationRecord>& log) {
  std::string text = logCsvHeader(problem);
  for (const GenerationRecord& record : log) text += logCsvRow(record);
  return text;
}

namespace {

// Round tick values covering [low, high]: about `count` of them at 1, 2 or 5 × 10^k.
std::vector<double> niceTicks(double low, double high, int count) {
  const double raw = (high - low) / std::max(1, count);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  for (double value = std::ceil(low / step) * step; value <= high + 1e-9 * step; value += step)
    ticks.push_back(std::abs(value) < 1e-12 * step ? 0.0 : value);
  return ticks;
}

}  // namespace

std::string progressSvg(const std::vector<GenerationRecord>& log) {
  constexpr double kWidth = 640, kHeight = 360, kLeft = 78, kRight = 18, kTop = 34, kBottom = 46;
  constexpr double kPlotWidth = kWidth - kLeft - kRight, kPlotHeight = kHeight - kTop - kBottom;
  // The y range covers the best-so-far curve and the generation bests; the means (which a
  // single penalised candidate can blow up) are clipped to it.
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const GenerationRecord& record : log) {
    for (double value : {record.best, record.generationBest}) {
      if (!std::isfinite(value)) continue;
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
  if (!std::isfinite(low)) low = 0, high = 1;
  if (high - low < 1e-12) high = low + 1;
  const double pad = 0.05 * (high - low);
  low -= pad, high += pad;
  const int last = log.empty() ? 1 : log.back().generation;
  const int first = log.empty() ? 0 : log.front().generation;
  const auto x = [&](double generation) {
    return kLeft + kPlotWidth * (last == first ? 0.5 : (generation - first) / (last - first));
  };
  const auto y = [&](double value) {
    value = std::clamp(value, low, high);
    return kTop + kPlotHeight * (high - value) / (high - low);
  };
  const auto polyline = [&](auto value, const char* style) {
    std::string points;
    for (const GenerationRecord& record : log) {
      const double v = value(record);
      if (!std::isfinite(v)) continue;
      points += fixed(x(record.generation), 1) + ',' + fixed(y(v), 1) + ' ';
    }
    return "<polyline fill=\"none\" " + std::string(style) + " points=\"" + points + "\"/>\n";
  };

  std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\" "
      "viewBox=\"0 0 640 360\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"640\" height=\"360\" fill=\"white\"/>\n";
  svg +=
      "<text x=\"320\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">objective J per "
      "generation (lower is better)</text>\n";
  // Gridlines with their values: J on the left, generations below.
  for (double value : niceTicks(low, high, 5)) {
    const std::string at = fixed(y(value), 1);
    appendAll(svg, {"<line x1=\"", fixed(kLeft, 1), "\" y1=\"", at, "\" x2=\"",
                    fixed(kLeft + kPlotWidth, 1), "\" y2=\"", at, "\" stroke=\"#e4e4e4\"/>\n"});
    appendAll(
        svg, {"<text x=\"", fixed(kLeft - 6, 1), "\" y=\"", at,
              "\" text-anchor=\"end\" dominant-baseline=\"middle\">", general(value), "</text>\n"});
  }
  for (double generation : niceTicks(first, std::max(last, first + 1), 6)) {
    if (generation < first || generation > last) continue;
    const std::string at = fixed(x(generation), 1);
    appendAll(svg, {"<line x1=\"", at, "\" y1=\"", fixed(kTop, 1), "\" x2=\"", at, "\" y2=\"",
                    fixed(kTop + kPlotHeight, 1), "\" stroke=\"#e4e4e4\"/>\n"});
    appendAll(svg, {"<text x=\"", at, "\" y=\"", fixed(kTop + kPlotHeight + 16, 1),
                    "\" text-anchor=\"middle\">", general(generation), "</text>\n"});
  }
  svg += "<rect x=\"" + fixed(kLeft, 1) + "\" y=\"" + fixed(kTop, 1) + "\" width=\"" +
         fixed(kPlotWidth, 1) + "\" height=\"" + fixed(kPlotHeight, 1) +
         "\" fill=\"none\" stroke=\"#888\"/>\n";
  svg += "<text x=\"" + fixed(kLeft + kPlotWidth / 2, 1) +
         "\" y=\"352\" text-anchor=\"middle\">generation</text>\n";
  svg += "<text transform=\"translate(14 " + fixed(kTop + kPlotHeight / 2, 1) +
         ") rotate(-90)\" text-anchor=\"middle\">J</text>\n";
  svg += polyline([](const GenerationRecord& r) { return r.mean; },
                  "stroke=\"#999\" stroke-dasharray=\"4 3\"");
  svg += polyline([](const GenerationRecord& r) { return r.best; },
                  "stroke=\"#c0392b\" stroke-width=\"2\"");
  // The legend, inside the plot's top right corner, on a white box.
  const double legendX = kLeft + kPlotWidth - 214, legendY = kTop + 8;
  svg += "<rect x=\"" + fixed(legendX, 1) + "\" y=\"" + fixed(legendY, 1) +
         "\" width=\"206\" height=\"40\" fill=\"white\" fill-opacity=\"0.9\" stroke=\"#ccc\"/>\n";
  svg += "<line x1=\"" + fixed(legendX + 8, 1) + "\" y1=\"" + fixed(legendY + 13, 1) + "\" x2=\"" +
         fixed(legendX + 30, 1) + "\" y2=\"" + fixed(legendY + 13, 1) +
         "\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n";
  svg += "<text x=\"" + fixed(legendX + 36, 1) + "\" y=\"" + fixed(legendY + 17, 1) +
         "\">best so far</text>\n";
  svg += "<line x1=\"" + fixed(legendX + 8, 1) + "\" y1=\"" + fixed(legendY + 30, 1) + "\" x2=\"" +
         fixed(legendX + 30, 1) + "\" y2=\"" + fixed(legendY + 30, 1) +
         "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
  svg += "<text x=\"" + fixed(legendX + 36, 1) + "\" y=\"" + fixed(legendY + 34, 1) +
         "\">generation mean (clipped)</text>\n";
  svg += "</svg>\n";
  return svg;
}

std::string beforeAfterReport(const ObjectiveEvaluation& before, const ObjectiveEvaluation& after) {
  const auto seconds = [](const std::optional<double>& value) {
    return value ? fixed(*value, 3) + " s" : std::string("never");
  };
  const auto metres = [](const std::optional<double>& value) {
    return value ? fixed(*value, 3) + " m" : std::string("never airborne");
  };
  // Pads to a width in characters (UTF-8 continuation bytes take no column).
  const auto pad = [](std::string text, size_t width) {
    const size_t columns = static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
    // At least two spaces before the next column, however long the text.
    text.append(columns + 2 <= width ? width - columns : 2, ' ');
    return text;
  };
  const auto row = [&](const std::string& name, const std::string& a, const std::string& b) {
    return pad(name, 28) + pad(a, 22) + b + '\n';
  };
  const auto column = [&](const ObjectiveEvaluation& evaluation, int which) -> std::string {
    if (!evaluation.feasible) return which == 0 ? "infeasible" : "";
    const MotionSummary summary = evaluation.summary.value_or(MotionSummary{});
    switch (which) {
      case 0:
        return general(evaluation.value);
      case 1:
        return seconds(summary.riseTime);
      case 2:
        return metres(summary.maxAirbornePelvisHeight);
      case 3:
        return fixed(summary.airborneTime, 3) + " s";
      case 4:
        return fixed(summary.energy, 0) + " (N·m)²·s";
      default:
        return summary.standing ? "yes" : "no";
    }
  };
  std::string text = row("", "initial", "best");
  const char* names[] = {
      "J",      "rise time (head >= 1.75 m)", "max pelvis height in air", "airborne time",
      "energy", "standing at the end"};
  for (int i = 0; i < 6; ++i) {
    text += row(names[i], column(before, i), column(after, i));
    // With several trials J is combined; show each trial's, then the first trial's figures.
    if (i == 0 && std::max(before.trialValues.size(), after.trialValues.size()) > 1) {
      const auto each = [&](const ObjectiveEvaluation& evaluation) {
        std::string values;
        for (double value : evaluation.trialValues)
          values += (values.empty() ? "" : " ") + general(value);
        return values;
      };
      text += row("J of each trial", each(before), each(after));
      text += "(the figures below are the first trial's)\n";
    }
  }
  if (!before.feasible) text += "initial parameters: " + before.failure + '\n';
  if (!after.feasible) text += "best parameters: " + after.failure + '\n';
  return text;
}

}  // namespace scl
