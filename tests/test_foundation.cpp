// The character model, its Box2D simulation and the initial states (issue: foundation).
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "runtime/placement.h"
#include "runtime/simulation.h"
#include "scl/character.h"

using namespace scl;
using Catch::Matchers::Contains;

namespace {

// Holds every joint at its initial angle with its Table 4.2 gains (the default PD).
std::array<double, kMaxJoints> holdTorques(const Simulation& simulation) {
  std::array<double, kMaxJoints> torques{};
  const CharacterState& state = simulation.state();
  for (int j = 0; j < kBipedJointCount; ++j) {
    torques[j] = scl::humanCharacter()->joints[j].kp *
                     (simulation.initialJointAngles()[j] - state.jointAngles[j]) -
                 scl::humanCharacter()->joints[j].kd * state.jointVelocities[j];
  }
  return torques;
}

void runHeld(Simulation& simulation, double seconds) {
  int steps = static_cast<int>(std::lround(seconds / simulation.timeStep()));
  for (int i = 0; i < steps; ++i) {
    simulation.setJointTorques(holdTorques(simulation));
    simulation.step();
  }
}

// The environment a pose starts in: the chair for a pose that sits.
scl::Environment environmentFor(const PoseDef& pose) {
  return pose.support == PoseSupport::Seat ? scl::Environment::Chair : scl::Environment::Flat;
}

SimulationDef sceneDef(const std::string& pose,
                       scl::Environment environment = scl::Environment::Flat,
                       double chairHeight = scl::kDefaultChairHeight) {
  SimulationDef def;
  def.scene.pose = pose;
  def.scene.bodies = scl::environmentBodies(environment, {.seatHeight = chairHeight});
  return def;
}

}  // namespace

TEST_CASE("the character has the thesis's 16 links, 15 joints and 89.49 kg") {
  CHECK(scl::humanCharacter()->totalMass == Approx(89.49).margin(1e-9));
  CHECK(scl::humanCharacter()->findLink("leftForearm") == kLeftForearm);
  CHECK(scl::humanCharacter()->findJoint("rightAnkle") == kRightAnkle);
  CHECK_FALSE(scl::humanCharacter()->findLink("leftForeArm"));
  CHECK(scl::humanCharacter()->findJointGroup("necks").size() == 2);
  // Mirror pairs are involutions and map left names to right names.
  for (int i = 0; i < kBipedLinkCount; ++i)
    CHECK(scl::humanCharacter()->links[scl::humanCharacter()->links[i].mirror].mirror == i);
  for (int j = 0; j < kBipedJointCount; ++j) {
    CHECK(scl::humanCharacter()->joints[scl::humanCharacter()->joints[j].mirror].mirror == j);
    std::string_view name = scl::humanCharacter()->joints[j].name;
    if (name.starts_with("left"))
      CHECK(scl::humanCharacter()->joints[scl::humanCharacter()->joints[j].mirror].name.starts_with(
          "right"));
  }
  // Every link but the head hangs from exactly the joint whose child it is.
  for (int j = 0; j < kBipedJointCount; ++j)
    CHECK(scl::humanCharacter()->links[scl::humanCharacter()->joints[j].childLink].parentJoint ==
          j);
}

TEST_CASE("link mass properties are those of a capped trapezoid") {
  // A rectangle with two equal half-discs (a stadium) has a known inertia: check the
  // forearm (8.4 cm thick, 32 cm between caps) against the closed form.
  const LinkDef& forearm = scl::humanCharacter()->links[kLeftForearm];
  double r = forearm.proximalThickness / 2.0, L = forearm.length;
  double rectangle = 2 * r * L, disc = kPi * r * r;
  double density = forearm.mass / (rectangle + disc);
  double rectangleI = density * rectangle * (L * L + 4 * r * r) / 12.0;
  double offset = 4 * r / (3 * kPi);  // half-disc centroid from its flat side
  double halfDiscAtCentroid =
      density * (kPi * r * r * r * r / 4.0 - (disc / 2.0) * offset * offset);
  double halfDiscs =
      2 * (halfDiscAtCentroid + density * (disc / 2.0) * std::pow(L / 2 + offset, 2));
  CHECK(scl::humanCharacter()->links[kLeftForearm].inertia ==
        Approx(rectangleI + halfDiscs).epsilon(1e-9));
  CHECK(scl::humanCharacter()->links[kLeftForearm].comOffset == Approx(L / 2.0).epsilon(1e-12));
  // A tapered link has its centre of mass toward its thick end.
  CHECK(scl::humanCharacter()->links[kLeftThigh].comOffset <
        scl::humanCharacter()->links[kLeftThigh].length / 2.0);
}

