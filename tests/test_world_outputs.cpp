// What the outputs say of the world around the character (issue 35, "Outputs"): the
// trajectory CSV's columns per object, `scl run --json`'s `objects`, `scl plot --objects`,
// objectives that score objects (`final crate.x`) and the filmstrip's outlines.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "optimize/objective.h"
#include "optimize/optimizer.h"
#include "runtime/run_session.h"
#include "runtime/world_metrics.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

using namespace scl;
using namespace scl::testing;

namespace {

// A crate dropped from 1 m (its bottom) beside the character, a rope hanging from a pin.
const std::string kDropWorld =
    "box crate at: (-1, 1.25) size: (0.5, 0.5) mass: 20\n"
    "chain rope at: (-2, 2) count: 3 size: (0.2, 0.04) mass: 0.2 angle: -90 fixed: yes\n";

nlohmann::json parseJson(const std::string& text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  INFO(text);
  REQUIRE(json.is_object());
  return json;
}

// A CSV's rows of fields (the phase names are plain identifiers: no quoted commas).
std::vector<std::vector<std::string>> csvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields(1);
    for (char c : line) {
      if (c == ',')
        fields.emplace_back();
      else if (c != '"')
        fields.back() += c;
    }
    rows.push_back(std::move(fields));
  }
  return rows;
}

// A column's values, every row's.
std::vector<double> column(const std::vector<std::vector<std::string>>& rows,
                           const std::string& name) {
  const std::vector<std::string>& header = rows.front();
  const auto found = std::find(header.begin(), header.end(), name);
  INFO("column " << name);
  REQUIRE(found != header.end());
  const auto index = static_cast<size_t>(found - header.begin());
  std::vector<double> values;
  for (size_t row = 1; row < rows.size(); ++row) values.push_back(std::stod(rows[row][index]));
  return values;
}

// The value of attribute `name` of the SVG element that begins `<g id="series-ID"`.
std::string seriesAttribute(const std::string& svg, const std::string& id,
                            const std::string& name) {
  const size_t at = svg.find("<g id=\"series-" + id + "\"");
  INFO("series " << id);
  REQUIRE(at != std::string::npos);
  const std::string element = svg.substr(at, svg.find('>', at) - at);
  std::smatch match;
  REQUIRE(std::regex_search(element, match, std::regex(name + "=\"([^\"]*)\"")));
  return match[1];
}

// The `objects` entry named `name` of a JSON summary.
nlohmann::json objectNamed(const nlohmann::json& summary, const std::string& name) {
  for (const nlohmann::json& object : summary["objects"])
    if (object["name"] == name) return object;
  FAIL("no object '" << name << "' in " << summary["objects"].dump());
  return {};
}

}  // namespace

