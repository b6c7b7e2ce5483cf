// Every script in scripts/ and scripts/ports/ says in its header what it does, in lines a
// test can read, and does it (docs/motions.md, What each example shows):
//
//   // outcome: mark NAME                  meets motion NAME's mark (docs/marks.md)
//   // outcome: standing at end            | not standing at end
//   // outcome: fell by T                  | no fall
//   // outcome: phase changes at least N
//   // outcome: airborne at least T        the longest single flight, seconds
//   // outcome: travels at least D         the farthest forward pelvis travel, metres
//   // outcome: touches LINK               LINK touched the ground at some time
//   // outcome: touches only L1, L2, ...   no other link ever touched it
//
// each from the nominal start at the default step, for the script's scene duration, and
//
//   // outcome: N of 20 perturbed starts   the other lines (but `mark`) hold from at least
//                                          N of the ±2° starts with seeds 1–20
//
// A script with no outcome line fails: a new example cannot rot unnoticed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/motion_trial.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"
#include "scl/compile.h"

namespace {

namespace fs = std::filesystem;
using namespace scl;

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> outcomesOf(const std::string& source) {
  const std::string tag = "// outcome: ";
  std::vector<std::string> outcomes;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(tag, 0) == 0) outcomes.push_back(line.substr(tag.size()));
  return outcomes;
}

std::vector<fs::path> examples() {
  std::vector<fs::path> paths;
  for (const char* folder : {"/scripts", "/scripts/ports"})
    for (const auto& entry : fs::directory_iterator(std::string(SCL_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".scl") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

// "leftFoot, rightShank": link indices; an unknown name fails the test.
std::vector<int> linksIn(const std::string& list) {
  std::vector<int> links;
  std::istringstream names(list);
  for (std::string name; std::getline(names, name, ',');) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    const auto found = std::find(kLinkNames.begin(), kLinkNames.end(), name);
    INFO("link name '" << name << "'");
    REQUIRE(found != kLinkNames.end());
    links.push_back(static_cast<int>(found - kLinkNames.begin()));
  }
  return links;
}

MotionSummary runToEnd(const Program& program, std::vector<double> jointOffsets = {}) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.simulation.jointOffsets = std::move(jointOffsets);
  def.length = defaultRunLength(program);
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  RunSession session(program, def);
  session.run();
  return session.summary();
}

// Whether a summary meets one outcome line (not `mark`, which runs its own trials); the
// line's words must be known.
bool holds(const std::string& outcome, const MotionSummary& summary) {
  std::istringstream words(outcome);
  std::string first;
  words >> first;
  if (outcome == "standing at end") return summary.standing;
  if (outcome == "not standing at end") return !summary.standing;
  if (outcome == "no fall") return !summary.fell;
  if (first == "fell") {
    std::string by;
    double time = 0.0;
    words >> by >> time;
    REQUIRE(by == "by");
    return summary.fell && *summary.fell <= time;
  }
  if (outcome.rfind("phase changes at least ", 0) == 0)
    return summary.phaseChanges >= std::stoi(outcome.substr(23));
  if (outcome.rfind("airborne at least ", 0) == 0)
    return summary.longestAirborne >= std::stod(outcome.substr(18));
  if (outcome.rfind("travels at least ", 0) == 0)
    return summary.farthest >= std::stod(outcome.substr(17));
  if (outcome.rfind("touches only ", 0) == 0) {
    const std::vector<int> allowed = linksIn(outcome.substr(13));
    for (int link = 0; link < kLinkCount; ++link)
      if (summary.touched[link] && std::find(allowed.begin(), allowed.end(), link) == allowed.end())
        return false;
    return true;
  }
  if (first == "touches") {
    const std::vector<int> links = linksIn(outcome.substr(8));
    REQUIRE(links.size() == 1);
    return summary.touched[links.front()];
  }
  FAIL("unknown outcome line");
  return false;
}

// `// outcome: N of 20 perturbed starts`: the other lines hold from at least N of the
// starts perturbed by ±2° with seeds 1–20 (scl run --perturb 2 --seed K).
std::optional<int> perturbedQuota(const std::string& outcome) {
  const std::string suffix = " of 20 perturbed starts";
  if (outcome.size() <= suffix.size() ||
      outcome.compare(outcome.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  return std::stoi(outcome.substr(0, outcome.size() - suffix.size()));
}

}  // namespace

TEST_CASE("every example script does what its header says", "[examples]") {
  const std::vector<fs::path> paths = examples();
  REQUIRE(paths.size() >= 10);
  for (const fs::path& path : paths) {
    INFO(path.string());
    const std::string source = readFile(path);
    const std::vector<std::string> outcomes = outcomesOf(source);
    CHECK_FALSE(outcomes.empty());  // every example declares what it does
    CompileResult compiled = compile(source, path.string());
    REQUIRE(compiled.ok());
    std::optional<MotionSummary> summary;  // computed once, when a line needs it
    for (const std::string& outcome : outcomes) {
      INFO("outcome: " << outcome);
      if (outcome.rfind("mark ", 0) == 0) {
        const MotionMark* mark = findMotionMark(outcome.substr(5));
        REQUIRE(mark);
        const MotionTrialResult result = runMotionTrial(*mark, *compiled.program);
        INFO(result.failure);
        CHECK(result.met);
        continue;
      }
      if (perturbedQuota(outcome)) continue;  // the next test case
      if (!summary) summary = runToEnd(*compiled.program);
      CHECK(holds(outcome, *summary));
    }
  }
}

TEST_CASE("examples hold from perturbed starts as often as their headers say",
          "[examples][perturbed]") {
  int checked = 0;
  for (const fs::path& path : examples()) {
    const std::string source = readFile(path);
    const std::vector<std::string> outcomes = outcomesOf(source);
    std::optional<int> quota;
    for (const std::string& outcome : outcomes) quota = quota ? quota : perturbedQuota(outcome);
    if (!quota) continue;
    INFO(path.string());
    CompileResult compiled = compile(source, path.string());
    REQUIRE(compiled.ok());
    int met = 0;
    std::string failures;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const MotionSummary summary = runToEnd(*compiled.program, perturbationOffsets(2.0, seed));
      bool all = true;
      for (const std::string& outcome : outcomes)
        if (!perturbedQuota(outcome) && outcome.rfind("mark ", 0) != 0 &&
            !holds(outcome, summary)) {
          all = false;
          failures += " seed " + std::to_string(seed) + ": " + outcome + ";";
        }
      met += all ? 1 : 0;
    }
    INFO("met from " << met << " of 20 starts;" << failures);
    CHECK(met >= *quota);
    ++checked;
  }
  CHECK(checked >= 5);
}