TEST_CASE("a standing pose reads link world angles 90 degrees and ankles 90 degrees") {
  std::array<double, kMaxJoints> joints{};
  joints[kLeftAnkle] = joints[kRightAnkle] = degToRad(90);
  CharacterState state =
      forwardKinematics(*scl::humanCharacter(), Vec2::Zero(), degToRad(90), joints);
  for (int i = 0; i < kBipedLinkCount; ++i) {
    if (i == kLeftFoot || i == kRightFoot) {
      CHECK(radToDeg(state.links[i].angle) == Approx(180.0));
    } else {
      CHECK(radToDeg(state.links[i].angle) == Approx(90.0));
    }
  }
  // The head points up from the neckTop joint, the trunk hangs below it.
  CHECK(state.jointPositions[kWaist].y() < state.jointPositions[kNeckBottom].y());
  CHECK(state.jointPositions[kLeftShoulder].y() == Approx(state.jointPositions[kNeckBottom].y()));
  // The foot points forward (+x) from the ankle.
  Vec2 toe = state.links[kLeftFoot].origin +
             scl::humanCharacter()->links[kLeftFoot].length *
                 linkAxis(*scl::humanCharacter(), kLeftFoot, state.links[kLeftFoot].angle);
  CHECK(toe.x() > state.jointPositions[kLeftAnkle].x() + 0.2);
}

TEST_CASE("docs/character.md signs: hip > 0 swings the thigh forward, knee < 0 bends back") {
  std::array<double, kMaxJoints> joints{};
  joints[kLeftHip] = degToRad(45);
  joints[kLeftKnee] = degToRad(-45);
  joints[kLeftElbow] = degToRad(90);
  CharacterState state =
      forwardKinematics(*scl::humanCharacter(), Vec2::Zero(), degToRad(90), joints);
  CHECK(state.jointPositions[kLeftKnee].x() > state.jointPositions[kLeftHip].x() + 0.3);
  CHECK(state.jointPositions[kLeftAnkle].x() < state.jointPositions[kLeftKnee].x() + 0.45);
  CHECK(state.jointPositions[kLeftWrist].x() > state.jointPositions[kLeftElbow].x() + 0.3);
}

TEST_CASE("standing reference heights match docs/marks.md within 1 cm") {
  SimulationDef def = sceneDef("standing");
  def.settleTime = 0.0;  // the pose as placed, before it sags under PD
  Simulation simulation(def);
  const CharacterState& state = simulation.state();
  for (int ankle : {kLeftAnkle, kRightAnkle})
    CHECK(state.jointPositions[ankle].y() == Approx(0.04).margin(0.01));
  for (int hip : {kLeftHip, kRightHip})
    CHECK(state.jointPositions[hip].y() == Approx(1.02).margin(0.01));
  CHECK(state.jointPositions[kWaist].y() == Approx(1.27).margin(0.01));
  CHECK(state.jointPositions[kNeckTop].y() == Approx(1.79).margin(0.01));
  double headTop = (state.links[kHead].origin +
                    scl::humanCharacter()->links[kHead].length *
                        linkAxis(*scl::humanCharacter(), kHead, state.links[kHead].angle))
                       .y() +
                   scl::humanCharacter()->links[kHead].distalThickness / 2.0;
  CHECK(headTop == Approx(2.25).margin(0.01));
  // Link lengths: distance between consecutive joints.
  CHECK((state.jointPositions[kLeftKnee] - state.jointPositions[kLeftHip]).norm() ==
        Approx(0.50).margin(1e-4));
  CHECK((state.jointPositions[kLeftAnkle] - state.jointPositions[kLeftKnee]).norm() ==
        Approx(0.48).margin(1e-4));
  CHECK((state.jointPositions[kLeftWrist] - state.jointPositions[kLeftElbow]).norm() ==
        Approx(0.32).margin(1e-4));
  // Quiet stance leans 2° forward at the ankles over flat feet.
  for (int i = 0; i < kBipedLinkCount; ++i) {
    if (i == kLeftFoot || i == kRightFoot) {
      CHECK(radToDeg(state.links[i].angle) ==
            Approx(scl::humanCharacter()->footFlatAngleDeg()).margin(1e-4));
    } else {
      CHECK(radToDeg(state.links[i].angle) == Approx(88.0).margin(1e-4));
    }
  }
  // ... which puts the centre of mass a few centimetres ahead of the heels.
  double comAheadOfHeels = state.com.x() - state.jointPositions[kLeftAnkle].x();
  CHECK(comAheadOfHeels > 0.03);
  CHECK(comAheadOfHeels < 0.08);
}

