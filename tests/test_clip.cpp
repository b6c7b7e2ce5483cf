// Motion clips: the data and its sampling (scl/clip.h), the clip file's front end, printer
// and binding to a character (scl/clip_file.h).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/runner.h"
#include "scl/clip.h"
#include "scl/clip_file.h"
#include "scl/clip_follower.h"
#include "test_support.h"

namespace {

using Catch::Matchers::Contains;
using scl::degToRad;
using scl::radToDeg;
using scl::testing::compileOk;
using scl::testing::primitive;

// A keyframed squat of the human: four joints, the pelvis as root, a foot's tip.
const char* const kSquat = R"(// a squat by hand
clip squat
character human
interpolation linear
root pelvis
joints leftHip rightHip leftKnee rightKnee
effectors leftFoot
0    0.02 0.95 90   10 10 -20 -20    0.1 0.05
0.5  0.02 0.70 90   70 70 -110 -110  0.1 0.05
1    0.02 0.95 90   10 10 -20 -20    0.1 0.05  // back up
)";

scl::Clip clipOk(const std::string& text) {
  scl::ClipParse parse = scl::parseClip(text, "t.clip");
  INFO(scl::renderDiagnostics(parse.diagnostics, text));
  REQUIRE(parse.ok());
  return parse.clip;
}

// The rendered diagnostics of a clip text that must have errors.
std::string clipErrors(const std::string& text) {
  scl::ClipParse parse = scl::parseClip(text, "t.clip");
  REQUIRE_FALSE(parse.ok());
  return scl::renderDiagnostics(parse.diagnostics, text);
}

// The rendered diagnostics of binding a clip to `character`.
std::string bindErrors(const std::string& text, const scl::Character& character,
                       const scl::ClipNeeds& needs = {}) {
  const scl::Clip clip = clipOk(text);
  scl::DiagnosticSink sink;
  REQUIRE_FALSE(scl::bindClip(clip, character, sink, needs));
  return scl::renderDiagnostics(sink.take(), text);
}

}  // namespace

TEST_CASE("a clip file reads its statements and frames in SCL units") {
  const scl::Clip clip = clipOk(kSquat);
  CHECK(clip.name == "squat");
  CHECK(clip.character == "human");
  CHECK(clip.rootLink == "pelvis");
  CHECK(clip.joints == std::vector<std::string>{"leftHip", "rightHip", "leftKnee", "rightKnee"});
  CHECK(clip.effectors == std::vector<std::string>{"leftFoot"});
  REQUIRE(clip.frames.size() == 3);
  CHECK(clip.frames[1].time == 0.5);
  CHECK(clip.frames[1].jointAngles[2] == Approx(degToRad(-110)));
  CHECK(clip.frames[1].root.y == 0.70);
  CHECK(clip.frames[1].root.angle == Approx(degToRad(90)));
  CHECK(clip.frames[2].effectors[0].x == 0.1);
  CHECK(clip.duration() == 1.0);
  CHECK(clip.locations.frames[1].line == 9);
}

TEST_CASE("linear sampling passes through the frames and runs straight between them") {
  scl::Clip clip = clipOk(kSquat);
  scl::ClipPose pose = scl::makeClipPose(clip);
  scl::sampleClip(clip, 0.5, pose);
  CHECK(radToDeg(pose.jointAngles[0]) == Approx(70));
  scl::sampleClip(clip, 0.25, pose);
  CHECK(radToDeg(pose.jointAngles[0]) == Approx(40));
  CHECK(radToDeg(pose.jointAngles[3]) == Approx(-65));
  CHECK(pose.root.y == Approx(0.825));
  CHECK_FALSE(pose.outside);
  // After the end of a clip that does not loop: its last frame, marked outside.
  scl::sampleClip(clip, 1.7, pose);
  CHECK(pose.outside);
  CHECK(radToDeg(pose.jointAngles[0]) == Approx(10));
  CHECK_THAT(scl::clipTimeError(clip, 1.7),
             Contains("t = 1.7 s is after the end of clip 'squat' (it lasts 1 s"));
  CHECK(scl::clipTimeError(clip, 0.3).empty());
  // Time scaled: twice as long.
  clip.timescale = 2;
  CHECK(clip.duration() == 2.0);
  scl::sampleClip(clip, 0.5, pose);
  CHECK(radToDeg(pose.jointAngles[0]) == Approx(40));
}

