// The viewer's parts that need no display: camera, link outlines and picking, the drag
// spring, the session (Runner + push, reload policies) and PNG-frame recording.
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include <unistd.h>

#include <array>
#include <filesystem>
#include <set>

#include "scl/compile.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/link_geometry.h"
#include "tools/viewer/recorder.h"
#include "tools/viewer/renderer.h"
#include "tools/viewer/session.h"
#include "tools/viewer/world_picture.h"

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
      grab + Vec2(0.5, 0.0), std::nullopt});
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

namespace {

// A platform, a box resting on the ground, a ball held up until 5 s, a capsule and a chain
// hanging from a pin, around a standing character.
const char* kWorldScript =
    "scene pose: standing duration: 3\n"
    "platform step at: 0.6 size: (0.5, 0.1)\n"
    "box crate at: (-0.9, 0.2) size: (0.3, 0.4) mass: 5\n"
    "ball b at: (0.9, 1.2) radius: 0.12 mass: 1 launch: 5\n"
    "capsule bar at: (-2, 0.05) length: 0.4 radius: 0.05 mass: 1\n"
    "chain rope at: (2, 2) count: 3 size: (0.2, 0.04) mass: 0.2 angle: -90 fixed: yes\n"
    "{ (stand) }";

// The bounding box of a polygon's corners: (min x, min y, max x, max y).
std::array<double, 4> boundsOf(const std::vector<Vec2>& corners) {
  std::array<double, 4> box = {1e9, 1e9, -1e9, -1e9};
  for (const Vec2& corner : corners) {
    box[0] = std::min(box[0], corner.x());
    box[1] = std::min(box[1], corner.y());
    box[2] = std::max(box[2], corner.x());
    box[3] = std::max(box[3], corner.y());
  }
  return box;
}

}  // namespace

TEST_CASE("viewer world: every outline drawn, a ball as a circle, polygons at their true size",
          "[viewer][world]") {
  scl::ViewerSession session(compileOrFail(kWorldScript));
  const std::vector<scl::WorldOutline> outlines = session.worldOutlines();
  // Bodies: ground 0, step 1, crate 2, b 3, bar 4, rope 5.
  int terrain = 0, circles = 0, polygons = 0, spokes = 0;
  std::set<int> bodies;
  for (const scl::WorldOutline& outline : outlines) {
    const scl::WorldShape& shape = outline.shape;
    bodies.insert(shape.sceneBody);
    CHECK(shape.sceneBody != 0);  // the ground is drawn apart
    CHECK(shape.movable == (shape.sceneBody >= 2));
    terrain += shape.movable ? 0 : 1;
    circles += shape.corners.empty() ? 1 : 0;
    polygons += shape.corners.empty() ? 0 : 1;
    spokes += outline.rim ? 1 : 0;
    if (shape.sceneBody == 1) {  // the platform: its collision outline, the size written
      const auto box = boundsOf(shape.corners);
      CHECK(box[0] == Approx(0.6).margin(1e-4));
      CHECK(box[1] == Approx(0.0).margin(1e-4));
      CHECK(box[2] == Approx(1.1).margin(1e-4));
      CHECK(box[3] == Approx(0.1).margin(1e-4));
      CHECK(outline.slot == -1);
    }
    if (shape.sceneBody == 2) {  // the box, resting on the ground
      REQUIRE(shape.corners.size() == 4);
      const auto box = boundsOf(shape.corners);
      CHECK(box[2] - box[0] == Approx(0.3).margin(1e-3));
      CHECK(box[3] - box[1] == Approx(0.4).margin(1e-3));
      CHECK(box[1] == Approx(0.0).margin(0.01));
    }
    if (shape.sceneBody == 3) {  // the ball: a circle with a spoke, where it is held
      CHECK(shape.corners.empty());
      CHECK(shape.radius == Approx(0.12));
      CHECK(shape.centre.x() == Approx(0.9));
      CHECK(shape.centre.y() == Approx(1.2));
      REQUIRE(outline.rim);
      CHECK((*outline.rim - shape.centre).norm() == Approx(0.12));
    }
  }
  CHECK(bodies == std::set<int>{1, 2, 3, 4, 5});
  CHECK(terrain == 1);
  CHECK(circles == 3);               // the ball and the capsule's caps
  CHECK(polygons == 1 + 1 + 1 + 3);  // platform, box, the capsule's bar, three chain links
  CHECK(spokes == 1);

  // The outlines follow the parts: the chain swings, each link drawn where its part is.
  session.advanceTo(0.5);
  const auto& parts = session.worldBodies();
  for (const scl::WorldOutline& outline : session.worldOutlines()) {
    if (outline.shape.sceneBody != 5) continue;
    REQUIRE(outline.slot >= 0);
    Vec2 centre = Vec2::Zero();
    for (const Vec2& corner : outline.shape.corners) centre += corner / 4.0;
    CHECK((centre - parts[static_cast<size_t>(outline.slot)].position).norm() < 1e-6);
  }
  // A snapshot keeps the parts as they were: the scrubbed scene shows them there.
  const scl::Snapshot* start = session.snapshotAt(0.0);
  REQUIRE(start);
  REQUIRE(start->world.size() == parts.size());
  CHECK(start->world[0].sceneBody == 2);  // the box, unmoved
  CHECK(start->world[0].position.x() == Approx(-0.9).margin(1e-3));
}

