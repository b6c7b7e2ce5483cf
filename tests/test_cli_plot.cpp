// `scl plot` (docs/plot.md): exit codes and messages on bad input, the series asked for
// in the SVG, their values equal to the run's (`scl run --json`), a trajectory CSV plotted
// without PD targets, and every command the page shows.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli_support.h"

using namespace scl::testing;

namespace {

const std::string kTwoPhases = kCliScripts + "two_phases.scl";

// The data-ATTRIBUTE of the SVG group of series `id` ("com.height"), as a number.
double seriesValue(const std::string& svg, const std::string& id, const std::string& attribute) {
  const std::regex pattern("<g id=\"series-" + std::regex_replace(id, std::regex("\\."), "\\.") +
                           "\"[^>]* data-" + attribute + "=\"([^\"]+)\"");
  std::smatch match;
  REQUIRE(std::regex_search(svg, match, pattern));
  return std::stod(match[1].str());
}

bool hasSeries(const std::string& svg, const std::string& id) {
  return svg.find("<g id=\"series-" + id + "\"") != std::string::npos;
}

nlohmann::json runJson(const std::string& script) {
  const auto run = runScl("run " + shellQuote(script) + " --json");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(run.out);
}

}  // namespace

TEST_CASE("scl plot: bad input gets clear messages and the documented exit codes", "[cli][plot]") {
  TempDir dir;
  CHECK(runScl("plot").exitCode == 2);
  CHECK(runScl("plot --help").exitCode == 0);
  const auto missing = runScl("plot " + shellQuote(dir / "none.scl"));
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Catch::Contains("does not exist"));
  const auto errors = runScl("plot " + shellQuote(kCliScripts + "errors.scl"));
  CHECK(errors.exitCode == 1);
  CHECK_THAT(errors.err, Catch::Contains("error:"));
  const auto joint = runScl("plot " + shellQuote(kTwoPhases) + " --joints leftHip,leftKnea");
  CHECK(joint.exitCode == 2);
  CHECK_THAT(joint.err, Catch::Contains("unknown joint 'leftKnea'; did you mean 'leftKnee'?"));
  CHECK(runScl("plot " + shellQuote(kTwoPhases) + " --rate 0").exitCode == 2);
  CHECK(runScl("plot " + shellQuote(kTwoPhases) + " --bogus").exitCode == 2);
  CHECK(runScl("plot " + shellQuote(kTwoPhases) + " a b").exitCode == 2);
  // An output never replaces an input.
  const std::string script = dir / "s.scl";
  writeText(script, readText(kTwoPhases));
  const auto same = runScl("plot " + shellQuote(script) + " --out " + shellQuote(script));
  CHECK(same.exitCode == 2);
  CHECK(readText(script) == readText(kTwoPhases));
  CHECK(runScl("plot " + shellQuote(script) + " --out " + shellQuote(dir / "no/such/x.svg"))
            .exitCode == 2);
  // A CSV that is not a trajectory, or a broken one: exit 1 naming the line.
  const std::string notTrajectory = dir / "a.csv";
  writeText(notTrajectory, "x,y\n1,2\n");
  const auto columns = runScl("plot " + shellQuote(notTrajectory));
  CHECK(columns.exitCode == 1);
  CHECK_THAT(columns.err, Catch::Contains("no column 'time'"));
  const std::string trajectory = dir / "t.csv";
  REQUIRE(runScl("run " + shellQuote(script) + " --duration 0.2 --out " + shellQuote(trajectory))
              .exitCode == 0);
  std::string broken = readText(trajectory);
  broken.insert(broken.find('\n', broken.find('\n') + 1) + 1, "0.5,1,\"x\",oops\n");
  writeText(notTrajectory, broken);
  const auto fields = runScl("plot " + shellQuote(notTrajectory));
  CHECK(fields.exitCode == 1);
  CHECK_THAT(fields.err, Catch::Contains("line 3:"));
  CHECK(runScl("plot " + shellQuote(trajectory) + " --duration 1").exitCode == 2);
  // A header of two million fields is counted and refused, not split into strings.
  writeText(notTrajectory, "time" + std::string(2'000'000, ',') + "\n");
  const auto wide = runScl("plot " + shellQuote(notTrajectory));
  CHECK(wide.exitCode == 1);
  CHECK_THAT(wide.err, Catch::Contains("line 1: 2000001 columns, more than a trajectory CSV has "
                                       "(at most 20200)"));
  // A field of a megabyte is quoted by its first 80 bytes.
  std::string longField = readText(trajectory);
  const size_t row = longField.find('\n') + 1;
  longField.insert(row, std::string(1 << 20, '7') + "x");
  writeText(notTrajectory, longField);
  const auto quoted = runScl("plot " + shellQuote(notTrajectory));
  CHECK(quoted.exitCode == 1);
  CHECK_THAT(quoted.err, Catch::Contains("column 'time' is not a number ('777"));
  CHECK_THAT(quoted.err, Catch::Contains(" bytes))"));
  CHECK(quoted.err.size() < 400);
  // A phase index no int holds (the fuzzer's 1e87, once undefined behaviour) or a fraction
  // is refused with its line.
  for (const char* phase : {"1e87", "1.5", "-1"}) {
    INFO(phase);
    std::string badPhase = readText(trajectory);
    const size_t first = badPhase.find('\n') + 1;
    const size_t comma = badPhase.find(',', first);
    const size_t next = badPhase.find(',', comma + 1);
    badPhase.replace(comma + 1, next - comma - 1, phase);
    writeText(notTrajectory, badPhase);
    const auto refused = runScl("plot " + shellQuote(notTrajectory));
    CHECK(refused.exitCode == 1);
    CHECK_THAT(refused.err, Catch::Contains(std::string("line 2: column 'phase' is not a phase "
                                                        "index ('") +
                                            phase + "')"));
  }

  // Times so large that a tick step is below their spacing (1e17 s, 16 s apart): the axis
  // once stepped t += step forever. It ends, and draws.
  std::string huge = readText(trajectory);
  std::string rows = huge.substr(0, huge.find('\n') + 1);
  size_t line = rows.size();
  for (const char* time : {"100000000000000000", "100000000000000016"}) {
    const size_t end = huge.find('\n', line);
    const std::string row = huge.substr(line, end - line);
    rows += time + row.substr(row.find(',')) + "\n";
    line = end + 1;
  }
  writeText(notTrajectory, rows);
  const auto farOut =
      runScl("plot " + shellQuote(notTrajectory) + " --out " + shellQuote(dir / "far.svg"));
  INFO(farOut.err);
  CHECK(farOut.exitCode == 0);
  CHECK(std::filesystem::exists(dir / "far.svg"));
}

