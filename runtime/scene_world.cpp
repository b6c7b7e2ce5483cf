#include "runtime/scene_world.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "runtime/state_hash.h"

namespace scl {

namespace {

// Box2D keeps polygons this much fatter than their vertices; shapes are shrunk by it so
// that their collision outlines are the sizes written.
constexpr double kSkin = b2_polygonRadius;
// A table's top slab and legs, metres (at most a quarter of its height and width).
constexpr double kTableTop = 0.05;
constexpr double kTableLeg = 0.05;
// Chains collide with everything but themselves: each its own negative group, below the
// character's (-1).
constexpr int kFirstChainGroup = -2;

b2Vec2 b2(double x, double y) { return b2Vec2(static_cast<float>(x), static_cast<float>(y)); }
Vec2 fromB2(const b2Vec2& v) { return Vec2(v.x, v.y); }
double radians(double degrees) { return degrees * std::numbers::pi / 180.0; }

// A box shape of half extents (hx, hy) about `centre` at `angle`, shrunk by the skin.
b2PolygonShape boxShape(double hx, double hy, const b2Vec2& centre = b2Vec2(0, 0),
                        float angle = 0.0f) {
  b2PolygonShape shape;
  shape.SetAsBox(static_cast<float>(hx - kSkin), static_cast<float>(hy - kSkin), centre, angle);
  return shape;
}

}  // namespace

void SceneWorld::FrictionRule::PreSolve(b2Contact* contact, const b2Manifold*) {
  const float a = contact->GetFixtureA()->GetFriction(), b = contact->GetFixtureB()->GetFriction();
  if (a != b) contact->SetFriction(std::min(a, b));
}

SceneWorld::SceneWorld(b2World& world, const std::vector<SceneBodyDef>& bodies, double seatFront,
                       double characterFriction)
    : world_(world), bodies_(bodies), characterFriction_(characterFriction) {
  b2BodyDef groundDef;
  ground_ = world_.CreateBody(&groundDef);
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const SceneBodyDef& body = bodies_[i];
    const int index = static_cast<int>(i);
    switch (body.kind) {
      case SceneBodyKind::Ground:
        addGround(body, index);
        break;
      case SceneBodyKind::Chair:
        addChair(body, index, seatFront);
        break;
      case SceneBodyKind::Platform:
      case SceneBodyKind::Wall:
        if (body.move)
          addMovingPlatform(body, index);
        else
          addBlock(body, index);
        break;
      case SceneBodyKind::Table:
        addTable(body, index);
        break;
      case SceneBodyKind::Stairs:
        addStairs(body, index);
        break;
      case SceneBodyKind::Slope:
        addSlope(body, index);
        break;
      case SceneBodyKind::Box:
      case SceneBodyKind::Ball:
      case SceneBodyKind::Capsule:
        addObject(body, index);
        break;
      case SceneBodyKind::Chain:
        addChain(body, index);
        break;
    }
  }
  if (needsFrictionRule_) world_.SetContactListener(&frictionRule_);
  refresh();
}

int SceneWorld::sceneBodyOf(const b2Fixture* fixture) {
  // Box2D 2.4's GetUserData() is not const; reading it changes nothing.
  return static_cast<int>(const_cast<b2Fixture*>(fixture)->GetUserData().pointer) - 1;
}

bool SceneWorld::isTerrain(int index) const {
  return index >= 0 && static_cast<size_t>(index) < bodies_.size() &&
         !bodies_[static_cast<size_t>(index)].movable();
}

b2Fixture* SceneWorld::addTerrainFixture(int index, const b2Shape& shape, double friction) {
  b2FixtureDef fixture;
  fixture.shape = &shape;
  fixture.friction = static_cast<float>(friction);
  fixture.userData.pointer = static_cast<uintptr_t>(index) + 1;
  if (friction != characterFriction_) needsFrictionRule_ = true;
  return ground_->CreateFixture(&fixture);
}

void SceneWorld::addGround(const SceneBodyDef& body, int index) {
  // The slab's vertices sit a skin below the ground line: its collision surface is y = 0.
  b2PolygonShape slab;
  slab.SetAsBox(500.0f, 1.0f, b2Vec2(0.0f, -1.0f - static_cast<float>(kSkin)), 0.0f);
  addTerrainFixture(index, slab, body.friction);
}

