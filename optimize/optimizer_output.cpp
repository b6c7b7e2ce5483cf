// What `scl optimize` writes: log.csv, progress.svg and the before/after report.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "optimize/optimizer.h"

namespace scl {

namespace {

std::string exact(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
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

std::string logCsv(const OptimizationProblem& problem, const std::vector<GenerationRecord>& log) {
  std::string text = "generation,evaluations,best,generation_best,mean,sigma,infeasible,wall_time";
  for (const Parameter& parameter : problem.program.parameters) text += ',' + parameter.name;
  text += '\n';
  for (const GenerationRecord& record : log) {
    text += std::to_string(record.generation) + ',' + std::to_string(record.evaluations) + ',' +
            exact(record.best) + ',' + exact(record.generationBest) + ',' + exact(record.mean) +
            ',' + exact(record.sigma) + ',' + std::to_string(record.infeasible) + ',' +
            exact(record.wallTime);
    for (double value : record.bestParameters) text += ',' + exact(value);
    text += '\n';
  }
  return text;
}

std::string progressSvg(const std::vector<GenerationRecord>& log) {
  constexpr double kWidth = 640, kHeight = 360, kLeft = 70, kRight = 20, kTop = 30, kBottom = 40;
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
  const int generations = log.empty() ? 1 : log.back().generation;
  const int first = log.empty() ? 0 : log.front().generation;
  const auto x = [&](int generation) {
    return kLeft +
           (kWidth - kLeft - kRight) *
               (generations == first ? 0.5 : double(generation - first) / (generations - first));
  };
  const auto y = [&](double value) {
    value = std::clamp(value, low, high);
    return kTop + (kHeight - kTop - kBottom) * (high - value) / (high - low);
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
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\" viewBox=\"0 0 640 "
      "360\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"640\" height=\"360\" fill=\"white\"/>\n";
  svg += "<text x=\"320\" y=\"18\" text-anchor=\"middle\">objective J per generation</text>\n";
  svg += "<rect x=\"70\" y=\"30\" width=\"550\" height=\"290\" fill=\"none\" stroke=\"#888\"/>\n";
  svg += "<text x=\"64\" y=\"" + fixed(y(high), 1) +
         "\" text-anchor=\"end\" dominant-baseline=\"hanging\">" + general(high) + "</text>\n";
  svg += "<text x=\"64\" y=\"" + fixed(y(low), 1) + "\" text-anchor=\"end\">" + general(low) +
         "</text>\n";
  svg += "<text x=\"70\" y=\"336\" text-anchor=\"start\">" + std::to_string(first) + "</text>\n";
  svg +=
      "<text x=\"620\" y=\"336\" text-anchor=\"end\">" + std::to_string(generations) + "</text>\n";
  svg += "<text x=\"345\" y=\"352\" text-anchor=\"middle\">generation</text>\n";
  svg += polyline([](const GenerationRecord& r) { return r.mean; },
                  "stroke=\"#999\" stroke-dasharray=\"4 3\"");
  svg += polyline([](const GenerationRecord& r) { return r.best; },
                  "stroke=\"#c0392b\" stroke-width=\"2\"");
  svg += "<text x=\"480\" y=\"46\" fill=\"#c0392b\">best so far</text>\n";
  svg += "<text x=\"480\" y=\"62\" fill=\"#777\">generation mean (clipped)</text>\n";
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
    if (columns < width) text.append(width - columns, ' ');
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
