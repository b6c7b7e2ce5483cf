#include "runtime/simulation.h"

#include <box2d/b2_distance.h>
#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <future>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "runtime/placement.h"
#include "runtime/scene_world.h"
#include "runtime/state_hash.h"
#include "scl/character.h"
#include "scl/scene.h"

namespace scl {

namespace {

constexpr double kGravity = 9.81;
// Character fixtures share a negative group index: no self-collision.
constexpr int16 kCharacterGroup = -1;
// Box2D keeps polygons this much fatter than their vertices; we shrink the trapezoid by
// it so the collision outline is the true capped trapezoid.
constexpr double kPolygonSkin = b2_polygonRadius;

std::string joinNames(auto names) {
  std::string joined;
  for (auto name : names) joined += (joined.empty() ? "" : ", ") + std::string(name);
  return joined;
}

b2Vec2 toB2(const Vec2& v) { return b2Vec2(static_cast<float>(v.x()), static_cast<float>(v.y())); }
Vec2 fromB2(const b2Vec2& v) { return Vec2(v.x, v.y); }

// Fixtures of one link in its body frame (origin at the proximal cap centre, axis along
// axisSign * x): the trapezoid between the caps and the two cap circles.
void addLinkFixtures(b2Body* body, const LinkDef& def, double friction) {
  float sign = static_cast<float>(def.axisSign);
  float length = static_cast<float>(def.length);
  float r1 = static_cast<float>(def.proximalThickness / 2.0);
  float r2 = static_cast<float>(def.distalThickness / 2.0);
  float skin = static_cast<float>(kPolygonSkin);

  b2FixtureDef fixture;
  fixture.density = 0.0f;  // mass is set explicitly from the exact shape
  fixture.friction = static_cast<float>(friction);
  fixture.filter.groupIndex = kCharacterGroup;

  for (auto [centre, radius] : {std::pair{0.0f, r1}, std::pair{sign * length, r2}}) {
    b2CircleShape circle;
    circle.m_p.Set(centre, 0.0f);
    circle.m_radius = radius;
    fixture.shape = &circle;
    body->CreateFixture(&fixture);
  }
  // The neck (2 cm long) is covered by its two caps; a sliver polygon would be degenerate.
  if (length > 2.0f * skin && r1 > skin && r2 > skin) {
    b2Vec2 vertices[4] = {{0.0f, r1 - skin},
                          {0.0f, -(r1 - skin)},
                          {sign * length, -(r2 - skin)},
                          {sign * length, r2 - skin}};
    b2PolygonShape trapezoid;
    trapezoid.Set(vertices, 4);
    fixture.shape = &trapezoid;
    body->CreateFixture(&fixture);
  }

  b2MassData mass;
  mass.mass = static_cast<float>(def.mass);
  double comOffset = def.comOffset;
  mass.center.Set(static_cast<float>(def.axisSign * comOffset), 0.0f);
  mass.I = static_cast<float>(def.inertia + def.mass * comOffset * comOffset);
  body->SetMassData(&mass);
}

}  // namespace

std::vector<double> perturbationOffsets(double degrees, std::uint64_t seed) {
  // The 64-bit Mersenne Twister's output is fixed by the standard; the mapping to [0, 1)
  // is written out because std::uniform_real_distribution differs between libraries.
  std::mt19937_64 random(seed);
  std::vector<double> offsets(kMaxJoints);  // a joint's draw is the same for any character
  for (double& offset : offsets) {
    double unit = static_cast<double>(random() >> 11) * 0x1.0p-53;
    offset = degToRad(degrees * (2.0 * unit - 1.0));
  }
  return offsets;
}

void validate(const SimulationDef& def) {
  auto fail = [](const std::string& message) { throw std::invalid_argument(message); };
  if (!(def.timeStep >= kMinTimeStep && def.timeStep <= kMaxTimeStep)) {
    std::ostringstream out;
    out << "time step " << def.timeStep << " s is not usable: give a step from " << kMinTimeStep
        << " to " << kMaxTimeStep << " s (default 0.00025)";
    fail(out.str());
  }
  if (def.velocityIterations < 1 || def.positionIterations < 1)
    fail("solver iterations must be at least 1 (defaults: " +
         std::to_string(kDefaultVelocityIterations) + " velocity, " +
         std::to_string(kDefaultPositionIterations) + " position)");
  if (!def.character) fail("no character: SimulationDef::character is null");
  const PoseDef* pose = def.character->findPose(def.scene.pose);
  if (!pose) {
    std::vector<std::string_view> names;
    for (const PoseDef& p : def.character->poses) names.push_back(p.name);
    fail("unknown pose '" + def.scene.pose + "' of character '" + def.character->name +
         "': choose one of " + joinNames(names));
  }
  const std::vector<SceneBodyIssue> bodyIssues = sceneBodyIssues(def.scene.bodies);
  if (!bodyIssues.empty()) fail(bodyIssues.front().message);
  if (pose->support == PoseSupport::Seat && !def.scene.chair())
    fail("pose '" + def.scene.pose + "' needs a chair: use environment 'chair'");
  if (!(def.settleTime >= 0.0) || !std::isfinite(def.settleTime))
    fail("settle time must be a number >= 0");
  if (!(def.friction >= 0.0) || !std::isfinite(def.friction))
    fail("friction must be a non-negative number");
}

// --- the settle cache ---------------------------------------------------------------

namespace {

double settleStepOf(const SimulationDef& def) { return std::min(def.timeStep, kDefaultTimeStep); }

}  // namespace

struct SettleCache::Entry {
  std::shared_ptr<const Character> character;  // held, so that its address stays unique
  std::string pose;
  std::vector<SceneBodyDef> bodies;
  std::vector<double> jointOffsets;
  double settleTime = 0.0, settleStep = 0.0, friction = 0.0;
  int velocityIterations = 0, positionIterations = 0;
  bool continuousPhysics = false;
  // The settled pose, ready once the first simulation of the scene has settled it.
  std::shared_future<SettledPose> settled;