void SceneWorld::addTerrainBox(int index, double centre, double halfWidth, double bottom,
                               double top) {
  EnvironmentBox box;
  box.halfSize = Vec2(halfWidth, (top - bottom) / 2.0);
  box.centre = Vec2(centre, (top + bottom) / 2.0);
  boxes_.push_back(box);
  addTerrainFixture(
      index, boxShape(box.halfSize.x(), box.halfSize.y(), b2(box.centre.x(), box.centre.y())),
      bodies_[static_cast<size_t>(index)].friction);
}

// A box from the ground up to the seat, its front edge at x = `seatFront` (metres).
void SceneWorld::addChair(const SceneBodyDef& body, int index, double seatFront) {
  addTerrainBox(index, seatFront - body.chair.seatDepth / 2.0, body.chair.seatDepth / 2.0, 0.0,
                body.chair.seatHeight);
}

void SceneWorld::addBlock(const SceneBodyDef& body, int index) {
  addTerrainBox(index, body.x + body.size[0] / 2.0, body.size[0] / 2.0, 0.0, body.size[1]);
}

void SceneWorld::addTable(const SceneBodyDef& body, int index) {
  const double width = body.size[0], height = body.size[1];
  const double top = std::min(kTableTop, height / 4.0), leg = std::min(kTableLeg, width / 4.0);
  addTerrainBox(index, body.x + width / 2.0, width / 2.0, height - top, height);
  addTerrainBox(index, body.x + leg / 2.0, leg / 2.0, 0.0, height - top);
  addTerrainBox(index, body.x + width - leg / 2.0, leg / 2.0, 0.0, height - top);
}

void SceneWorld::addStairs(const SceneBodyDef& body, int index) {
  for (int step = 1; step <= body.count; ++step) {
    const double left = body.x + (step - 1) * body.run;
    const double width = step == body.count ? body.landing : body.run;
    addTerrainBox(index, left + width / 2.0, width / 2.0, 0.0, step * body.rise);
  }
}

void SceneWorld::addSlope(const SceneBodyDef& body, int index) {
  // The surface lowered by the skin (along the vertical: within a millimetre for slopes
  // up to 76°) so that its collision outline is the surface written.
  const double run = body.to[0] - body.from[0], rise = body.to[1] - body.from[1];
  const double lowered = kSkin * std::sqrt(1.0 + (rise / run) * (rise / run));
  b2Vec2 corners[4];
  int count = 0;
  corners[count++] = b2(body.from[0] + kSkin, 0.0);
  corners[count++] = b2(body.to[0] - kSkin, 0.0);
  if (body.to[1] - lowered > kSkin) corners[count++] = b2(body.to[0] - kSkin, body.to[1] - lowered);
  if (body.from[1] - lowered > kSkin)
    corners[count++] = b2(body.from[0] + kSkin, body.from[1] - lowered);
  if (count < 3) return;  // too low to hold a polygon: the ground is its surface
  b2PolygonShape shape;
  shape.Set(corners, count);
  addTerrainFixture(index, shape, body.friction);
}

SceneWorld::Part& SceneWorld::addPart(int index, int part, b2BodyType type, const b2Vec2& position,
                                      float angle) {
  b2BodyDef def;
  def.type = type;
  def.position = position;
  def.angle = angle;
  Part& added = parts_.emplace_back();
  added.sceneBody = index;
  added.part = part;
  added.body = world_.CreateBody(&def);
  return added;
}

void SceneWorld::addMovingPlatform(const SceneBodyDef& body, int index) {
  const double hx = body.size[0] / 2.0, hy = body.size[1] / 2.0;
  Part& part = addPart(index, 0, b2_kinematicBody, b2(body.x + hx, hy), 0.0f);
  b2PolygonShape shape = boxShape(hx, hy);
  b2FixtureDef fixture;
  fixture.shape = &shape;
  fixture.friction = static_cast<float>(body.friction);
  fixture.userData.pointer = static_cast<uintptr_t>(index) + 1;
  if (body.friction != characterFriction_) needsFrictionRule_ = true;
  part.body->CreateFixture(&fixture);
}

