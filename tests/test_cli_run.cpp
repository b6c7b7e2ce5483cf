// `scl run` as a user runs it: the built binary, its exit codes, its summary (human and
// JSON), the trajectory CSV and the filmstrip SVG. Scripts are in tests/cli/.
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string kScl = SCL_BINARY_DIR "/tools/scl";
const std::string kCliScripts = SCL_SOURCE_DIR "/tests/cli/";
const std::string kThesis = SCL_SOURCE_DIR "/scripts/thesis/";

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "scl_cli_test_XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  const fs::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  // Names of the files in the directory, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Outcome {
  int exitCode = -1;
  std::string out, err;
};

// Runs `scl ARGS` (arguments are shell-quoted by the caller where needed) with stdout
// and stderr captured in files of a private directory.
Outcome runScl(const std::string& args) {
  TempDir capture;
  std::string command = kScl + " " + args + " >" + (capture / "out") + " 2>" + (capture / "err");
  int status = std::system(command.c_str());
  Outcome outcome;
  REQUIRE(WIFEXITED(status));
  outcome.exitCode = WEXITSTATUS(status);
  outcome.out = readText(capture / "out");
  outcome.err = readText(capture / "err");
  return outcome;
}

// --- a tiny JSON reader: enough to check structure and read top-level scalars --------

// True when brackets and braces balance outside strings and the text is one object.
bool balancedJsonObject(const std::string& text) {
  std::vector<char> stack;
  bool inString = false;
  size_t start = text.find_first_not_of(" \n");
  if (start == std::string::npos || text[start] != '{') return false;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '{' || c == '[')
      stack.push_back(c);
    else if (c == '}' || c == ']') {
      if (stack.empty() || (c == '}') != (stack.back() == '{')) return false;
      stack.pop_back();
      if (stack.empty()) return text.find_first_not_of(" \n", i + 1) == std::string::npos;
    }
  }
  return false;
}

// The raw value text after `"key": ` (up to the next ',' or '}'); nullopt if absent.
std::optional<std::string> jsonRaw(const std::string& json, const std::string& key) {
  size_t at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return std::nullopt;
  size_t start = at + key.size() + 4;
  size_t end = json.find_first_of(",}", start);
  return json.substr(start, end - start);
}

bool jsonIsNull(const std::string& json, const std::string& key) {
  return jsonRaw(json, key) == "null";
}

double jsonNumber(const std::string& json, const std::string& key) {
  std::optional<std::string> raw = jsonRaw(json, key);
  REQUIRE(raw);
  REQUIRE(*raw != "null");
  return std::stod(*raw);
}

size_t countOf(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
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
  const std::string& json = run.out;
  REQUIRE(balancedJsonObject(json));
  for (const char* key : {"script",
                          "scene",
                          "time_step",
                          "duration",
                          "steps",
                          "end",
                          "parameters",
                          "pushes",
                          "perturb_deg",
                          "seed",
                          "phases",
                          "standing",
                          "first_standing",
                          "fell",
                          "rise_time",
                          "max_pelvis_height",
                          "max_airborne_pelvis_height",
                          "airborne_time",
                          "head_height",
                          "energy",
                          "distance",
                          "phase_changes",
                          "wall_time",
                          "setup_wall_time",
                          "real_time_factor",
                          "trajectory",
                          "filmstrip"})
    CHECK(jsonRaw(json, key));
  CHECK(jsonRaw(json, "pose") == "\"supine\"");
  CHECK(jsonNumber(json, "duration") == Approx(1.0));
  CHECK(jsonNumber(json, "steps") == 4000);
  CHECK(jsonRaw(json, "standing") == "false");
  CHECK(jsonIsNull(json, "first_standing"));
  CHECK(jsonIsNull(json, "fell"));
  CHECK(jsonIsNull(json, "rise_time"));
  CHECK(jsonIsNull(json, "max_airborne_pelvis_height"));  // lying on the ground throughout
  CHECK(jsonNumber(json, "airborne_time") == 0.0);
  CHECK(jsonNumber(json, "max_pelvis_height") < 0.4);
  CHECK(jsonNumber(json, "head_height") < 0.4);
  CHECK(jsonNumber(json, "energy") > 0.0);  // the default PD holds the limbs against gravity
  CHECK(std::abs(jsonNumber(json, "distance")) < 0.05);
  CHECK(jsonNumber(json, "phase_changes") == 0);
  CHECK(countOf(json, "\"name\": \"idle\"") == 1);
  CHECK(jsonNumber(json, "real_time_factor") > 0.0);
  CHECK(jsonIsNull(json, "trajectory"));

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
  const std::string& json = run.out;
  REQUIRE(balancedJsonObject(json));
  CHECK(jsonRaw(json, "environment") == "\"chair\"");
  CHECK(jsonNumber(json, "duration") == Approx(3.0));
  CHECK(jsonRaw(json, "standing") == "true");
  CHECK(jsonNumber(json, "first_standing") < 3.0);
  CHECK(jsonNumber(json, "rise_time") < jsonNumber(json, "first_standing"));
  CHECK(jsonIsNull(json, "fell"));
  CHECK(jsonNumber(json, "head_height") > 1.6);
  CHECK(jsonNumber(json, "max_pelvis_height") > 0.9);
  CHECK(jsonNumber(json, "distance") > 0.2);  // the pelvis moves forward off the seat
  CHECK(jsonNumber(json, "phase_changes") == 1);
  // The timeline: lean at 0, standup 0.4 s later.
  CHECK(json.find("{\"time\": 0, \"index\": 0, \"name\": \"lean\"}") != std::string::npos);
  CHECK(json.find("{\"time\": 0.4, \"index\": 1, \"name\": \"standup\"}") != std::string::npos);
}