TEST_CASE("every initial state rests: no link moves more than 2 cm under default PD") {
  struct Case {
    const char* pose;
    scl::Environment environment;
    double seconds;
  };
  // Standing and crouching are unstable equilibria under PD alone: the body is an
  // inverted pendulum whose gravitational stiffness m g h (about 900-1000 N·m/rad standing)
  // matches or exceeds the PD springs of the ankles (2 x 500) in series with the other
  // joints, so they drift however they are placed. They rest for the first quarter
  // second; balance control holds them (scripts/stand.scl for 10 s in test_motions, and
  // gravity compensation in the primitives' tests).
  for (Case c :
       {Case{"standing", scl::Environment::Flat, 0.25}, Case{"supine", scl::Environment::Flat, 1.0},
        Case{"prone", scl::Environment::Flat, 1.0}, Case{"sitting", scl::Environment::Chair, 1.0},
        Case{"crouching", scl::Environment::Flat, 0.25}}) {
    CAPTURE(c.pose);
    Simulation simulation(sceneDef(c.pose, c.environment));
    CharacterState start = simulation.state();
    CHECK(lowestPoint(*scl::humanCharacter(), start) >=
          -0.002);  // no interpenetration beyond Box2D's slop
    bool touching = false;
    for (const LinkState& link : start.links) touching = touching || link.contact;
    CHECK(touching);  // placed on its support, not dropped onto it
    runHeld(simulation, c.seconds);
    double worst = 0.0;
    for (int i = 0; i < kBipedLinkCount; ++i)
      worst = std::max(worst, (simulation.state().links[i].com - start.links[i].com).norm());
    CAPTURE(worst);
    CHECK(worst < 0.02);
  }
}

TEST_CASE("settling moves a placed pose only by its sag onto its support") {
  for (const char* pose : {"standing", "supine", "prone"}) {
    CAPTURE(pose);
    SimulationDef placed = sceneDef(pose);
    placed.settleTime = 0.0;
    Simulation raw(placed);
    Simulation settled(sceneDef(pose));
    double worst = 0.0;
    for (int i = 0; i < kBipedLinkCount; ++i)
      worst = std::max(worst, (settled.state().links[i].com - raw.state().links[i].com).norm());
    CAPTURE(worst);
    CHECK(worst < 0.12);
    for (const LinkState& link : settled.state().links) CHECK(link.comVelocity.norm() == 0.0);
  }
}

TEST_CASE("a settled pose's initial state is the same for every step from the default up") {
  // Settling holds the pose with explicit PD, which chatters at long steps; it always
  // steps at kDefaultTimeStep, so runs at 1 or 2 ms start where those at 0.25 ms do.
  for (const PoseDef& pose : scl::humanCharacter()->poses) {
    if (!pose.settles) continue;
    CAPTURE(pose.name);
    SimulationDef reference = sceneDef(pose.name, environmentFor(pose));
    reference.jointOffsets = scl::perturbationOffsets(2.0, 7);
    Simulation atDefault(reference);
    for (double dt : {0.0005, 0.001, 0.002}) {
      CAPTURE(dt);
      SimulationDef def = reference;
      def.timeStep = dt;
      Simulation longer(def);
      CHECK(longer.stateHash() == atDefault.stateHash());
      CHECK(longer.time() == 0.0);
    }
  }
}