TEST_CASE("a looping clip wraps around and counts its cycles") {
  scl::Clip clip = clipOk(kSquat);
  clip.loop = true;
  scl::ClipPose pose = scl::makeClipPose(clip);
  scl::sampleClip(clip, 2.25, pose);
  CHECK(pose.loops == 2);
  CHECK(pose.clipTime == Approx(0.25));
  CHECK(radToDeg(pose.jointAngles[0]) == Approx(40));
  scl::sampleClip(clip, -0.25, pose);
  CHECK(pose.loops == -1);
  CHECK(radToDeg(pose.jointAngles[0]) == Approx(40));
  CHECK_FALSE(pose.outside);
  CHECK(scl::clipTimeError(clip, 50).empty());
}

TEST_CASE("spline sampling passes through the frames with continuous velocity") {
  scl::Clip clip = clipOk(kSquat);
  clip.interpolation = scl::ClipInterpolation::Spline;
  auto hip = [&](double t) { return radToDeg(scl::sampleClip(clip, t).jointAngles[0]); };
  CHECK(hip(0) == Approx(10));
  CHECK(hip(0.5) == Approx(70));
  CHECK(hip(1) == Approx(10));
  // Smooth through the middle frame (a peak: zero slope there), unlike the linear kink.
  const double h = 1e-4;
  CHECK((hip(0.5 + h) - hip(0.5 - h)) / (2 * h) == Approx(0).margin(1e-3));
  CHECK(hip(0.25) > 40);  // the curve bulges above the chord
  // Looping, the seam is smooth too: slopes either side of t = 1 agree.
  clip.loop = true;
  const double before = (hip(1 - h) - hip(1 - 2 * h)) / h,
               after = (hip(1 + 2 * h) - hip(1 + h)) / h;
  CHECK(before == Approx(after).margin(0.5));
  // A straight line stays a straight line.
  const scl::Clip ramp = clipOk(
      "clip ramp\ncharacter human\ninterpolation spline\njoints waist\n0 0\n1 10\n2 20\n4 40\n");
  CHECK(radToDeg(scl::sampleClip(ramp, 3).jointAngles[0]) == Approx(30));
}

TEST_CASE("sampling into a sized pose allocates nothing and agrees with a fresh pose") {
  const scl::Clip clip = clipOk(kSquat);
  scl::ClipPose pose = scl::makeClipPose(clip);
  const double* joints = pose.jointAngles.data();
  const scl::ClipPoint* effectors = pose.effectors.data();
  for (double t = 0; t < 1; t += 0.01) scl::sampleClip(clip, t, pose);
  CHECK(pose.jointAngles.data() == joints);
  CHECK(pose.effectors.data() == effectors);
  scl::sampleClip(clip, 0.99, pose);
  CHECK(pose.jointAngles == scl::sampleClip(clip, 0.99).jointAngles);
}

TEST_CASE("a printed clip reads back as the same clip, comments kept") {
  const scl::Clip clip = clipOk(kSquat);
  const std::string printed = scl::printClip(clip, scl::scanComments(kSquat));
  CHECK_THAT(printed, Contains("// a squat by hand\nclip squat\ncharacter human\n"));
  CHECK_THAT(printed, Contains("loop no\ntimescale 1\nroot pelvis\n"));
  CHECK_THAT(printed, Contains("1  0.02 0.95 90  10 10 -20 -20  0.1 0.05  // back up\n"));
  const scl::Clip again = clipOk(printed);
  CHECK(scl::printClip(again, scl::scanComments(printed)) == printed);
  REQUIRE(again.frames.size() == clip.frames.size());
  for (size_t f = 0; f < clip.frames.size(); ++f)
    for (size_t j = 0; j < clip.joints.size(); ++j)
      CHECK(again.frames[f].jointAngles[j] == Approx(clip.frames[f].jointAngles[j]).margin(1e-9));
}

