// The character reference (docs/character-reference.md, docs/figures/joint-signs.svg,
// `scl character`): the committed files are the generators' output, the command prints
// every link and joint, and every joint sign the page states holds in the kinematics.
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kinematics/character_state.h"
#include "runtime/placement.h"
#include "scl/character.h"
#include "tools/character_report.h"

using namespace scl;
using Catch::Matchers::Contains;

namespace {

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

// Runs `scl ARGS` with stdout and stderr captured in temporary files.
Outcome runScl(const std::string& args) {
  auto temporary = [] {
    std::string path =
        (std::filesystem::temp_directory_path() / "scl_character_test_XXXXXX").string();
    int fd = mkstemp(path.data());
    REQUIRE(fd >= 0);
    close(fd);
    return path;
  };
  std::string out = temporary(), err = temporary();
  int status =
      std::system((SCL_BINARY_DIR "/tools/scl " + args + " >" + out + " 2>" + err).c_str());
  Outcome outcome{-1, readText(out), readText(err)};
  std::remove(out.c_str());
  std::remove(err.c_str());
  REQUIRE(WIFEXITED(status));
  outcome.exitCode = WEXITSTATUS(status);
  return outcome;
}

// The standing pose as the runtime places it, with `deltaDeg` added to one joint.
CharacterState standingWith(int joint, double deltaDeg) {
  Placement placement =
      placePose(*scl::humanCharacter(), *scl::humanCharacter()->findPose("standing"), nullptr, {});
  placement.jointAngles[joint] += degToRad(deltaDeg);
  return forwardKinematics(*scl::humanCharacter(), placement.headOrigin, placement.headAngle,
                           placement.jointAngles);
}

// Upright: every link at 90°, every joint 0 but those given (degrees).
CharacterState uprightWith(std::initializer_list<std::pair<int, double>> jointsDeg) {
  std::array<double, kMaxJoints> joints{};
  for (auto [joint, deg] : jointsDeg) joints[joint] = degToRad(deg);
  return forwardKinematics(*scl::humanCharacter(), Vec2::Zero(), degToRad(90), joints);
}

Vec2 distalEnd(const CharacterState& state, int link) {
  return state.links[link].origin +
         scl::humanCharacter()->links[link].length *
             linkAxis(*scl::humanCharacter(), link, state.links[link].angle);
}

// A point of `moved` seen as if link `held` had stayed where it is in `reference`.
Vec2 seenWithHeld(const CharacterState& moved, const CharacterState& reference, int held,
                  const Vec2& point) {
  double turn = reference.links[held].angle - moved.links[held].angle;
  Eigen::Rotation2Dd rotation(turn);
  return rotation * (point - moved.links[held].origin) + reference.links[held].origin;
}

// True when `displacement` points mainly the way `direction` says.
bool pointsMainly(const Vec2& displacement, Direction direction) {
  double forward = displacement.x(), up = displacement.y();
  switch (direction) {
    case Direction::Forward:
      return forward > std::abs(up);
    case Direction::Backward:
      return -forward > std::abs(up);
    case Direction::Up:
      return up > std::abs(forward);
    case Direction::Down:
      return -up > std::abs(forward);
  }
  return false;
}

const std::string kRegenerate =
    "regenerate with `build/tools/scl character --markdown > docs/character-reference.md` "
    "and `build/tools/scl character --svg > docs/figures/joint-signs.svg`";

}  // namespace

TEST_CASE("the committed reference page and figure are the generators' output") {
  std::string page = readText(SCL_SOURCE_DIR "/docs/character-reference.md");
  std::string figure = readText(SCL_SOURCE_DIR "/docs/figures/joint-signs.svg");
  INFO("docs/character-reference.md or docs/figures/joint-signs.svg is stale: " + kRegenerate);
  // Compared as booleans: Catch would print both whole files.
  bool pageCurrent = page == characterReferenceMarkdown();
  bool figureCurrent = figure == jointSignFigureSvg();
  CHECK(pageCurrent);
  CHECK(figureCurrent);
}

