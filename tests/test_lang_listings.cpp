// The thesis listings (scripts/thesis/, the thesis's listings cleaned of PDF-extraction damage)
// parse and bind; print/parse round-trips over every script of the project.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scl/character.h"
#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"

namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> scriptsIn(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".scl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

const fs::path kThesis = SCL_SOURCE_DIR "/scripts/thesis";
const std::string kFragments = "4.3-4.7-fragments.scl";

scl::Program compileFile(const std::string& name) {
  const std::string source = readFile(kThesis / name);
  scl::CompileResult result = scl::compile(source, name);
  INFO(scl::renderDiagnostics(result.diagnostics, source));
  REQUIRE(result.ok());
  return *result.program;
}

}  // namespace

TEST_CASE("every thesis listing but the verbatim fragments compiles") {
  int compiled = 0;
  for (const fs::path& path : scriptsIn(kThesis)) {
    if (path.filename() == kFragments) continue;
    const std::string source = readFile(path);
    scl::CompileResult result = scl::compile(source, path.filename().string());
    INFO(path.filename() << "\n" << scl::renderDiagnostics(result.diagnostics, source));
    CHECK(result.ok());
    ++compiled;
  }
  CHECK(compiled >= 8);
}

TEST_CASE("the verbatim fragments give only placeholder-name errors") {
  const std::string source = readFile(kThesis / kFragments);
  scl::CompileResult result = scl::compile(source, kFragments);
  INFO(scl::renderDiagnostics(result.diagnostics, source));
  CHECK_FALSE(result.ok());
  int nameErrors = 0;
  for (const scl::Diagnostic& d : result.diagnostics) {
    if (d.severity != scl::Severity::Error) continue;
    const bool placeholderName = d.message.rfind("unknown joint 'joint", 0) == 0 ||
                                 d.message.rfind("unknown link 'body_1'", 0) == 0;
    // Besides names: the fragments stand outside any phase, and `scale` stands for a number.
    const bool fragmentForm = d.message.find("primitive outside a phase") != std::string::npos ||
                              d.message.find("near 'scale'") != std::string::npos;
    CHECK((placeholderName || fragmentForm));
    nameErrors += placeholderName;
  }
  CHECK(nameErrors == 7);
}

TEST_CASE("listing contents are bound as the thesis means them") {
  SECTION("walk: mirrored phase and backto") {
    scl::Program walk = compileFile("4.10-walk.scl");
    REQUIRE(walk.phases.size() == 2);
    CHECK(walk.phases[1].name == "left_swing");
    CHECK(walk.phases[1].primitives.size() == walk.phases[0].primitives.size());
    REQUIRE(walk.phases[0].exit);
    CHECK(walk.phases[0].exit->next == 1);
    CHECK(walk.phases[0].exit->hasContact);
    CHECK(walk.phases[0].exit->hasTime);
    CHECK(walk.phases[0].exit->links == std::vector<int>{scl::kRightFoot});
    REQUIRE(walk.phases[1].exit);
    CHECK(walk.phases[1].exit->next == 0);
    CHECK(walk.phases[1].exit->links == std::vector<int>{scl::kLeftFoot});
    const auto& ik = std::get<scl::IkPrimitive>(walk.phases[1].primitives[3]);
    CHECK(ik.effectors == std::vector<int>{scl::kLeftAnkle});
    CHECK(ik.relJoint == scl::kRightAnkle);
  }
  SECTION("kip-up: five phases, symm copies, contact all feet") {
    scl::Program kipup = compileFile("4.8-kipup.scl");
    REQUIRE(kipup.phases.size() == 5);
    CHECK(kipup.phases[1].primitives.size() == 3);
    const auto& copy = std::get<scl::VirtualForcePrimitive>(kipup.phases[1].primitives[2]);
    CHECK(copy.link == scl::kRightFoot);
    CHECK(copy.byJoint == scl::kWaist);
    REQUIRE(kipup.phases[2].exit);
    CHECK(kipup.phases[2].exit->quantifier == scl::ContactQuantifier::All);
    CHECK(kipup.phases[2].exit->links == std::vector<int>{scl::kLeftFoot, scl::kRightFoot});
    CHECK_FALSE(kipup.phases[4].exit);
    CHECK(kipup.parameters.empty());
  }
  SECTION("sit-to-stand with parameters") {
    scl::Program sit = compileFile("6.1-sit-to-stand-param.scl");
    REQUIRE(sit.parameters.size() == 2);
    CHECK(sit.parameters[0].name == "lean.pd.waist");
    CHECK(sit.parameters[0].initial == 30);
    CHECK(sit.parameters[1].name == "lean.pd.shoulders");
    CHECK(sit.parameters[1].location.line == 4);
    CHECK(sit.parameters[1].location.column == 14);  // the `@` of "  [shoulders @20"
  }
}