TEST_CASE("a settle cache gives the very state a simulation's own settle gives") {
  // Optimizers share one cache between candidates (SimulationDef::settleCache): each
  // scene settles once, and every simulation of it must start, and go on, bit for bit as
  // one that settled on its own.
  auto cache = std::make_shared<SettleCache>();
  int scenes = 0;
  for (const PoseDef& pose : scl::humanCharacter()->poses) {
    if (!pose.settles) continue;
    CAPTURE(pose.name);
    SimulationDef own = sceneDef(pose.name, environmentFor(pose));
    own.jointOffsets = scl::perturbationOffsets(2.0, 11);
    SimulationDef shared = own;
    shared.settleCache = cache;
    Simulation alone(own), first(shared), second(shared);
    ++scenes;
    CHECK(cache->size() == scenes);  // the second found the first's pose
    CHECK(first.stateHash() == alone.stateHash());
    CHECK(second.stateHash() == alone.stateHash());
    runHeld(alone, 0.5);
    runHeld(second, 0.5);
    CHECK(second.stateHash() == alone.stateHash());

    // Another start is another scene: it settles anew, to its own state.
    SimulationDef other = shared;
    other.jointOffsets = scl::perturbationOffsets(2.0, 12);
    Simulation otherStart(other);
    ++scenes;
    CHECK(cache->size() == scenes);
    CHECK(otherStart.stateHash() != alone.stateHash());
  }
  REQUIRE(scenes >= 2);

  // A different chair is a different scene too; threads asking at once share one settle.
  SimulationDef low = sceneDef("sitting", scl::Environment::Chair, 0.40);
  SimulationDef high = sceneDef("sitting", scl::Environment::Chair, 0.50);
  low.settleCache = high.settleCache = std::make_shared<SettleCache>();
  std::vector<std::uint64_t> hashes(4);
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] { hashes[i] = Simulation(i % 2 ? high : low).stateHash(); });
  for (std::thread& thread : threads) thread.join();
  CHECK(low.settleCache->size() == 2);
  CHECK(hashes[0] == hashes[2]);
  CHECK(hashes[1] == hashes[3]);
  CHECK(hashes[0] != hashes[1]);
  SimulationDef lowAlone = low;
  lowAlone.settleCache = nullptr;
  CHECK(Simulation(lowAlone).stateHash() == hashes[0]);
}

TEST_CASE("the seated pose adapts its legs to the chair height") {
  for (double height : {0.40, 0.45, 0.50}) {
    CAPTURE(height);
    SimulationDef def = sceneDef("sitting", scl::Environment::Chair, height);
    Simulation simulation(def);
    const CharacterState& state = simulation.state();
    CHECK(state.jointPositions[kLeftAnkle].y() == Approx(0.04).margin(0.02));
    CHECK(state.jointPositions[kLeftHip].y() -
              scl::humanCharacter()->links[kLeftThigh].proximalThickness / 2 ==
          Approx(height).margin(0.015));
    REQUIRE(simulation.environmentBoxes().size() == 1);
    CHECK(simulation.environmentBoxes()[0].halfSize.y() * 2 == Approx(height));
  }
}

TEST_CASE("the chair is the box it always was: 0.45 m deep, its place the pose's") {
  // The chair's shapes as the simulation built them before scenes were lists of bodies:
  // a box from the ground to the seat, its front edge at x = 0 under a sitting pose and
  // at x = -0.6 behind one that does not sit (exact doubles: the same arithmetic).
  struct Case {
    const char* pose;
    double height;
    double frontEdge;
  };
  for (const Case& c : {Case{"sitting", 0.45, 0.0}, Case{"sitting", 1.2, 0.0},
                        Case{"standing", 0.45, -0.6}, Case{"crouching", 0.3, -0.6}}) {
    CAPTURE(c.pose, c.height);
    Simulation simulation(sceneDef(c.pose, scl::Environment::Chair, c.height));
    REQUIRE(simulation.environmentBoxes().size() == 1);
    const EnvironmentBox& box = simulation.environmentBoxes()[0];
    CHECK(box.halfSize.x() == 0.45 / 2.0);
    CHECK(box.halfSize.y() == c.height / 2.0);
    CHECK(box.centre.x() == c.frontEdge - 0.45 / 2.0);
    CHECK(box.centre.y() == c.height / 2.0);
  }
  CHECK(Simulation(sceneDef("standing")).environmentBoxes().empty());
}

TEST_CASE("joint limits hold under torques that push past them") {
  Simulation simulation(sceneDef("supine"));
  std::array<double, kMaxJoints> push{};
  for (int j = 0; j < kBipedJointCount; ++j)
    push[j] = scl::humanCharacter()->joints[j].maxTorque;  // drive every joint up
  double worstExcess = 0.0;
  for (int i = 0; i < 4000; ++i) {
    simulation.setJointTorques(push);
    simulation.step();
    for (int j = 0; j < kBipedJointCount; ++j) {
      double angle = radToDeg(simulation.state().jointAngles[j]);
      worstExcess = std::max({worstExcess, angle - scl::humanCharacter()->joints[j].maxDeg,
                              scl::humanCharacter()->joints[j].minDeg - angle});
    }
  }
  CAPTURE(worstExcess);
  CHECK(worstExcess < 3.0);  // Box2D's soft limit allows a little slop under max torque
}

