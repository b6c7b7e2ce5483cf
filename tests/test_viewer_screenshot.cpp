// The viewer smoke test's checker (run by tests/viewer_smoke.sh after `scl view ...
// --screenshot`): the image has the requested size, is not blank, and the character's
// links are drawn where the standing pose and the viewer's camera put them.
//
// Hidden from the normal test run ([.]): it needs the screenshot the smoke script makes,
// named by SCL_VIEWER_SCREENSHOT. Built with SFML only when the viewer is.
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include <SFML/Graphics/Image.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "runtime/runner.h"
#include "scl/compile.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/renderer.h"
#include "tools/viewer/slider_panel.h"
#include "tools/viewer/tuning.h"

namespace {

bool isLinkColour(sf::Color colour) {
  using namespace scl::palette;
  return colour == kLinkFar || colour == kLinkMid || colour == kLinkNear || colour == kLinkContact;
}

// Fraction of the pixels in the (2r+1)² square around `centre` that have a link colour.
double linkCoverage(const sf::Image& image, const scl::Vec2& centre, int r) {
  int hits = 0, total = 0;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx) {
      int x = static_cast<int>(centre.x()) + dx, y = static_cast<int>(centre.y()) + dy;
      if (x < 0 || y < 0 || x >= static_cast<int>(image.getSize().x) ||
          y >= static_cast<int>(image.getSize().y))
        continue;
      ++total;
      hits += isLinkColour(image.getPixel(x, y)) ? 1 : 0;
    }
  return total ? static_cast<double>(hits) / total : 0.0;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("viewer palette: link colours differ from everything else drawn", "[viewer]") {
  // The checker below finds the character by these colours.
  using namespace scl::palette;
  for (sf::Color other : {kBackground, kGround, kGroundTick, kTerrain, kObject, kObjectOutline,
                          kOutline, kCom, kFootSpan, kVirtualForce, kStanceForce, kGravityForce,
                          kDrag, kText, sf::Color::White, scl::kSliderKnob})
    CHECK_FALSE(isLinkColour(other));
  CHECK(isLinkColour(kLinkFar));
  CHECK(isLinkColour(kLinkContact));
  // Objects stand apart from the terrain, the ground and the background.
  for (sf::Color other : {kBackground, kGround, kTerrain, kObjectOutline}) CHECK(other != kObject);
}

TEST_CASE("viewer screenshot: size, colours and the standing character in place", "[.screenshot]") {
  const char* screenshot = std::getenv("SCL_VIEWER_SCREENSHOT");
  REQUIRE(screenshot != nullptr);
  sf::Image image;
  REQUIRE(image.loadFromFile(screenshot));
  REQUIRE(image.getSize().x == 800);
  REQUIRE(image.getSize().y == 600);

  // Not blank: the background, ground, links, markers and text give many colours.
  std::set<sf::Uint32> colours;
  for (unsigned y = 0; y < 600; y += 2)
    for (unsigned x = 0; x < 800; x += 2) colours.insert(image.getPixel(x, y).toInteger());
  INFO("distinct colours: " << colours.size());
  CHECK(colours.size() >= 8);

  // Where the pose puts the links: the script's initial state through the viewer's camera
  // (standing still, so half a second later the links have moved by a pixel or two).
  std::string scriptPath = SCL_SOURCE_DIR "/tests/viewer/stand.scl";
  scl::CompileResult compiled = scl::compile(readFile(scriptPath), scriptPath);
  REQUIRE(compiled.ok());
  scl::Runner runner(*compiled.program, scl::simulationDefFor(*compiled.program));
  runner.runUntil(0.5);
  const scl::CharacterState& state = runner.state();
  // The scene is the window less the HUD band, the time bar and the status line.
  const scl::ViewerLayout layout = scl::viewerLayout(800, 600, false);
  scl::Camera camera(scl::CameraDef{}, scl::Vec2(layout.scene.width, layout.scene.height),
                     scl::Vec2(layout.scene.x, layout.scene.y));
  camera.snapToBody(state.com, scl::bodyBox(*compiled.program->character, state));

  for (int link : {scl::kHead, scl::kTrunk, scl::kPelvis, scl::kLeftThigh, scl::kRightThigh,
                   scl::kLeftShank, scl::kRightShank}) {
    scl::Vec2 pixel = camera.worldToScreen(state.links[link].com);
    INFO(scl::humanCharacter()->links[link].name << " expected at pixel (" << pixel.x() << ", "
                                                 << pixel.y() << ")");
    CHECK(linkCoverage(image, pixel, 3) >= 0.6);
  }
  // Nothing of the character a metre to either side, from the ground to above the head.
  for (double side : {-1.0, 1.0}) {
    for (double height = 0.1; height < 2.3; height += 0.1) {
      scl::Vec2 pixel = camera.worldToScreen(scl::Vec2(state.com.x() + side, height));
      INFO("empty point at height " << height << " side " << side);
      CHECK(linkCoverage(image, pixel, 2) == 0.0);
    }
  }
  // The ground below the feet and the sky above the head.
  scl::Vec2 ground = camera.worldToScreen(scl::Vec2(state.com.x() + 0.7, -0.1));
  CHECK(image.getPixel(static_cast<unsigned>(ground.x()), static_cast<unsigned>(ground.y())) ==
        scl::palette::kGround);
  scl::Vec2 sky = camera.worldToScreen(scl::Vec2(state.com.x() + 0.5, 2.3));
  CHECK(image.getPixel(static_cast<unsigned>(sky.x()), static_cast<unsigned>(sky.y())) ==
        scl::palette::kBackground);
}

namespace {

// The state a script reaches at `time` (as the viewer simulates it, without pushes), with
// the `@` parameters `sets` changed.
scl::CharacterState stateAt(const std::string& scriptPath, double time,
                            std::shared_ptr<const scl::Character>& character,
                            const std::vector<std::pair<std::string, double>>& sets = {}) {
  scl::CompileResult compiled = scl::compile(readFile(scriptPath), scriptPath);
  REQUIRE(compiled.ok());
  character = compiled.program->character;
  scl::Program program = *compiled.program;
  std::vector<double> values = program.parameterValues();
  for (const auto& [name, value] : sets)
    for (size_t i = 0; i < program.parameters.size(); ++i)
      if (program.parameters[i].name == name) values[i] = value;
  program.setParameters(values);
  scl::Runner runner(program, scl::simulationDefFor(program));
  runner.runUntil(time);
  return runner.state();
}

// Pixels of `image` inside `rect` with exactly `colour`.
int countColour(const sf::Image& image, const scl::PixelRect& rect, sf::Color colour) {
  int count = 0;
  for (auto y = static_cast<unsigned>(rect.y); y < rect.y + rect.height; ++y)
    for (auto x = static_cast<unsigned>(rect.x); x < rect.x + rect.width; ++x)
      count += image.getPixel(x, y) == colour ? 1 : 0;
  return count;
}

sf::Image loadScreenshot(const char* variable) {
  const char* path = std::getenv(variable);
  REQUIRE(path != nullptr);
  sf::Image image;
  REQUIRE(image.loadFromFile(path));
  REQUIRE(image.getSize().x == 800);
  REQUIRE(image.getSize().y == 600);
  return image;
}

// The links where the viewer's camera puts `state` in the scene of `layout`.
void checkLinksDrawn(const sf::Image& image, const scl::ViewerLayout& layout,
                     const scl::Character& character, const scl::CharacterState& state) {
  scl::Camera camera(scl::CameraDef{}, scl::Vec2(layout.scene.width, layout.scene.height),
                     scl::Vec2(layout.scene.x, layout.scene.y));
  camera.snapToBody(state.com, scl::bodyBox(character, state));
  for (int link : {scl::kHead, scl::kTrunk, scl::kPelvis, scl::kLeftThigh, scl::kRightShank}) {
    const scl::Vec2 pixel = camera.worldToScreen(state.links[link].com);
    INFO(character.links[link].name << " expected at pixel (" << pixel.x() << ", " << pixel.y()
                                    << ")");
    CHECK(layout.scene.contains(pixel.x(), pixel.y()));
    CHECK(linkCoverage(image, pixel, 2) >= 0.6);
  }
}

}  // namespace

TEST_CASE("viewer screenshot: the plot panel beside the scene", "[.plots]") {
  // tests/viewer_smoke.sh: stand.scl, 30 frames, --plot-joints leftKnee, 800x600.
  const sf::Image image = loadScreenshot("SCL_VIEWER_PLOTS_SCREENSHOT");
  const scl::ViewerLayout layout = scl::viewerLayout(800, 600, true);
  // The panel: white, with the angle's blue, the PD target's orange dashes, the feet's
  // orange contact strip; the scene beside it still shows the character in place.
  CHECK(countColour(image, layout.plots, sf::Color::White) > layout.plots.width * 50);
  CHECK(countColour(image, layout.plots, sf::Color(236, 134, 40)) > 200);  // contact strip
  CHECK(countColour(image, layout.plots, sf::Color(40, 90, 200)) > 20);    // angle line
  CHECK(countColour(image, layout.scene, sf::Color::White) < layout.scene.width * 20);
  std::shared_ptr<const scl::Character> character;
  const scl::CharacterState state =
      stateAt(SCL_SOURCE_DIR "/tests/viewer/stand.scl", 0.5, character);
  checkLinksDrawn(image, layout, *character, state);
}

TEST_CASE("viewer screenshot: scrubbed back, the scene shows that moment", "[.scrub]") {
  // tests/viewer_smoke.sh: the kip-up, 120 frames (2 s), then --scrub 0.5, 800x600.
  const sf::Image image = loadScreenshot("SCL_VIEWER_SCRUB_SCREENSHOT");
  const scl::ViewerLayout layout = scl::viewerLayout(800, 600, false);
  std::shared_ptr<const scl::Character> character;
  const scl::CharacterState state = stateAt(SCL_SOURCE_DIR "/scripts/kipup.scl", 0.5, character);
  checkLinksDrawn(image, layout, *character, state);
  // The time bar's knob in the scrubbing colour.
  CHECK(countColour(image, layout.timeBar, sf::Color(20, 110, 220)) > 50);
}

TEST_CASE("viewer screenshot: a slider moved, the scene re-run with its value", "[.sliders]") {
  // tests/viewer_smoke.sh: tests/viewer/tune.scl, --set stand.pd.waist=8, 30 frames.
  const sf::Image image = loadScreenshot("SCL_VIEWER_SLIDERS_SCREENSHOT");
  const scl::ViewerLayout layout = scl::viewerLayout(800, 600, false, 15.0, true);
  // The panel on the left: the waist's knob where 8 lies on its track (-10 to 10), the
  // knees' knob in the middle of its own.
  const scl::SliderPanelLayout panel = scl::sliderPanelLayout(layout.sliders);
  const auto knobAt = [&](int row, double value, double lower, double upper) {
    const scl::PixelRect track = panel.track(row);
    const double x = scl::sliderPixel(track, value, lower, upper);
    return countColour(image, {x - 3.0, track.y + 0.5 * track.height - 3.0, 6.0, 6.0},
                       scl::kSliderKnob);
  };
  CHECK(knobAt(0, 8.0, -10.0, 10.0) >= 30);
  CHECK(knobAt(0, 0.0, -10.0, 10.0) == 0);
  CHECK(knobAt(1, 0.0, -10.0, 10.0) >= 30);
  // The scene beside it: the run with waist 8 from the start, not the written 0.
  std::shared_ptr<const scl::Character> character;
  const std::string script = SCL_SOURCE_DIR "/tests/viewer/tune.scl";
  const scl::CharacterState state = stateAt(script, 0.5, character, {{"stand.pd.waist", 8.0}});
  checkLinksDrawn(image, layout, *character, state);
}

TEST_CASE("viewer screenshot: the world's terrain and objects, a ball drawn round", "[.world]") {
  // tests/viewer_smoke.sh: tests/viewer/world.scl, 30 frames (0.5 s), 800x600.
  const sf::Image image = loadScreenshot("SCL_VIEWER_WORLD_SCREENSHOT");
  const scl::ViewerLayout layout = scl::viewerLayout(800, 600, false);
  const std::string script = SCL_SOURCE_DIR "/tests/viewer/world.scl";
  scl::CompileResult compiled = scl::compile(readFile(script), script);
  REQUIRE(compiled.ok());
  scl::Runner runner(*compiled.program, scl::simulationDefFor(*compiled.program));
  runner.runUntil(0.5);
  const scl::CharacterState& state = runner.state();
  checkLinksDrawn(image, layout, *compiled.program->character, state);
  scl::Camera camera(scl::CameraDef{}, scl::Vec2(layout.scene.width, layout.scene.height),
                     scl::Vec2(layout.scene.x, layout.scene.y));
  camera.snapToBody(state.com, scl::bodyBox(*compiled.program->character, state));
  const double scale = camera.pixelsPerMetre();
  const auto colourAt = [&](const scl::Vec2& world) {
    const scl::Vec2 pixel = camera.worldToScreen(world);
    INFO("world (" << world.x() << ", " << world.y() << ") at pixel (" << pixel.x() << ", "
                   << pixel.y() << ")");
    REQUIRE(layout.scene.contains(pixel.x(), pixel.y()));
    return image.getPixel(static_cast<unsigned>(pixel.x()), static_cast<unsigned>(pixel.y()));
  };
  // The box where it rests, the platform in the terrain's colour.
  const std::vector<scl::WorldBodyState>& parts = runner.simulation().worldBodies();
  REQUIRE(parts.size() == 2);
  const scl::Vec2 box = parts[0].position;
  CHECK(colourAt(box) == scl::palette::kObject);
  CHECK(colourAt(box + scl::Vec2(0.12, 0.17)) == scl::palette::kObject);  // near its corner
  CHECK(colourAt(scl::Vec2(0.85, 0.05)) == scl::palette::kTerrain);
  CHECK(colourAt(scl::Vec2(0.5, 0.05)) == scl::palette::kBackground);  // beside the step
  // The ball, held where it was placed: filled inside its radius, and round: the corners
  // of the square around it are the background.
  const scl::Vec2 ball = parts[1].position;
  CHECK(ball.x() == Approx(0.9));
  const double r = 0.12;
  CHECK(r * scale > 15.0);  // big enough on screen to tell a circle from a square
  for (const scl::Vec2& inside : {scl::Vec2(-0.5 * r, 0.0), scl::Vec2(0.0, 0.8 * r),
                                  scl::Vec2(0.0, -0.8 * r), scl::Vec2(-0.8 * r, 0.0)})
    CHECK(colourAt(ball + inside) == scl::palette::kObject);
  for (const scl::Vec2& corner : {scl::Vec2(0.85 * r, 0.85 * r), scl::Vec2(-0.85 * r, 0.85 * r),
                                  scl::Vec2(0.85 * r, -0.85 * r), scl::Vec2(-0.85 * r, -0.85 * r)})
    CHECK(colourAt(ball + corner) == scl::palette::kBackground);
  // Its spoke, from the centre to the rim at its angle (0: along +x).
  CHECK(colourAt(ball + scl::Vec2(0.6 * r, 0.0)) == scl::palette::kObjectOutline);
}

TEST_CASE("viewer tuning: the written-back script runs to the summary the viewer showed",
          "[.tune]") {
  // tests/viewer_smoke.sh: `scl view tune.scl --set stand.pd.waist=8 --headless-frames 120
  // --write-back` (its stderr in SCL_VIEWER_TUNE_LOG), then `scl run tune.scl --json`
  // (SCL_VIEWER_TUNE_JSON) on the file it wrote, 2 s both.
  const char* logPath = std::getenv("SCL_VIEWER_TUNE_LOG");
  const char* jsonPath = std::getenv("SCL_VIEWER_TUNE_JSON");
  REQUIRE(logPath != nullptr);
  REQUIRE(jsonPath != nullptr);
  const std::string log = readFile(logPath);
  const nlohmann::json run = nlohmann::json::parse(readFile(jsonPath));
  CHECK(run["parameters"]["stand.pd.waist"] == 8.0);
  CHECK(run["duration"] == 2.0);
  // The HUD's figures as the viewer formats them.
  char figures[160];
  std::snprintf(figures, sizeof figures,
                "airborne %.2f s (longest %.2f)   head %.2f m   energy %.3g",
                run["airborne_time"].get<double>(), run["longest_airborne"].get<double>(),
                run["head_height"].get<double>(), run["energy"].get<double>());
  INFO(log);
  CHECK_THAT(log, Catch::Contains("scl view: t = 2 s: "));
  CHECK_THAT(log, Catch::Contains(figures));
  const char* state = !run["fell"].is_null()        ? "FELL at"
                      : run["standing"].get<bool>() ? "STANDING since"
                                                    : "not standing";
  CHECK_THAT(log, Catch::Contains(std::string("s: ") + state));
  CHECK_THAT(log, Catch::Contains("wrote 2 @ values to"));
}

#endif  // SCL_HAVE_VIEWER
