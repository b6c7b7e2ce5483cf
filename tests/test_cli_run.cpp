// `scl run` as a user runs it: the built binary, its exit codes, its summary (human and
// JSON), the trajectory CSV and the filmstrip SVG. Scripts are in tests/cli/.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.h"

using namespace scl::testing;

namespace {

const std::string kThesis = SCL_SOURCE_DIR "/scripts/thesis/";

// The JSON object printed on stdout, parsed (the test fails when it does not parse).
nlohmann::json parseJson(const std::string& text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  INFO(text);
  REQUIRE(!json.is_discarded());
  REQUIRE(json.is_object());
  return json;
}

// --- CSV: fields per line, honouring quotes -------------------------------------------

std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        fields.emplace_back();
      else
        fields.back() += c;
    }
    rows.push_back(fields);
  }
  return rows;
}

// --- SVG: a well-formedness check of the tags (balanced, properly nested) -------------

bool wellFormedXml(const std::string& text) {
  std::vector<std::string> open;
  size_t i = 0;
  while ((i = text.find('<', i)) != std::string::npos) {
    size_t end = text.find('>', i);
    if (end == std::string::npos) return false;
    std::string tag = text.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return false;
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag.back() == '/') continue;  // self-closing
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
      continue;
    }
    open.push_back(tag.substr(0, tag.find_first_of(" \n")));
  }
  return open.empty() && text.find("<svg") != std::string::npos;
}

}  // namespace

TEST_CASE("scl run summarises a supine script that does nothing") {
  Outcome run = runScl("run " + kCliScripts + "supine_idle.scl --json");
  REQUIRE(run.exitCode == 0);
  const nlohmann::json json = parseJson(run.out);
  // Every documented key, in the documented order.
  const std::vector<std::string> keys = {"script",
                                         "scene",
                                         "time_step",
                                         "pd",
                                         "duration",
                                         "steps",
                                         "end",
                                         "ended",
                                         "parameters",
                                         "pushes",
                                         "perturb_deg",
                                         "seed",
                                         "phases",
                                         "standing",
                                         "first_standing",
                                         "standing_since",
                                         "fell",
                                         "rise_time",
                                         "max_pelvis_height",
                                         "max_airborne_pelvis_height",
                                         "airborne_time",
                                         "longest_airborne",
                                         "head_height",
                                         "energy",
                                         "distance",
                                         "farthest",
                                         "touched",
                                         "objects",
                                         "phase_changes",
                                         "wall_time",
                                         "setup_wall_time",
                                         "real_time_factor",
                                         "trajectory",
                                         "filmstrip",
                                         "clip",
                                         "bvh"};
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(run.out);
  std::vector<std::string> written;
  for (const auto& item : ordered.items()) written.push_back(item.key());
  CHECK(written == keys);
  CHECK(json["scene"]["pose"] == "supine");
  CHECK(json["scene"]["environment"] == "flat");
  CHECK(json["objects"] == nlohmann::json::array());  // no world statements
  CHECK(json["duration"].get<double>() == Approx(1.0));
  CHECK(json["steps"] == 4000);
  CHECK(json["standing"] == false);
  CHECK(json["first_standing"].is_null());
  CHECK(json["standing_since"].is_null());
  CHECK(json["fell"].is_null());
  CHECK(json["rise_time"].is_null());
  CHECK(json["max_airborne_pelvis_height"].is_null());  // lying on the ground throughout
  CHECK(json["airborne_time"] == 0.0);
  CHECK(json["max_pelvis_height"].get<double>() < 0.4);
  CHECK(json["head_height"].get<double>() < 0.4);
  CHECK(json["energy"].get<double>() > 0.0);  // the default PD holds the limbs against gravity
  CHECK(std::abs(json["distance"].get<double>()) < 0.05);
  CHECK(json["phase_changes"] == 0);
  REQUIRE(json["phases"].size() == 1);
  CHECK(json["phases"][0] ==
        nlohmann::json{{"time", 0.0}, {"index", 0}, {"name", "idle"}, {"timed_out", false}});
  CHECK(json["real_time_factor"].get<double>() > 0.0);
  CHECK(json["trajectory"].is_null());
  CHECK(json["parameters"].is_object());
  CHECK(json["pushes"].is_array());
  CHECK(json["perturb_deg"].is_null());
  CHECK(json["seed"].is_null());
  // The one phase has no exit: it waits for nothing.
  nlohmann::json ended = json["ended"];
  CHECK(ended["active"].get<double>() == Approx(1.0));
  ended.erase("active");
  CHECK(ended == nlohmann::json{{"phase", "idle"},
                                {"phase_index", 0},
                                {"phase_count", 1},
                                {"reason", "the script's scene duration"},
                                {"waiting_for", nullptr},
                                {"waited", nullptr},
                                {"never_fired", false}});

  Outcome human = runScl("run " + kCliScripts + "supine_idle.scl");
  REQUIRE(human.exitCode == 0);
  CHECK(human.out.find("standing at end    no (never)") != std::string::npos);
  CHECK(human.out.find("rise time          never") != std::string::npos);
  CHECK(human.out.find("0.000 s  idle") != std::string::npos);
  CHECK(human.out.find("x real time") != std::string::npos);
}