TEST_CASE("scl plot: the series asked for, with the run's values", "[cli][plot]") {
  TempDir dir;
  const std::string svgPath = dir / "p.svg";
  const auto plot = runScl("plot " + shellQuote(kTwoPhases) +
                           " --joints leftHip,knees --com --heights --out " + shellQuote(svgPath));
  INFO(plot.err);
  REQUIRE(plot.exitCode == 0);
  CHECK_THAT(plot.out, Catch::Contains("wrote"));
  const std::string svg = readText(svgPath);
  CHECK(svg.starts_with("<?xml"));
  for (const char* id : {"leftHip.angle", "leftHip.target", "leftHip.torque", "leftHip.limit.high",
                         "leftKnee.angle", "rightKnee.target", "com.x", "support.low", "com.height",
                         "head.height", "phase.1", "phase.2"})
    CHECK(hasSeries(svg, id));
  CHECK_FALSE(hasSeries(svg, "rightHip.angle"));
  // The support band is drawn at the viewer's opacity, 0.25 (written as 0.2 before).
  CHECK_THAT(svg, Catch::Contains("fill-opacity=\"0.25\""));
  CHECK_FALSE(hasSeries(svg, "contact.head"));
  // The phase line of `rest` at 0.5 s, the knees' target -90 degrees by then.
  CHECK(seriesValue(svg, "phase.2", "first") == Approx(0.5).margin(1e-3));
  CHECK(seriesValue(svg, "leftKnee.target", "last") == Approx(-90.0).margin(0.01));
  CHECK(seriesValue(svg, "leftHip.limit.high", "last") > 0.0);
  // The last samples are the run's final state: the summary's head height.
  const nlohmann::json run = runJson(kTwoPhases);
  CHECK(seriesValue(svg, "head.height", "last") ==
        Approx(run["head_height"].get<double>()).margin(1e-6));

  // The same run's trajectory CSV plots the same heights, without PD targets.
  const std::string csv = dir / "t.csv";
  REQUIRE(runScl("run " + shellQuote(kTwoPhases) + " --out " + shellQuote(csv)).exitCode == 0);
  const auto fromCsv =
      runScl("plot " + shellQuote(csv) + " --joints leftKnee --heights --contacts");
  INFO(fromCsv.err);
  REQUIRE(fromCsv.exitCode == 0);
  CHECK(hasSeries(fromCsv.out, "leftKnee.angle"));
  CHECK_FALSE(hasSeries(fromCsv.out, "leftKnee.target"));
  CHECK(hasSeries(fromCsv.out, "contact.pelvis"));
  CHECK_THAT(fromCsv.out, Catch::Contains("no PD targets"));
  CHECK(seriesValue(fromCsv.out, "head.height", "last") ==
        Approx(run["head_height"].get<double>()).margin(1e-5));
  CHECK(seriesValue(fromCsv.out, "leftKnee.angle", "last") ==
        Approx(seriesValue(svg, "leftKnee.angle", "last")).margin(1e-4));
}

