// The front end's hints for the mistakes a newcomer makes (issue #33, "Robust by
// default"): a unit written after a number, milliseconds where seconds belong, radians where
// degrees belong, a contact that may never come in a run that would then last until its 60 s
// limit, and names in another naming convention (`l_knee` for `leftKnee`). Each is a
// diagnostic with a location, so `scl check` and the language server show it; none fires on a
// shipped script.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scl/compile.h"
#include "scl/names.h"
#include "scl/transition_text.h"
#include "tests/test_support.h"

namespace {

namespace fs = std::filesystem;
using scl::testing::compileOk;

std::vector<scl::Diagnostic> diagnosticsOf(const std::string& source) {
  return scl::compile(source, "t.scl").diagnostics;
}

// The messages of one severity, in source order.
std::vector<std::string> messagesOf(const std::string& source, scl::Severity severity) {
  std::vector<std::string> messages;
  for (const scl::Diagnostic& diagnostic : diagnosticsOf(source))
    if (diagnostic.severity == severity) messages.push_back(diagnostic.message);
  return messages;
}

std::vector<std::string> warningsOf(const std::string& source) {
  return messagesOf(source, scl::Severity::Warning);
}

std::vector<std::string> errorsOf(const std::string& source) {
  return messagesOf(source, scl::Severity::Error);
}

// The phrases of this file's hints: no shipped script may show one.
const std::vector<std::string> kHintPhrases = {"no unit after a number", "milliseconds?",
                                               "angles are degrees", "60 s limit"};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("hints: a unit after a number says the language's unit", "[hints]") {
  // Before: `0.5s` was the number 0.5 and a stray name `s` ("expected ']' near 's'").
  const std::string seconds = "{ [knees -90 time: 0.5s] }";
  const std::vector<scl::Diagnostic> diagnostics = diagnosticsOf(seconds);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].severity == scl::Severity::Error);
  CHECK(diagnostics[0].message == "'0.5s': no unit after a number; times are seconds: write 0.5");
  CHECK(diagnostics[0].location.line == 1);
  CHECK(diagnostics[0].location.column == 20);
  CHECK(errorsOf("{ (a) } after 500ms { (b) }") ==
        std::vector<std::string>{
            "'500ms': no unit after a number; times are seconds: write 0.5 for 500 ms"});
  CHECK(
      errorsOf("{ [knees -90deg] }") ==
      std::vector<std::string>{"'-90deg': no unit after a number; angles are degrees: write -90"});
  CHECK(errorsOf("{ [knees -1.57rad] }") ==
        std::vector<std::string>{
            "'-1.57rad': no unit after a number; angles are degrees: write -90 for -1.57 rad"});
  // Not a unit: the number and a name, as before (`2e` is 2 and the name `e`).
  CHECK(errorsOf("{ [knees -90x] }").front().find("no unit") == std::string::npos);
}

TEST_CASE("hints: a time of 100 s or more asks whether it meant milliseconds", "[hints]") {
  CHECK(warningsOf("{ (a) } after 500 { (b) }") ==
        std::vector<std::string>{"500 s: milliseconds? times are seconds: write 0.5 for 500 ms"});
  CHECK(warningsOf("{ [knees -90 time: 250] }") ==
        std::vector<std::string>{"250 s: milliseconds? times are seconds: write 0.25 for 250 ms"});
  CHECK(
      warningsOf("scene duration: 5\n{ (a) } when contact all feet or after 400 { (b) }").size() ==
      1);
  CHECK(warningsOf("{ (a) } after 99 { (b) [knees -90 time: 0.5] }").empty());
}

TEST_CASE("hints: PD angles that all look like radians", "[hints]") {
  const std::string source = "{\n  [knees -1.57, hips 0.785]\n}";
  const std::vector<scl::Diagnostic> diagnostics = diagnosticsOf(source);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].severity == scl::Severity::Warning);
  CHECK(diagnostics[0].message ==
        "angles are degrees: -1.57 is -1.57 deg; for -1.57 rad write -90");
  CHECK(diagnostics[0].location.line == 2);
  CHECK(diagnostics[0].location.column == 10);
  CHECK(warningsOf("{ [hips 0.785 time: 0.3] }") ==
        std::vector<std::string>{"angles are degrees: 0.785 is 0.785 deg; for 0.785 rad write 45"});
  // Degrees: a large angle beside the fraction, whole numbers only, an `@` number (an
  // optimizer leaves fractions), zero.
  CHECK(warningsOf("{ [waist 0.5, hips 30] }").empty());
  CHECK(warningsOf("{ [waist 2, hips -3] }").empty());
  CHECK(warningsOf("{ [necks @1.37] }").empty());
  CHECK(warningsOf("{ [knees 0, hips 0] }").empty());
}

