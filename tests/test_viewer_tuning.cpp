// The viewer's live `@` sliders without a display: their ranges (the optimizer's default
// box within the natural limits), setting them by name with "did you mean", the program
// they make, and the write-back into the script file (kept `@`, refused when the file
// changed on disk since it was loaded). `scl view --set` with a misspelt name.
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include "cli_support.h"
#include "scl/compile.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/tuning.h"

namespace {

using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::TempDir;
using scl::testing::writeText;

constexpr const char* kScript =
    "{ (lean) [waist @0, knees @-40 time: @0.5] } after @1.5 { (rest) [relax ankles strength @0.3] "
    "}\n";

scl::Program compileOrFail(const std::string& source) {
  scl::CompileResult result = scl::compile(source, "test.scl");
  REQUIRE(result.ok());
  return *result.program;
}

const scl::ParameterSlider& slider(const scl::ParameterTuner& tuner, const std::string& name) {
  for (const scl::ParameterSlider& slider : tuner.sliders())
    if (slider.name == name) return slider;
  FAIL("no slider " << name);
  return tuner.sliders().front();
}

}  // namespace

TEST_CASE("viewer tuning: a slider per @ number, the written value ± its scale",
          "[viewer][tuning]") {
  const scl::Program program = compileOrFail(kScript);
  const scl::ParameterTuner tuner(kScript, "test.scl", program, {});
  REQUIRE(tuner.sliders().size() == program.parameters.size());
  // Angles: floor 10°; times and strengths: within their natural limits.
  const scl::ParameterSlider& waist = slider(tuner, "lean.pd.waist");
  CHECK(waist.lower == -10.0);
  CHECK(waist.upper == 10.0);
  const scl::ParameterSlider& knees = slider(tuner, "lean.pd.knees");
  CHECK(knees.lower == -80.0);
  CHECK(knees.upper == 0.0);
  CHECK(slider(tuner, "lean.pd.time").lower == 0.0);
  CHECK(slider(tuner, "lean.pd.time").upper == 1.0);
  CHECK(slider(tuner, "rest.relax.strength").lower == 0.0);
  CHECK(slider(tuner, "rest.relax.strength").upper == Approx(0.6));
  CHECK(waist.value == waist.written);
  CHECK_FALSE(tuner.modified());
}

TEST_CASE("viewer tuning: sliders clamp, set by name and make the program", "[viewer][tuning]") {
  const scl::Program program = compileOrFail(kScript);
  scl::ParameterTuner tuner(kScript, "test.scl", program, {});
  CHECK(tuner.setByName("lean.pd.waist", 7.5).empty());
  CHECK(tuner.modified());
  CHECK(tuner.setByName("lean.pd.knees", 30.0).empty());  // clamped to 0
  CHECK(slider(tuner, "lean.pd.knees").value == 0.0);
  const std::string error = tuner.setByName("lean.pd.wiast", 1.0);
  CHECK_THAT(error, Catch::Contains("unknown parameter 'lean.pd.wiast'"));
  CHECK_THAT(error, Catch::Contains("did you mean 'lean.pd.waist'?"));
  CHECK_FALSE(tuner.set(0, tuner.sliders()[0].value));  // unchanged
  const scl::Program tuned = tuner.apply(program);
  CHECK(tuned.parameterValues() == tuner.values());
  CHECK(tuned.phases.size() == program.phases.size());
  CHECK(program.parameterValues()[0] == 0.0);  // the base is a copy
}