// --feet and --hands: a quiet stance keeps both heels and toes on the ground and the hands
// below the shoulders, from a script and from its trajectory CSV alike.
TEST_CASE("scl plot --feet --hands plots the heels, toes and hands", "[cli][plot]") {
  TempDir dir;
  const std::string script = std::string(SCL_SOURCE_DIR) + "/scripts/stand.scl";
  const Outcome plot = runScl("plot " + script + " --duration 2 --feet --hands");
  REQUIRE(plot.exitCode == 0);
  REQUIRE(runScl("run " + script + " --duration 2 --out " + (dir / "s.csv")).exitCode == 0);
  const Outcome fromCsv = runScl("plot " + (dir / "s.csv") + " --feet --hands");
  REQUIRE(fromCsv.exitCode == 0);
  for (const std::string& svg : {plot.out, fromCsv.out}) {
    for (const char* point : {"leftHeel", "leftToe", "rightHeel", "rightToe"}) {
      INFO(point);
      REQUIRE(hasSeries(svg, std::string(point) + ".height"));
      CHECK(std::abs(seriesValue(svg, std::string(point) + ".height", "last")) < 0.01);
    }
    CHECK(seriesValue(svg, "leftHand.height", "last") > 0.6);
    CHECK(seriesValue(svg, "rightHand.height", "last") < 1.3);
    CHECK_FALSE(hasSeries(svg, "com.x"));  // only what was asked for
  }
}

TEST_CASE("scl plot: a trajectory of another body, by its own names", "[cli][plot]") {
  // The bird's CSV has its own joints and links and no hand columns; read as the human's
  // it is refused with a hint, read as the bird's it plots (docs/plot.md).
  TempDir dir;
  const std::string script = std::string(SCL_SOURCE_DIR) + "/scripts/bodies/stand-bird.scl";
  REQUIRE(runScl("run " + script + " --duration 1 --out " + (dir / "b.csv")).exitCode == 0);
  const Outcome asHuman = runScl("plot " + (dir / "b.csv"));
  CHECK(asHuman.exitCode == 1);
  CHECK_THAT(asHuman.err, Catch::Contains("a trajectory of another character than 'human'? "
                                          "(give its --character)"));
  const Outcome asBird = runScl("plot " + (dir / "b.csv") +
                                " --character bird --joints intertarsals --feet --contacts");
  REQUIRE(asBird.exitCode == 0);
  CHECK(hasSeries(asBird.out, "leftIntertarsal.angle"));
  CHECK(hasSeries(asBird.out, "contact.leftToes"));
  CHECK(std::abs(seriesValue(asBird.out, "leftToe.height", "last")) < 0.01);
}

TEST_CASE("scl plot: the commands docs/plot.md shows", "[cli][plot][docs]") {
  const std::string page = readText(SCL_SOURCE_DIR "/docs/plot.md");
  TempDir dir;
  RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  // Every `scl ...` line of the page's code blocks, run from the top of the source tree
  // with its outputs redirected into the test's directory.
  int commands = 0;
  for (std::string command : scl::testing::sclCommandsOf(page)) {
    command = std::regex_replace(command, std::regex("(--out|--filmstrip) ([^ ]+)"),
                                 "$1 " + dir.path().string() + "/$2");
    command = std::regex_replace(command, std::regex("(^| )([a-z-]+\\.csv)"),
                                 "$1" + dir.path().string() + "/$2");
    INFO(command);
    const auto outcome = runScl(command, top);
    INFO(outcome.err);
    CHECK(outcome.exitCode == 0);
    ++commands;
  }
  CHECK(commands >= 3);
}
