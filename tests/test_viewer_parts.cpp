// The viewer's parts that need no display: camera, link outlines and picking, the drag
// spring, the session (Runner + push, reload policies) and PNG-frame recording.
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include <unistd.h>

#include <filesystem>

#include "scl/compile.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/link_geometry.h"
#include "tools/viewer/recorder.h"
#include "tools/viewer/renderer.h"
#include "tools/viewer/session.h"

using scl::Vec2;

namespace {

scl::Program compileOrFail(const std::string& source) {
  scl::CompileResult result = scl::compile(source, "test.scl");
  REQUIRE(result.ok());
  return *result.program;
}

}  // namespace

TEST_CASE("viewer camera: world and screen round trip, y up", "[viewer]") {
  scl::Camera camera(scl::CameraDef{}, Vec2(800, 600));
  camera.snapTo(Vec2(0.3, 0.9));  // below the minimum centre height: the ground stays in view
  CHECK(camera.centre().x() == Approx(0.3));
  CHECK(camera.centre().y() == Approx(1.0));
  CHECK(camera.pixelsPerMetre() == Approx(600.0 / 2.8));
  Vec2 centre = camera.worldToScreen(camera.centre());
  CHECK(centre.x() == Approx(400.0));
  CHECK(centre.y() == Approx(300.0));
  Vec2 above = camera.worldToScreen(camera.centre() + Vec2(0.0, 1.0));
  CHECK(above.y() < 300.0);  // up in the world is up on screen
  Vec2 world(1.7, -0.4);
  Vec2 back = camera.screenToWorld(camera.worldToScreen(world));
  CHECK(back.x() == Approx(world.x()));
  CHECK(back.y() == Approx(world.y()));
}

TEST_CASE("viewer camera: zoom keeps the point under the mouse, pan follows the drag", "[viewer]") {
  scl::Camera camera(scl::CameraDef{}, Vec2(800, 600));
  camera.snapTo(Vec2(0.0, 1.0));
  Vec2 mouse(620.0, 150.0);
  Vec2 anchor = camera.screenToWorld(mouse);
  camera.zoomAt(mouse, 2.0);
  CHECK(camera.zoom() == Approx(2.0));
  Vec2 after = camera.screenToWorld(mouse);
  CHECK(after.x() == Approx(anchor.x()));
  CHECK(after.y() == Approx(anchor.y()));

  Vec2 grabbed = camera.screenToWorld(Vec2(400, 300));
  camera.panBy(Vec2(50.0, -20.0));
  Vec2 moved = camera.worldToScreen(grabbed);
  CHECK(moved.x() == Approx(450.0));
  CHECK(moved.y() == Approx(280.0));
  camera.resetView();
  CHECK(camera.zoom() == 1.0);
  CHECK(camera.centre().x() == Approx(0.0));
}

TEST_CASE("viewer camera: follow converges on the character", "[viewer]") {
  scl::Camera camera(scl::CameraDef{}, Vec2(800, 600));
  camera.snapTo(Vec2(0.0, 1.0));
  camera.follow(Vec2(2.0, 1.0), 1.0 / 60.0);
  CHECK(camera.centre().x() > 0.0);
  CHECK(camera.centre().x() < 0.5);  // smoothed, not a jump
  for (int i = 0; i < 600; ++i) camera.follow(Vec2(2.0, 1.0), 1.0 / 60.0);
  CHECK(camera.centre().x() == Approx(2.0).margin(1e-6));
}