  static Entry keyOf(const SimulationDef& def) {
    Entry entry;
    entry.character = def.character;
    entry.pose = def.scene.pose;
    entry.bodies = def.scene.bodies;
    entry.jointOffsets = def.jointOffsets;
    entry.settleTime = def.settleTime;
    entry.settleStep = settleStepOf(def);
    entry.friction = def.friction;
    entry.velocityIterations = def.velocityIterations;
    entry.positionIterations = def.positionIterations;
    entry.continuousPhysics = def.continuousPhysics;
    return entry;
  }

  bool sameScene(const Entry& other) const {
    return character == other.character && pose == other.pose && bodies == other.bodies &&
           jointOffsets == other.jointOffsets && settleTime == other.settleTime &&
           settleStep == other.settleStep && friction == other.friction &&
           velocityIterations == other.velocityIterations &&
           positionIterations == other.positionIterations &&
           continuousPhysics == other.continuousPhysics;
  }
};

int SettleCache::size() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(entries_.size());
}

// The cache's lookup, for the simulation only.
struct SettleCacheAccess {
  // Scenes kept at most; a sweep over more drops the oldest.
  static constexpr size_t kCapacity = 256;

  // The scene's pose: settled by the first caller, outside the cache's lock (other scenes
  // settle meanwhile); callers asking for the same scene meanwhile wait for that one.
  template <typename Settle>
  static SettledPose find(SettleCache& cache, const SimulationDef& def, const Settle& settle) {
    SettleCache::Entry key = SettleCache::Entry::keyOf(def);
    std::packaged_task<SettledPose()> task;
    std::shared_future<SettledPose> pose;
    {
      std::lock_guard lock(cache.mutex_);
      for (const auto& entry : cache.entries_)
        if (entry->sameScene(key)) pose = entry->settled;
      if (!pose.valid()) {
        task = std::packaged_task<SettledPose()>(settle);
        key.settled = task.get_future().share();
        pose = key.settled;
        if (cache.entries_.size() >= kCapacity) cache.entries_.erase(cache.entries_.begin());
        cache.entries_.push_back(std::make_shared<const SettleCache::Entry>(std::move(key)));
      }
    }
    if (task.valid()) task();  // a failure reaches every waiter through the future
    return pose.get();
  }
};