void SceneWorld::addObject(const SceneBodyDef& body, int index) {
  const bool held = body.launch.has_value();
  Part& part = addPart(index, 0, held ? b2_kinematicBody : b2_dynamicBody,
                       b2(body.at[0], body.at[1]), static_cast<float>(radians(body.angle)));
  part.launched = !held;
  b2FixtureDef fixture;
  fixture.friction = static_cast<float>(body.friction);
  fixture.restitution = static_cast<float>(body.restitution);
  fixture.userData.pointer = static_cast<uintptr_t>(index) + 1;
  needsFrictionRule_ = true;
  double area = 0.0, inertiaPerMass = 0.0;  // m², m²
  if (body.kind == SceneBodyKind::Ball) {
    b2CircleShape circle;
    circle.m_radius = static_cast<float>(body.radius);
    fixture.shape = &circle;
    part.body->CreateFixture(&fixture);
    area = std::numbers::pi * body.radius * body.radius;
    inertiaPerMass = body.radius * body.radius / 2.0;
  } else if (body.kind == SceneBodyKind::Capsule) {
    const double r = body.radius, half = body.length / 2.0;
    for (double x : {-half, half}) {
      b2CircleShape cap;
      cap.m_p = b2(x, 0.0);
      cap.m_radius = static_cast<float>(r);
      fixture.shape = &cap;
      part.body->CreateFixture(&fixture);
    }
    if (half > kSkin && r > 2.0 * kSkin) {
      b2PolygonShape bar = boxShape(half + kSkin, r);
      fixture.shape = &bar;
      part.body->CreateFixture(&fixture);
    }
    area = std::numbers::pi * r * r + 2.0 * r * body.length;
    // As a box of its outer size.
    inertiaPerMass = ((body.length + 2.0 * r) * (body.length + 2.0 * r) + 4.0 * r * r) / 12.0;
  } else {
    const double w = body.size[0], h = body.size[1];
    b2PolygonShape box = boxShape(w / 2.0, h / 2.0);
    fixture.shape = &box;
    part.body->CreateFixture(&fixture);
    area = w * h;
    inertiaPerMass = (w * w + h * h) / 12.0;
  }
  const double mass = body.mass > 0.0 ? body.mass : body.density * area;
  part.mass.mass = static_cast<float>(mass);
  part.mass.center.SetZero();
  part.mass.I = static_cast<float>(mass * inertiaPerMass);
  if (!held) {
    part.body->SetMassData(&part.mass);
    part.body->SetLinearVelocity(b2(body.velocity[0], body.velocity[1]));
    part.body->SetAngularVelocity(static_cast<float>(body.spin));
  }
}

void SceneWorld::addChain(const SceneBodyDef& body, int index) {
  const double length = body.size[0], thickness = body.size[1];
  const double angle = radians(body.angle);
  const Vec2 direction(std::cos(angle), std::sin(angle));
  const double mass = body.mass > 0.0 ? body.mass : body.density * length * thickness;
  const int group = kFirstChainGroup - index;
  b2Body* previous = nullptr;
  for (int link = 0; link < body.count; ++link) {
    const Vec2 start = Vec2(body.at[0], body.at[1]) + link * length * direction;
    const Vec2 centre = start + 0.5 * length * direction;
    const bool held = body.launch.has_value();
    Part& part = addPart(index, link, held ? b2_kinematicBody : b2_dynamicBody,
                         b2(centre.x(), centre.y()), static_cast<float>(angle));
    part.launched = !held;
    b2PolygonShape shape = boxShape(length / 2.0, thickness / 2.0);
    b2FixtureDef fixture;
    fixture.shape = &shape;
    fixture.friction = static_cast<float>(body.friction);
    fixture.restitution = static_cast<float>(body.restitution);
    fixture.filter.groupIndex = static_cast<int16>(std::max(group, -32000));
    fixture.userData.pointer = static_cast<uintptr_t>(index) + 1;
    part.body->CreateFixture(&fixture);
    needsFrictionRule_ = true;
    part.mass.mass = static_cast<float>(mass);
    part.mass.center.SetZero();
    part.mass.I = static_cast<float>(mass * (length * length + thickness * thickness) / 12.0);
    if (!held) {
      part.body->SetMassData(&part.mass);
      part.body->SetLinearVelocity(b2(body.velocity[0], body.velocity[1]));
    }
    b2Body* anchorBody = link == 0 ? (body.fixed ? ground_ : nullptr) : previous;
    if (anchorBody) {
      b2RevoluteJointDef pin;
      pin.Initialize(anchorBody, part.body, b2(start.x(), start.y()));
      pin.collideConnected = false;
      world_.CreateJoint(&pin);
    }
    previous = part.body;
  }
}

void SceneWorld::beforeStep(double time, double dt) {
  for (Part& part : parts_) {
    const SceneBodyDef& body = bodies_[static_cast<size_t>(part.sceneBody)];
    if (!part.launched && body.launch && time + 0.5 * dt >= *body.launch) {
      part.launched = true;
      part.body->SetType(b2_dynamicBody);
      part.body->SetMassData(&part.mass);
      part.body->SetLinearVelocity(b2(body.velocity[0], body.velocity[1]));
      part.body->SetAngularVelocity(static_cast<float>(body.spin));
    }
    if (body.move) {
      // The velocity that brings it to its path's point at the step's end.
      const std::array<double, 2> offset = moveOffset(*body.move, time + dt);
      const Vec2 target =
          Vec2(body.x + body.size[0] / 2.0, body.size[1] / 2.0) + Vec2(offset[0], offset[1]);
      const Vec2 velocity = (target - fromB2(part.body->GetPosition())) / dt;
      part.body->SetLinearVelocity(b2(velocity.x(), velocity.y()));
    }
  }
}

