// Motion clips on the command line (docs/clips.md): `scl run --clip` records a run,
// `--bvh` writes it as BVH, `scl clip import` reads BVH back through a mapping file, and
// `scl check`/`fmt` read clip files. The BVH round trip (export a run, import it back)
// agrees with the run's CSV to 0.1°; the CMU-style example imports as written.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "base/csv.h"
#include "scl/character.h"
#include "scl/clip_file.h"
#include "tests/cli_support.h"

namespace {

using Catch::Contains;
using scl::testing::Outcome;
using scl::testing::readText;
using scl::testing::RunOptions;
using scl::testing::runScl;
using scl::testing::TempDir;
using scl::testing::writeText;

const std::string kSource = SCL_SOURCE_DIR;
const std::string kKipup = kSource + "/scripts/kipup.scl";

// A trajectory CSV as columns by name.
std::map<std::string, std::vector<double>> readCsvColumns(const std::string& path) {
  std::istringstream lines(readText(path));
  std::string line;
  REQUIRE(std::getline(lines, line));
  const std::vector<std::string> names = scl::splitCsvLine(line);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(lines, line)) {
    const std::vector<std::string> fields = scl::splitCsvLine(line);
    for (size_t i = 0; i < names.size() && i < fields.size(); ++i)
      columns[names[i]].push_back(std::strtod(fields[i].c_str(), nullptr));
  }
  return columns;
}

scl::Clip loadOk(const std::string& path) {
  scl::ClipLoad load = scl::loadClipFile(path);
  INFO(scl::renderDiagnostics(load.diagnostics, ""));
  REQUIRE(load.ok());
  return load.clip;
}

// The largest difference, degrees, between the clip's angles of every joint and the CSV's
// `<joint>_deg` columns, frame by row.
double largestJointError(const scl::Clip& clip,
                         const std::map<std::string, std::vector<double>>& csv) {
  double largest = 0;
  for (size_t j = 0; j < clip.joints.size(); ++j) {
    const std::vector<double>& column = csv.at(clip.joints[j] + "_deg");
    REQUIRE(column.size() == clip.frames.size());
    for (size_t f = 0; f < clip.frames.size(); ++f)
      largest =
          std::max(largest, std::abs(scl::radToDeg(clip.frames[f].jointAngles[j]) - column[f]));
  }
  return largest;
}

}  // namespace

TEST_CASE("scl run --clip records every joint and the pelvis at --clip-rate", "[cli][clip]") {
  TempDir dir;
  const Outcome run = runScl("run " + kKipup + " --duration 0.5 --out " + dir / "run.csv" +
                             " --rate 40 --clip " + dir / "run.clip" + " --clip-rate 40");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Contains("run.clip (21 frames)"));
  const scl::Clip clip = loadOk(dir / "run.clip");
  CHECK(clip.name == "kipup");
  CHECK(clip.character == "human");
  CHECK(clip.rootLink == "pelvis");
  CHECK(clip.joints.size() == 15);
  CHECK(clip.effectors ==
        std::vector<std::string>{"leftFoot", "rightFoot", "leftHand", "rightHand"});
  REQUIRE(clip.frames.size() == 21);
  CHECK(clip.frames[20].time == Approx(0.5));
  // The same instants as the CSV's rows, the same angles (to the CSV's 7 digits).
  CHECK(largestJointError(clip, readCsvColumns(dir / "run.csv")) < 1e-4);
  // It binds to its body with every joint and the root.
  scl::DiagnosticSink sink;
  scl::ClipNeeds needs;
  needs.allJoints = needs.root = true;
  CHECK(scl::bindClip(clip, *scl::humanCharacter(), sink, needs));
  // The default rate: 120 frames a second.
  REQUIRE(runScl("run " + kKipup + " --duration 0.5 --clip " + dir / "default.clip").exitCode == 0);
  CHECK(loadOk(dir / "default.clip").frames.size() == 61);
}

