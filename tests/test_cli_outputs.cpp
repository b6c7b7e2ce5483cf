// Nothing the user made is lost (docs/cli.md): on the built program, no output replaces
// any input of its command (the character file a script or --character names included),
// a new run does not replace an earlier run's outputs without --overwrite, and a full disk
// during `scl optimize` leaves a checkpoint that is never ahead of the files beside it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.h"

using namespace scl::testing;

namespace {

// One parameter, 0.05 s: every command on it takes a moment.
const std::string kScene = "scene pose: supine duration: 0.05";
const std::string kBody = "\n{\n  (hold)\n  [waist @10]\n}\n";
const std::string kScript = kScene + kBody;
const std::string kObjective = "term 1 energy\n";
const std::string kOptimizeQuick = " --popsize 2 --threads 1 --seed 3";

std::string humanCharacterText() { return readText(SCL_SOURCE_DIR "/characters/human.character"); }

// The generation of log.csv's last row (0 with none).
int lastLoggedGeneration(const fs::path& logCsv) {
  std::istringstream rows(readText(logCsv));
  std::string row, last;
  std::getline(rows, row);  // the header
  while (std::getline(rows, row))
    if (!row.empty()) last = row;
  return last.empty() ? 0 : std::stoi(last.substr(0, last.find(',')));
}

// The generation of checkpoint.json's last log record (0 with none).
int lastCheckpointedGeneration(const fs::path& checkpoint) {
  const nlohmann::json json = nlohmann::json::parse(readText(checkpoint));
  const nlohmann::json& log = json.at("log");
  return log.empty() ? 0 : log.back().at("generation").get<int>();
}

// The names in `dir`, sorted.
std::vector<std::string> namesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// The largest of the files a generation of `scl optimize` writes in `dir`, bytes.
uintmax_t largestGenerationFile(const fs::path& dir) {
  uintmax_t largest = 0;
  for (const char* name : {"log.csv", "best.scl", "progress.svg", "checkpoint.json"})
    largest = std::max(largest, fs::file_size(dir / name));
  return largest;
}

// The files of a command whose character is a file: h.character (named by --character),
// sub/x.character (named by sub/x.scl's scene, relative to the script), links to them.
void makeCharacterFixture(const fs::path& dir, const std::string& character) {
  writeText(dir / "h.character", character);
  writeText(dir / "s.scl", kScript);
  writeText(dir / "o.objective", kObjective);
  writeText(dir / "t.csv", "time\n");
  fs::create_directory(dir / "sub");
  writeText(dir / "sub/x.character", character);
  writeText(dir / "sub/x.scl",
            "scene character: \"x.character\" pose: supine duration: 0.05" + kBody);
  fs::create_symlink("h.character", dir / "link.svg");
  fs::create_hard_link(dir / "h.character", dir / "hard.csv");
  for (const char* run : {"run1", "run2"}) fs::create_directory(dir / run);
  fs::create_symlink("../h.character", dir / "run1/log.csv");
  fs::create_symlink("../sub/x.character", dir / "run2/best.scl");
}

}  // namespace

TEST_CASE("no output replaces the character file a command reads, through links too",
          "[cli][contract][outputs]") {
  const std::string character = humanCharacterText();
  struct Case {
    std::string args;
    std::vector<std::string> named;  // both files, as given, in the message
  };
  std::vector<Case> cases = {
      {"run s.scl --character h.character --out h.character",
       {"--out 'h.character'", "character 'h.character'"}},
      {"run s.scl --character h.character --filmstrip link.svg",
       {"--filmstrip 'link.svg'", "character 'h.character'"}},
      {"run s.scl --character h.character --out hard.csv",
       {"--out 'hard.csv'", "character 'h.character'"}},
      {"run sub/x.scl --out sub/x.character",
       {"--out 'sub/x.character'", "character 'sub/x.character'"}},
      {"plot s.scl --character h.character --out h.character",
       {"--out 'h.character'", "character 'h.character'"}},
      {"plot sub/x.scl --out ./sub/../sub/x.character", {"character 'sub/x.character'"}},
      {"plot t.csv --character h.character --out link.svg", {"character 'h.character'"}},
      {"optimize s.scl o.objective --character h.character --out run1" + kOptimizeQuick,
       {"log.csv of --out", "character 'h.character'"}},
      {"optimize sub/x.scl o.objective --out run2" + kOptimizeQuick,
       {"best.scl of --out", "character 'sub/x.character'"}},
  };
  if (viewerBuilt()) {  // refused before it looks for a display
    cases.push_back({"view s.scl --character h.character --screenshot link.svg",
                     {"--screenshot 'link.svg'", "character 'h.character'"}});
    cases.push_back({"view sub/x.scl --record sub/x.character",
                     {"--record 'sub/x.character'", "character 'sub/x.character'"}});
  }
  for (const Case& c : cases) {
    INFO("scl " << c.args);
    TempDir dir;
    makeCharacterFixture(dir.path(), character);
    RunOptions inDir;
    inDir.workingDirectory = dir.path().string();
    inDir.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};
    const Outcome outcome = runScl(c.args, inDir);
    INFO("stderr: " << outcome.err);
    CHECK(outcome.exitCode == 2);
    CHECK(outcome.err.find("an output never replaces an input") != std::string::npos);
    for (const std::string& name : c.named) CHECK(outcome.err.find(name) != std::string::npos);
    CHECK(readText(dir.path() / "h.character") == character);
    CHECK(readText(dir.path() / "sub/x.character") == character);
    CHECK(fs::is_symlink(fs::symlink_status(dir.path() / "link.svg")));
    CHECK(!fs::exists(dir.path() / "run1/checkpoint.json"));
    CHECK(!fs::exists(dir.path() / "run2/checkpoint.json"));
  }
}