TEST_CASE("the trajectory CSV has each object's place and angle, a chain's per link") {
  TempDir dir;
  writeText(dir / "drop.scl", scl::testing::standingIn(kDropWorld, 1.5));
  const Outcome run = runScl("run " + (dir / "drop.scl") + " --rate 50 --out " + (dir / "t.csv"));
  REQUIRE(run.exitCode == 0);
  const auto rows = csvRows(readText(dir / "t.csv"));
  const std::vector<std::string>& header = rows.front();
  // After the character's 71 columns: the crate's, then each of the rope's links.
  const std::vector<std::string> world = {
      "crate.x",  "crate.y",  "crate.angle",  "rope.1.x", "rope.1.y", "rope.1.angle",
      "rope.2.x", "rope.2.y", "rope.2.angle", "rope.3.x", "rope.3.y", "rope.3.angle"};
  REQUIRE(header.size() == 71 + world.size());
  CHECK(std::vector<std::string>(header.begin() + 71, header.end()) == world);
  for (const auto& row : rows) CHECK(row.size() == header.size());

  // The crate falls from 1.25 m (its centre) and ends resting on the ground at half its
  // 0.5 m height; it falls straight, unturned.
  const std::vector<double> y = column(rows, "crate.y");
  REQUIRE(y.size() == 76);  // 1.5 s at 50 Hz, both ends
  CHECK(y.front() == Approx(1.25).margin(1e-6));
  for (size_t i = 1; i < 10; ++i) CHECK(y[i] < y[i - 1]);  // falling: 1 m takes 0.45 s
  CHECK(y.back() == Approx(0.25).margin(0.005));
  CHECK(column(rows, "crate.x").back() == Approx(-1.0).margin(1e-3));
  CHECK(column(rows, "crate.angle").back() == Approx(0.0).margin(0.1));
  // The rope hangs straight down from its pin at (-2, 2): links 0.2 m long.
  for (int link = 1; link <= 3; ++link) {
    const std::string prefix = "rope." + std::to_string(link);
    CHECK(column(rows, prefix + ".x").back() == Approx(-2.0).margin(1e-3));
    CHECK(column(rows, prefix + ".y").back() == Approx(2.0 - 0.2 * (link - 0.5)).margin(2e-3));
    CHECK(column(rows, prefix + ".angle").back() == Approx(-90.0).margin(0.5));
  }

  SECTION("scl plot reads the columns back") {
    const Outcome plot =
        runScl("plot " + (dir / "t.csv") + " --objects crate,rope --out " + (dir / "p.svg"));
    REQUIRE(plot.exitCode == 0);
    const std::string svg = readText(dir / "p.svg");
    CHECK(std::stod(seriesAttribute(svg, "crate.y", "data-first")) == Approx(y.front()));
    CHECK(std::stod(seriesAttribute(svg, "crate.y", "data-last")) == Approx(y.back()));
    CHECK(std::stod(seriesAttribute(svg, "crate.y", "data-min")) == Approx(y.back()));
    // A chain is plotted as a whole: its links' mean place.
    CHECK(std::stod(seriesAttribute(svg, "rope.y", "data-last")) == Approx(1.7).margin(2e-3));
    CHECK(seriesAttribute(svg, "rope.angle", "data-last").rfind("-90", 0) == 0);
    const Outcome unknown = runScl("plot " + (dir / "t.csv") + " --objects crat");
    CHECK(unknown.exitCode == 2);
    CHECK_THAT(unknown.err, Catch::Contains("--objects: unknown object 'crat'; did you mean "
                                            "'crate'?"));
  }
  SECTION("scl plot of the script plots the same run") {
    const Outcome plot =
        runScl("plot " + (dir / "drop.scl") + " --objects crate --out " + (dir / "p.svg"));
    REQUIRE(plot.exitCode == 0);
    const std::string svg = readText(dir / "p.svg");
    CHECK(std::stod(seriesAttribute(svg, "crate.y", "data-last")) == Approx(y.back()));
    CHECK(std::stod(seriesAttribute(svg, "crate.x", "data-last")) == Approx(-1.0).margin(1e-3));
  }
  SECTION("the same run writes the same file") {
    REQUIRE(runScl("run " + (dir / "drop.scl") + " --rate 50 --out " + (dir / "u.csv")).exitCode ==
            0);
    CHECK(readText(dir / "u.csv") == readText(dir / "t.csv"));
  }
}