TEST_CASE("a clip file's errors are located, with did-you-mean") {
  CHECK_THAT(clipErrors("clip a\ncharacter human\ninterpolaton spline\njoints waist\n0 1\n"),
             Contains("t.clip:3:1: error: unknown statement 'interpolaton'; did you mean "
                      "'interpolation'?"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\ninterpolation cubic\njoints waist\n0 1\n"),
             Contains("3:15: error: unknown interpolation 'cubic': 'linear' or 'spline'"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\njoints waist leftKnee\n0 1 2\n0.5 1\n"),
             Contains("5:1: error: the frame at 0.5 s has 1 values after its time; the columns "
                      "need 2 (2 joints)"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\njoints waist\n0 1\n0.5 2\n0.5 3\n"),
             Contains("6:1: error: the frame at 0.5 s does not come after the one before it (at "
                      "0.5 s): times must increase"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\njoints waist waist\n0 1 1\n"),
             Contains("3:14: error: joint 'waist' is given twice"));
  CHECK_THAT(clipErrors("clip a\njoints waist\n0 1\n"),
             Contains("1:1: error: the clip names no character"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\njoints waist\n0 @1\n"),
             Contains("4:3: error: a clip's numbers cannot be '@' parameters"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\njoints waist\n0 1\nloop yes\n"),
             Contains("5:1: error: 'loop' after the first frame"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\nloop yes\njoints waist\n0 1\n"),
             Contains("1:1: error: a looping clip needs at least two frames"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\ntimescale\njoints waist\n0 1\n"),
             Contains("3:1: error: expected the timescale (2: half speed) after 'timescale'"));
  CHECK_THAT(clipErrors("clip a\ncharacter human\ntimescale 0\njoints waist\n0 1\n"),
             Contains("error: the timescale must be from 0.001 to 1000 (found 0)"));
  CHECK_THAT(clipErrors("clap a\n"), Contains("1:1: error: expected 'clip NAME' to begin a clip "
                                              "file near 'clap'; did you mean 'clip'?"));
}

TEST_CASE("binding a clip reports another character, unknown names and what it lacks") {
  const std::shared_ptr<const scl::Character>& human = scl::humanCharacter();
  const scl::Clip clip = clipOk(kSquat);
  scl::DiagnosticSink sink;
  const std::optional<scl::ClipBinding> binding = scl::bindClip(clip, *human, sink);
  REQUIRE(binding);
  CHECK(binding->jointOf ==
        std::vector<int>{scl::kLeftHip, scl::kRightHip, scl::kLeftKnee, scl::kRightKnee});
  CHECK(binding->columnOf[scl::kLeftKnee] == 2);
  CHECK(binding->columnOf[scl::kWaist] == -1);
  CHECK(binding->rootLink == scl::kPelvis);
  CHECK(binding->effectorOf == std::vector<int>{scl::kLeftFoot});
  const scl::ClipPose pose = scl::sampleClip(clip, 0.5);
  CHECK(binding->angle(pose, scl::kLeftKnee) == Approx(degToRad(-110)));
  CHECK_FALSE(binding->angle(pose, scl::kWaist));

  scl::Character robin = *human;
  robin.name = "robin";
  CHECK_THAT(bindErrors(kSquat, robin),
             Contains("t.clip:3:11: error: clip 'squat' was made for character 'human', not "
                      "'robin'"));
  CHECK_THAT(bindErrors("clip a\ncharacter human\njoints leftKne\n0 1\n", *human),
             Contains("3:8: error: unknown joint 'leftKne'; did you mean 'leftKnee'?"));
  CHECK_THAT(bindErrors("clip a\ncharacter human\nroot pelvs\njoints waist\n0 0 1 90 1\n", *human),
             Contains("3:6: error: unknown link 'pelvs'; did you mean 'pelvis'?"));
  scl::ClipNeeds needs;
  needs.joints = {scl::kWaist, scl::kLeftKnee};
  needs.root = true;
  needs.usedAt = {"walk.scl", 7, 3};
  const std::string lacking =
      bindErrors("clip a\ncharacter human\njoints leftKnee\n0 1\n", *human, needs);
  CHECK_THAT(lacking, Contains("walk.scl:7:3: error: clip 'a' has no angles of joint 'waist' "
                               "(its joints: leftKnee)"));
  CHECK_THAT(lacking, Contains("walk.scl:7:3: error: clip 'a' has no root pose"));
}

// --- Control by clips (docs/clips.md, Control by clips) ----------------------------------

namespace {

// A feature controller after a settle: the centre of mass over the feet first, then
// `tasks` (a clip's posture or path, or the phase's PD targets) below it; `clips` declared.
std::string balancedScript(const std::string& clips, const std::string& tasks) {
  return "scene pose: standing duration: 6\n" + clips + R"(
{
  [necks 0, waist 0, hips 0, knees 0 time: 0.5]
  [relax ankles strength 0.1]
  [vf sb(600, 300) on: trunk, by: leftAnkle]
  [symm]
  [gc]
}
after 1.5
{
  [support leftFoot, rightFoot]
  [com x 0 kp 60 kd 15]
  [angmom 0 weight 0.1]
  [track trunk standing weight 0.1]
  )" + tasks +
         R"(
}
)";
}

// scripts/clips/exercise.clip followed by a feature controller, `posture` (the clip's, or
// the phase's PD targets) below the balance tasks.
std::string exerciseScript(const std::string& posture) {
  return balancedScript("clip exercise: \"clips/exercise.clip\"", "[" + posture + "]");
}

struct ExerciseRun {
  // RMS over the clip's joints and the steps from 0.5 s into the exercise of the joints'
  // angles against the clip's, and of the clip's against the phase's own targets, degrees.
  double rmsToClip = 0.0;
  double clipToStatic = 0.0;
  bool standing = true;
};

ExerciseRun runExercise(const std::string& posture, double seconds) {
  const scl::Program program =
      compileOk(exerciseScript(posture), SCL_SOURCE_DIR "/scripts/exercise-test.scl");
  const scl::ClipLoad load = scl::loadClipFile(SCL_SOURCE_DIR "/scripts/clips/exercise.clip");
  REQUIRE(load.ok());
  const scl::Character& character = *program.character;
  scl::Runner runner(program, scl::simulationDefFor(program));
  scl::ClipPose pose = scl::makeClipPose(load.clip);
  double sumToClip = 0.0, sumToStatic = 0.0;
  long count = 0;
  ExerciseRun run;
  while (runner.time() < 1.5 + seconds) {
    const scl::StepReport& report = runner.step();
    if (report.phase != 1 || report.phaseTime < 0.5) continue;
    scl::sampleClip(load.clip, report.phaseTime, pose);
    for (size_t column = 0; column < load.clip.joints.size(); ++column) {
      const int joint = *character.findJoint(load.clip.joints[column]);
      const double clip = pose.jointAngles[column];
      sumToClip += std::pow(runner.state().jointAngles[joint] - clip, 2);
      sumToStatic += std::pow(report.targets[joint] - clip, 2);
      ++count;
    }
  }
  run.rmsToClip = radToDeg(std::sqrt(sumToClip / static_cast<double>(count)));
  run.clipToStatic = radToDeg(std::sqrt(sumToStatic / static_cast<double>(count)));
  // Standing: the pelvis well above the ground at the end.
  run.standing = runner.state().links[character.roles.pelvis].origin.y() > 0.6;
  return run;
}

}  // namespace

TEST_CASE("a posture task with a clip follows the clip's angles, below the balance tasks") {
  const ExerciseRun clip = runExercise("posture clip: exercise loop kp 200 kd 28 priority 2", 4.0);
  INFO("RMS to the clip " << clip.rmsToClip << " deg");
  CHECK(clip.standing);
  CHECK(clip.rmsToClip < 20.0);
  // Held at the phase's static targets instead, the joints are far from the clip: the clip
  // moves them by tens of degrees.
  const ExerciseRun still = runExercise("posture priority 2", 4.0);
  INFO("static posture: RMS to the clip " << still.rmsToClip << " deg");
  CHECK(still.rmsToClip > 30.0);
  CHECK(still.rmsToClip > 2.5 * clip.rmsToClip);
}

TEST_CASE("a clip PD item sets its joints' targets to the clip's angles each step") {
  const scl::Program program = compileOk(R"(scene pose: standing duration: 1
clip exercise: "clips/exercise.clip"
{
  (a)
  [clip exercise joints: knees, leftShoulder speed: 2 from: 0.25]
}
after 0.1
{
  (b) : (a)
}
)",
                                         SCL_SOURCE_DIR "/scripts/clip-pd-test.scl");
  const scl::ClipLoad load = scl::loadClipFile(SCL_SOURCE_DIR "/scripts/clips/exercise.clip");
  REQUIRE(load.ok());
  const scl::Character& character = *program.character;
  const int leftKnee = *character.findJoint("leftKnee");
  const int leftShoulder = *character.findJoint("leftShoulder");
  const int rightShoulder = *character.findJoint("rightShoulder");
  const int shoulderColumn = load.clip.jointColumn("leftShoulder");
  const int kneeColumn = load.clip.jointColumn("leftKnee");
  scl::Runner runner(program, scl::simulationDefFor(program));
  int checkedA = 0, checkedB = 0;
  while (runner.time() < 0.2) {
    const scl::StepReport& report = runner.step();
    const scl::ClipPose pose = scl::sampleClip(load.clip, 0.25 + 2 * report.phaseTime);
    CHECK(report.targets[leftKnee] == Approx(pose.jointAngles[kneeColumn]).margin(1e-12));
    if (report.phase == 0) {
      CHECK(report.targets[leftShoulder] == Approx(pose.jointAngles[shoulderColumn]).margin(1e-12));
      ++checkedA;
    } else {
      // The mirrored phase: the right shoulder follows the left one's angles.
      CHECK(report.targets[rightShoulder] ==
            Approx(pose.jointAngles[shoulderColumn]).margin(1e-12));
      ++checkedB;
    }
  }
  CHECK(checkedA > 100);
  CHECK(checkedB > 100);
}

TEST_CASE("nearest-posture selection picks the frame nearest the state, of any clip") {
  const scl::Program program = compileOk(R"(scene pose: standing duration: 1
clip exercise: "clips/exercise.clip"
clip squat: "clips/squat.clip"
{
  [posture clip: squat, exercise nearest]
}
)",
                                         SCL_SOURCE_DIR "/scripts/clip-nearest-test.scl");
  const auto& posture = primitive<scl::PosturePrimitive>(program, 0, 0);
  REQUIRE(posture.clip.nearest);
  const scl::Character& character = *program.character;
  scl::ClipFollower follower(posture.clip, character);
  const scl::Clip& exercise = *posture.clip.clips[1]->clip;
  // At the exercise's pose 1.25 s in, moving as it moves: that instant of the exercise,
  // to within a frame's spacing... of the spline samples the table holds: its frames.
  std::vector<double> angles(character.joints.size(), 0.0), velocities(angles.size(), 0.0);
  for (double time : {0.0, 1.0, 2.0, 3.0}) {
    const scl::ClipPose pose = scl::sampleClip(exercise, time);
    const scl::ClipPose ahead = scl::sampleClip(exercise, time + 1e-4);
    for (size_t column = 0; column < exercise.joints.size(); ++column) {
      const int joint = *character.findJoint(exercise.joints[column]);
      angles[joint] = pose.jointAngles[column];
      velocities[joint] = (ahead.jointAngles[column] - pose.jointAngles[column]) / 1e-4;
    }
    follower.update(0.0, angles, velocities);
    CHECK(follower.chosenClip() == 1);
    CHECK(follower.chosenTime() == Approx(time).margin(1e-9));
    const int knee = *character.findJoint("leftKnee");
    CHECK(follower.has(knee));
    CHECK(follower.angle(knee) == Approx(angles[knee]).margin(1e-9));
  }
  // The squat's bottom (hips 70°, knees −110°, still) is the squat's frame at 0.5 s.
  std::fill(angles.begin(), angles.end(), 0.0);
  std::fill(velocities.begin(), velocities.end(), 0.0);
  for (const char* hip : {"leftHip", "rightHip"}) angles[*character.findJoint(hip)] = degToRad(70);
  for (const char* knee : {"leftKnee", "rightKnee"})
    angles[*character.findJoint(knee)] = degToRad(-110);
  for (const char* ankle : {"leftAnkle", "rightAnkle"})
    angles[*character.findJoint(ankle)] = degToRad(126.45);
  angles[*character.findJoint("waist")] = degToRad(20);
  follower.update(0.0, angles, velocities);
  CHECK(follower.chosenClip() == 0);
  CHECK(follower.chosenTime() == Approx(0.5));
}

// The search skips runs of frames by a bound (docs/clips.md, Cost); what it returns must be
// what a search of every frame returns: checked against one, on the 1201-frame walk clip,
// near the clip's states and far from all of them.
TEST_CASE(
    "nearest-posture selection finds the nearest frame of a long clip, as every frame's distance "
    "says") {
  const scl::Program program = compileOk(R"(scene pose: standing duration: 1
clip walk: "clips/walk.clip"
{
  [posture clip: walk nearest]
}
)",
                                         SCL_SOURCE_DIR "/scripts/clip-nearest-test.scl");
  const auto& posture = primitive<scl::PosturePrimitive>(program, 0, 0);
  const scl::Character& character = *program.character;
  const scl::Clip& walk = *posture.clip.clips[0]->clip;
  const size_t frames = walk.frames.size();
  REQUIRE(frames > 1000);
  std::vector<int> jointOf;
  for (const std::string& name : walk.joints) jointOf.push_back(*character.findJoint(name));
  // Every frame's angles and rates (central differences, one-sided at the ends), as the
  // documentation defines the distance.
  auto rate = [&](size_t f, size_t column) {
    const size_t before = f == 0 ? 0 : f - 1, after = std::min(f + 1, frames - 1);
    return (walk.frames[after].jointAngles[column] - walk.frames[before].jointAngles[column]) /
           (walk.frames[after].time - walk.frames[before].time);
  };
  auto distance = [&](size_t f, const std::vector<double>& angles,
                      const std::vector<double>& velocities) {
    double sum = 0.0;
    for (size_t column = 0; column < jointOf.size(); ++column) {
      const auto joint = static_cast<size_t>(jointOf[column]);
      const double angle = walk.frames[f].jointAngles[column] - angles[joint];
      const double speed = scl::kNearestVelocityWeight * (rate(f, column) - velocities[joint]);
      sum += angle * angle + speed * speed;
    }
    return sum;
  };
  scl::ClipFollower follower(posture.clip, character);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> angles(character.joints.size(), 0.0), velocities(angles.size(), 0.0);
  int exact = 0;
  for (int query = 0; query < 300; ++query) {
    // Near a frame (within 0.2 rad and 2 rad/s), or anywhere within ±1.5 rad and ±10 rad/s.
    const bool near = query % 3 != 0;
    const size_t around = static_cast<size_t>(query * 37) % frames;
    for (size_t column = 0; column < jointOf.size(); ++column) {
      const auto joint = static_cast<size_t>(jointOf[column]);
      angles[joint] =
          near ? walk.frames[around].jointAngles[column] + 0.2 * unit(random) : 1.5 * unit(random);
      velocities[joint] = near ? rate(around, column) + 2.0 * unit(random) : 10.0 * unit(random);
    }
    follower.update(0.0, angles, velocities);
    double best = std::numeric_limits<double>::infinity();
    size_t bestFrame = 0;
    for (size_t f = 0; f < frames; ++f)
      if (const double d = distance(f, angles, velocities); d < best) best = d, bestFrame = f;
    const auto chosen = static_cast<size_t>(
        std::lround(follower.chosenTime() / (walk.frames[1].time - walk.frames[0].time)));
    REQUIRE(chosen < frames);
    // The search sums in single precision: the frame it picks is the nearest, or one as
    // near to within its rounding.
    CHECK(distance(chosen, angles, velocities) <= best * (1.0 + 1e-5) + 1e-9);
    if (chosen == bestFrame) ++exact;
  }
  CHECK(exact >= 295);
}

// `[track LINK clip: NAME]` (docs/clips.md, Paths): the pelvis follows the keyframed
// squat's root path (down 0.28 m in half a second, up in the next half, looping) from
// where it stands, as a second task below the centre of mass.
TEST_CASE("a clip track moves a link along the clip's path of it, from where the link was") {
  auto run = [](const std::string& track) {
    const scl::Program program = compileOk(
        balancedScript("clip squat: \"clips/squat.clip\"", track + "\n  [posture priority 2]"),
        SCL_SOURCE_DIR "/scripts/clip-track-test.scl");
    const scl::ClipLoad load = scl::loadClipFile(SCL_SOURCE_DIR "/scripts/clips/squat.clip");
    REQUIRE(load.ok());
    const scl::Character& character = *program.character;
    scl::Runner runner(program, scl::simulationDefFor(program));
    scl::ClipPose pose = scl::makeClipPose(load.clip);
    const int pelvis = character.roles.pelvis;
    double startY = 0.0, lowest = 10.0, sumSquares = 0.0;
    long count = 0;
    while (runner.time() < 1.5 + 3.0) {
      const scl::StepReport& report = runner.step();
      if (report.phase != 1) continue;
      const double y = runner.state().links[pelvis].origin.y();
      if (count == 0) startY = y;
      scl::sampleClip(load.clip, report.phaseTime, pose);
      const double target = startY + pose.root.y - load.clip.frames.front().root.y;
      if (report.phaseTime > 0.25) sumSquares += (y - target) * (y - target);
      lowest = std::min(lowest, y - startY);
      ++count;
    }
    struct {
      double rms, drop;
      bool standing;
    } out{std::sqrt(sumSquares / static_cast<double>(count)), -lowest,
          runner.state().links[pelvis].origin.y() > 0.6};
    return out;
  };
  const auto followed = run("[track pelvis clip: squat kp 100 kd 20]");
  INFO("pelvis: " << followed.rms << " m RMS from the path, lowest " << followed.drop
                  << " m below its start");
  CHECK(followed.standing);
  CHECK(followed.drop > 0.25);  // the path goes 0.28 m down
  CHECK(followed.rms < 0.02);
  // Without it the pelvis stays where it is, off the path by its whole depth.
  const auto still = run("");
  INFO("no track: " << still.rms << " m RMS from the path");
  CHECK(still.drop < 0.05);
  CHECK(still.rms > 3.0 * followed.rms);
}

TEST_CASE("a clip file given for a declared clip is read in its place, for no clip an error") {
  const std::string source =
      "scene pose: standing duration: 1\n"
      "clip style: \"clips/lift-knees.clip\"\n"
      "{\n  [posture clip: style]\n}\n";
  const std::string fileName = SCL_SOURCE_DIR "/scripts/styles-test.scl";
  scl::CompileOptions options;
  options.clipFiles.emplace("style", SCL_SOURCE_DIR "/scripts/clips/lift-back.clip");
  const scl::CompileResult given = scl::compile(source, fileName, options);
  REQUIRE(given.ok());
  CHECK(given.program->phases.size() == 1);
  // The given file is the one read: a missing one is reported, not the script's own.
  scl::CompileOptions missing;
  missing.clipFiles.emplace("style", "no-such-lift.clip");
  const scl::CompileResult absent = scl::compile(source, fileName, missing);
  CHECK_FALSE(absent.ok());
  REQUIRE_FALSE(absent.diagnostics.empty());
  CHECK_THAT(absent.diagnostics[0].message, Catch::Contains("no-such-lift.clip"));

  scl::CompileOptions misspelled;
  misspelled.clipFiles.emplace("stlye", SCL_SOURCE_DIR "/scripts/clips/lift-back.clip");
  const scl::CompileResult refused = scl::compile(source, fileName, misspelled);
  CHECK_FALSE(refused.ok());
  REQUIRE(refused.diagnostics.size() == 1);
  CHECK(refused.diagnostics[0].location.line == 1);
  CHECK_THAT(refused.diagnostics[0].message,
             Catch::Contains("which this script does not declare; did you mean 'style'?"));
}