TEST_CASE("viewer world: the mouse grabs a movable object and drags it", "[viewer][world]") {
  const scl::Program program = compileOrFail(kWorldScript);
  scl::ViewerSession dragged(program), still(program);
  const auto& parts = dragged.worldBodies();
  // Picking: the box and the ball, not the platform, not the air beside them.
  const scl::WorldPicture& world = dragged.world();
  auto crate = world.pick(parts, Vec2(-0.9, 0.3), 0.02);
  REQUIRE(crate);
  CHECK(crate->sceneBody == 2);
  CHECK(crate->part == 0);
  CHECK(scl::toWorld(*crate, parts).x() == Approx(-0.9).margin(1e-3));
  auto ball = world.pick(parts, Vec2(0.9 + 0.125, 1.2), 0.02);  // just outside: near enough
  REQUIRE(ball);
  CHECK(ball->sceneBody == 3);
  CHECK_FALSE(world.pick(parts, Vec2(0.85, 0.05), 0.02));  // the platform does not move
  CHECK_FALSE(world.pick(parts, Vec2(-0.5, 1.0), 0.02));
  auto link = world.pick(parts, Vec2(2.0, 1.5), 0.02);  // the chain's third link
  REQUIRE(link);
  CHECK(link->sceneBody == 5);
  CHECK(link->part == 2);

  // Dragging the box 0.5 m away from the character: the spring pulls it along the ground.
  const Vec2 grab = scl::toWorld(*crate, parts);
  dragged.setDrag(scl::DragState{{}, grab + Vec2(-0.5, 0.0), crate});
  dragged.advanceTo(0.05);
  CHECK(dragged.dragForce().x() < -100.0);  // 500 N/m over the 0.5 m, less damping
  dragged.advanceTo(0.6);
  still.advanceTo(0.6);
  REQUIRE(dragged.dragPoint());
  CHECK(dragged.dragPoint()->x() < grab.x() - 0.1);
  // The box is the first moving part (the platform stands still).
  REQUIRE(dragged.worldBodies()[0].sceneBody == 2);
  CHECK(dragged.worldBodies()[0].position.x() < still.worldBodies()[0].position.x() - 0.1);
  // The character is not pushed.
  CHECK(dragged.state().com.x() == Approx(still.state().com.x()).margin(0.01));

  // The drag is an input like a link's: scrubbed back to after it and resumed, the run
  // replays it from the start, to the same state.
  dragged.setDrag(std::nullopt);
  dragged.advanceTo(1.0);
  const double movedTo = dragged.worldBodies()[0].position.x();
  const std::uint64_t hash = dragged.run().runner().simulation().stateHash();
  REQUIRE(dragged.resumeFrom(0.8));
  CHECK(dragged.time() < 0.81);
  dragged.advanceTo(1.0);
  CHECK(dragged.worldBodies()[0].position.x() == movedTo);
  CHECK(dragged.run().runner().simulation().stateHash() == hash);
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