struct Simulation::Impl {
  SimulationDef def;
  b2World world{b2Vec2(0.0f, static_cast<float>(-kGravity))};
  std::unique_ptr<SceneWorld> scene;
  std::array<b2Body*, kMaxLinks> bodies{};
  CharacterState state;
  std::array<double, kMaxJoints> initialJointAngles{};
  std::array<double, kMaxJoints> pendingTorques{};
  std::array<double, kMaxJoints> appliedTorques{};
  std::vector<ExternalForce> pendingForces;
  // Grasps wanted, and the welds made for them (docs/manipulation.md).
  struct Weld {
    GraspRequest grasp;
    b2Joint* joint = nullptr;
  };
  std::vector<GraspRequest> grasps;
  std::vector<Weld> welds;
  // Holds whose grip broke: not taken again while the grasp is asked for.
  std::vector<GraspRequest> broken;
  // The movable objects as the controller sees them, by scene index (objects()).
  std::vector<SceneObjectState> objects;
  long long stepCount = 0;

  // What a world is for: the simulation itself, or only to settle a pose in.
  enum class Purpose { Simulate, Settle };

  explicit Impl(const SimulationDef& definition, Purpose purpose = Purpose::Simulate)
      : def(definition) {
    validate(def);
    // Objects resting apart from the character sleep (Box2D stops solving their island until
    // something touches it), so a room full of boxes costs next to nothing; the character's
    // links never sleep (b2BodyDef::allowSleep), nor then anything touching them.
    world.SetAllowSleeping(true);
    world.SetContinuousPhysics(def.continuousPhysics);
    const PoseDef& pose = *character().findPose(def.scene.pose);
    Placement placement = placePose(character(), pose, def.scene.chair(), def.jointOffsets);
    if (pose.support == PoseSupport::Ground)
      raiseOntoTerrain(character(), placement, def.scene.bodies);
    scene =
        std::make_unique<SceneWorld>(world, def.scene.bodies, placement.seatFront, def.friction);
    initialJointAngles = placement.jointAngles;
    buildCharacter(placement);
    refreshState();
    if (purpose == Purpose::Settle) {
      settle();
      return;
    }
    // The settle runs in a world of its own, and this one, freshly built, takes its pose:
    // so a pose from the cache gives the very same world as one settled here.
    if (settles()) {
      auto settleAside = [this] { return Impl(def, Purpose::Settle).settledPose(); };
      place(def.settleCache ? SettleCacheAccess::find(*def.settleCache, def, settleAside)
                            : settleAside());
    }
    updateContacts();
  }

  const Character& character() const { return *def.character; }

  // Box2D finds contacts during a step; a step of zero length finds them without moving
  // anything, so the initial state reports what touches.
  void updateContacts() {
    world.Step(0.0f, def.velocityIterations, def.positionIterations);
    refreshState();
  }

  // Whether the scene's pose settles before t = 0 (and the definition lets it).
  bool settles() const {
    return def.settleTime > 0.0 && character().findPose(def.scene.pose)->settles;
  }

  SettledPose settledPose() const {
    SettledPose pose;
    for (int i = 0; i < character().linkCount(); ++i) {
      const b2Vec2 position = bodies[i]->GetPosition();
      pose.links[i] = {position.x, position.y, bodies[i]->GetAngle()};
    }
    return pose;
  }

  // Every link where `pose` has it, at rest.
  void place(const SettledPose& pose) {
    for (int i = 0; i < character().linkCount(); ++i) {
      const auto& [x, y, angle] = pose.links[i];
      bodies[i]->SetTransform(b2Vec2(x, y), angle);
      bodies[i]->SetLinearVelocity(b2Vec2(0.0f, 0.0f));
      bodies[i]->SetAngularVelocity(0.0f);
    }
    refreshState();
  }