TEST_CASE("scl run --clip and --bvh never replace an input and are written all or none",
          "[cli][clip]") {
  TempDir dir;
  writeText(dir / "s.scl", "scene pose: standing duration: 0.1\n{\n  (hold)\n  [waist 0]\n}\n");
  Outcome replace = runScl("run " + dir / "s.scl" + " --clip " + dir / "s.scl");
  CHECK(replace.exitCode == 2);
  CHECK_THAT(replace.err, Contains("--clip"));
  CHECK_THAT(replace.err, Contains("script"));
  Outcome same =
      runScl("run " + dir / "s.scl" + " --clip " + dir / "a.out" + " --bvh " + dir / "a.out");
  CHECK(same.exitCode == 2);
  CHECK(readText(dir / "s.scl").starts_with("scene pose"));
  // An unwritable --bvh: nothing written, the clip neither.
  Outcome full = runScl("run " + dir / "s.scl" + " --clip " + dir / "a.clip" + " --bvh /dev/full");
  CHECK(full.exitCode == 3);
  CHECK_FALSE(std::filesystem::exists(dir / "a.clip"));
  CHECK(runScl("run " + dir / "s.scl" + " --clip-rate 5000 --clip " + dir / "a.clip").exitCode ==
        2);
}

TEST_CASE("a run exported as BVH and imported back agrees with its CSV to 0.1 degrees",
          "[cli][clip][bvh]") {
  TempDir dir;
  const Outcome run = runScl("run " + kKipup + " --duration 1.5 --out " + dir / "run.csv" +
                             " --rate 50 --bvh " + dir / "run.bvh" + " --clip-rate 50");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  CHECK_THAT(run.out, Contains("run.bvh (76 frames)"));
  const std::string bvh = readText(dir / "run.bvh");
  CHECK(bvh.starts_with("HIERARCHY\nROOT pelvis\n{\n  OFFSET 0 0 0\n"));
  CHECK_THAT(bvh, Contains("MOTION\nFrames: 76\nFrame Time: 0.02\n"));
  const Outcome back = runScl("clip import " + dir / "run.bvh" + " --map " + kSource +
                              "/scripts/clips/scl-human.bvhmap --out " + dir / "back.clip");
  INFO(back.err);
  REQUIRE(back.exitCode == 0);
  CHECK_THAT(back.out, Contains("76 frames of 15 joints and the root, 1.5 s"));
  const scl::Clip clip = loadOk(dir / "back.clip");
  const auto csv = readCsvColumns(dir / "run.csv");
  const double error = largestJointError(clip, csv);
  CHECK(error < 0.1);
  // The root: the pelvis's world angle, less the joints up to the head, is the head's.
  double rootError = 0;
  for (size_t f = 0; f < clip.frames.size(); ++f) {
    const auto deg = [&](const std::string& joint) { return csv.at(joint + "_deg")[f]; };
    const double head = scl::radToDeg(clip.frames[f].root.angle) - deg("waist") -
                        deg("neckBottom") - deg("neckTop");
    rootError = std::max(rootError, std::abs(head - csv.at("root_angle_deg")[f]));
  }
  CHECK(rootError < 0.1);
  WARN("BVH round trip: largest joint error " << error << " deg, root " << rootError << " deg");
}

TEST_CASE("the CMU-style example imports as its mapping says", "[cli][clip][bvh]") {
  TempDir dir;
  const Outcome imported =
      runScl("clip import " + kSource + "/scripts/clips/squat-mocap.bvh --map " + kSource +
             "/scripts/clips/cmu.bvhmap --out " + dir / "squat.clip");
  INFO(imported.err);
  REQUIRE(imported.exitCode == 0);
  const scl::Clip clip = loadOk(dir / "squat.clip");
  REQUIRE(clip.frames.size() == 11);
  CHECK(clip.frames[10].time == Approx(1.0));
  const scl::ClipFrame& deep = clip.frames[5];  // the bottom of the squat
  auto angle = [&](const std::string& joint) {
    return scl::radToDeg(deep.jointAngles[static_cast<size_t>(clip.jointColumn(joint))]);
  };
  CHECK(angle("leftHip") == Approx(80));
  CHECK(angle("rightKnee") == Approx(-110));
  CHECK(angle("leftAnkle") == Approx(125));
  CHECK(angle("waist") == Approx(15));  // Spine and Spine1 add up
  CHECK(angle("neckBottom") == Approx(-10));
  CHECK(angle("leftShoulder") == Approx(50));
  CHECK(angle("rightElbow") == Approx(30));
  CHECK(scl::radToDeg(deep.root.angle) == Approx(60));
  CHECK(deep.root.y == Approx(0.60));
  CHECK(scl::radToDeg(clip.frames[0].jointAngles[0]) == Approx(0).margin(1e-9));
}