TEST_CASE("viewer geometry: capped trapezoids and picking", "[viewer]") {
  scl::CharacterState state =
      scl::forwardKinematics(*scl::humanCharacter(), Vec2(0.0, 1.8), scl::degToRad(90.0), {});
  scl::CappedTrapezoid trunk =
      scl::linkShape(*scl::humanCharacter(), scl::kTrunk, state.links[scl::kTrunk]);
  CHECK((trunk.distal - trunk.proximal).norm() == Approx(0.5));
  CHECK(trunk.proximalRadius == Approx(0.15));
  CHECK(trunk.distalRadius == Approx(0.10));
  CHECK(scl::contains(trunk, state.links[scl::kTrunk].com));
  // Just inside and just outside the trapezoid's side, halfway down the trunk.
  Vec2 middle = 0.5 * (trunk.proximal + trunk.distal);
  CHECK(scl::contains(trunk, middle + Vec2(0.12, 0.0)));
  CHECK_FALSE(scl::contains(trunk, middle + Vec2(0.14, 0.0)));

  auto picked = scl::pickLink(*scl::humanCharacter(), state, state.links[scl::kHead].com, 0.01);
  REQUIRE(picked);
  CHECK(*picked == scl::kHead);
  CHECK_FALSE(scl::pickLink(*scl::humanCharacter(), state, Vec2(3.0, 1.0), 0.05));
  CHECK(
      scl::pickLink(*scl::humanCharacter(), state, middle + Vec2(0.16, 0.0), 0.05));  // near enough

  // A point fixed on a link rides with it.
  scl::LinkPoint point = scl::toLinkPoint(*scl::humanCharacter(), scl::kTrunk,
                                          state.links[scl::kTrunk], middle + Vec2(0.05, 0.0));
  scl::LinkState turned = state.links[scl::kTrunk];
  turned.angle += scl::degToRad(90.0);
  Vec2 world = scl::toWorld(*scl::humanCharacter(), point, turned);
  CHECK((world - turned.origin).norm() ==
        Approx((middle + Vec2(0.05, 0.0) - trunk.proximal).norm()));
}

TEST_CASE("viewer drag spring: 500 N/m, damped, capped", "[viewer]") {
  scl::DragSpringDef def;
  Vec2 force = scl::dragSpringForce(def, Vec2(0, 1), Vec2::Zero(), Vec2(0.2, 1));
  CHECK(force.x() == Approx(100.0));
  CHECK(force.y() == Approx(0.0));
  Vec2 damped = scl::dragSpringForce(def, Vec2(0, 1), Vec2(1.0, 0.0), Vec2(0.2, 1));
  CHECK(damped.x() == Approx(100.0 - def.damping));
  Vec2 capped = scl::dragSpringForce(def, Vec2(0, 1), Vec2::Zero(), Vec2(100, 1));
  CHECK(capped.norm() == Approx(def.maxForce));
}

TEST_CASE("viewer session: a drag pushes the character toward the mouse", "[viewer]") {
  scl::Program program = compileOrFail("{ (stand) }");
  scl::ViewerSession pushed(program);
  scl::ViewerSession still(program);
  const scl::CharacterState& start = pushed.state();
  Vec2 grab = start.links[scl::kTrunk].com;
  pushed.setDrag(scl::DragState{
      scl::toLinkPoint(*scl::humanCharacter(), scl::kTrunk, start.links[scl::kTrunk], grab),
      grab + Vec2(0.5, 0.0)});
  pushed.advanceTo(0.2);
  still.advanceTo(0.2);
  CHECK(pushed.dragForce().x() > 50.0);
  CHECK(pushed.state().com.x() > still.state().com.x() + 0.01);
  REQUIRE(pushed.dragPoint());
  pushed.setDrag(std::nullopt);
  pushed.advance(1);
  CHECK(pushed.dragForce().norm() == 0.0);
}

TEST_CASE("viewer session: restart, load, continue and phase jumps", "[viewer]") {
  scl::Program two = compileOrFail("{ (a) [waist 10] } after 0.1 { (b) [waist 30] }");
  scl::ViewerSession session(two);
  session.advanceTo(0.25);
  CHECK(session.time() == Approx(0.25).margin(1e-3));
  CHECK(session.controller().phaseIndex() == 1);
  CHECK_FALSE(session.appliedForces().size() > 0);  // no virtual forces in this script

  // Continue: physics time goes on, the new program keeps the phase index it can.
  scl::Program three =
      compileOrFail("{ (x) [waist 10] } after 0.1 { (y) [waist 40] } after 1 { (z) }");
  session.continueWith(three);
  session.advance(4);
  CHECK(session.time() > 0.25);
  CHECK(session.controller().phaseIndex() == 1);
  CHECK(session.controller().phaseName() == "y");

  CHECK(session.jumpToPhase(2));
  session.advance(1);
  CHECK(session.controller().phaseName() == "z");
  CHECK_FALSE(session.jumpToPhase(3));

  // Load: a fresh start with the new program.
  session.load(two);
  CHECK(session.time() == 0.0);
  CHECK(session.controller().phaseCount() == 2);
  session.advanceTo(0.05);
  session.restart();
  CHECK(session.time() == 0.0);

  // A program whose scene cannot be built leaves the session as it was.
  scl::Program badScene = two;
  badScene.scene.pose = "no-such-pose";
  CHECK_THROWS_AS(session.load(badScene), std::invalid_argument);
  CHECK(session.controller().phaseCount() == 2);
}

