// Hot reload (tools/reload): debounce, compile, keep the last good program, missing files.
//
// Time is injected (poll(now)), so the debounce is tested without sleeping and no test
// depends on how fast the machine is. The real save-to-running latency is measured by
// bench/bench_reload.cpp, not asserted here.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "scl/character.h"
#include "scl/character_file.h"
#include "tools/reload/hot_reload.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using scl::HotReloader;
using scl::ReloadEvent;
using scl::ReloadStatus;
using scl::WatchClock;

namespace {

const std::string kOnePhase = "{ (hold) [waist 10] }\n";
const std::string kTwoPhases = "{ (lean) [waist 10] } after 1 { (back) [waist 0] }\n";
const std::string kThreePhases =
    "{ (a) [waist 10] } after 1 { (b) [waist 0] } after 1 { (c) [hips 20] }\n";
const std::string kBroken = "{ (lean) [waist 10] } after { [wiast 0] }\n";

// A fresh directory per test case, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    path =
        fs::temp_directory_path() / ("scl_reload_" + std::to_string(::getpid()) + "_" +
                                     std::to_string(WatchClock::now().time_since_epoch().count()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

void writeFile(const std::string& path, const std::string& text,
               std::ios::openmode mode = std::ios::trunc) {
  std::ofstream out(path, std::ios::binary | mode);
  out << text;
}

std::size_t phaseCount(const HotReloader& reloader) {
  REQUIRE(reloader.program() != nullptr);
  return reloader.program()->phases.size();
}

// Polls at `start`, then at `start + settle`: the settled result.
ReloadEvent pollSettled(HotReloader& reloader, WatchClock::time_point& now) {
  ReloadEvent first = reloader.poll(now);
  CHECK(first == ReloadEvent::None);  // never before the debounce interval
  now += 31ms;
  ReloadEvent settled = reloader.poll(now);
  now += 1ms;
  return settled;
}

}  // namespace

TEST_CASE("reload: initial load and a rewrite swap the program after the debounce", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);
  CHECK(reloader.generation() == 1);
  CHECK(reloader.status() == ReloadStatus::Running);
  CHECK(phaseCount(reloader) == 1);
  CHECK(reloader.statusLine() == "watching " + script);

  auto now = WatchClock::now();
  CHECK(reloader.poll(now) == ReloadEvent::None);  // unchanged file: nothing to do

  writeFile(script, kTwoPhases);
  CHECK(reloader.poll(now) == ReloadEvent::None);
  CHECK(reloader.changePending());
  CHECK(reloader.poll(now + 20ms) == ReloadEvent::None);  // not yet stable for 30 ms
  CHECK(phaseCount(reloader) == 1);
  CHECK(reloader.poll(now + 30ms) == ReloadEvent::Loaded);
  CHECK(reloader.generation() == 2);
  CHECK(phaseCount(reloader) == 2);
  CHECK(reloader.program()->phases[1].name == "back");
  CHECK(reloader.programSource() == kTwoPhases);
  CHECK(reloader.poll(now + 60ms) == ReloadEvent::None);  // reported once
}

TEST_CASE("reload: a quick rewrite of the same size is still seen", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, "{ (hold) [waist 10] }\n");
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);
  writeFile(script, "{ (hold) [waist 20] }\n");  // same size, likely the same mtime tick
  auto now = WatchClock::now();
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(reloader.program()->phases[0].primitives.size() == 1);
  const auto& pd = std::get<scl::PdPrimitive>(reloader.program()->phases[0].primitives[0]);
  CHECK(pd.targets[0].angle.value == Approx(scl::degToRad(20.0)));
}