TEST_CASE("scl run: the thesis sit-to-stand from a chair stands up") {
  Outcome run = runScl(
      "run " + kThesis +
      "4.9-sit-to-stand.scl --pose sitting --env chair --chair-height 0.45 --duration 3 --json");
  REQUIRE(run.exitCode == 0);
  const nlohmann::json json = parseJson(run.out);
  CHECK(json["scene"]["environment"] == "chair");
  CHECK(json["duration"].get<double>() == Approx(3.0));
  CHECK(json["standing"] == true);
  CHECK(json["first_standing"].get<double>() < 3.0);
  CHECK(json["rise_time"].get<double>() < json["first_standing"].get<double>());
  CHECK(json["fell"].is_null());
  CHECK(json["head_height"].get<double>() > 1.6);
  CHECK(json["max_pelvis_height"].get<double>() > 0.9);
  CHECK(json["distance"].get<double>() > 0.2);  // the pelvis moves forward off the seat
  CHECK(json["phase_changes"] == 1);
  // The timeline: lean at 0, standup 0.4 s later.
  REQUIRE(json["phases"].size() == 2);
  CHECK(json["phases"][0] ==
        nlohmann::json{{"time", 0.0}, {"index", 0}, {"name", "lean"}, {"timed_out", false}});
  CHECK(json["phases"][1]["time"].get<double>() == Approx(0.4));
  CHECK(json["phases"][1]["index"] == 1);
  CHECK(json["phases"][1]["name"] == "standup");
}

TEST_CASE("scl run: the default duration follows the script") {
  SECTION("the scene header's duration") {
    Outcome run = runScl("run " + kCliScripts + "supine_idle.scl --json");
    REQUIRE(run.exitCode == 0);
    CHECK(parseJson(run.out)["duration"].get<double>() == Approx(1.0));
  }
  SECTION("until the last phase has been active 3 s") {
    Outcome run = runScl("run " + kCliScripts + "two_phases.scl --json");
    REQUIRE(run.exitCode == 0);
    const nlohmann::json json = parseJson(run.out);
    CHECK(json["duration"].get<double>() == Approx(3.5).margin(0.001));
    CHECK(json["phase_changes"] == 1);
    REQUIRE(json["phases"].size() == 2);
    CHECK(json["phases"][1]["time"].get<double>() == Approx(0.5));
    CHECK(json["phases"][1]["index"] == 1);
    CHECK(json["phases"][1]["name"] == "rest");
  }
  SECTION("10 s for a cyclic script") {
    Outcome run = runScl("run " + kCliScripts + "cyclic.scl --json");
    REQUIRE(run.exitCode == 0);
    const nlohmann::json json = parseJson(run.out);
    CHECK(json["duration"].get<double>() == Approx(10.0));
    CHECK(json["phase_changes"] == 19);
  }
  SECTION("--duration overrides") {
    Outcome run = runScl("run " + kCliScripts + "two_phases.scl --duration 0.25 --json");
    REQUIRE(run.exitCode == 0);
    const nlohmann::json json = parseJson(run.out);
    CHECK(json["duration"].get<double>() == Approx(0.25));
    CHECK(json["steps"] == 1000);
  }
}