TEST_CASE("scl run --json lists each object: where it went and which links touched it") {
  TempDir dir;
  // A ball held 1.2 m ahead at chest height, thrown back at the character at 0.2 s.
  writeText(dir / "ball.scl", scl::testing::standingIn(
                                  "ball b at: (1.2, 1.75) radius: 0.08 mass: 0.5 velocity: (-6, 0) "
                                  "launch: 0.2\n",
                                  1.5));
  const Outcome run = runScl("run " + (dir / "ball.scl") + " --json");
  REQUIRE(run.exitCode == 0);
  const nlohmann::json summary = parseJson(run.out);
  REQUIRE(summary["objects"].size() == 1);
  const nlohmann::json ball = objectNamed(summary, "b");
  const std::vector<std::string> keys = {
      "name",  "kind",  "start_x", "start_y",  "final_x",  "final_y",     "min_x",
      "max_x", "min_y", "max_y",   "final_vx", "final_vy", "final_angle", "touched_by"};
  std::vector<std::string> written;
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(run.out);
  for (const auto& item : ordered["objects"][0].items()) written.push_back(item.key());
  CHECK(written == keys);
  CHECK(ball["kind"] == "ball");
  // Held where it was placed until its launch.
  CHECK(ball["start_x"].get<double>() == Approx(1.2).margin(1e-6));
  CHECK(ball["start_y"].get<double>() == Approx(1.75).margin(1e-6));
  CHECK(ball["max_x"].get<double>() == Approx(1.2).margin(1e-6));
  CHECK(ball["max_y"].get<double>() == Approx(1.75).margin(1e-6));
  // It hits the trunk, bounces off (it ends ahead of where it came closest) and lies on the
  // ground (a ball of radius 0.08).
  const std::vector<std::string> touchedBy = ball["touched_by"];
  CHECK(std::find(touchedBy.begin(), touchedBy.end(), "trunk") != touchedBy.end());
  CHECK(std::find(touchedBy.begin(), touchedBy.end(), "head") == touchedBy.end());
  CHECK(ball["min_x"].get<double>() < 0.3);
  CHECK(ball["final_x"].get<double>() > ball["min_x"].get<double>() + 0.1);
  CHECK(ball["final_y"].get<double>() == Approx(0.08).margin(0.005));
  CHECK(ball["min_y"].get<double>() == Approx(0.08).margin(0.005));
  // The character's own `touched` counts the terrain only: the ball is no fall.
  CHECK(summary["touched"] == nlohmann::json::array({"leftFoot", "rightFoot"}));
  CHECK(summary["fell"].is_null());
  // The text summary says the same.
  const Outcome text = runScl("run " + (dir / "ball.scl"));
  CHECK_THAT(text.out, Catch::Contains("objects            b (ball) (1.200, 1.750) to "));
  CHECK_THAT(text.out, Catch::Contains("touched by " + touchedBy.front()));

  SECTION("thrown the other way, nothing touches it") {
    writeText(
        dir / "away.scl",
        scl::testing::standingIn("ball b at: (1.2, 1.75) radius: 0.08 mass: 0.5 velocity: (6, 0) "
                                 "launch: 0.2\n",
                                 1.0));
    const Outcome away = runScl("run " + (dir / "away.scl") + " --json");
    REQUIRE(away.exitCode == 0);
    const nlohmann::json object = objectNamed(parseJson(away.out), "b");
    CHECK(object["touched_by"] == nlohmann::json::array());
    CHECK(object["final_x"].get<double>() > 3.0);
    CHECK(object["min_x"].get<double>() == Approx(1.2).margin(1e-6));
  }
}

TEST_CASE("a moving platform is an object of the outputs: it moves on its path") {
  TempDir dir;
  writeText(dir / "deck.scl",
            scl::testing::standingIn(
                "platform deck at: -3 size: (0.5, 0.1) move: (0.2, 0) frequency: 1\n", 1.0));
  const Outcome run = runScl("run " + (dir / "deck.scl") + " --json");
  REQUIRE(run.exitCode == 0);
  const nlohmann::json deck = objectNamed(parseJson(run.out), "deck");
  CHECK(deck["kind"] == "platform");
  // Its centre starts where it is written, x = -2.75, and its path (0.2 sin 2πft) takes it
  // 0.2 m forward, 0.2 m back behind its start and back there in the second.
  CHECK(deck["start_x"].get<double>() == Approx(-2.75).margin(1e-4));
  CHECK(deck["min_x"].get<double>() == Approx(-2.95).margin(2e-3));
  CHECK(deck["max_x"].get<double>() == Approx(-2.55).margin(2e-3));
  CHECK(deck["final_x"].get<double>() == Approx(-2.75).margin(2e-3));
  CHECK(deck["min_y"].get<double>() == Approx(0.05).margin(1e-4));
}