TEST_CASE("hints: a contact that may never come before the 60 s limit", "[hints]") {
  const std::string source =
      "scene pose: supine\n{ (a) }\nwhen contact all feet\n{ (b) }\nafter 1\n{ (c) }\n";
  const std::vector<scl::Diagnostic> diagnostics = diagnosticsOf(source);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].severity == scl::Severity::Warning);
  CHECK(diagnostics[0].message ==
        "if this contact never comes, the phase waits until the run's 60 s limit (the scene "
        "header gives no 'duration:'); add a fallback: 'when contact all feet or after T', T the "
        "longest wait in seconds");
  CHECK(diagnostics[0].location.line == 3);
  CHECK(diagnostics[0].location.column == 1);
  // A counted `finally` cycle ends, and then the run holds the last phase: still warned.
  CHECK(warningsOf("scene pose: supine\n{ (a) } after 1 { (b) }\n"
                   "finally when contact lost any hands backto a 2 times")
            .size() == 1);
  // No warning: a scene duration, a fallback, `and when ... after` (no `or after` possible),
  // an endless cycle (10 s by default), a script without a scene header (a listing whose
  // scene and length the command line gives).
  CHECK(
      warningsOf("scene pose: supine duration: 5\n{ (a) } when contact all feet { (b) }").empty());
  CHECK(warningsOf("scene pose: supine\n{ (a) } when contact all feet or after 2 { (b) }").empty());
  CHECK(
      warningsOf("scene pose: supine\n{ (a) } and when contact all feet after 1 { (b) }").empty());
  CHECK(warningsOf("scene pose: supine\n{ (a) } after 1 { (b) } finally when contact hands "
                   "backto a")
            .empty());
  CHECK(warningsOf("{ (a) } when contact all feet { (b) }").empty());
}

TEST_CASE("names: other naming conventions get 'did you mean'", "[hints][names]") {
  const scl::CharacterNames names(*scl::humanCharacter());
  auto joint = [&](std::string_view name) {
    return names.joints(name, scl::Groups::Allowed).error;
  };
  for (const char* knee : {"l_knee", "L_Knee", "left_knee", "LeftKnee", "lknee", "knee_l",
                           "LEFT_KNEE", "left-knee", "leftknee"}) {
    INFO(knee);
    CHECK(joint(knee) == "unknown joint '" + std::string(knee) + "'; did you mean 'leftKnee'?");
  }
  for (const char* hip : {"r_hip", "R_HIP", "right_hip", "RightHip", "rhip", "hip_r"}) {
    INFO(hip);
    CHECK(joint(hip) == "unknown joint '" + std::string(hip) + "'; did you mean 'rightHip'?");
  }
  CHECK(joint("neck_top") == "unknown joint 'neck_top'; did you mean 'neckTop'?");
  CHECK(names.links("l_foot", scl::Groups::Allowed).error ==
        "unknown link 'l_foot'; did you mean 'leftFoot'?");
  CHECK(names.pose("Supine").error == "unknown pose 'Supine'; did you mean 'supine'?");
  // Typos as before; nothing close, no suggestion.
  CHECK(joint("leftKne") == "unknown joint 'leftKne'; did you mean 'leftKnee'?");
  CHECK(joint("frobnicate") == "unknown joint 'frobnicate'");
  // In a script, located at the name.
  CHECK(errorsOf("{ [l_knee -90] }") ==
        std::vector<std::string>{"unknown joint 'l_knee'; did you mean 'leftKnee'?"});
}

TEST_CASE("transition text: a bound exit written back as a script writes it", "[hints]") {
  const scl::Program program = compileOk(
      "{ (a) } after 0.6 { (b) } when contact any hands { (c) } when contact lost all feet or "
      "after 0.4 { (d) } and when contact rightFoot after @0.3 { (e) } when contact leftHand, "
      "rightFoot, head { (f) } finally when contact changed leftFoot backto a");
  auto text = [&](size_t phase) {
    REQUIRE(program.phases[phase].exit);
    return scl::transitionText(*program.phases[phase].exit, *program.character);
  };
  CHECK(text(0) == "after 0.6");
  CHECK(text(1) == "when contact any hands");
  CHECK(text(2) == "when contact lost all feet or after 0.4");
  CHECK(text(3) == "and when contact rightFoot after 0.3");
  CHECK(text(4) == "when contact any leftHand, rightFoot, head");
  CHECK(text(5) == "when contact changed leftFoot");
}

// `scl check scripts/*.scl scripts/*/*.scl docs/tutorial/*.scl` shows none of the hints.
TEST_CASE("hints: no shipped script gets one", "[hints]") {
  int checked = 0;
  for (const char* folder :
       {"/scripts", "/scripts/thesis", "/scripts/ports", "/scripts/optimize", "/docs/tutorial"}) {
    for (const auto& entry : fs::directory_iterator(std::string(SCL_SOURCE_DIR) + folder)) {
      if (entry.path().extension() != ".scl") continue;
      const std::string source = readFile(entry.path());
      for (const scl::Diagnostic& diagnostic :
           scl::compile(source, entry.path().string()).diagnostics) {
        INFO(entry.path() << ": " << diagnostic.message);
        CHECK(std::none_of(kHintPhrases.begin(), kHintPhrases.end(), [&](const std::string& p) {
          return diagnostic.message.find(p) != std::string::npos;
        }));
      }
      ++checked;
    }
  }
  CHECK(checked >= 30);
}