TEST_CASE("scl clip import reports errors in the mapping and the BVH file where they are",
          "[cli][clip][bvh]") {
  TempDir dir;
  const std::string map = readText(kSource + "/scripts/clips/cmu.bvhmap");
  writeText(dir / "typo.bvhmap", std::regex_replace(map, std::regex("LeftUpLeg"), "LeftUpleg"));
  const std::string bvh = kSource + "/scripts/clips/squat-mocap.bvh";
  Outcome typo =
      runScl("clip import " + bvh + " --map " + dir / "typo.bvhmap" + " --out " + dir / "a.clip");
  CHECK(typo.exitCode == 1);
  CHECK_THAT(typo.err, Contains("typo.bvhmap:26:20: error: unknown BVH joint 'LeftUpleg'; did "
                                "you mean 'LeftUpLeg'?"));
  CHECK_FALSE(std::filesystem::exists(dir / "a.clip"));
  Outcome child = runScl("clip import " + bvh + " --map " + kSource +
                         "/scripts/clips/cmu.bvhmap --character child --out " + dir / "a.clip");
  CHECK(child.exitCode == 1);
  CHECK_THAT(child.err, Contains("cmu.bvhmap:11:11: error: mapping 'cmu' is for character "
                                 "'human', not 'child'"));
  writeText(dir / "bad.bvh", std::regex_replace(readText(bvh), std::regex("Xrotation"), "Xrotaton",
                                                std::regex_constants::format_first_only));
  Outcome channel = runScl("clip import " + dir / "bad.bvh" + " --map " + kSource +
                           "/scripts/clips/cmu.bvhmap --out " + dir / "a.clip");
  CHECK(channel.exitCode == 1);
  CHECK_THAT(channel.err, Contains("bad.bvh:5:54: error: unknown channel 'Xrotaton'; did you "
                                   "mean 'Xrotation'?"));
  writeText(dir / "short.bvh", readText(bvh) + "1 2 3\n");
  Outcome values = runScl("clip import " + dir / "short.bvh" + " --map " + kSource +
                          "/scripts/clips/cmu.bvhmap --out " + dir / "a.clip");
  CHECK(values.exitCode == 1);
  CHECK_THAT(values.err, Contains("error: the file says 11 frames of 54 channels (594 values) but "
                                  "has 597 values"));
  Outcome same =
      runScl("clip import " + bvh + " --map " + kSource + "/scripts/clips/cmu.bvhmap --out " + bvh);
  CHECK(same.exitCode == 2);
}

TEST_CASE("scl check and scl fmt read clip files", "[cli][clip]") {
  TempDir dir;
  const std::string squat = kSource + "/scripts/clips/squat.clip";
  const Outcome check = runScl("check " + squat);
  CHECK(check.exitCode == 0);
  CHECK(check.err.empty());
  const Outcome fmt = runScl("fmt " + squat);
  REQUIRE(fmt.exitCode == 0);
  CHECK(fmt.out == readText(squat));  // the shipped clip is canonical
  writeText(dir / "bad.clip", "clip bad\ncharacter human\njoints leftKnee leftHipp\n0 1 2\n");
  const Outcome bad = runScl("check " + dir / "bad.clip");
  CHECK(bad.exitCode == 1);
  CHECK_THAT(bad.err, Contains("bad.clip:3:17: error: unknown joint 'leftHipp'; did you mean "
                               "'leftHip'?"));
  CHECK_THAT(runScl("check --character child " + squat).err,
             Contains("error: clip 'squat' was made for character 'human', not 'child'"));
}

TEST_CASE("scl clip: the commands docs/clips.md shows", "[cli][clip][docs]") {
  const std::string page = readText(kSource + "/docs/clips.md");
  TempDir dir;
  RunOptions top;
  top.workingDirectory = kSource;
  // Every `scl ...` line of the page's code blocks, run from the top of the source tree
  // with its outputs in the test's directory.
  int commands = 0;
  for (std::string command : scl::testing::sclCommandsOf(page)) {
    command = std::regex_replace(command, std::regex("(--out|--clip|--bvh) ([^ ]+)"),
                                 "$1 " + dir.path().string() + "/$2");
    command = std::regex_replace(command, std::regex("^clip import ([a-z-]+\\.bvh)"),
                                 "clip import " + dir.path().string() + "/$1");
    INFO(command);
    const Outcome outcome = runScl(command, top);
    INFO(outcome.err);
    CHECK(outcome.exitCode == 0);
    ++commands;
  }
  CHECK(commands >= 4);
}