TEST_CASE("an objective scores an object: final crate.x is the run's final_x") {
  // A crate sliding forward: friction stops it somewhere.
  const std::string script = scl::testing::standingIn(
      "box crate at: (-1.5, 0.25) size: (0.5, 0.5) mass: 20 velocity: (2, 0)\n" +
          kDropWorld.substr(kDropWorld.find("chain")),
      1.0);
  TempDir dir;
  writeText(dir / "slide.scl", script);
  const Outcome run = runScl("run " + (dir / "slide.scl") + " --json");
  REQUIRE(run.exitCode == 0);
  const nlohmann::json crate = objectNamed(parseJson(run.out), "crate");
  const nlohmann::json rope = objectNamed(parseJson(run.out), "rope");

  const Program program = compileOk(script, "slide.scl");
  const ObjectiveParseResult parsed = parseObjective(
      "term 1 final crate.x\n"
      "term 1 last crate.y\n"
      "term 1 final crate.angle\n"
      "term 1 max crate.x\n"
      "term 1 final rope.y\n"
      "term 1 final rope.3.angle\n"
      "term 1 sum 1 when crate.vx > 0.5\n",
      "crate.objective");
  INFO(renderDiagnostics(parsed.diagnostics, ""));
  REQUIRE(parsed.ok());
  const ObjectiveEvaluation evaluation = evaluateObjective(program, *parsed.objective);
  INFO(evaluation.failure);
  REQUIRE(evaluation.feasible);
  REQUIRE(evaluation.terms.size() == 7);
  // The same run, bit for bit: the same numbers.
  CHECK(evaluation.terms[0] == crate["final_x"].get<double>());
  CHECK(evaluation.terms[1] == crate["final_y"].get<double>());
  CHECK(evaluation.terms[2] == crate["final_angle"].get<double>());
  CHECK(evaluation.terms[3] == crate["max_x"].get<double>());
  CHECK(evaluation.terms[4] == rope["final_y"].get<double>());
  CHECK(evaluation.terms[5] == Approx(-90.0).margin(0.5));
  // It slid: moved forward, faster than 0.5 m/s for part of the second.
  CHECK(crate["final_x"].get<double>() > -1.4);
  CHECK(evaluation.terms[6] > 0.0);
  CHECK(evaluation.terms[6] < 1.0);
}

TEST_CASE("an objective's unknown object is an error at its name, with a suggestion") {
  const std::string script = scl::testing::standingIn(
      "platform step at: 0.3 size: (1, 0.15)\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n" +
          kDropWorld.substr(kDropWorld.find("chain")),
      1.0);
  // An `@` number: makeProblem wants something to optimize.
  const std::string tunable = std::regex_replace(script, std::regex("waist 0"), "waist @0");
  const auto errorsOf = [&](const std::string& objective) {
    const ProblemResult result = makeProblem(tunable, "s.scl", objective, "o.objective");
    CHECK_FALSE(result.problem);
    std::vector<Diagnostic> errors;
    for (const Diagnostic& diagnostic : result.diagnostics)
      if (diagnostic.severity == Severity::Error) errors.push_back(diagnostic);
    return errors;
  };

  std::vector<Diagnostic> errors = errorsOf("duration 1\nterm 1 final crat.x\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].location.file == "o.objective");
  CHECK(errors[0].location.line == 2);
  CHECK(errors[0].location.column == 14);
  CHECK(errors[0].message == "unknown object 'crat'; did you mean 'crate'?");

  errors = errorsOf("term 1 sum 1 when zzz.y > 1\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "unknown object 'zzz' (objects: crate, rope)");

  errors = errorsOf("term 1 max step.y\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "platform 'step' does not move: only movable objects and moving platforms have a place "
        "to score");

  errors = errorsOf("term 1 final rope.4.x\nterm 1 final crate.1.x\n");
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].message == "chain 'rope' has 3 links, not 4");
  CHECK(errors[1].message == "box 'crate' has no links: only a chain's are numbered");

  // A name of the objective's own scene, which has no objects.
  errors = errorsOf("scene pose: standing duration: 1\nterm 1 final crate.x\n");
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::StartsWith("unknown scene body 'crate': the scene has no "
                                                  "movable object"));

  // Well named, the problem is made and its objective bound to the scene's body.
  const ProblemResult ok =
      makeProblem(tunable, "s.scl", "duration 1\nterm 1 final crate.x\n", "o.objective");
  REQUIRE(ok.problem);
  CHECK(ok.problem->objective.terms[0].quantity.index == 2);  // ground, step, crate
}