TEST_CASE("scl run says which phase was active at the end, and a contact that never came") {
  // Lying still, the feet never leave the ground: without a scene duration the run goes on
  // to the 60 s limit, and the summary says which transition it waited for.
  // docs/cli.md (Summary) shows it as `scl run stuck.scl`: the script without its comment,
  // the command and the lines it prints, all as this run gives them.
  const std::string script = kCliScripts + "supine_stuck.scl";
  const std::string commented = readText(script);
  const std::string body = commented.substr(commented.find("\nscene ") + 1);
  const std::string page = readText(SCL_SOURCE_DIR "/docs/cli.md");
  CHECK_THAT(page, Catch::Contains("```\n" + body + "```\n"));
  CHECK_THAT(page, Catch::Contains("\n$ scl run stuck.scl\n"));
  TempDir dir;
  writeText(dir / "stuck.scl", body);
  RunOptions inDir;
  inDir.workingDirectory = dir.path().string();
  Outcome run = runScl("run stuck.scl", inDir);
  REQUIRE(run.exitCode == 0);
  const std::string shown =
      "simulated          60.000 s in 240000 steps of 0.250 ms (end: the 60 s limit)\n"
      "ended              in phase 'wait_for_lift' (2 of 3), active 59.500 s: the 60 s limit\n"
      "                   phase 'wait_for_lift' (2 of 3) waited 59.5 s for 'when contact lost "
      "all feet'; it never fired\n";
  CHECK_THAT(run.out, Catch::Contains(shown));
  CHECK_THAT(page, Catch::Contains(shown));
  // scl check's warning, printed by scl run too, says what to add.
  CHECK_THAT(run.err, Catch::Contains("stuck.scl:10:1: warning: if this contact never "
                                      "comes, the phase waits until the run's 60 s limit"));
  CHECK_THAT(run.err, Catch::Contains("'when contact lost all feet or after T'"));

  Outcome json = runScl("run " + script + " --duration 3 --json");
  REQUIRE(json.exitCode == 0);
  nlohmann::json ended = parseJson(json.out)["ended"];
  CHECK(ended["active"].get<double>() == Approx(2.5));
  CHECK(ended["waited"].get<double>() == Approx(2.5));
  ended.erase("active");
  ended.erase("waited");
  CHECK(ended == nlohmann::json{{"phase", "wait_for_lift"},
                                {"phase_index", 1},
                                {"phase_count", 3},
                                {"reason", "--duration"},
                                {"waiting_for", "when contact lost all feet"},
                                {"never_fired", true}});
  // The summary docs/cli.md shows first: its `ended` line as the command prints it.
  RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  const std::string sitToStand =
      "scl run scripts/thesis/4.9-sit-to-stand.scl --pose sitting --duration 3";
  CHECK_THAT(page, Catch::Contains("\n$ " + sitToStand + "\n"));
  const Outcome sat = runScl(sitToStand.substr(4), top);
  REQUIRE(sat.exitCode == 0);
  const std::string endedLine =
      "\nended              in phase 'standup' (2 of 2), active 2.600 s: "
      "--duration\nphases ";
  CHECK_THAT(sat.out, Catch::Contains(endedLine));
  CHECK_THAT(page, Catch::Contains(endedLine));
  // A run that ends in its last phase waits for nothing.
  Outcome done = runScl("run " + kCliScripts + "two_phases.scl");
  REQUIRE(done.exitCode == 0);
  CHECK_THAT(done.out, Catch::Contains("ended              in phase 'rest' (2 of 2), active "
                                       "3.000 s: the last phase had been active 3 s\n"
                                       "phases "));
}