TEST_CASE("reload: a broken save keeps the old program and reports diagnostics", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kTwoPhases);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  writeFile(script, kBroken);
  auto now = WatchClock::now();
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Failed);
  CHECK(reloader.status() == ReloadStatus::CompileError);
  CHECK(reloader.generation() == 1);
  CHECK(phaseCount(reloader) == 2);  // the old program runs on
  CHECK(reloader.programSource() == kTwoPhases);
  CHECK(scl::hasErrors(reloader.diagnostics()));
  std::string rendered = reloader.renderedDiagnostics();
  CHECK(rendered.find(script + ":1:") != std::string::npos);
  CHECK(rendered.find("error:") != std::string::npos);
  CHECK(reloader.statusLine().find("running the last good version") != std::string::npos);

  // The next good save clears the error.
  writeFile(script, kThreePhases);
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(reloader.status() == ReloadStatus::Running);
  CHECK_FALSE(scl::hasErrors(reloader.diagnostics()));
  CHECK(phaseCount(reloader) == 3);
  CHECK(reloader.generation() == 2);
}

TEST_CASE("reload: a broken script at start has no program but diagnostics", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kBroken);
  HotReloader reloader({script});
  CHECK(reloader.loadNow() == ReloadEvent::Failed);
  CHECK(reloader.program() == nullptr);
  CHECK(reloader.generation() == 0);
  CHECK(scl::hasErrors(reloader.diagnostics()));
  CHECK(reloader.statusLine() == script + " does not compile");
}

TEST_CASE("reload: save through a temporary file and a rename", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  std::string temp = dir.file(".motion.scl.swp");
  writeFile(temp, kThreePhases);
  auto now = WatchClock::now();
  CHECK(reloader.poll(now) == ReloadEvent::None);  // the temp file is not watched
  fs::rename(temp, script);
  now += 5ms;
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(phaseCount(reloader) == 3);
}

TEST_CASE("reload: the path missing for less than the debounce is no event", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  // Editors that rename the old file away before writing the new one.
  auto now = WatchClock::now();
  fs::rename(script, dir.file("motion.scl~"));
  CHECK(reloader.poll(now) == ReloadEvent::None);
  CHECK(reloader.poll(now + 10ms) == ReloadEvent::None);
  writeFile(script, kTwoPhases);
  CHECK(reloader.poll(now + 20ms) == ReloadEvent::None);
  CHECK(reloader.poll(now + 40ms) == ReloadEvent::None);  // new content, seen at +20 ms
  CHECK(reloader.status() == ReloadStatus::Running);
  CHECK(reloader.poll(now + 50ms) == ReloadEvent::Loaded);
  CHECK(phaseCount(reloader) == 2);
}

TEST_CASE("reload: a chunked write never compiles the half file", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  // First chunk: a prefix that does not compile on its own.
  std::string firstChunk = kTwoPhases.substr(0, kTwoPhases.find("after") + 6);
  std::string secondChunk = kTwoPhases.substr(firstChunk.size());
  writeFile(script, firstChunk);
  auto now = WatchClock::now();
  CHECK(reloader.poll(now) == ReloadEvent::None);
  CHECK(reloader.poll(now + 10ms) == ReloadEvent::None);
  CHECK(reloader.poll(now + 20ms) == ReloadEvent::None);
  writeFile(script, secondChunk, std::ios::app);  // 25 ms pause < 30 ms debounce
  CHECK(reloader.poll(now + 25ms) == ReloadEvent::None);
  CHECK(reloader.poll(now + 40ms) == ReloadEvent::None);  // 15 ms after the second chunk
  CHECK(reloader.status() == ReloadStatus::Running);
  CHECK(reloader.generation() == 1);
  CHECK(reloader.poll(now + 55ms) == ReloadEvent::Loaded);
  CHECK(reloader.generation() == 2);
  CHECK(phaseCount(reloader) == 2);
  CHECK(reloader.diagnostics().empty());
}