std::vector<b2Body*> SceneWorld::partBodies(int index) const {
  std::vector<b2Body*> out;
  for (const Part& part : parts_)
    if (part.sceneBody == index) out.push_back(part.body);
  return out;
}

Vec2 SceneWorld::pathAcceleration(int index, double time) const {
  const SceneBodyDef& body = bodies_[static_cast<size_t>(index)];
  if (!body.move) return Vec2::Zero();
  const std::array<double, 2> acceleration = moveAcceleration(*body.move, time);
  return {acceleration[0], acceleration[1]};
}

void SceneWorld::applyForce(int index, int part, const b2Vec2& force, const b2Vec2& point) {
  for (Part& candidate : parts_)
    if (candidate.sceneBody == index && candidate.part == part &&
        candidate.body->GetType() == b2_dynamicBody)
      candidate.body->ApplyForce(force, point, true);
}

void SceneWorld::refresh() {
  states_.resize(parts_.size());
  for (size_t i = 0; i < parts_.size(); ++i) {
    const b2Body* body = parts_[i].body;
    WorldBodyState& state = states_[i];
    state.sceneBody = parts_[i].sceneBody;
    state.part = parts_[i].part;
    state.position = fromB2(body->GetWorldCenter());
    state.velocity = fromB2(body->GetLinearVelocity());
    state.angle = body->GetAngle();
    state.spin = body->GetAngularVelocity();
    state.inFlight = body->GetType() == b2_dynamicBody;  // not held for its launch
    state.touching = 0;
    for (const b2ContactEdge* edge = body->GetContactList(); edge; edge = edge->next) {
      const b2Contact* contact = edge->contact;
      if (!contact->IsTouching()) continue;
      state.inFlight = false;
      const b2Fixture* other = contact->GetFixtureA()->GetBody() == body ? contact->GetFixtureB()
                                                                         : contact->GetFixtureA();
      const int index = sceneBodyOf(other);
      if (index >= 0 && index < static_cast<int>(kMaxSceneBodies) && index != state.sceneBody)
        state.touching |= std::uint64_t{1} << static_cast<unsigned>(index);
    }
  }
}

std::vector<WorldShape> SceneWorld::shapes() const {
  std::vector<WorldShape> shapes;
  auto add = [&](const b2Body* body, bool movable) {
    for (const b2Fixture* fixture = body->GetFixtureList(); fixture; fixture = fixture->GetNext()) {
      const int index = sceneBodyOf(fixture);
      if (index < 0 || bodies_[static_cast<size_t>(index)].kind == SceneBodyKind::Ground) continue;
      WorldShape shape;
      shape.sceneBody = index;
      shape.movable = movable;
      const b2Transform& transform = body->GetTransform();
      if (fixture->GetType() == b2Shape::e_circle) {
        const auto* circle = static_cast<const b2CircleShape*>(fixture->GetShape());
        shape.centre = fromB2(b2Mul(transform, circle->m_p));
        shape.radius = circle->m_radius;
      } else if (fixture->GetType() == b2Shape::e_polygon) {
        const auto* polygon = static_cast<const b2PolygonShape*>(fixture->GetShape());
        for (int i = 0; i < polygon->m_count; ++i)
          shape.corners.push_back(fromB2(b2Mul(transform, polygon->m_vertices[i])));
      }
      shapes.push_back(std::move(shape));
    }
  };
  // The terrain in reverse creation order (Box2D lists a body's fixtures newest first).
  add(ground_, false);
  std::reverse(shapes.begin(), shapes.end());
  for (const Part& part : parts_)
    add(part.body, bodies_[static_cast<size_t>(part.sceneBody)].movable());
  return shapes;
}

void SceneWorld::hash(std::uint64_t& hash) const {
  for (const Part& part : parts_) {
    const b2Body* body = part.body;
    const b2Vec2 position = body->GetPosition(), velocity = body->GetLinearVelocity();
    for (float value : {position.x, position.y, body->GetAngle(), velocity.x, velocity.y,
                        body->GetAngularVelocity()})
      hashBytes(hash, value);
  }
}

}  // namespace scl