TEST_CASE("objective files read scene bodies' quantities, and a misspelled link is still one") {
  ObjectiveParseResult parsed = parseObjective(
      "term 1 final crate.x\nterm 1 max rope.2.vy\nterm 1 mean abs b.omega when b.y > 1\n",
      "o.objective");
  REQUIRE(parsed.ok());
  const Quantity& crate = parsed.objective->terms[0].quantity;
  CHECK(crate.kind == QuantityKind::ObjectX);
  CHECK(crate.object == "crate");
  CHECK(crate.part == -1);
  CHECK(crate.index == -1);  // bound later, to the scene
  CHECK(parsed.objective->terms[0].aggregation == Aggregation::Last);
  CHECK(parsed.objective->terms[0].label == "final crate.x");
  CHECK(parsed.objective->terms[1].quantity.kind == QuantityKind::ObjectVy);
  CHECK(parsed.objective->terms[1].quantity.part == 1);
  CHECK(parsed.objective->terms[2].conditions[0].quantity.kind == QuantityKind::ObjectY);
  // `final` with its arguments is still the predefined term.
  parsed = parseObjective("term 1 final below: 1.6 penalty: 100\nterm 1 final\n", "o.objective");
  REQUIRE(parsed.ok());
  CHECK(parsed.objective->terms[0].quantity.kind == QuantityKind::Constant);
  CHECK(parsed.objective->terms[0].quantity.constant == 100);
  CHECK(parsed.objective->terms[1].quantity.constant == 1000);

  const auto firstError = [](const std::string& text) {
    const ObjectiveParseResult result = parseObjective(text, "o.objective");
    REQUIRE_FALSE(result.ok());
    return result.diagnostics.front().message;
  };
  CHECK(firstError("term 1 final pelvs.y\n") ==
        "unknown link or joint 'pelvs'; did you mean 'pelvis'?");
  CHECK(firstError("term 1 final crate.speed\n") ==
        "unknown quantity 'crate.speed'; a scene body has x, y, vx, vy, angle, omega");
  CHECK(firstError("term 1 final crate.angel\n") ==
        "unknown quantity 'crate.angel'; a scene body has x, y, vx, vy, angle, omega; did you "
        "mean 'angle'?");
  CHECK(firstError("term 1 final rope.0.x\n") ==
        "unknown quantity 'rope.0.x'; a chain's link is numbered from 1 to 100 (e.g. "
        "'rope.1.x')");
}

TEST_CASE("the filmstrip draws the world as it stands in each frame") {
  TempDir dir;
  writeText(dir / "ball.scl", scl::testing::standingIn(
                                  "platform step at: 0.3 size: (1, 0.15)\n"
                                  "slope hill from: (-2.6, 0) to: (-1.6, 0.3)\n"
                                  "ball b at: (1.2, 1.75) radius: 0.08 mass: 0.5 velocity: (-6, 0) "
                                  "launch: 0.2\n"
                                  "box crate at: (-1, 1.25) size: (0.5, 0.5) mass: 20\n",
                                  1.0));
  const Outcome run = runScl("run " + (dir / "ball.scl") + " --filmstrip " + (dir / "f.svg") +
                             " --frames 0,0.3,1 --out " + (dir / "t.csv") + " --rate 10");
  REQUIRE(run.exitCode == 0);
  const std::string svg = readText(dir / "f.svg");
  CHECK(countOf(svg, "<g class=\"frame\"") == 3);
  // Per frame: the ball a circle, the crate a polygon (objects), the step and the slope
  // polygons (terrain).
  CHECK(countOf(svg, "<circle class=\"object\" data-body=\"b\"") == 3);
  CHECK(countOf(svg, "<polygon class=\"object\" data-body=\"crate\"") == 3);
  CHECK(countOf(svg, "<polygon class=\"terrain\" data-body=\"step\"") == 3);
  CHECK(countOf(svg, "<polygon class=\"terrain\" data-body=\"hill\"") == 3);
  // Objects in their own colour.
  CHECK(countOf(svg, "class=\"object\" data-body=\"crate\" fill=\"#2a9d8f\"") == 3);
  // The ball where it is at each frame: held at (1.2, 1.75), then 0.1 s after its launch
  // at 6 m/s flying at the character. Each panel (234 px) is centred on the pelvis, at 90
  // px per metre; the pelvis's x is the trajectory's.
  const auto rows = csvRows(readText(dir / "t.csv"));
  const std::vector<double> pelvis = column(rows, "pelvis_x");
  const std::regex circle(
      "<circle class=\"object\" data-body=\"b\" cx=\"([-0-9.]+)\" "
      "cy=\"([-0-9.]+)\" r=\"([-0-9.]+)\"");
  std::vector<Vec2> ball;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator();
       ++it) {
    const double left = 234.0 * static_cast<double>(ball.size());
    const double pelvisX = pelvis[ball.size() == 2 ? 10 : ball.size() * 3];  // t = 0, 0.3, 1
    ball.emplace_back((std::stod((*it)[1]) - left - 117.0) / 90.0 + pelvisX,
                      (234.0 - std::stod((*it)[2])) / 90.0);
    CHECK(std::stod((*it)[3]) == Approx((0.08 - 0.01) * 90.0));  // inside its border
  }
  REQUIRE(ball.size() == 3);
  CHECK(ball[0].x() == Approx(1.2).margin(0.01));
  CHECK(ball[0].y() == Approx(1.75).margin(0.01));
  CHECK(ball[1].x() == Approx(0.6).margin(0.02));
  CHECK(ball[1].y() == Approx(1.75 - 0.5 * 9.81 * 0.01).margin(0.02));
  // The crate falls 1 m: its polygon's first corner (the bottom left) 90 px lower.
  const std::regex crate("data-body=\"crate\"[^>]*points=\"[-0-9.]+,([-0-9.]+)");
  std::vector<double> crateRow;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), crate); it != std::sregex_iterator();
       ++it)
    crateRow.push_back(std::stod((*it)[1]));
  REQUIRE(crateRow.size() == 3);
  CHECK(crateRow[2] - crateRow[0] == Approx(90.0).margin(2.0));
}