TEST_CASE("scl run --out writes a CSV with a header naming every column") {
  TempDir dir;
  // 1 s at 50 Hz: samples at t = 0, 0.02, ..., 1.0, both ends included: 51 rows.
  Outcome run = runScl("run " + kCliScripts + "supine_idle.scl --duration 1 --rate 50 --out " +
                       (dir / "run.csv"));
  REQUIRE(run.exitCode == 0);
  auto rows = parseCsv(readText(dir / "run.csv"));
  REQUIRE(rows.size() == 1 + 51);
  const std::vector<std::string>& header = rows[0];
  CHECK(header.size() == 9 + 15 + 15 + 16 + 4 + 12);
  CHECK(header[0] == "time");
  CHECK(header[2] == "phase_name");
  CHECK(std::find(header.begin(), header.end(), "leftKnee_deg") != header.end());
  CHECK(std::find(header.begin(), header.end(), "waist_torque") != header.end());
  CHECK(std::find(header.begin(), header.end(), "rightFoot_contact") != header.end());
  CHECK(std::find(header.begin(), header.end(), "com_vy") != header.end());
  CHECK(std::find(header.begin(), header.end(), "leftToe_x") != header.end());
  CHECK(header.back() == "rightHand_y");
  for (size_t i = 1; i < rows.size(); ++i) {
    REQUIRE(rows[i].size() == header.size());
    CHECK(std::stod(rows[i][0]) == Approx(0.02 * static_cast<double>(i - 1)).margin(1e-6));
    CHECK(rows[i][2] == "idle");
  }
  // Every value but the phase name is a number.
  for (size_t column = 3; column < header.size(); ++column)
    CHECK_NOTHROW(std::stod(rows.back()[column]));
  CHECK(dir.entries() == std::vector<std::string>{"run.csv"});  // no temporary file left
}

// The feet's and hands' columns: a quiet stance stands on flat feet (heels and toes at the
// ground), hands below the shoulders, the toes ahead of the heels.
TEST_CASE("scl run --out gives the heels, toes and hands") {
  TempDir dir;
  const Outcome run = runScl("run " + std::string(SCL_SOURCE_DIR) +
                             "/scripts/stand.scl --duration 2 --rate 10 --out " + (dir / "s.csv"));
  REQUIRE(run.exitCode == 0);
  const auto rows = parseCsv(readText(dir / "s.csv"));
  const std::vector<std::string>& header = rows[0];
  const auto value = [&](const std::string& column) {
    const auto found = std::find(header.begin(), header.end(), column);
    REQUIRE(found != header.end());
    return std::stod(rows.back()[static_cast<size_t>(found - header.begin())]);
  };
  for (const char* side : {"left", "right"}) {
    INFO(side);
    const std::string s(side);
    CHECK(std::abs(value(s + "Heel_y")) < 0.01);
    CHECK(std::abs(value(s + "Toe_y")) < 0.01);
    // Heel to toe: the foot's length and a bit, forward (+x).
    CHECK(value(s + "Toe_x") - value(s + "Heel_x") == Approx(0.226).margin(0.03));
    CHECK(value(s + "Hand_y") > 0.6);
    CHECK(value(s + "Hand_y") < 1.3);  // below the shoulders (the pose bends the elbows)
  }
}

TEST_CASE("scl run --filmstrip draws a body of any shape, every link in every frame") {
  TempDir dir;
  // The bird (14 links) and the dinosaur (23): a polygon and two cap circles per link.
  for (const auto& [name, links] : {std::pair{"bird", 14}, std::pair{"dinosaur", 23}}) {
    CAPTURE(name);
    const std::string script =
        std::string(SCL_SOURCE_DIR) + "/scripts/bodies/stand-" + name + ".scl";
    Outcome run = runScl("run " + script + " --duration 1 --filmstrip " + (dir / "f.svg") +
                         " --frames 0,0.5,1");
    REQUIRE(run.exitCode == 0);
    const std::string svg = readText(dir / "f.svg");
    CHECK(wellFormedXml(svg));
    CHECK(countOf(svg, "<g class=\"frame\"") == 3);
    CHECK(countOf(svg, "<polygon") == static_cast<size_t>(3 * links));
  }
}