TEST_CASE("torques are clamped to each joint's max torque and applied equal and opposite") {
  Simulation simulation(sceneDef("standing"));
  std::array<double, kMaxJoints> torques{};
  torques.fill(1e6);
  torques[kWaist] = -1e6;
  simulation.setJointTorques(torques);
  simulation.step();
  for (int j = 0; j < kBipedJointCount; ++j)
    CHECK(std::abs(simulation.appliedTorques()[j]) ==
          Approx(scl::humanCharacter()->joints[j].maxTorque));
  CHECK(simulation.appliedTorques()[kWaist] == Approx(-250.0));
  // Internal torques cannot change the angular momentum about the COM while airborne;
  // on the ground contacts do, so just check the sign: a positive elbow torque bends it.
  SimulationDef def = sceneDef("standing");
  Simulation bend(def);
  std::array<double, kMaxJoints> elbow{};
  elbow[kLeftElbow] = 50.0;
  for (int i = 0; i < 400; ++i) {
    bend.setJointTorques(elbow);
    bend.step();
  }
  CHECK(bend.state().jointAngles[kLeftElbow] > degToRad(10));
}

TEST_CASE("contact state is reported per link") {
  Simulation standing(sceneDef("standing"));
  runHeld(standing, 0.1);
  const CharacterState& state = standing.state();
  CHECK(state.links[kLeftFoot].contact);
  CHECK(state.links[kRightFoot].contact);
  CHECK_FALSE(state.links[kHead].contact);
  CHECK_FALSE(state.links[kTrunk].contact);
  CHECK(state.links[kLeftFoot].contactPoint.y() == Approx(0.0).margin(0.01));

  Simulation supine(sceneDef("supine"));
  runHeld(supine, 0.1);
  CHECK(supine.state().links[kTrunk].contact);
  CHECK(supine.state().links[kLeftFoot].contact);  // resting on the heels
  CHECK_FALSE(supine.state().links[kLeftShank].contact);
}

TEST_CASE("the same run twice is bit-identical after 10 s") {
  auto run = [] {
    Simulation simulation(sceneDef("supine"));
    runHeld(simulation, 10.0);
    return simulation.stateHash();
  };
  std::uint64_t first = run();
  CHECK(first == run());
  Simulation other(sceneDef("prone"));
  CHECK(first != other.stateHash());
}

TEST_CASE("solver settings are configurable") {
  SimulationDef def = sceneDef("supine");
  def.timeStep = 0.0005;
  def.velocityIterations = 4;
  def.positionIterations = 2;
  def.continuousPhysics = false;
  Simulation simulation(def);
  simulation.step();
  CHECK(simulation.time() == Approx(0.0005));
}

TEST_CASE("continuous collision is off by default and changes nothing in a held fall") {
  // docs/stepping.md, Box2D's cost: the links move millimetres per step, so Box2D's time of
  // impact never cuts a step short; without it the same run is bit for bit the same.
  SimulationDef def = sceneDef("supine");
  CHECK_FALSE(def.continuousPhysics);
  def.jointOffsets = scl::perturbationOffsets(20.0, 3);  // links drop onto the ground
  def.settleTime = 0.0;
  Simulation without(def);
  def.continuousPhysics = true;
  Simulation with(def);
  runHeld(without, 1.0);
  runHeld(with, 1.0);
  CHECK(without.stateHash() == with.stateHash());
  const PhysicsStepStats stats = without.physicsStats();
  CHECK(stats.solveToiMs == 0.0);
  CHECK(with.physicsStats().solveToiMs > 0.0);
  CHECK(stats.touchingContacts > 0);
  CHECK(stats.touchingContacts <= stats.contacts);
  CHECK(stats.contactPoints >= stats.touchingContacts);
}

TEST_CASE("bad simulation definitions are one-line errors naming the value and the choices") {
  auto message = [](const SimulationDef& def) {
    try {
      Simulation simulation(def);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  SimulationDef def;
  def.scene.pose = "lying";
  CHECK_THAT(message(def), Contains("unknown pose 'lying'") && Contains("supine"));
  def = {};
  def.scene.bodies = {};
  CHECK(message(def) == "a scene needs the ground (it has none)");
  def = sceneDef("standing", scl::Environment::Chair, -0.3);
  CHECK(message(def) == "chair height must be positive (found -0.3 m)");
  def = sceneDef("sitting");
  CHECK(message(def) == "pose 'sitting' needs a chair: use environment 'chair'");
  def = {};
  def.timeStep = -0.001;
  CHECK_THAT(message(def), Contains("time step -0.001"));
  def = {};
  def.scene.pose = "sitting";
  CHECK_THAT(message(def), Contains("needs a chair"));
  for (const std::string& text : {message(def)}) CHECK(text.find('\n') == std::string::npos);
}