TEST_CASE("viewer tuning: write-back keeps the @ and refuses a file changed on disk",
          "[viewer][tuning]") {
  TempDir dir;
  const std::string path = dir / "lean.scl";
  writeText(path, kScript);
  const scl::Program program = compileOrFail(kScript);
  scl::ParameterTuner tuner(kScript, path, program, {});
  REQUIRE(tuner.setByName("lean.pd.waist", 7.5).empty());

  const scl::WriteBackResult written =
      scl::writeBackParameters(path, kScript, program, tuner.values());
  CHECK(written.written);
  CHECK_THAT(written.message, Catch::Contains("wrote"));
  const std::string text = readText(path);
  CHECK(text ==
        "{ (lean) [waist @7.5, knees @-40 time: @0.5] } after @1.5 { (rest) [relax ankles strength "
        "@0.3] }\n");
  const scl::CompileResult again = scl::compile(text, path);
  REQUIRE(again.ok());
  CHECK(again.program->parameterValues() == tuner.values());

  // The file changed since `kScript` was loaded: nothing is written.
  const std::string edited = text + "// an edit in another editor\n";
  writeText(path, edited);
  const scl::WriteBackResult refused =
      scl::writeBackParameters(path, kScript, program, tuner.values());
  CHECK_FALSE(refused.written);
  CHECK_THAT(refused.message, Catch::Contains("changed on disk since it was loaded"));
  CHECK(readText(path) == edited);
  // A file gone is refused too.
  std::filesystem::remove(path);
  CHECK_FALSE(scl::writeBackParameters(path, kScript, program, tuner.values()).written);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("viewer tuning: write-back into a script saved with a byte-order mark keeps it",
          "[viewer][tuning]") {
  // Every reader drops the mark, so the loaded source has none; the file on disk does.
  TempDir dir;
  const std::string path = dir / "lean.scl";
  writeText(path, "\xEF\xBB\xBF" + std::string(kScript));
  const scl::Program program = compileOrFail(kScript);
  scl::ParameterTuner tuner(kScript, path, program, {});
  REQUIRE(tuner.setByName("lean.pd.waist", 7.5).empty());
  const scl::WriteBackResult written =
      scl::writeBackParameters(path, kScript, program, tuner.values());
  CHECK(written.written);
  INFO(written.message);
  CHECK(readText(path) ==
        "\xEF\xBB\xBF{ (lean) [waist @7.5, knees @-40 time: @0.5] } after @1.5 { (rest) [relax "
        "ankles strength @0.3] }\n");
}

TEST_CASE("viewer tuning: the slider panel's geometry", "[viewer][tuning]") {
  const scl::ViewerLayout layout = scl::viewerLayout(800, 600, true, 15.0, true);
  CHECK(layout.sliders.width > 200.0);
  CHECK(layout.sliders.x + layout.sliders.width <= layout.scene.x);
  CHECK(layout.scene.x + layout.scene.width <= layout.plots.x);
  const scl::SliderPanelLayout panel = scl::sliderPanelLayout(layout.sliders);
  CHECK(panel.visibleRows >= 5);
  const scl::PixelRect track = panel.track(1);
  CHECK(track.y > panel.label(1).y);
  CHECK(track.y + track.height <= panel.label(2).y);
  CHECK(scl::sliderValueAt(track, track.x - 50.0, -10.0, 10.0) == -10.0);
  CHECK(scl::sliderValueAt(track, track.x + track.width, -10.0, 10.0) == 10.0);
  CHECK(scl::sliderValueAt(track, scl::sliderPixel(track, 2.5, -10.0, 10.0), -10.0, 10.0) ==
        Approx(2.5));
  // Hidden: no width, the scene from the left edge.
  CHECK(scl::viewerLayout(800, 600, false).sliders.width == 0.0);
  CHECK(scl::viewerLayout(800, 600, false).scene.x == 0.0);
}

TEST_CASE("viewer tuning: scl view --set with a misspelt name says did you mean",
          "[viewer][tuning]") {
  // Checked before any window opens: no display needed.
  const scl::testing::Outcome outcome = runScl("view " SCL_SOURCE_DIR
                                               "/tests/viewer/tune.scl --set stand.pd.wasit=5 "
                                               "--headless-frames 1");
  CHECK(outcome.exitCode == 2);
  CHECK_THAT(outcome.err, Catch::Contains("--set stand.pd.wasit: unknown parameter "
                                          "'stand.pd.wasit'; did you mean 'stand.pd.waist'?"));
  const scl::testing::Outcome malformed = runScl("view " SCL_SOURCE_DIR
                                                 "/tests/viewer/tune.scl --set stand.pd.waist "
                                                 "--headless-frames 1");
  CHECK(malformed.exitCode == 2);
  CHECK_THAT(malformed.err, Catch::Contains("expected NAME=VALUE"));
  const scl::testing::Outcome window =
      runScl("view " SCL_SOURCE_DIR "/tests/viewer/tune.scl --write-back");
  CHECK(window.exitCode == 2);
  CHECK_THAT(window.err, Catch::Contains("--write-back is for --headless-frames"));
}

TEST_CASE("viewer tuning: scl view's optimizer options are checked before any window",
          "[viewer][tuning]") {
  const scl::testing::Outcome phase = runScl(
      "view " SCL_SOURCE_DIR "/tests/viewer/lean.scl --optimize-phase laen --headless-frames 1");
  CHECK(phase.exitCode == 2);
  CHECK_THAT(phase.err, Catch::Contains("--optimize-phase: unknown phase 'laen'; did you mean "
                                        "'lean'?"));
  const scl::testing::Outcome objective =
      runScl("view " SCL_SOURCE_DIR "/tests/viewer/lean.scl --objective no-such.objective");
  CHECK(objective.exitCode == 2);
  CHECK_THAT(objective.err, Catch::Contains("objective 'no-such.objective' does not exist"));
  const scl::testing::Outcome window =
      runScl("view " SCL_SOURCE_DIR "/tests/viewer/lean.scl --optimize-phase lean");
  CHECK(window.exitCode == 2);
  CHECK_THAT(window.err, Catch::Contains("--optimize-phase is for --headless-frames"));
  // An output naming the objective file is refused, and the file left as it was.
  TempDir dir;
  const std::string objectiveFile = dir / "stand.objective";
  writeText(objectiveFile, "duration 1\nterm 1 energy\n");
  const scl::testing::Outcome clobber =
      runScl("view " SCL_SOURCE_DIR "/tests/viewer/lean.scl --objective " +
             scl::testing::shellQuote(objectiveFile) + " --headless-frames 1 --screenshot " +
             scl::testing::shellQuote(objectiveFile));
  CHECK(clobber.exitCode == 2);
  CHECK_THAT(clobber.err, Catch::Contains("objective"));
  CHECK(readText(objectiveFile) == "duration 1\nterm 1 energy\n");
}

#endif  // SCL_HAVE_VIEWER