TEST_CASE("reload: delete, then recreate", "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kTwoPhases);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  fs::remove(script);
  auto now = WatchClock::now();
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Missing);
  CHECK(reloader.status() == ReloadStatus::FileMissing);
  CHECK(reloader.statusLine().find("watching: file missing") != std::string::npos);
  CHECK(phaseCount(reloader) == 2);  // keeps running
  CHECK(reloader.poll(now + 100ms) == ReloadEvent::None);

  // Back with the same text: resume without a reload.
  writeFile(script, kTwoPhases);
  now += 200ms;
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Resumed);
  CHECK(reloader.status() == ReloadStatus::Running);
  CHECK(reloader.generation() == 1);

  // Gone again, back with new text: a reload.
  fs::remove(script);
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Missing);
  writeFile(script, kThreePhases);
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(reloader.generation() == 2);
  CHECK(phaseCount(reloader) == 3);
}

TEST_CASE("reload: a missing file at start is reported, then picked up", "[reload]") {
  TempDir dir;
  std::string script = dir.file("later.scl");
  HotReloader reloader({script});
  CHECK(reloader.loadNow() == ReloadEvent::Missing);
  CHECK(reloader.program() == nullptr);
  writeFile(script, kOnePhase);
  auto now = WatchClock::now();
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(phaseCount(reloader) == 1);
}

TEST_CASE("reload: a directory is not a script", "[reload]") {
  TempDir dir;
  HotReloader reloader({dir.path.string()});
  CHECK(reloader.loadNow() == ReloadEvent::Failed);
  CHECK(reloader.status() == ReloadStatus::NotAFile);
  CHECK(reloader.program() == nullptr);
  CHECK(reloader.statusLine().find("is a directory") != std::string::npos);
  auto now = WatchClock::now();
  CHECK(reloader.poll(now + 100ms) == ReloadEvent::None);  // and it stays that way quietly

  // A script replaced by a directory: the old program is kept.
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader watching({script});
  REQUIRE(watching.loadNow() == ReloadEvent::Loaded);
  fs::remove(script);
  fs::create_directory(script);
  REQUIRE(pollSettled(watching, now) == ReloadEvent::Failed);
  CHECK(watching.status() == ReloadStatus::NotAFile);
  CHECK(phaseCount(watching) == 1);
}

TEST_CASE("reload: a script saved with CR-only line endings is refused, the old one kept",
          "[reload]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);
  const std::string classicMac = "{ (lean) [waist 10] }\rafter 1\r{ (back) [waist 0] }\r";
  writeFile(script, classicMac);
  auto now = WatchClock::now();
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Failed);
  CHECK(reloader.status() == ReloadStatus::CompileError);
  CHECK(reloader.renderedDiagnostics().find("CR-only line endings") != std::string::npos);
  CHECK(phaseCount(reloader) == 1);
}

TEST_CASE("reload: a save runs once the file has been quiet for the debounce, not before",
          "[reload][latency]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});  // the viewer's 30 ms debounce
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  // Polled every millisecond of injected time: the save is seen by the first poll and
  // applied by the first poll 30 ms later, by none before.
  const WatchClock::time_point saved = WatchClock::time_point{} + 1h;  // any origin
  writeFile(script, kThreePhases);
  for (auto t = 0ms; t < 30ms; t += 1ms) {
    INFO("poll at +" << t.count() << " ms");
    REQUIRE(reloader.poll(saved + t) == ReloadEvent::None);
  }
  CHECK(reloader.generation() == 1);
  CHECK(phaseCount(reloader) == 1);
  REQUIRE(reloader.poll(saved + 30ms) == ReloadEvent::Loaded);
  CHECK(reloader.generation() == 2);
  CHECK(phaseCount(reloader) == 3);
  CHECK(reloader.poll(saved + 31ms) == ReloadEvent::None);

  // A longer debounce is waited out just the same.
  HotReloader patient({script, 200ms});
  REQUIRE(patient.loadNow() == ReloadEvent::Loaded);
  writeFile(script, kTwoPhases);
  CHECK(patient.poll(saved) == ReloadEvent::None);
  CHECK(patient.poll(saved + 199ms) == ReloadEvent::None);
  CHECK(patient.poll(saved + 200ms) == ReloadEvent::Loaded);
  CHECK(phaseCount(patient) == 2);
}

