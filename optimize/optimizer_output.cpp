// What `scl optimize` writes: log.csv, progress.svg and the before/after report.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "base/format.h"
#include "base/svg.h"
#include "optimize/optimizer.h"

namespace scl {

std::string logCsvHeader(const OptimizationProblem& problem) {
  std::string text = "generation,evaluations,best,generation_best,mean,sigma,infeasible,wall_time";
  for (const Parameter& parameter : problem.program.parameters) text += ',' + parameter.name;
  return text + '\n';
}

std::string logCsvRow(const GenerationRecord& record) {
  std::string text = std::to_string(record.generation) + ',' + std::to_string(record.evaluations) +
                     ',' + formatExact(record.best) + ',' + formatExact(record.generationBest) +
                     ',' + formatExact(record.mean) + ',' + formatExact(record.sigma) + ',' +
                     std::to_string(record.infeasible) + ',' + formatExact(record.wallTime);
  for (double value : record.bestParameters) text += ',' + formatExact(value);
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
  // A series as a polyline in `stroke` (dashed by `dashes` unless empty, `width` px wide
  // unless empty); points where the value is not a number are left out.
  const auto polyline = [&](SvgWriter& svg, auto value, const char* stroke, const char* width,
                            const char* dashes) {
    std::vector<SvgPoint> points;
    for (const GenerationRecord& record : log) {
      const double v = value(record);
      if (std::isfinite(v)) points.push_back({x(record.generation), y(v)});
    }
    SvgElement line = svg.element("polyline");
    line.attribute("fill", "none").attribute("stroke", stroke);
    if (*width) line.attribute("stroke-width", width);
    if (*dashes) line.attribute("stroke-dasharray", dashes);
    line.points(points, true).close();
  };

  SvgDef page;
  page.width = kWidth;
  page.height = kHeight;
  page.xmlDeclaration = false;
  page.sizeDecimals = 0;
  page.rootAttributes = "font-family=\"sans-serif\" font-size=\"12\"";
  SvgWriter svg(page);
  svg.element("rect")
      .attribute("width", "640")
      .attribute("height", "360")
      .attribute("fill", "white")
      .close();
  svg.element("text")
      .attribute("x", "320")
      .attribute("y", "20")
      .attribute("text-anchor", "middle")
      .attribute("font-size", "14")
      .text("objective J per generation (lower is better)");
  // Gridlines with their values: J on the left, generations below.
  for (double value : niceTicks(low, high, 5)) {
    const double at = y(value);
    svg.line(kLeft, at, kLeft + kPlotWidth, at).attribute("stroke", "#e4e4e4").close();
    svg.text(kLeft - 6, at)
        .attribute("text-anchor", "end")
        .attribute("dominant-baseline", "middle")
        .text(formatSignificant(value, 6));
  }
  for (double generation : niceTicks(first, std::max(last, first + 1), 6)) {
    if (generation < first || generation > last) continue;
    const double at = x(generation);
    svg.line(at, kTop, at, kTop + kPlotHeight).attribute("stroke", "#e4e4e4").close();
    svg.text(at, kTop + kPlotHeight + 16)
        .attribute("text-anchor", "middle")
        .text(formatSignificant(generation, 6));
  }
  svg.rect(kLeft, kTop, kPlotWidth, kPlotHeight)
      .attribute("fill", "none")
      .attribute("stroke", "#888")
      .close();
  svg.element("text")
      .attribute("x", kLeft + kPlotWidth / 2)
      .attribute("y", "352")
      .attribute("text-anchor", "middle")
      .text("generation");
  svg.element("text")
      .attribute("transform",
                 "translate(14 " + svg.number(kTop + kPlotHeight / 2) + ") rotate(-90)")
      .attribute("text-anchor", "middle")
      .text("J");
  polyline(
      svg, [](const GenerationRecord& r) { return r.mean; }, "#999", "", "4 3");
  polyline(
      svg, [](const GenerationRecord& r) { return r.best; }, "#c0392b", "2", "");
  // The legend, inside the plot's top right corner, on a white box.
  const double legendX = kLeft + kPlotWidth - 214, legendY = kTop + 8;
  svg.element("rect")
      .attribute("x", legendX)
      .attribute("y", legendY)
      .attribute("width", "206")
      .attribute("height", "40")
      .attribute("fill", "white")
      .attribute("fill-opacity", "0.9")
      .attribute("stroke", "#ccc")
      .close();
  svg.line(legendX + 8, legendY + 13, legendX + 30, legendY + 13)
      .attribute("stroke", "#c0392b")
      .attribute("stroke-width", "2")
      .close();
  svg.text(legendX + 36, legendY + 17).text("best so far");
  svg.line(legendX + 8, legendY + 30, legendX + 30, legendY + 30)
      .attribute("stroke", "#999")
      .attribute("stroke-dasharray", "4 3")
      .close();
  svg.text(legendX + 36, legendY + 34).text("generation mean (clipped)");
  return svg.finish();
}

std::string beforeAfterReport(const ObjectiveEvaluation& before, const ObjectiveEvaluation& after) {
  const auto seconds = [](const std::optional<double>& value) {
    return value ? formatFixed(*value, 3) + " s" : std::string("never");
  };
  const auto metres = [](const std::optional<double>& value) {
    return value ? formatFixed(*value, 3) + " m" : std::string("never airborne");
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
        return formatSignificant(evaluation.value, 6);
      case 1:
        return seconds(summary.riseTime);
      case 2:
        return metres(summary.maxAirbornePelvisHeight);
      case 3:
        return formatFixed(summary.airborneTime, 3) + " s";
      case 4:
        return formatFixed(summary.energy, 0) + " (N·m)²·s";
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
          values += (values.empty() ? "" : " ") + formatSignificant(value, 6);
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