TEST_CASE("viewer session: virtual forces are reported for drawing", "[viewer]") {
  scl::ViewerSession session(compileOrFail("{ [vf (0, 300) on: trunk by: leftAnkle] }"));
  session.advance(2);
  auto forces = session.appliedForces();
  REQUIRE(forces.size() >= 1);
  CHECK(forces[0].force.y() == Approx(300.0));
}

TEST_CASE("viewer session: a feature phase reports its COM target and contact forces", "[viewer]") {
  scl::ViewerSession session(
      compileOrFail("scene pose: standing\n{ [necks 0, waist 0, hips 0, knees -5] [com (0, 1.15)] "
                    "[support feet] }"));
  CHECK_FALSE(session.featureOverlay().comTarget);  // nothing before the first step
  session.advanceTo(0.1);
  const scl::FeatureOverlay overlay = session.featureOverlay();
  REQUIRE(overlay.comTarget);
  CHECK(overlay.comTarget->y() > 1.0);
  REQUIRE_FALSE(overlay.contactForces.empty());
  double weight = 0.0;
  for (const scl::PlannedContactForce& force : overlay.contactForces) weight += force.force.y();
  // The planned forces carry about the body's weight (89.5 kg).
  CHECK(weight == Approx(89.49 * 9.81).epsilon(0.2));

  scl::ViewerSession plain(compileOrFail("{ [waist 10] }"));
  plain.advanceTo(0.1);
  CHECK_FALSE(plain.featureOverlay().comTarget);
  CHECK(plain.featureOverlay().contactForces.empty());
}

TEST_CASE("viewer recorder: PNG frames without ffmpeg", "[viewer]") {
  CHECK(scl::framesDirectoryFor("out.mp4") == "out_frames");
  CHECK(scl::framesDirectoryFor("/tmp/a/b.mkv") == "/tmp/a/b_frames");
  CHECK_FALSE(scl::findOnPath("sh").empty());
  CHECK(scl::findOnPath("no-such-program-scl").empty());

  auto directory =
      std::filesystem::temp_directory_path() / ("scl_recorder_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  std::string output = (directory / "clip.mp4").string();
  {
    scl::VideoRecorder recorder(output, 32, 24, 60, /*useFfmpeg=*/false);
    CHECK(recorder.description().find("clip_frames") != std::string::npos);
    sf::Image frame;
    frame.create(32, 24, sf::Color::Red);
    recorder.addFrame(frame);
    recorder.addFrame(frame);
    CHECK(recorder.frameCount() == 2);
    sf::Image wrongSize;
    wrongSize.create(16, 16, sf::Color::Red);
    CHECK_THROWS(recorder.addFrame(wrongSize));
  }
  sf::Image second;
  CHECK(second.loadFromFile((directory / "clip_frames" / "frame_00002.png").string()));
  CHECK(second.getSize().x == 32);
  std::filesystem::remove_all(directory);
}

TEST_CASE("viewer renderer: a missing font means no text, not a failure", "[viewer]") {
  scl::RendererDef missing;
  missing.font = "/no/such/font.ttf";
  missing.monoFont = "/no/such/mono.ttf";
  scl::SceneRenderer withoutFont(missing);
  CHECK_FALSE(withoutFont.hasFont());
  if (std::filesystem::exists(scl::RendererDef{}.font)) CHECK(scl::SceneRenderer{}.hasFont());
}

#endif  // SCL_HAVE_VIEWER