TEST_CASE(
    "scl optimize: an output directory without a checkpoint keeps what it holds "
    "unless --overwrite",
    "[cli][contract][outputs]") {
  TempDir dir;
  writeText(dir.path() / "s.scl", kScript);
  writeText(dir.path() / "o.objective", kObjective);
  fs::create_directory(dir.path() / "run");
  const std::string mine = "// the user's own best script\n";
  writeText(dir.path() / "run/best.scl", mine);
  writeText(dir.path() / "run/report.txt", "my notes\n");
  RunOptions inDir;
  inDir.workingDirectory = dir.path().string();
  const std::string command =
      "optimize s.scl o.objective --out run --generations 1" + kOptimizeQuick;

  const Outcome refused = runScl(command, inDir);
  INFO("stderr: " << refused.err);
  CHECK(refused.exitCode == 2);
  CHECK(refused.err.find("'run' already holds best.scl and report.txt and no checkpoint") !=
        std::string::npos);
  CHECK(refused.err.find("--overwrite") != std::string::npos);
  CHECK(readText(dir.path() / "run/best.scl") == mine);
  CHECK(readText(dir.path() / "run/report.txt") == "my notes\n");
  CHECK(namesIn(dir.path() / "run") == std::vector<std::string>{"best.scl", "report.txt"});

  const Outcome replaced = runScl(command + " --overwrite", inDir);
  INFO("stderr: " << replaced.err);
  CHECK(replaced.exitCode == 0);
  CHECK(readText(dir.path() / "run/best.scl") != mine);
  CHECK(fs::exists(dir.path() / "run/checkpoint.json"));

  // With a checkpoint the resume rules apply, --overwrite or not.
  const Outcome again = runScl(command + " --overwrite", inDir);
  CHECK(again.exitCode == 2);
  CHECK(again.err.find("pass --resume to continue it") != std::string::npos);
}

TEST_CASE("scl optimize: a full disk leaves the checkpoint and the files of one generation",
          "[cli][contract][outputs]") {
  TempDir dir;
  writeText(dir.path() / "s.scl", kScript);
  writeText(dir.path() / "o.objective", kObjective);
  RunOptions inDir;
  inDir.workingDirectory = dir.path().string();
  const std::string run = "optimize s.scl o.objective" + kOptimizeQuick;
  // The files' sizes after generations 0 (the script's own values: the time limit ends the
  // run after them), 1 and 2: a limit above the first two and below the largest file of
  // generation 2 lets generations 0 and 1 be written and makes generation 2 fail as a full
  // disk would.
  REQUIRE(runScl(run + " --out zero --generations 1 --time-limit 1e-9", inDir).exitCode == 0);
  REQUIRE(runScl(run + " --out one --generations 1", inDir).exitCode == 0);
  REQUIRE(runScl(run + " --out two --generations 2", inDir).exitCode == 0);
  REQUIRE(lastLoggedGeneration(dir.path() / "zero/log.csv") == 0);
  const uintmax_t before = std::max(largestGenerationFile(dir.path() / "zero"),
                                    largestGenerationFile(dir.path() / "one"));
  const uintmax_t two = largestGenerationFile(dir.path() / "two");
  REQUIRE(before + 8 < two);
  RunOptions full = inDir;
  full.fileSizeLimit = (before + two) / 2;
  // log.csv, written first, fits: the failure is in a later file of the generation.
  REQUIRE(fs::file_size(dir.path() / "two/log.csv") < full.fileSizeLimit);

  const Outcome failed = runScl(run + " --out cut --generations 3", full);
  INFO("stderr: " << failed.err);
  CHECK(failed.exitCode == 3);
  CHECK(failed.err.find("cannot write") != std::string::npos);
  // Generation 2 was written by none of the files: all are generation 1's.
  const fs::path cut = dir.path() / "cut";
  CHECK(lastCheckpointedGeneration(cut / "checkpoint.json") == 1);
  CHECK(lastLoggedGeneration(cut / "log.csv") == 1);
  CHECK(readText(cut / "best.scl") == readText(dir.path() / "one/best.scl"));
  CHECK(readText(cut / "progress.svg") == readText(dir.path() / "one/progress.svg"));
  CHECK(namesIn(cut) == std::vector<std::string>{"best.scl", "checkpoint.json", "log.csv",
                                                 "progress.svg"});  // and no temporary

  // A crash between a generation's renames can leave a file ahead of the checkpoint: a
  // resume rewrites it from the checkpoint before it continues.
  writeText(cut / "best.scl", "// a generation the checkpoint does not have\n");
  const Outcome resumed = runScl(run + " --out cut --resume --generations 1", inDir);
  INFO("stderr: " << resumed.err);
  CHECK(resumed.exitCode == 0);
  CHECK(readText(cut / "best.scl") == readText(dir.path() / "one/best.scl"));
  CHECK(lastLoggedGeneration(cut / "log.csv") == 1);
}