  // Holds the pose with the default PD until it rests, then zeroes the velocities that
  // remain, so that the state at t = 0 is an equilibrium of the first phase's default PD.
  // The PD is explicit, which chatters above the default step, so the settling steps are
  // never longer than kDefaultTimeStep: the state at t = 0 is the same for every run step
  // from kDefaultTimeStep up, and a step-size study compares runs from one initial state.
  void settle() {
    if (!settles()) return;
    // Stop once every link is nearly still (after a short minimum): a pose that needs
    // active balance, such as standing, is not left to drift under PD alone.
    constexpr double kStillSpeed = 0.003;    // m/s
    constexpr double kMinimumSettle = 0.05;  // s
    const double settleStep = settleStepOf(def);
    int steps = static_cast<int>(std::lround(def.settleTime / settleStep));
    int minimumSteps = static_cast<int>(std::lround(kMinimumSettle / settleStep));
    // A pose that PD alone cannot hold (a crouch) never comes to rest: stop at the end of
    // its sag transient (the speed has fallen well below its peak and grows again) rather
    // than let it drift.
    double peak = 0.0, lowestSincePeak = std::numeric_limits<double>::infinity();
    for (int i = 0; i < steps; ++i) {
      double speed = maxLinkSpeed();
      if (speed > peak) {
        peak = speed;
        lowestSincePeak = speed;
      }
      lowestSincePeak = std::min(lowestSincePeak, speed);
      bool transientOver = lowestSincePeak < 0.3 * peak && speed > 1.5 * lowestSincePeak;
      if (i >= minimumSteps && (speed < kStillSpeed || transientOver)) break;
      for (int j = 0; j < character().jointCount(); ++j) {
        const JointDef& joint = character().joints[j];
        pendingTorques[j] = joint.kp * (initialJointAngles[j] - state.jointAngles[j]) -
                            joint.kd * state.jointVelocities[j];
      }
      applyPending();
      world.Step(static_cast<float>(settleStep), def.velocityIterations, def.positionIterations);
      refreshState();
    }
    for (int i = 0; i < character().linkCount(); ++i) {
      b2Body* body = bodies[static_cast<size_t>(i)];
      body->SetLinearVelocity(b2Vec2(0.0f, 0.0f));
      body->SetAngularVelocity(0.0f);
    }
    pendingTorques = {};
    appliedTorques = {};
    refreshState();
  }

  void buildCharacter(const Placement& placement) {
    const Character& character = this->character();
    CharacterState pose = forwardKinematics(character, placement.headOrigin, placement.headAngle,
                                            placement.jointAngles);
    for (int i = 0; i < character.linkCount(); ++i) {
      b2BodyDef bodyDef;
      bodyDef.type = b2_dynamicBody;
      bodyDef.allowSleep = false;
      bodyDef.position = toB2(pose.links[i].origin);
      bodyDef.angle = static_cast<float>(pose.links[i].angle);
      bodies[i] = world.CreateBody(&bodyDef);
      addLinkFixtures(bodies[i], character.links[i], def.friction);
    }
    for (int j = 0; j < character.jointCount(); ++j) {
      const JointDef& joint = character.joints[j];
      b2RevoluteJointDef jointDef;
      jointDef.bodyA = bodies[joint.parentLink];
      jointDef.bodyB = bodies[joint.childLink];
      jointDef.localAnchorA.Set(
          static_cast<float>(character.links[joint.parentLink].axisSign * joint.anchorOnParent),
          0.0f);
      jointDef.localAnchorB.SetZero();
      jointDef.referenceAngle = 0.0f;  // joint angle = child angle - parent angle
      jointDef.enableLimit = true;
      jointDef.lowerAngle = static_cast<float>(degToRad(joint.minDeg));
      jointDef.upperAngle = static_cast<float>(degToRad(joint.maxDeg));
      jointDef.collideConnected = false;
      world.CreateJoint(&jointDef);
    }
  }