TEST_CASE("the page covers every link, joint and group and draws its numbers from the table") {
  std::string page = characterReferenceMarkdown();
  for (const LinkDef& link : scl::humanCharacter()->links)
    CHECK_THAT(page, Contains("| `" + std::string(link.name) + "` |"));
  for (const JointDef& joint : scl::humanCharacter()->joints)
    CHECK_THAT(page, Contains("| `" + std::string(joint.name) + "` |"));
  for (const GroupDef& group : scl::humanCharacter()->linkGroups)
    CHECK_THAT(page, Contains("`" + std::string(group.name) + "` = "));
  for (const GroupDef& group : scl::humanCharacter()->jointGroups)
    CHECK_THAT(page, Contains("`" + std::string(group.name) + "` = "));
  CHECK_THAT(page, Contains("89.49 kg in all"));
  CHECK_THAT(page, Contains("| `leftHip` | `pelvis` → `leftThigh` | 0.250 | −30° to 100° | 0° | "
                            "500 | 70 | 300 | `rightHip` |"));
  CHECK_THAT(page, Contains("(figures/joint-signs.svg)"));
  CHECK_THAT(page, Contains("ankle 86.45° under a vertical shank"));

  // The generator reads only its input: another table gives another page.
  CharacterReferenceInput character = builtInCharacterReference();
  std::vector<LinkDef> links(scl::humanCharacter()->links.begin(),
                             scl::humanCharacter()->links.end());
  links[kHead].mass += 0.11;
  character.links = links;
  character.signNotes = {};
  std::string changed = characterReferenceMarkdown(character);
  CHECK_THAT(changed, Contains("89.60 kg in all"));
  CHECK_THAT(changed, Contains("| `head` | 0.350 | 0.260 | 0.220 | 6.00 |"));
  CHECK_THAT(changed, Contains("- **`rightAnkle`**: no note on its sign."));
}

TEST_CASE("every joint has a sign note, and its direction holds in the forward kinematics") {
  CharacterReferenceInput character = builtInCharacterReference();
  std::string page = characterReferenceMarkdown(character);
  CharacterState standing = standingWith(kNeckTop, 0.0);
  for (int j = 0; j < kBipedJointCount; ++j) {
    const JointSignNote* note = findSignNote(character, j);
    INFO("joint " << scl::humanCharacter()->joints[j].name);
    REQUIRE(note != nullptr);
    CHECK_THAT(page, Contains("`" + std::string(scl::humanCharacter()->joints[j].name) + "`"));
    // Growing the angle turns the child counter-clockwise: its far end moves as stated.
    int child = scl::humanCharacter()->joints[j].childLink;
    CharacterState grown = standingWith(j, 5.0);
    Vec2 moved = distalEnd(grown, child) - distalEnd(standing, child);
    INFO("the child's distal end moved by (" << moved.x() << ", " << moved.y() << ")");
    CHECK(pointsMainly(moved, note->childEndMoves));
    // The parent stays put: the angle is the child's relative to it.
    int parent = scl::humanCharacter()->joints[j].parentLink;
    CHECK((grown.links[parent].origin - standing.links[parent].origin).norm() < 1e-12);
    CHECK(grown.links[parent].angle == standing.links[parent].angle);
  }
}

TEST_CASE("the sign notes' words hold: nods, tilts, pike, raised arm, level thigh, square foot") {
  CharacterState standing = standingWith(kNeckTop, 0.0);
  SECTION("neckTop > 0 nods the head forward relative to the neck and body") {
    CharacterState grown = standingWith(kNeckTop, 5.0);
    Vec2 headTop = seenWithHeld(grown, standing, kNeck, distalEnd(grown, kHead));
    CHECK(headTop.x() > distalEnd(standing, kHead).x() + 0.02);
  }
  SECTION("neckBottom > 0 tilts the neck and head forward relative to the trunk") {
    CharacterState grown = standingWith(kNeckBottom, 5.0);
    Vec2 headTop = seenWithHeld(grown, standing, kTrunk, distalEnd(grown, kHead));
    CHECK(headTop.x() > distalEnd(standing, kHead).x() + 0.02);
  }
  SECTION("waist > 0 with the legs held bends the trunk forward") {
    CharacterState grown = standingWith(kWaist, 5.0);
    Vec2 shoulder = seenWithHeld(grown, standing, kPelvis, grown.jointPositions[kLeftShoulder]);
    CHECK(shoulder.x() > standing.jointPositions[kLeftShoulder].x() + 0.03);
  }
  SECTION("shoulder 90 holds the arm out in front, 180 straight up") {
    CharacterState front = uprightWith({{kLeftShoulder, 90}});
    Vec2 arm = front.jointPositions[kLeftElbow] - front.jointPositions[kLeftShoulder];
    CHECK(arm.x() == Approx(scl::humanCharacter()->links[kLeftArm].length));
    CHECK(arm.y() == Approx(0).margin(1e-12));
    CharacterState up = uprightWith({{kLeftShoulder, 180}});
    arm = up.jointPositions[kLeftElbow] - up.jointPositions[kLeftShoulder];
    CHECK(arm.y() == Approx(scl::humanCharacter()->links[kLeftArm].length));
  }
  SECTION("hip 90 holds the thigh level in front; knee < 0 bends the shank back") {
    CharacterState flexed = uprightWith({{kLeftHip, 90}});
    Vec2 thigh = flexed.jointPositions[kLeftKnee] - flexed.jointPositions[kLeftHip];
    CHECK(thigh.x() == Approx(scl::humanCharacter()->links[kLeftThigh].length));
    CHECK(thigh.y() == Approx(0).margin(1e-12));
    CharacterState bent = uprightWith({{kLeftKnee, -30}});
    CHECK(bent.jointPositions[kLeftAnkle].x() < bent.jointPositions[kLeftKnee].x() - 0.2);
    CHECK(scl::humanCharacter()->joints[kLeftKnee].maxDeg <= 0);
    CHECK(scl::humanCharacter()->joints[kLeftElbow].minDeg >= 0);
  }
  SECTION("ankle 90 sets the foot square to the shank, pointing forward") {
    CharacterState square = uprightWith({{kLeftAnkle, 90}});
    Vec2 foot = distalEnd(square, kLeftFoot) - square.jointPositions[kLeftAnkle];
    CHECK(foot.x() == Approx(scl::humanCharacter()->links[kLeftFoot].length));
    CHECK(foot.y() == Approx(0).margin(1e-12));
  }
}