TEST_CASE("print then parse gives the same tree for every script") {
  std::vector<fs::path> files = scriptsIn(kThesis);
  for (const fs::path& path : scriptsIn(SCL_SOURCE_DIR "/tests/lang")) files.push_back(path);
  int checked = 0;
  for (const fs::path& path : files) {
    const std::string source = readFile(path);
    scl::ParseResult first = scl::parse(source, "a.scl");
    if (scl::hasErrors(first.diagnostics)) continue;  // a tree with holes has no canonical text
    const std::string printed = scl::print(first.script);
    scl::ParseResult second = scl::parse(printed, "b.scl");
    INFO(path.filename() << "\n" << printed << scl::renderDiagnostics(second.diagnostics, printed));
    CHECK_FALSE(scl::hasErrors(second.diagnostics));
    CHECK(scl::syntax::withoutLocations(second.script) ==
          scl::syntax::withoutLocations(first.script));
    CHECK(scl::print(second.script) == printed);  // printing is idempotent
    ++checked;
  }
  CHECK(checked >= 15);
}

TEST_CASE("printing is canonical") {
  const std::string source =
      "scene env: chair pose: sitting\n{(a)[waist  @30,hips 1.50 time:0.30][vf(0,1)on:trunk "
      "by:waist]"
      "[ik(0,1),(2,3)on:leftAnkle rel:leftHip time:1][relax elbows,wrists strength .1]"
      "[gc strength 0.8 by:leftAnkle][symm]}when contact all feet{(b):(a)}finally after 1 backto a";
  scl::ParseResult parsed = scl::parse(source, "x.scl");
  REQUIRE_FALSE(scl::hasErrors(parsed.diagnostics));
  CHECK(scl::print(parsed.script) ==
        "scene pose: sitting env: chair\n"
        "\n"
        "{\n"
        "  (a)\n"
        "  [waist @30, hips 1.5 time: 0.3]\n"
        "  [vf (0, 1) on: trunk, by: waist]\n"
        "  [ik (0, 1), (2, 3) on: leftAnkle rel: leftHip time: 1]\n"
        "  [relax elbows, wrists strength 0.1]\n"
        "  [gc by: leftAnkle strength 0.8]\n"
        "  [symm]\n"
        "}\n"
        "when contact all feet\n"
        "{\n"
        "  (b) : (a)\n"
        "}\n"
        "finally after 1\n"
        "backto a\n");
}

TEST_CASE("formatting keeps every comment, in order, next to its node") {
  const std::string source =
      "// header\n"
      "scene pose: supine duration: 5\n"
      "\n"
      "// the first phase\n"
      "{ // opens\n"
      "  (a)      // its name\n"
      "  [waist 10] [hips 20]   // two on a line\n"
      "  [vf (0, 1)   // a split primitive\n"
      "     on: trunk, by: waist]\n"
      "  [ik (0, 1)\n"
      "     on: leftAnkle]  // its second line\n"
      "\n"
      "  // before the end\n"
      "}\n"
      "after 1 // soon\n"
      "{ [knees 0] }\n"
      "// the end\n";
  scl::ParseResult parsed = scl::parse(source, "c.scl");
  REQUIRE_FALSE(scl::hasErrors(parsed.diagnostics));
  const std::string printed = scl::print(parsed.script, scl::scanComments(source));
  CHECK(printed ==
        "// header\n"
        "scene pose: supine duration: 5\n"
        "\n"
        "// the first phase\n"
        "{      // opens\n"
        "  (a)  // its name\n"
        "  [waist 10]\n"
        "  [hips 20]                         // two on a line\n"
        "  [vf (0, 1) on: trunk, by: waist]  // a split primitive\n"
        "  [ik (0, 1) on: leftAnkle]         // its second line\n"
        "\n"
        "  // before the end\n"
        "}\n"
        "after 1  // soon\n"
        "{\n"
        "  [knees 0]\n"
        "}\n"
        "// the end\n");
}

TEST_CASE("formatting every shipped script keeps its tree and its comments and is idempotent") {
  std::vector<fs::path> files = scriptsIn(kThesis);
  for (const fs::path& path : scriptsIn(SCL_SOURCE_DIR "/scripts")) files.push_back(path);
  for (const fs::path& path : scriptsIn(SCL_SOURCE_DIR "/scripts/ports")) files.push_back(path);
  for (const fs::path& path : scriptsIn(SCL_SOURCE_DIR "/tests/lang")) files.push_back(path);
  int checked = 0;
  for (const fs::path& path : files) {
    const std::string source = readFile(path);
    scl::ParseResult first = scl::parse(source, "a.scl");
    if (scl::hasErrors(first.diagnostics)) continue;
    const std::vector<scl::Comment> comments = scl::scanComments(source);
    const std::string printed = scl::print(first.script, comments);
    INFO(path.filename() << "\n" << printed);
    scl::ParseResult second = scl::parse(printed, "b.scl");
    CHECK_FALSE(scl::hasErrors(second.diagnostics));
    CHECK(scl::syntax::withoutLocations(second.script) ==
          scl::syntax::withoutLocations(first.script));
    const std::vector<scl::Comment> kept = scl::scanComments(printed);
    REQUIRE(kept.size() == comments.size());
    for (size_t i = 0; i < kept.size(); ++i) CHECK(kept[i].text == comments[i].text);
    CHECK(scl::print(second.script, kept) == printed);
    ++checked;
  }
  CHECK(checked >= 20);
}