TEST_CASE("the filmstrip still draws the chair as a box, and nothing else of a flat scene") {
  TempDir dir;
  const Outcome run = runScl("run " + std::string(SCL_SOURCE_DIR) +
                             "/scripts/sit-to-stand.scl --duration 0.5 --frames 0,0.5 "
                             "--filmstrip " +
                             (dir / "f.svg"));
  REQUIRE(run.exitCode == 0);
  const std::string svg = readText(dir / "f.svg");
  CHECK(countOf(svg, "fill=\"#b08968\"") == 2);  // one chair per frame, a <rect>
  CHECK(countOf(svg, "class=\"terrain\"") == 0);
  CHECK(countOf(svg, "class=\"object\"") == 0);
}

TEST_CASE("WorldMetrics follows each object from its parts, a chain as a whole") {
  std::vector<SceneBodyDef> bodies(3);
  bodies[0] = groundBody();
  bodies[1].kind = SceneBodyKind::Ball;
  bodies[1].name = "b";
  bodies[2].kind = SceneBodyKind::Chain;
  bodies[2].name = "rope";
  bodies[2].count = 2;
  std::vector<WorldBodyState> world(3);
  world[0] = {1, 0, Vec2(1, 2), Vec2(0, -1), 0.5, 0.0};
  world[1] = {2, 0, Vec2(0, 1), Vec2(1, 0), 1.0, 0.0};
  world[2] = {2, 1, Vec2(0, 3), Vec2(3, 0), 2.0, 0.0};
  CharacterState state;
  state.linkCount = 2;
  WorldMetrics metrics(bodies, 2);
  metrics.observe(state, world);
  world[0].position = Vec2(-1, 4);
  world[1].position = Vec2(2, 1);
  state.links[1].touching = std::uint64_t{1} << 2;  // link 1 touches the rope
  metrics.observe(state, world);
  REQUIRE(metrics.objects().size() == 2);
  const ObjectSummary& ball = metrics.objects()[0];
  CHECK(ball.name == "b");
  CHECK(ball.start == Vec2(1, 2));
  CHECK(ball.final == Vec2(-1, 4));
  CHECK(ball.min == Vec2(-1, 2));
  CHECK(ball.max == Vec2(1, 4));
  CHECK(ball.touchedBy[1] == false);
  const ObjectSummary& rope = metrics.objects()[1];
  CHECK(rope.start == Vec2(0, 2));  // its links' mean
  CHECK(rope.final == Vec2(1, 2));
  CHECK(rope.finalVelocity == Vec2(2, 0));
  CHECK(rope.finalAngle == 1.5);
  CHECK(rope.touchedBy[1]);
  CHECK_FALSE(rope.touchedBy[0]);
}
