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
// each from the nominal start at the default step, for the script's scene duration. A
// script with no outcome line fails: a new example cannot rot unnoticed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/motion_trial.h"
#include "runtime/run_session.h"
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

MotionSummary runToEnd(const Program& program) {
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length = defaultRunLength(program);
  def.metrics = metricsFor(*program.character);
  def.metrics->uprightFromStart = program.scene.pose == "standing";
  RunSession session(program, def);
  session.run();
  return session.summary();
}

// Checks one outcome line; the summary is computed once, when a line needs it.
void checkOutcome(const std::string& outcome, const Program& program,
                  std::optional<MotionSummary>& summary) {
  INFO("outcome: " << outcome);
  std::istringstream words(outcome);
  std::string first;
  words >> first;
  if (first == "mark") {
    std::string name;
    words >> name;
    const MotionMark* mark = findMotionMark(name);
    REQUIRE(mark);
    const MotionTrialResult result = runMotionTrial(*mark, program);
    INFO(result.failure);
    CHECK(result.met);
    return;
  }
  if (!summary) summary = runToEnd(program);
  if (outcome == "standing at end") {
    CHECK(summary->standing);
  } else if (outcome == "not standing at end") {
    CHECK_FALSE(summary->standing);
  } else if (outcome == "no fall") {
    CHECK_FALSE(summary->fell);
  } else if (first == "fell") {
    std::string by;
    double time = 0.0;
    words >> by >> time;
    REQUIRE(by == "by");
    REQUIRE(summary->fell);
    CHECK(*summary->fell <= time);
  } else if (outcome.rfind("phase changes at least ", 0) == 0) {
    CHECK(summary->phaseChanges >= std::stoi(outcome.substr(23)));
  } else if (outcome.rfind("airborne at least ", 0) == 0) {
    CHECK(summary->longestAirborne >= std::stod(outcome.substr(18)));
  } else if (outcome.rfind("travels at least ", 0) == 0) {
    CHECK(summary->farthest >= std::stod(outcome.substr(17)));
  } else if (outcome.rfind("touches only ", 0) == 0) {
    const std::vector<int> allowed = linksIn(outcome.substr(13));
    for (int link = 0; link < kLinkCount; ++link) {
      INFO("link " << kLinkNames[link]);
      if (std::find(allowed.begin(), allowed.end(), link) == allowed.end())
        CHECK_FALSE(summary->touched[link]);
    }
  } else if (first == "touches") {
    const std::vector<int> links = linksIn(outcome.substr(8));
    REQUIRE(links.size() == 1);
    CHECK(summary->touched[links.front()]);
  } else {
    FAIL("unknown outcome line");
  }
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
    std::optional<MotionSummary> summary;
    for (const std::string& outcome : outcomes) checkOutcome(outcome, *compiled.program, summary);
  }
}