TEST_CASE("reload: polled once a frame, a save runs two frames after the frame that sees it",
          "[reload][latency]") {
  TempDir dir;
  std::string script = dir.file("motion.scl");
  writeFile(script, kOnePhase);
  HotReloader reloader({script});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);

  // 60 frames per second: the save (between two frames) is seen at the next frame and
  // runs at the first frame at least 30 ms after that one, i.e. 2 frames (33.3 ms) later.
  // From the save that is at most one frame more: under 100 ms whatever the machine.
  const std::chrono::microseconds frame{16'667};
  const WatchClock::time_point start = WatchClock::time_point{} + 1h;
  CHECK(reloader.poll(start) == ReloadEvent::None);
  writeFile(script, kThreePhases);
  int loadedAt = -1;
  for (int f = 1; f <= 60 && loadedAt < 0; ++f)
    if (reloader.poll(start + f * frame) == ReloadEvent::Loaded) loadedAt = f;
  CHECK(loadedAt == 3);
  CHECK(phaseCount(reloader) == 3);
  CHECK(loadedAt * frame < 100ms);
}

TEST_CASE("reload: a UTF-8 byte-order mark is no content, as for every input file", "[reload]") {
  // docs/cli.md: one reader reads every input file and drops the mark; the viewer's
  // loads and reloads must see the text `scl check` and `scl run` see.
  TempDir dir;
  const std::string script = dir.file("bom.scl");
  writeFile(script, "\xEF\xBB\xBF" + kOnePhase);
  const scl::FileSnapshot snapshot = scl::takeSnapshot(script);
  REQUIRE(snapshot.kind == scl::FileKind::Regular);
  CHECK(snapshot.content == kOnePhase);
  HotReloader reloader({script});
  CHECK(reloader.loadNow() == ReloadEvent::Loaded);
  CHECK(reloader.status() == ReloadStatus::Running);
  CHECK(reloader.programSource() == kOnePhase);

  // Saved again with the mark and a second phase: reloaded.
  writeFile(script, "\xEF\xBB\xBF" + kTwoPhases);
  auto now = WatchClock::now();
  CHECK(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(phaseCount(reloader) == 2);
}

TEST_CASE("reload: a character override applies to every reload", "[reload]") {
  TempDir dir;
  // A character of its own: the human with a heavier trunk and a pose the human lacks.
  std::ifstream human(SCL_SOURCE_DIR "/characters/human.character", std::ios::binary);
  std::string body((std::istreambuf_iterator<char>(human)), std::istreambuf_iterator<char>());
  body.replace(body.find("character human"), 15, "character heavy");
  body.replace(body.find("mass: 29.27"), 11, "mass: 36");
  body += "pose kneeling \"on both knees\"\n  head: 90 support: ground settles: yes knees: -90\n";
  writeFile(dir.file("heavy.character"), body);
  const scl::CharacterLoad heavy = scl::loadCharacter(dir.file("heavy.character"));
  REQUIRE(heavy.ok());

  // The script names the human; the override wins, at the first load and at each reload.
  std::string script = dir.file("motion.scl");
  writeFile(script, "scene character: human pose: kneeling\n" + kOnePhase);
  HotReloader reloader({script, 30ms, heavy.character});
  REQUIRE(reloader.loadNow() == ReloadEvent::Loaded);
  CHECK(reloader.program()->character == heavy.character);
  writeFile(script, "scene character: human pose: kneeling\n" + kTwoPhases);
  auto now = WatchClock::now();
  REQUIRE(pollSettled(reloader, now) == ReloadEvent::Loaded);
  CHECK(phaseCount(reloader) == 2);
  CHECK(reloader.program()->character == heavy.character);

  // Without the override the script's own choice holds: the human has no kneeling pose.
  HotReloader plain({script});
  CHECK(plain.loadNow() == ReloadEvent::Failed);
  CHECK(plain.renderedDiagnostics().find("unknown pose 'kneeling'") != std::string::npos);
}