TEST_CASE("the shipped walk clip is walk.scl's first 10 s, recorded as track-walk.scl says",
          "[cli][clip]") {
  // The command in scripts/track-walk.scl's header and docs/clips.md, Control by clips.
  TempDir dir;
  const Outcome run =
      runScl("run " + kSource + "/scripts/walk.scl --duration 10 --clip " + dir / "walk.clip");
  REQUIRE(run.exitCode == 0);
  CHECK(readText(dir / "walk.clip") == readText(kSource + "/scripts/clips/walk.clip"));
}

TEST_CASE(
    "track-walk.scl walks on under 120 N pushes at the trunk, where the clip's PD playback falls",
    "[cli][clip]") {
  // Two of the header's twenty pushes: forward in one step, backward in another.
  for (const std::string push : {"trunk:120,0@6.2+0.2", "trunk:-120,0@5.2+0.2"}) {
    INFO("--push " << push);
    std::string command = "run " + kSource + "/scripts/track-walk.scl --json --push ";
    command += push;
    const Outcome run = runScl(command);
    REQUIRE(run.exitCode == 0);
    const nlohmann::json summary = nlohmann::json::parse(run.out);
    CHECK(summary["fell"].is_null());
    CHECK(summary["distance"].get<double>() > 3.0);
  }
  // The clip's angles played back through PD, unpushed: it falls within 3 s.
  TempDir dir;
  writeText(dir / "playback.scl", "scene pose: standing duration: 10\nclip walk: \"" + kSource +
                                      "/scripts/clips/walk.clip\"\n{\n  [clip walk]\n}\n");
  const Outcome playback = runScl("run " + dir / "playback.scl" + " --json");
  REQUIRE(playback.exitCode == 0);
  const nlohmann::json summary = nlohmann::json::parse(playback.out);
  REQUIRE_FALSE(summary["fell"].is_null());
  CHECK(summary["fell"].get<double>() < 3.0);
}

TEST_CASE("lift-styles.scl: the knees' clip and the back's lift the same box as high, differently",
          "[cli][clip]") {
  struct Lift {
    double waistMax = -1e9, kneeMin = 1e9, boxY = 0.0;
  };
  const auto lift = [](const std::string& clipOption) {
    TempDir dir;
    const Outcome run = runScl("run " + kSource + "/scripts/lift-styles.scl --out " +
                               dir / "lift.csv" + clipOption);
    REQUIRE(run.exitCode == 0);
    const auto columns = readCsvColumns(dir / "lift.csv");
    Lift out;
    for (const double waist : columns.at("waist_deg")) out.waistMax = std::max(out.waistMax, waist);
    for (const double knee : columns.at("leftKnee_deg")) out.kneeMin = std::min(out.kneeMin, knee);
    out.boxY = columns.at("box.y").back();
    return out;
  };
  const Lift knees = lift("");
  const Lift back = lift(" --use-clip style=" + kSource + "/scripts/clips/lift-back.clip");
  INFO("knees: waist " << knees.waistMax << ", knee " << knees.kneeMin << ", box " << knees.boxY);
  INFO("back: waist " << back.waistMax << ", knee " << back.kneeMin << ", box " << back.boxY);
  CHECK(knees.waistMax < 15.0);
  CHECK(knees.kneeMin < -80.0);
  CHECK(back.waistMax > 35.0);
  CHECK(back.kneeMin > -45.0);
  CHECK(knees.boxY > 1.1);
  CHECK(std::abs(knees.boxY - back.boxY) < 0.02);
}

TEST_CASE("scl run --use-clip: what it refuses", "[cli][clip]") {
  const std::string script = kSource + "/scripts/lift-styles.scl";
  const Outcome typo =
      runScl("run " + script + " --use-clip stlye=" + kSource + "/scripts/clips/lift-back.clip");
  CHECK(typo.exitCode == 2);
  CHECK_THAT(typo.err, Contains("the script declares no clip 'stlye'; did you mean 'style'?"));
  const Outcome missing = runScl("run " + script + " --use-clip style=nope.clip");
  CHECK(missing.exitCode == 2);
  CHECK_THAT(missing.err, Contains("clip file 'nope.clip' does not exist"));
  const Outcome malformed = runScl("run " + script + " --use-clip style");
  CHECK(malformed.exitCode == 2);
  CHECK_THAT(malformed.err, Contains("expected NAME=FILE"));
}