TEST_CASE("the figure draws every joint's arrow and label from the standing pose") {
  std::string figure = jointSignFigureSvg();
  CHECK(figure.starts_with("<?xml"));
  CHECK_THAT(figure, Contains("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"780.0\""));
  for (const JointDef& joint : scl::humanCharacter()->joints)
    CHECK_THAT(figure, Contains(std::string(joint.name)));
  // One arc per sign note, each ending in an arrowhead.
  size_t arrows = 0;
  for (size_t at = figure.find("marker-end=\"url(#head"); at != std::string::npos;
       at = figure.find("marker-end=\"url(#head", at + 1))
    ++arrows;
  CHECK(arrows == builtInCharacterReference().signNotes.size());
  CHECK(figure.ends_with("</svg>\n"));
  // XML forbids "--" inside a comment; renderers reject the whole file.
  for (size_t open = figure.find("<!--"); open != std::string::npos;
       open = figure.find("<!--", open + 4)) {
    size_t close = figure.find("-->", open + 4);
    REQUIRE(close != std::string::npos);
    CHECK(figure.substr(open + 4, close - open - 4).find("--") == std::string::npos);
  }
}

TEST_CASE("scl character prints the tables, the page and the figure") {
  Outcome text = runScl("character");
  CHECK(text.exitCode == 0);
  CHECK(text.err.empty());
  for (const LinkDef& link : scl::humanCharacter()->links)
    CHECK_THAT(text.out, Contains(std::string(link.name)));
  for (const JointDef& joint : scl::humanCharacter()->joints)
    CHECK_THAT(text.out, Contains(std::string(joint.name)));
  CHECK_THAT(text.out, Contains("89.49 kg"));
  CHECK(text.out == characterReferenceText(builtInCharacterReference()));

  Outcome markdown = runScl("character --markdown");
  CHECK(markdown.exitCode == 0);
  CHECK(markdown.out == characterReferenceMarkdown());
  Outcome svg = runScl("character --svg");
  CHECK(svg.exitCode == 0);
  CHECK(svg.out == jointSignFigureSvg());

  Outcome help = runScl("character --help");
  CHECK(help.exitCode == 0);
  CHECK_THAT(help.out, Contains("--markdown"));
  CHECK_THAT(runScl("--help").out, Contains("character"));
}

TEST_CASE("scl character: usage errors exit 2 with one line") {
  Outcome unknownOption = runScl("character --bogus");
  CHECK(unknownOption.exitCode == 2);
  CHECK_THAT(unknownOption.err, Contains("bogus"));
  CHECK(unknownOption.out.empty());

  Outcome named = runScl("character giant");
  CHECK(named.exitCode == 2);
  CHECK_THAT(named.err, Contains("unknown character 'giant'"));
  CHECK_THAT(named.err, Contains("human"));  // the choices are listed

  Outcome both = runScl("character --markdown --svg");
  CHECK(both.exitCode == 2);
}