TEST_CASE("scl run --filmstrip writes well-formed SVG with one drawing per time") {
  TempDir dir;
  SECTION("requested times") {
    Outcome run = runScl("run " + kCliScripts + "two_phases.scl --filmstrip " + (dir / "f.svg") +
                         " --frames 0,0.3,1.2,2");
    REQUIRE(run.exitCode == 0);
    std::string svg = readText(dir / "f.svg");
    CHECK(wellFormedXml(svg));
    CHECK(countOf(svg, "<g class=\"frame\"") == 4);
    CHECK(svg.find("data-time=\"0.3\"") != std::string::npos);
    CHECK(svg.find("data-time=\"1.2\"") != std::string::npos);
    // The run does not stop before the last frame: the last phase still needs its 3 s.
    CHECK(dir.entries() == std::vector<std::string>{"f.svg"});
  }
  SECTION("default: 8 frames, start and end included") {
    Outcome run = runScl("run " + kCliScripts + "supine_idle.scl --filmstrip " + (dir / "f.svg") +
                         " --out " + (dir / "t.csv"));
    REQUIRE(run.exitCode == 0);
    std::string svg = readText(dir / "f.svg");
    CHECK(wellFormedXml(svg));
    CHECK(countOf(svg, "<g class=\"frame\"") == 8);
    CHECK(svg.find("data-time=\"0\"") != std::string::npos);
    CHECK(svg.find("data-time=\"1\"") != std::string::npos);
    CHECK(dir.entries() == std::vector<std::string>{"f.svg", "t.csv"});
  }
  SECTION("default frames of a run whose end is decided while it runs") {
    Outcome run = runScl("run " + kCliScripts + "two_phases.scl --filmstrip " + (dir / "f.svg"));
    REQUIRE(run.exitCode == 0);
    std::string svg = readText(dir / "f.svg");
    CHECK(wellFormedXml(svg));
    CHECK(countOf(svg, "<g class=\"frame\"") == 8);
    CHECK(svg.find("data-time=\"3.5\"") != std::string::npos);
  }
}

TEST_CASE("scl run --set overrides an @ parameter and changes the outcome") {
  Outcome base = runScl("run " + kCliScripts + "lean_param.scl --json");
  Outcome bent = runScl("run " + kCliScripts + "lean_param.scl --set lean.pd.waist=60 --json");
  REQUIRE(base.exitCode == 0);
  REQUIRE(bent.exitCode == 0);
  const nlohmann::json before = parseJson(base.out), after = parseJson(bent.out);
  CHECK(before["parameters"]["lean.pd.waist"] == 10.0);
  CHECK(after["parameters"]["lean.pd.waist"] == 60.0);
  CHECK(after["energy"].get<double>() > 2.0 * before["energy"].get<double>());
  CHECK(after["distance"] != before["distance"]);
}

TEST_CASE("scl run --push changes the outcome") {
  Outcome base = runScl("run " + kCliScripts + "lean_param.scl --json");
  Outcome pushed =
      runScl("run " + kCliScripts + "lean_param.scl --push trunk:300,0@0.2+0.2 --json");
  REQUIRE(base.exitCode == 0);
  REQUIRE(pushed.exitCode == 0);
  const nlohmann::json before = parseJson(base.out), after = parseJson(pushed.out);
  REQUIRE(after["pushes"].size() == 1);
  CHECK(after["pushes"][0] == nlohmann::json{{"link", "trunk"},
                                             {"object", nullptr},
                                             {"part", nullptr},
                                             {"fx", 300.0},
                                             {"fy", 0.0},
                                             {"start", 0.2},
                                             {"duration", 0.2},
                                             {"source", "--push"}});
  // Pushed forward (+x): the pelvis ends well ahead of where it would have been.
  CHECK(after["distance"].get<double>() > before["distance"].get<double>() + 0.2);
}