  void refreshState() {
    const double time = static_cast<double>(stepCount) * def.timeStep;
    for (int i = 0; i < character().linkCount(); ++i) {
      const b2Body* body = bodies[i];
      LinkState& link = state.links[i];
      link.origin = fromB2(body->GetPosition());
      link.angle = body->GetAngle();
      link.com = fromB2(body->GetWorldCenter());
      link.comVelocity = fromB2(body->GetLinearVelocity());
      link.angularVelocity = body->GetAngularVelocity();
      link.contact = false;
      link.terrainContact = false;
      link.touching = 0;
      link.holding = 0;
      link.heldMass = 0.0;
      link.heldCom = Vec2::Zero();
      link.heldInertia = 0.0;
      link.heldVelocity = Vec2::Zero();
      link.contactPointCount = 0;
      Vec2 contactSum = Vec2::Zero();
      Vec2 velocitySum = Vec2::Zero();
      Vec2 accelerationSum = Vec2::Zero();
      int contactPoints = 0;
      for (const b2ContactEdge* edge = body->GetContactList(); edge; edge = edge->next) {
        const b2Contact* contact = edge->contact;
        if (!contact->IsTouching()) continue;
        const b2Fixture* other = contact->GetFixtureA()->GetBody() == body ? contact->GetFixtureB()
                                                                           : contact->GetFixtureA();
        const int sceneBody = SceneWorld::sceneBodyOf(other);
        if (sceneBody < 0) continue;  // another link
        link.touching |= std::uint64_t{1} << sceneBody;
        link.terrainContact = link.terrainContact || scene->isTerrain(sceneBody);
        b2WorldManifold manifold;
        contact->GetWorldManifold(&manifold);
        // Box2D's normal points from fixture A to fixture B; the link's points from the
        // environment into the link.
        const Vec2 acceleration = scene->pathAcceleration(sceneBody, time);
        Vec2 normal = fromB2(manifold.normal);
        if (contact->GetFixtureA()->GetBody() == body) normal = -normal;
        for (int p = 0; p < contact->GetManifold()->pointCount; ++p) {
          contactSum += fromB2(manifold.points[p]);
          velocitySum +=
              fromB2(other->GetBody()->GetLinearVelocityFromWorldPoint(manifold.points[p]));
          accelerationSum += acceleration;
          ++contactPoints;
          if (link.contactPointCount < kMaxContactPoints) {
            link.contactPoints[link.contactPointCount] = fromB2(manifold.points[p]);
            link.contactNormals[link.contactPointCount] = normal;
            ++link.contactPointCount;
          }
        }
      }
      link.contact = contactPoints > 0;
      link.contactPoint = contactPoints > 0 ? Vec2(contactSum / contactPoints) : Vec2::Zero();
      link.supportVelocity = contactPoints > 0 ? Vec2(velocitySum / contactPoints) : Vec2::Zero();
      link.supportAcceleration =
          contactPoints > 0 ? Vec2(accelerationSum / contactPoints) : Vec2::Zero();
    }
    for (const Weld& weld : welds) {
      LinkState& link = state.links[static_cast<size_t>(weld.grasp.link)];
      link.holding |= std::uint64_t{1} << weld.grasp.sceneBody;
      // The held part joins what the link holds: masses add, inertias move to the common
      // centre (parallel axes). A part held by several links (both hands on one box) is
      // shared among them equally, so the character and its loads count it once.
      const b2Body* part = weld.joint->GetBodyB();
      const auto holders = std::count_if(welds.begin(), welds.end(), [&](const Weld& other) {
        return other.joint->GetBodyB() == part;
      });
      const double share = 1.0 / static_cast<double>(holders);
      const double mass = share * part->GetMass();
      const Vec2 com = fromB2(part->GetWorldCenter());
      const double total = link.heldMass + mass;
      const Vec2 centre = (link.heldMass * link.heldCom + mass * com) / total;
      link.heldInertia += link.heldMass * (link.heldCom - centre).squaredNorm() +
                          share * (part->GetInertia() -
                                   part->GetMass() * fromB2(part->GetLocalCenter()).squaredNorm()) +
                          mass * (com - centre).squaredNorm();
      link.heldVelocity =
          (link.heldMass * link.heldVelocity + mass * fromB2(part->GetLinearVelocity())) / total;
      link.heldMass = total;
      link.heldCom = centre;
    }
    state.time = time;
    completeDerivedState(character(), state);
    scene->refresh();
    refreshObjects();
  }

  // One entry per scene body; a part seen later (a chain's next link) replaces the last.
  void refreshObjects() {
    objects.resize(def.scene.bodies.size());
    for (const WorldBodyState& part : scene->states()) {
      const auto index = static_cast<size_t>(part.sceneBody);
      if (!def.scene.bodies[index].movable()) continue;
      objects[index] = {true, part.position, part.velocity, part.angle, part.spin, part.inFlight};
    }
  }

