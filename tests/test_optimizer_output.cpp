// What `scl optimize` writes for people to read (optimize/optimizer_output.cpp): the
// before/after report keeps its columns apart however long a value is, and progress.svg
// has gridlines with values and a legend inside the picture.
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "optimize/optimizer.h"

using namespace scl;

namespace {

ObjectiveEvaluation evaluation(double value, double energy, std::vector<double> trials = {}) {
  ObjectiveEvaluation result;
  result.value = value;
  result.feasible = true;
  result.trialValues = trials.empty() ? std::vector<double>{value} : std::move(trials);
  MotionSummary summary;
  summary.riseTime = 1.25;
  summary.maxAirbornePelvisHeight = 0.9;
  summary.airborneTime = 0.125;
  summary.energy = energy;
  summary.standing = true;
  result.summary = summary;
  return result;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The value of attribute `name` in the first element of `svg` that starts with `tag` and
// contains `marker`; NaN when there is none.
double attribute(const std::string& svg, const std::string& tag, const std::string& marker,
                 const std::string& name) {
  for (size_t at = svg.find(tag); at != std::string::npos; at = svg.find(tag, at + 1)) {
    const std::string element = svg.substr(at, svg.find('>', at) - at);
    if (element.find(marker) == std::string::npos) continue;
    const size_t value = element.find(" " + name + "=\"");
    if (value == std::string::npos) return std::nan("");
    return std::stod(element.substr(value + name.size() + 3));
  }
  return std::nan("");
}

size_t countOf(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// Whether `text` holds "nan" or "inf" as a word of its own (a number printed as such), not
// inside a word such as "dominant".
bool hasNonFinite(const std::string& text) {
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  for (const std::string word : {"nan", "inf"}) {
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
      const bool before = at > 0 && letter(text[at - 1]);
      const bool after = at + word.size() < text.size() && letter(text[at + word.size()]);
      if (!before && !after) return true;
    }
  }
  return false;
}

std::vector<GenerationRecord> logOf(int generations) {
  std::vector<GenerationRecord> log;
  for (int g = 1; g <= generations; ++g) {
    GenerationRecord record;
    record.generation = g;
    record.best = 100.0 / g;
    record.generationBest = 100.0 / g + 5;
    record.mean = 100.0 / g + 20;
    log.push_back(record);
  }
  return log;
}

}  // namespace

TEST_CASE("the before/after report keeps two spaces between columns", "[optimize]") {
  // A huge energy makes the 'initial' value longer than its column (22 characters).
  const ObjectiveEvaluation before = evaluation(1234.5, 1e30);
  const ObjectiveEvaluation after = evaluation(12.25, 4321);
  const std::string report = beforeAfterReport(before, after);
  INFO(report);
  const std::string energyBefore = "1000000000000000019884624838656 (N·m)²·s";
  const std::string energyAfter = "4321 (N·m)²·s";
  CHECK(report.find(energyBefore + "  " + energyAfter + "\n") != std::string::npos);
  // The other rows keep their columns: the name in 28 characters, the initial value in 22.
  const std::vector<std::string> lines = linesOf(report);
  REQUIRE(lines.size() >= 6);
  CHECK(lines[0] == std::string(28, ' ') + "initial" + std::string(15, ' ') + "best");
  CHECK(lines[1] == "J" + std::string(27, ' ') + "1234.5" + std::string(16, ' ') + "12.25");

  SECTION("many trials: the list of J values is longer than its column") {
    const ObjectiveEvaluation manyBefore =
        evaluation(10, 100, {10.125, 11.25, 12.375, 13.5, 14.625, 15.75});
    const ObjectiveEvaluation manyAfter = evaluation(5, 50, {5, 6, 7, 8, 9, 10});
    const std::string text = beforeAfterReport(manyBefore, manyAfter);
    INFO(text);
    const std::string row = "J of each trial" + std::string(13, ' ') +
                            "10.125 11.25 12.375 13.5 14.625 15.75" + "  " + "5 6 7 8 9 10\n";
    CHECK(text.find(row) != std::string::npos);
  }
}

TEST_CASE("progress.svg has gridlines with values and a legend inside the picture", "[optimize]") {
  const std::string svg = progressSvg(logOf(10));
  INFO(svg);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK_FALSE(hasNonFinite(svg));
  CHECK(svg.find("width=\"640\"") != std::string::npos);
  // Gridlines: several horizontal (J) and vertical (generation) lines.
  CHECK(countOf(svg, "<line") >= 6);
  CHECK(countOf(svg, "stroke=\"#e4e4e4\"") >= 6);
  // Tick labels: J values on the left (right-aligned), generations below (centred).
  CHECK(countOf(svg, "text-anchor=\"end\" dominant-baseline=\"middle\">") >= 2);
  for (const std::string generation : {">2</text>", ">4</text>", ">6</text>", ">8</text>"})
    CHECK(svg.find(generation) != std::string::npos);

  // The legend: a box inside the plot's right edge (640 px wide, 18 px right margin) and
  // its texts inside the box (at most 6.6 px per character at 12 px: DejaVu Sans is 6.4).
  const double boxX = attribute(svg, "<rect", "fill-opacity", "x");
  const double boxWidth = attribute(svg, "<rect", "fill-opacity", "width");
  REQUIRE(std::isfinite(boxX));
  REQUIRE(std::isfinite(boxWidth));
  CHECK(boxX > 0);
  CHECK(boxX + boxWidth <= 640 - 18);
  for (const std::string label : {"best so far", "generation mean (clipped)"}) {
    const size_t at = svg.find(">" + label + "</text>");
    REQUIRE(at != std::string::npos);
    const size_t open = svg.rfind("<text", at);
    const std::string element = svg.substr(open, at - open);
    const double textX = std::stod(element.substr(element.find(" x=\"") + 4));
    INFO(label << " at x = " << textX);
    CHECK(textX >= boxX);
    CHECK(textX + 6.6 * static_cast<double>(label.size()) <= boxX + boxWidth);
  }

  SECTION("a single generation and an empty log draw too") {
    for (const std::string& one : {progressSvg(logOf(1)), progressSvg({})}) {
      CHECK_FALSE(hasNonFinite(one));
      CHECK(one.find("</svg>") != std::string::npos);
    }
  }
}