TEST_CASE("scl run --push on a movable object: by its name, a chain's link by its number") {
  TempDir dir;
  const std::string script = dir / "crate.scl";
  std::ofstream(script) << "scene pose: standing env: flat duration: 1\n"
                           "platform step at: 2 size: (1, 0.15)\n"
                           "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n"
                           "chain rope at: (1.5, 1.5) count: 4 size: (0.1, 0.03) mass: 0.1 "
                           "angle: -90 fixed: yes\n"
                           "{ (stand) }\n";
  Outcome pushed = runScl("run " + script +
                          " --push crate:-300,0@0.2+0.5 --push rope:0,5@0.1+0.1 --push "
                          "rope.2:5,0@0.1+0.1 --push trunk:10,0@0.1+0.1 --json");
  INFO(pushed.err);
  REQUIRE(pushed.exitCode == 0);
  const nlohmann::json json = parseJson(pushed.out);
  REQUIRE(json["pushes"].size() == 4);
  CHECK(json["pushes"][0] == nlohmann::json{{"link", nullptr},
                                            {"object", "crate"},
                                            {"part", nullptr},
                                            {"fx", -300.0},
                                            {"fy", 0.0},
                                            {"start", 0.2},
                                            {"duration", 0.5},
                                            {"source", "--push"}});
  CHECK(json["pushes"][1]["object"] == "rope");
  CHECK(json["pushes"][1]["part"] == 4);  // a chain alone: its last link
  CHECK(json["pushes"][2]["part"] == 2);
  CHECK(json["pushes"][3]["link"] == "trunk");
  CHECK(json["pushes"][3]["object"].is_null());
  Outcome text = runScl("run " + script + " --push crate:-300,0@0.2+0.5 --push rope.2:5,0@0.1+0.1");
  REQUIRE(text.exitCode == 0);
  CHECK_THAT(text.out, Catch::Contains("push               crate (-300.0, 0.0) N from 0.200 s "
                                       "for 0.500 s") &&
                           Catch::Contains("push               rope.2 (5.0, 0.0) N"));

  // An unknown name: a usage error with the closest link or object.
  const Outcome typo = runScl("run " + script + " --push crat:-300,0@0.2+0.5");
  CHECK(typo.exitCode == 2);
  CHECK_THAT(typo.err, Catch::Contains("unknown link or object 'crat'; did you mean 'crate'?") &&
                           Catch::Contains("objects: crate, rope)"));
  const Outcome link = runScl("run " + script + " --push trunc:200,0@1+0.1");
  CHECK(link.exitCode == 2);
  CHECK_THAT(link.err, Catch::Contains("did you mean 'trunk'?"));
  // Terrain does not move; a chain has links 1 to count; a box has no links.
  const Outcome terrain = runScl("run " + script + " --push step:200,0@0.1+0.1");
  CHECK(terrain.exitCode == 2);
  CHECK_THAT(terrain.err, Catch::Contains("'step' is a platform, which does not move"));
  const Outcome past = runScl("run " + script + " --push rope.5:1,0@0.1+0.1");
  CHECK(past.exitCode == 2);
  CHECK_THAT(past.err, Catch::Contains("chain 'rope' has links 1 to 4 (got '5')"));
  const Outcome part = runScl("run " + script + " --push crate.1:1,0@0.1+0.1");
  CHECK(part.exitCode == 2);
  CHECK_THAT(part.err, Catch::Contains("'crate' is a box, one body"));
  // A link group is one name too many.
  const Outcome group = runScl("run " + script + " --push feet:1,0@0.1+0.1");
  CHECK(group.exitCode == 2);
  CHECK_THAT(group.err, Catch::Contains("'feet' is a group"));
}

TEST_CASE("scl run --push on an object: the example docs/cli.md shows") {
  const std::string page = readText(SCL_SOURCE_DIR "/docs/cli.md");
  const std::string command = "scl run crate.scl --push crate:-300,0@0.2+0.5 --json";
  const std::string script =
      "scene pose: standing env: flat duration: 1\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n"
      "{ (stand) }\n";
  CHECK_THAT(page, Catch::Contains("\n" + command + "\n"));
  CHECK_THAT(page, Catch::Contains("```\n" + script + "```\n"));
  TempDir dir;
  std::ofstream(dir / "crate.scl") << script;
  RunOptions here;
  here.workingDirectory = dir.path().string();
  const Outcome run = runScl(command.substr(4), here);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const nlohmann::json entry = parseJson(run.out)["pushes"][0];
  CHECK(entry == nlohmann::json{{"link", nullptr},
                                {"object", "crate"},
                                {"part", nullptr},
                                {"fx", -300},
                                {"fy", 0},
                                {"start", 0.2},
                                {"duration", 0.5},
                                {"source", "--push"}});
  CHECK_THAT(page, Catch::Contains("`{\"link\": null, \"object\": \"crate\", \"part\": null,"));
}