  double maxLinkSpeed() const {
    double fastest = 0.0;
    for (const LinkState& link : state.links) fastest = std::max(fastest, link.comVelocity.norm());
    return fastest;
  }

  void step() {
    updateWelds();
    applyPending();
    scene->beforeStep(static_cast<double>(stepCount) * def.timeStep, def.timeStep);
    world.Step(static_cast<float>(def.timeStep), def.velocityIterations, def.positionIterations);
    ++stepCount;
    breakOverloadedWelds();
    refreshState();
  }

  // A weld whose joint force exceeds its grasp's grip breaks, and stays broken while the
  // grasp is asked for.
  void breakOverloadedWelds() {
    const auto inverseStep = static_cast<float>(1.0 / def.timeStep);
    std::erase_if(welds, [&](const Weld& weld) {
      const auto asked = std::find_if(grasps.begin(), grasps.end(), [&](const GraspRequest& grasp) {
        return sameHold(grasp, weld.grasp);
      });
      const double grip = asked != grasps.end() ? asked->grip : weld.grasp.grip;
      if (!(weld.joint->GetReactionForce(inverseStep).Length() > grip)) return false;
      broken.push_back(weld.grasp);
      world.DestroyJoint(weld.joint);
      return true;
    });
  }

  // The shortest distance between two Box2D bodies' fixtures, metres, and the point on the
  // first nearest the second.
  static std::pair<double, b2Vec2> gapBetween(const b2Body* a, const b2Body* b) {
    double best = 1e30;
    b2Vec2 point = a->GetPosition();
    for (const b2Fixture* fa = a->GetFixtureList(); fa; fa = fa->GetNext())
      for (const b2Fixture* fb = b->GetFixtureList(); fb; fb = fb->GetNext()) {
        b2DistanceInput input;
        input.proxyA.Set(fa->GetShape(), 0);
        input.proxyB.Set(fb->GetShape(), 0);
        input.transformA = a->GetTransform();
        input.transformB = b->GetTransform();
        input.useRadii = true;
        b2SimplexCache cache;
        cache.count = 0;
        b2DistanceOutput output;
        b2Distance(&output, &cache, &input);
        if (output.distance < best) {
          best = output.distance;
          point = output.pointA;
        }
      }
    return {best, point};
  }

  // Removes the welds no longer wanted; welds each wanted link that holds nothing of its
  // body to the body's nearest part within reach, where both are. A weld is wanted while
  // a grasp asks for the same link and body, whatever its reach: the reach only says how
  // near a link must come to take hold (a reach phase's `reach: 0.06` followed by a lift's
  // default 0.05 holds on). An object held still until its `launch:` is taken at its launch.
  static bool sameHold(const GraspRequest& a, const GraspRequest& b) {
    return a.link == b.link && a.sceneBody == b.sceneBody;
  }
  void updateWelds() {
    std::erase_if(broken, [&](const GraspRequest& hold) {
      return std::none_of(grasps.begin(), grasps.end(),
                          [&](const GraspRequest& grasp) { return sameHold(grasp, hold); });
    });
    std::erase_if(welds, [&](const Weld& weld) {
      if (std::any_of(grasps.begin(), grasps.end(),
                      [&](const GraspRequest& grasp) { return sameHold(grasp, weld.grasp); }))
        return false;
      world.DestroyJoint(weld.joint);
      return true;
    });
    for (const GraspRequest& grasp : grasps) {
      const bool held = std::any_of(welds.begin(), welds.end(),
                                    [&](const Weld& weld) { return sameHold(weld.grasp, grasp); });
      const bool broke = std::any_of(broken.begin(), broken.end(), [&](const GraspRequest& hold) {
        return sameHold(hold, grasp);
      });
      if (held || broke) continue;
      b2Body* hand = bodies[static_cast<size_t>(grasp.link)];
      b2Body* nearest = nullptr;
      double gap = grasp.reach;
      b2Vec2 anchor = hand->GetPosition();
      for (b2Body* part : scene->partBodies(grasp.sceneBody)) {
        // An object held still for its launch cannot be taken before it: welded to it, the
        // link would be anchored in space (and what it holds would weigh nothing).
        if (part->GetType() != b2_dynamicBody) continue;
        const auto [distance, point] = gapBetween(hand, part);
        if (distance <= gap) {
          gap = distance;
          nearest = part;
          anchor = point;
        }
      }
      if (!nearest) continue;
      nearest->SetAwake(true);
      b2WeldJointDef weld;
      weld.Initialize(hand, nearest, anchor);
      welds.push_back({grasp, world.CreateJoint(&weld)});
    }
  }

