// The viewer as an authoring studio, without a display: the session's plot series and
// history (scrubbing back, replaying deterministically with the user's pushes, jumps and
// controller swaps, resuming), the window layout that keeps text off the scene, the plot
// panel's text kept whole within the panel, and the camera that keeps the whole character
// in view.
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include <unistd.h>

#include <filesystem>

#include "scl/compile.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/plot_panel.h"
#include "tools/viewer/recorder.h"
#include "tools/viewer/session.h"

using scl::Vec2;

namespace {

scl::Program compileOrFail(const std::string& source) {
  scl::CompileResult result = scl::compile(source, "test.scl");
  REQUIRE(result.ok());
  return *result.program;
}

// Every link's pose equal, bit for bit.
bool sameState(const scl::CharacterState& a, const scl::CharacterState& b) {
  if (a.time != b.time) return false;
  for (int link = 0; link < scl::kBipedLinkCount; ++link)
    if (a.links[link].origin != b.links[link].origin ||
        a.links[link].angle != b.links[link].angle ||
        a.links[link].comVelocity != b.links[link].comVelocity)
      return false;
  return true;
}

bool overlap(const scl::PixelRect& a, const scl::PixelRect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// The text a plot layout draws, and where: its horizontal extent by the canvas's measure.
class TextRecorder : public scl::PlotCanvas {
 public:
  struct Text {
    std::string text;
    double left = 0.0, right = 0.0, y = 0.0;
  };
  std::vector<Text> texts;
  void polyline(std::span<const scl::PlotPoint>, scl::PlotColour, double, bool) override {}
  void polygon(std::span<const scl::PlotPoint>, scl::PlotColour, double) override {}
  void rect(double, double, double, double, scl::PlotColour, double) override {}
  void text(double x, double y, std::string_view text, scl::PlotColour, double size,
            scl::TextAnchor anchor) override {
    const double width = textWidth(text, size);
    const double left = anchor == scl::TextAnchor::Start    ? x
                        : anchor == scl::TextAnchor::Middle ? x - 0.5 * width
                                                            : x - width;
    texts.push_back({std::string(text), left, left + width, y});
  }
};

// A run as the plot panel shows it: 8 s, values whose legends are long, and phases with
// long names, two of them 0.4 s apart.
scl::PlotData longLabelledRun() {
  scl::PlotData data;
  for (const scl::JointDef& joint : scl::humanCharacter()->joints)
    data.jointNames.push_back(joint.name);
  for (const scl::LinkDef& link : scl::humanCharacter()->links) data.linkNames.push_back(link.name);
  for (int i = 0; i <= 800; ++i) {
    const double t = 0.01 * i;
    data.time.push_back(t);
    for (size_t j = 0; j < scl::kBipedJointCount; ++j) {
      data.angleDeg[j].push_back(-123.456 + t);
      data.targetDeg[j].push_back(-98.7654 - t);
      data.torque[j].push_back(-1234.56 + t);
    }
    data.comX.push_back(-0.123456);
    data.comHeight.push_back(0.987654);
    data.headHeight.push_back(1.23456);
    data.supportLow.push_back(-0.234567);
    data.supportHigh.push_back(0.034567);
    for (auto& contact : data.contact) contact.push_back(i % 3 == 0);
  }
  data.torqueLimit.fill(300.0);
  data.phases = {{0.0, 0, "settle_into_a_crouch"},
                 {1.0, 1, "push_off_with_both_legs"},
                 {1.4, 2, "push_harder"},
                 {1.45, 3, "flight"},
                 {3.0, 4, "land_and_absorb_the_impact"},
                 {5.0, 5, "stand_up_straight_again"}};
  return data;
}

}  // namespace

TEST_CASE("viewer studio: the session records plot series and phase marks", "[viewer][studio]") {
  scl::ViewerSession session(compileOrFail("{ (a) [waist 10] } after 0.1 { (b) [waist 30] }"));
  session.advanceTo(0.5);
  const scl::PlotData& plots = session.plots();
  REQUIRE(plots.size() > 90);  // 200 per second
  CHECK(plots.time.front() == 0.0);
  CHECK(plots.time.back() == Approx(0.5).margin(0.006));
  REQUIRE(plots.phases.size() == 2);
  CHECK(plots.phases[1].time == Approx(0.1).margin(1e-3));
  CHECK(plots.targetDeg[scl::kWaist].back() == Approx(30.0).margin(1e-6));
  CHECK(plots.headHeight.back() > 1.6);
  CHECK(plots.torqueLimit[scl::kWaist] > 0.0);
  CHECK(std::isfinite(plots.supportLow.back()));  // standing on both feet
  CHECK(plots.supportLow.back() < plots.comX.back());
  CHECK(plots.comX.back() < plots.supportHigh.back());
  // A jump is marked as one.
  REQUIRE(session.jumpToPhase(0));
  session.advance(10);
  REQUIRE(plots.phases.size() == 3);
  CHECK(plots.phases[2].jumped);
  CHECK(plots.phases[2].index == 0);
}

TEST_CASE("viewer studio: scrubbing back and resuming replays the run exactly",
          "[viewer][studio]") {
  const scl::Program program =
      compileOrFail("{ (a) [waist 10] } after 0.2 { (b) [waist 30, hips 20] } after 5 { (c) }");
  scl::ViewerSession session(program);
  // Inputs the replay must repeat: a push, a jump and a controller swap.
  const scl::CharacterState& start = session.state();
  const Vec2 grab = start.links[scl::kTrunk].com;
  session.setDrag(scl::DragState{
      scl::toLinkPoint(*scl::humanCharacter(), scl::kTrunk, start.links[scl::kTrunk], grab),
      grab + Vec2(0.3, 0.0), std::nullopt});
  session.advanceTo(0.1);
  session.setDrag(std::nullopt);
  session.advanceTo(0.3);
  REQUIRE(session.jumpToPhase(2));
  session.advanceTo(0.4);
  session.continueWith(compileOrFail("{ (x) } after 0.1 { (y) } after 1 { (z) [knees -20] }"));
  session.advanceTo(0.6);

  // The snapshots: one per 1/60 s; the one at 0.45 s is the state of that moment.
  const scl::Snapshot* snapshot = session.snapshotAt(0.45);
  REQUIRE(snapshot != nullptr);
  CHECK(snapshot->state.time == Approx(0.45).margin(1.0 / 60.0));
  CHECK(snapshot->state.time <= 0.45 + 1e-9);
  const scl::CharacterState at = snapshot->state;
  const scl::CharacterState end = session.state();
  const size_t samplesAtEnd = session.plots().size();

  // Back to 0.45 s: the replay from the start reaches exactly the recorded state.
  REQUIRE(session.resumeFrom(0.45));
  CHECK(sameState(session.state(), at));
  CHECK(session.plots().time.back() <= at.time + 1e-9);
  CHECK(session.plots().size() < samplesAtEnd);
  // Going on from there without new input repeats the original run to the end.
  session.advanceTo(0.6);
  CHECK(sameState(session.state(), end));
  CHECK(session.controller().phaseName() == "z");

  // Back to before the jump: from there the run is a new branch, the later inputs (the
  // jump, the swap) forgotten; the push before it still replayed.
  REQUIRE(session.resumeFrom(0.05));
  CHECK(session.plots().phases.size() == 1);
  session.advanceTo(0.6);
  CHECK(session.controller().phaseName() == "b");
  CHECK_FALSE(sameState(session.state(), end));
  // A resume past the end stays where the run is.
  const scl::CharacterState now = session.state();
  CHECK(session.resumeFrom(10.0));
  CHECK(sameState(session.state(), now));
}

TEST_CASE("viewer studio: the layout keeps text off the scene", "[viewer][studio]") {
  for (bool plots : {false, true})
    for (const auto& [width, height] :
         {std::pair{640.0, 480.0}, std::pair{800.0, 600.0}, std::pair{1280.0, 720.0}}) {
      const scl::ViewerLayout layout = scl::viewerLayout(width, height, plots);
      INFO(width << "x" << height << (plots ? " with plots" : ""));
      CHECK_FALSE(overlap(layout.scene, layout.hud));
      CHECK_FALSE(overlap(layout.scene, layout.timeBar));
      CHECK_FALSE(overlap(layout.scene, layout.status));
      CHECK_FALSE(overlap(layout.scene, layout.plots));
      CHECK(layout.scene.height > 0.6 * height);
      CHECK(layout.status.y + layout.status.height <= height + 1e-9);
      CHECK((plots ? layout.plots.width > 0.0 : layout.plots.width == 0.0));
    }
}

TEST_CASE("viewer studio: the plot panel's text stays whole within the panel", "[viewer][studio]") {
  const scl::PlotData data = longLabelledRun();
  for (int joints : {1, 2})
    for (const auto& [width, height] : {std::pair{800.0, 600.0}, std::pair{1280.0, 720.0}}) {
      INFO(width << "x" << height << ", " << joints << " joint(s) plotted");
      const scl::ViewerLayout layout = scl::viewerLayout(width, height, true);
      scl::PlotSelection selection;
      selection.joints = joints == 1 ? std::vector<int>{11} : std::vector<int>{11, 4};
      selection.com = selection.heights = selection.contacts = true;
      const scl::PlotPanelView view = scl::plotWindow(selection, 8.0);
      const scl::PlotFrame frame = scl::plotPanelFrame(layout.plots, view);
      TextRecorder canvas;
      scl::drawPlots(canvas, data, selection, frame);
      REQUIRE_FALSE(canvas.texts.empty());
      for (const TextRecorder::Text& text : canvas.texts) {
        INFO("'" << text.text << "' from " << text.left << " to " << text.right);
        CHECK(text.left >= layout.plots.x - 1e-9);
        CHECK(text.right <= layout.plots.x + layout.plots.width + 1e-9);
      }
      // No two labels of the header row (the phases) overlap, and every phase is
      // labelled: by its number, or with the boundaries too close to label apart ("3-4"),
      // then the name of the phase in force, whole or its start and "…".
      std::vector<TextRecorder::Text> phases;
      for (const TextRecorder::Text& text : canvas.texts)
        if (text.y < frame.y + 1.6 * frame.textSize - 0.2 * frame.textSize) phases.push_back(text);
      std::vector<int> numbered;
      for (size_t i = 0; i < phases.size(); ++i) {
        const std::string& text = phases[i].text;
        INFO(text);
        const size_t numbersEnd = std::min(text.find(' '), text.find("…"));
        const std::string numbers = text.substr(0, numbersEnd);
        const size_t dash = numbers.find('-');
        const int from = std::stoi(numbers.substr(0, dash));
        const int to = dash == std::string::npos ? from : std::stoi(numbers.substr(dash + 1));
        for (int n = from; n <= to; ++n) numbered.push_back(n);
        std::string name = text.substr(std::min(numbersEnd, text.size()));
        if (name.ends_with("…")) name.resize(name.size() - 3);
        CHECK((" " + data.phases[static_cast<size_t>(to - 1)].name).starts_with(name));
        if (i > 0) CHECK(phases[i - 1].right <= phases[i].left);
      }
      CHECK(numbered == std::vector<int>{1, 2, 3, 4, 5, 6});
      // Link names are whole, shortened ("rForearm") or cut with "…": never split.
      for (std::string_view link : scl::kBipedLinkNames) {
        const std::string name(link);
        std::string shorter = name;
        if (name.starts_with("left")) shorter = "l" + name.substr(4);
        if (name.starts_with("right")) shorter = "r" + name.substr(5);
        bool found = false;
        for (const TextRecorder::Text& text : canvas.texts)
          found = found || text.text == name || text.text == shorter ||
                  (text.text.ends_with("…") &&
                   shorter.starts_with(text.text.substr(0, text.text.size() - 3)));
        INFO(name);
        CHECK(found);
      }
      // The legends keep their labels whole at these sizes (only the values may go).
      for (const char* label : {"angle", "PD target", "torque", "limit", "COM x", "support",
                                "COM height", "head height"}) {
        bool found = false;
        for (const TextRecorder::Text& text : canvas.texts)
          found = found || text.text.starts_with(label);
        INFO(label);
        CHECK(found);
      }
    }
}

TEST_CASE("viewer studio: fitting text cuts whole characters and marks the cut",
          "[viewer][studio]") {
  TextRecorder canvas;
  const double size = 10.0;
  const double each = canvas.textWidth("x", size);
  CHECK(scl::fitText(canvas, "rightForearm", size, 12 * each) == "rightForearm");
  CHECK(scl::fitText(canvas, "rightForearm", size, 6 * each) == "right…");
  CHECK(scl::fitText(canvas, "2 push", size, 3.5 * each) == "2…");  // no space before the mark
  CHECK(scl::fitText(canvas, "höhe", size, 3 * each) == "hö…");     // "ö" is 2 bytes, 1 glyph
  CHECK(scl::fitText(canvas, "abc", size, 0.5 * each) == "");
}

TEST_CASE("viewer studio: the camera keeps the whole character in view", "[viewer][studio]") {
  // A body 3 m tall in the air, wider than tall views: it zooms out and moves to fit.
  const scl::ViewerLayout layout = scl::viewerLayout(640, 480, false);
  scl::Camera camera(scl::CameraDef{}, Vec2(layout.scene.width, layout.scene.height),
                     Vec2(layout.scene.x, layout.scene.y));
  const scl::WorldBox body{Vec2(-0.5, 0.8), Vec2(0.6, 3.8)};
  camera.snapToBody(Vec2(0.0, 2.2), body);
  for (const Vec2& corner : {body.low, body.high, Vec2(body.low.x(), body.high.y()),
                             Vec2(body.high.x(), body.low.y())}) {
    const Vec2 pixel = camera.worldToScreen(corner);
    CHECK(layout.scene.contains(pixel.x(), pixel.y()));
  }
  CHECK(camera.fitZoom() < 1.0);
  // Back on the ground the zoom returns smoothly.
  const scl::WorldBox standing{Vec2(-0.2, 0.0), Vec2(0.2, 1.9)};
  for (int frame = 0; frame < 240; ++frame) camera.followBody(Vec2(0.0, 1.0), standing, 1.0 / 60);
  CHECK(camera.fitZoom() == Approx(1.0).margin(1e-3));
  const Vec2 head = camera.worldToScreen(standing.high);
  CHECK(layout.scene.contains(head.x(), head.y()));
}

TEST_CASE("viewer studio: recording through ffmpeg's writer thread", "[viewer][studio]") {
  if (scl::findOnPath("ffmpeg").empty()) {
    WARN("ffmpeg is not on PATH: the writer thread is not exercised");
    return;
  }
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("scl_record_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const std::string output = (directory / "out.mp4").string();
  {
    scl::VideoRecorder recorder(output, 64, 48, 60);
    sf::Image frame;
    frame.create(64, 48, sf::Color(200, 100, 50));
    for (int i = 0; i < 30; ++i) recorder.addFrame(frame);  // more than the queue holds
    CHECK(recorder.frameCount() == 30);
    CHECK(recorder.finish());
    CHECK_THROWS_AS(recorder.addFrame(sf::Image{}), std::runtime_error);  // wrong size
  }
  CHECK(std::filesystem::file_size(output) > 0);
  std::filesystem::remove_all(directory);
}

#endif  // SCL_HAVE_VIEWER