TEST_CASE("scl run --perturb is deterministic per seed") {
  TempDir dir;
  std::string script = "run " + kCliScripts + "supine_idle.scl --duration 0.5 --perturb 5 ";
  REQUIRE(runScl(script + "--seed 7 --out " + (dir / "a.csv")).exitCode == 0);
  REQUIRE(runScl(script + "--seed 7 --out " + (dir / "b.csv")).exitCode == 0);
  REQUIRE(runScl(script + "--seed 8 --out " + (dir / "c.csv")).exitCode == 0);
  REQUIRE(runScl("run " + kCliScripts + "supine_idle.scl --duration 0.5 --out " + (dir / "d.csv"))
              .exitCode == 0);
  CHECK(readText(dir / "a.csv") == readText(dir / "b.csv"));
  CHECK(readText(dir / "a.csv") != readText(dir / "c.csv"));
  CHECK(readText(dir / "a.csv") != readText(dir / "d.csv"));
}

TEST_CASE("scl run --feature-rate: checked, and a warning of the feature QP is printed") {
  const std::string idle = "run " + kCliScripts + "supine_idle.scl --duration 0.1 ";
  for (const char* bad : {"0", "-5", "5000"}) {
    CAPTURE(bad);
    Outcome run = runScl(idle + "--feature-rate " + bad);
    CHECK(run.exitCode == 2);
    CHECK_THAT(run.err, Catch::Contains("--feature-rate"));
  }
  CHECK(runScl(idle + "--feature-rate 1000").exitCode == 0);

  // A centre-of-mass target far ahead of the feet: the run goes on, and says why it fell.
  TempDir dir;
  const std::string script = dir / "lean.scl";
  std::ofstream(script) << "scene pose: standing duration: 1\n{ (lean) [com (0.6, 1.1)] "
                           "[support feet] }\n";
  Outcome lean = runScl("run " + script);
  CHECK(lean.exitCode == 0);
  CHECK_THAT(lean.err, Catch::Contains("warning: t = ") &&
                           Catch::Contains("phase 'lean': the centre-of-mass target"));
}

TEST_CASE(
    "scl run --pd: explicit or stable, reported in the summary, anything else is a usage "
    "error") {
  const std::string idle = "run " + kCliScripts + "supine_idle.scl --duration 0.2 --json ";
  Outcome bad = runScl(idle + "--pd implicit");
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.err, Catch::Contains("--pd must be 'explicit' or 'stable'"));
  Outcome plain = runScl(idle);
  Outcome stable = runScl(idle + "--pd stable");
  REQUIRE(plain.exitCode == 0);
  REQUIRE(stable.exitCode == 0);
  const auto plainJson = nlohmann::json::parse(plain.out);
  const auto stableJson = nlohmann::json::parse(stable.out);
  CHECK(plainJson["pd"] == "explicit");
  CHECK(stableJson["pd"] == "stable");
  CHECK(plainJson["energy"] != stableJson["energy"]);  // the torques differ

  // docs/stepping.md's command: at 3 ms the quiet stance stands with stable PD only.
  const std::string stand = "run scripts/stand.scl --dt 0.003 --duration 5 --json";
  RunOptions fromSource;
  fromSource.workingDirectory = SCL_SOURCE_DIR;
  Outcome explicitStand = runScl(stand, fromSource);
  Outcome stableStand = runScl(stand + " --pd stable", fromSource);
  REQUIRE(explicitStand.exitCode == 0);
  REQUIRE(stableStand.exitCode == 0);
  CHECK_FALSE(nlohmann::json::parse(explicitStand.out)["fell"].is_null());
  CHECK(nlohmann::json::parse(stableStand.out)["fell"].is_null());
  CHECK(nlohmann::json::parse(stableStand.out)["standing"] == true);
}