  void applyPending() {
    for (int j = 0; j < character().jointCount(); ++j) {
      const JointDef& joint = character().joints[j];
      double torque = std::clamp(pendingTorques[j], -joint.maxTorque, joint.maxTorque);
      if (!std::isfinite(torque)) torque = 0.0;
      appliedTorques[j] = torque;
      bodies[joint.childLink]->ApplyTorque(static_cast<float>(torque), true);
      bodies[joint.parentLink]->ApplyTorque(static_cast<float>(-torque), true);
    }
    for (const ExternalForce& force : pendingForces) {
      if (force.sceneBody >= 0)
        scene->applyForce(force.sceneBody, force.link, toB2(force.force), toB2(force.point));
      else
        bodies[force.link]->ApplyForce(toB2(force.force), toB2(force.point), true);
    }
    pendingForces.clear();
  }

  PhysicsStepStats stats() const {
    PhysicsStepStats stats;
    for (const b2Contact* contact = world.GetContactList(); contact; contact = contact->GetNext()) {
      ++stats.contacts;
      if (!contact->IsTouching()) continue;
      ++stats.touchingContacts;
      stats.contactPoints += contact->GetManifold()->pointCount;
    }
    const b2Profile& profile = world.GetProfile();
    stats.stepMs = profile.step;
    stats.collideMs = profile.collide;
    stats.solveMs = profile.solve;
    stats.solveToiMs = profile.solveTOI;
    return stats;
  }

  std::uint64_t hash() const {
    std::uint64_t hash = kStateHashSeed;
    for (int i = 0; i < character().linkCount(); ++i) {
      const b2Body* body = bodies[static_cast<size_t>(i)];
      b2Vec2 position = body->GetPosition(), velocity = body->GetLinearVelocity();
      float angle = body->GetAngle(), spin = body->GetAngularVelocity();
      for (float value : {position.x, position.y, angle, velocity.x, velocity.y, spin})
        hashBytes(hash, value);
    }
    scene->hash(hash);
    return hash;
  }
};

Simulation::Simulation(const SimulationDef& def) : impl_(std::make_unique<Impl>(def)) {}
Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;

const CharacterState& Simulation::state() const { return impl_->state; }
const Character& Simulation::character() const { return impl_->character(); }
const std::array<double, kMaxJoints>& Simulation::initialJointAngles() const {
  return impl_->initialJointAngles;
}
void Simulation::setGrasps(std::span<const GraspRequest> grasps) {
  impl_->grasps.assign(grasps.begin(), grasps.end());
}

void Simulation::setJointTorques(const std::array<double, kMaxJoints>& torques) {
  impl_->pendingTorques = torques;
}
const std::array<double, kMaxJoints>& Simulation::appliedTorques() const {
  return impl_->appliedTorques;
}
void Simulation::addExternalForce(const ExternalForce& force) {
  impl_->pendingForces.push_back(force);
}
void Simulation::step() { impl_->step(); }
double Simulation::time() const { return impl_->state.time; }
double Simulation::timeStep() const { return impl_->def.timeStep; }
const SimulationDef& Simulation::definition() const { return impl_->def; }
const std::vector<EnvironmentBox>& Simulation::environmentBoxes() const {
  return impl_->scene->boxes();
}
const std::vector<SceneObjectState>& Simulation::objects() const { return impl_->objects; }
const std::vector<WorldBodyState>& Simulation::worldBodies() const {
  return impl_->scene->states();
}
std::vector<WorldShape> Simulation::worldShapes() const { return impl_->scene->shapes(); }
std::uint64_t Simulation::stateHash() const { return impl_->hash(); }
PhysicsStepStats Simulation::physicsStats() const { return impl_->stats(); }

}  // namespace scl