TEST_CASE("scl run: the default duration follows the script") {
  SECTION("the scene header's duration") {
    Outcome run = runScl("run " + kCliScripts + "supine_idle.scl --json");
    REQUIRE(run.exitCode == 0);
    CHECK(jsonNumber(run.out, "duration") == Approx(1.0));
  }
  SECTION("until the last phase has been active 3 s") {
    Outcome run = runScl("run " + kCliScripts + "two_phases.scl --json");
    REQUIRE(run.exitCode == 0);
    CHECK(jsonNumber(run.out, "duration") == Approx(3.5).margin(0.001));
    CHECK(jsonNumber(run.out, "phase_changes") == 1);
    CHECK(run.out.find("{\"time\": 0.5, \"index\": 1, \"name\": \"rest\"}") != std::string::npos);
  }
  SECTION("10 s for a cyclic script") {
    Outcome run = runScl("run " + kCliScripts + "cyclic.scl --json");
    REQUIRE(run.exitCode == 0);
    CHECK(jsonNumber(run.out, "duration") == Approx(10.0));
    CHECK(jsonNumber(run.out, "phase_changes") == 19);
  }
  SECTION("--duration overrides") {
    Outcome run = runScl("run " + kCliScripts + "two_phases.scl --duration 0.25 --json");
    REQUIRE(run.exitCode == 0);
    CHECK(jsonNumber(run.out, "duration") == Approx(0.25));
    CHECK(jsonNumber(run.out, "steps") == 1000);
  }
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
  CHECK(header.size() == 9 + 15 + 15 + 16 + 4);
  CHECK(header[0] == "time");
  CHECK(header[2] == "phase_name");
  CHECK(std::find(header.begin(), header.end(), "leftKnee_deg") != header.end());
  CHECK(std::find(header.begin(), header.end(), "waist_torque") != header.end());
  CHECK(std::find(header.begin(), header.end(), "rightFoot_contact") != header.end());
  CHECK(header.back() == "com_vy");
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
  CHECK(jsonNumber(base.out, "lean.pd.waist") == 10.0);
  CHECK(jsonNumber(bent.out, "lean.pd.waist") == 60.0);
  CHECK(jsonNumber(bent.out, "energy") > 2.0 * jsonNumber(base.out, "energy"));
  CHECK(jsonNumber(bent.out, "distance") != jsonNumber(base.out, "distance"));
}

TEST_CASE("scl run --push changes the outcome") {
  Outcome base = runScl("run " + kCliScripts + "lean_param.scl --json");
  Outcome pushed =
      runScl("run " + kCliScripts + "lean_param.scl --push trunk:300,0@0.2+0.2 --json");
  REQUIRE(base.exitCode == 0);
  REQUIRE(pushed.exitCode == 0);
  CHECK(pushed.out.find(
            "\"link\": \"trunk\", \"fx\": 300, \"fy\": 0, \"start\": 0.2, \"duration\": 0.2") !=
        std::string::npos);
  // Pushed forward (+x): the pelvis ends well ahead of where it would have been.
  CHECK(jsonNumber(pushed.out, "distance") > jsonNumber(base.out, "distance") + 0.2);
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

TEST_CASE("scl run exit codes and messages for each kind of failure") {
  TempDir dir;
  const std::string idle = kCliScripts + "supine_idle.scl";
  SECTION("missing script: 2") {
    Outcome run = runScl("run " + (dir / "no_such.scl"));
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("cannot read script") != std::string::npos);
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
          "scl run: --push 'trunk:200@1' is malformed: expected LINK:FX,FY@T+DUR, e.g. "
          "trunk:200,0@1.5+0.2\n");
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
  CHECK(fmt.out.find("[vf (1071, 56) on: leftShank, by: waist]  // thesis: (300, 0)") !=
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