TEST_CASE("scl run exit codes and messages for each kind of failure") {
  TempDir dir;
  const std::string idle = kCliScripts + "supine_idle.scl";
  SECTION("missing script: 2") {
    Outcome run = runScl("run " + (dir / "no_such.scl"));
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("script '" + (dir / "no_such.scl") + "' does not exist") !=
          std::string::npos);
  }
  SECTION("no script, unknown option: 2") {
    CHECK(runScl("run").exitCode == 2);
    Outcome run = runScl("run " + idle + " --bogus");
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("bogus") != std::string::npos);
  }
  SECTION("script with errors: 1, diagnostics printed, no output file") {
    Outcome run = runScl("run " + kCliScripts + "errors.scl --out " + (dir / "x.csv"));
    CHECK(run.exitCode == 1);
    CHECK(run.err.find("errors.scl:3:4: error: unknown joint 'leftShoulderr'") !=
          std::string::npos);
    CHECK(dir.entries().empty());
  }
  SECTION("malformed or unknown --set: 2") {
    Outcome malformed = runScl("run " + kCliScripts + "lean_param.scl --set lean.pd.waist");
    CHECK(malformed.exitCode == 2);
    CHECK(malformed.err.find("expected NAME=VALUE") != std::string::npos);
    Outcome unknown = runScl("run " + kCliScripts + "lean_param.scl --set lean.pd.wiast=3");
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.find("did you mean 'lean.pd.waist'?") != std::string::npos);
    CHECK(unknown.err.find("(parameters: lean.pd.waist)") != std::string::npos);
  }
  SECTION("malformed --push: 2, with the expected form") {
    Outcome run = runScl("run " + idle + " --push 'trunk:200@1'");
    CHECK(run.exitCode == 2);
    CHECK(run.err ==
          "scl run: --push 'trunk:200@1' is malformed: expected LINK:FX,FY@T+DUR (or "
          "OBJECT:...), e.g. trunk:200,0@1.5+0.2\n");
    Outcome link = runScl("run " + idle + " --push 'trunc:200,0@1+0.1'");
    CHECK(link.exitCode == 2);
    CHECK(link.err.find("did you mean 'trunk'?") != std::string::npos);
  }
  SECTION("unknown --pose or --env: 2, naming the choices") {
    Outcome pose = runScl("run " + idle + " --pose lying");
    CHECK(pose.exitCode == 2);
    CHECK(pose.err.find("unknown pose 'lying'") != std::string::npos);
    CHECK(pose.err.find("supine") != std::string::npos);
    CHECK(runScl("run " + idle + " --env moon").exitCode == 2);
  }
  SECTION("unwritable --out: 2 before simulating, no file created") {
    Outcome run =
        runScl("run " + kCliScripts + "cyclic.scl --out " + (dir / "missing/dir/run.csv"));
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("does not exist") != std::string::npos);
    CHECK(run.out.empty());  // failed before the 10 s simulation, nothing printed
    CHECK(dir.entries().empty());
    CHECK(runScl("run " + idle + " --filmstrip " + dir.path().string()).exitCode ==
          2);  // a directory
  }
  SECTION("diverging simulation: 3, its message, no output files") {
    Outcome run =
        runScl("run " + kCliScripts + "diverge.scl --push trunk:1000000000,0@0.1+0.1 --out " +
               (dir / "d.csv") + " --filmstrip " + (dir / "d.svg"));
    CHECK(run.exitCode == 3);
    CHECK(run.err.find("simulation diverged at t=") != std::string::npos);
    CHECK(run.err.find("phase 'hold'") != std::string::npos);
    CHECK(dir.entries().empty());
  }
  SECTION("--help: 0") {
    Outcome run = runScl("run --help");
    CHECK(run.exitCode == 0);
    CHECK(run.out.find("--push LINK:FX,FY@T+DUR") != std::string::npos);
  }
}

TEST_CASE("scl fmt prints the canonical form with the comments kept") {
  const Outcome fmt = runScl("fmt " + std::string(SCL_SOURCE_DIR) + "/scripts/kipup.scl");
  REQUIRE(fmt.exitCode == 0);
  CHECK(fmt.err.empty());
  CHECK(fmt.out.find("// Kip-up from supine") == 0);
  CHECK(fmt.out.find("[vf (1141, 58) on: leftShank, by: waist]  // thesis: (300, 0)") !=
        std::string::npos);
  CHECK(fmt.out.find("  // knees and ankles are folded\n") != std::string::npos);
  // A script with an error: diagnostics, exit 1, nothing printed.
  TempDir dir;
  const std::string bad = dir / "bad.scl";
  std::ofstream(bad) << "{ [waist 10 }\n";
  const Outcome failed = runScl("fmt " + bad);
  CHECK(failed.exitCode == 1);
  CHECK(failed.out.empty());
  CHECK(failed.err.find("bad.scl:1:") != std::string::npos);
}
