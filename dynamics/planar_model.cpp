#include "dynamics/planar_model.h"

#include <array>
#include <cassert>
#include <cmath>

#include "scl/character_table.h"

namespace scl {

namespace {

// Mass properties of a uniform region, per unit density, in the link's zero-pose frame
// (the axis along +x from the proximal cap centre).
struct AreaMoments {
  double area = 0.0;
  Vec2 firstMoment = Vec2::Zero();  // ∫ p dA
  double polarAtOrigin = 0.0;       // ∫ |p|² dA
  void add(const AreaMoments& other) {
    area += other.area;
    firstMoment += other.firstMoment;
    polarAtOrigin += other.polarAtOrigin;
  }
};

// A simple polygon, counter-clockwise, by the closed-form (shoelace) sums. scl_primitives
// integrates the same shape numerically (linkComOffset, linkInertia); the dynamics layer
// sits below it, and the tests check that the two agree.
template <std::size_t N>
AreaMoments polygonMoments(const std::array<Vec2, N>& vertices) {
  AreaMoments m;
  for (std::size_t i = 0; i < N; ++i) {
    const Vec2& a = vertices[i];
    const Vec2& b = vertices[(i + 1) % N];
    double cross = a.x() * b.y() - b.x() * a.y();
    m.area += cross / 2.0;
    m.firstMoment += cross * (a + b) / 6.0;
    m.polarAtOrigin += cross * (a.squaredNorm() + a.dot(b) + b.squaredNorm()) / 12.0;
  }
  return m;
}

// The half of the disc of radius r centred on (centreX, 0) that lies on the side `outward`
// (+1: x > centreX, -1: x < centreX).
AreaMoments halfDiscMoments(double centreX, double r, double outward) {
  AreaMoments m;
  m.area = kPi * r * r / 2.0;
  double centroidX = centreX + outward * 4.0 * r / (3.0 * kPi);
  m.firstMoment = Vec2(m.area * centroidX, 0.0);
  // Polar moment about the disc's centre is πr⁴/4; move it to the origin along x.
  m.polarAtOrigin = kPi * r * r * r * r / 4.0 + m.area * (centreX * centreX) +
                    2.0 * centreX * (m.area * (centroidX - centreX));
  return m;
}

// A link's shape: a trapezoid between two caps (docs/character.md, The character).
AreaMoments cappedTrapezoidMoments(const LinkDef& link) {
  double r1 = link.proximalThickness / 2.0, r2 = link.distalThickness / 2.0, l = link.length;
  AreaMoments m =
      polygonMoments(std::array<Vec2, 4>{Vec2(0.0, -r1), Vec2(l, -r2), Vec2(l, r2), Vec2(0.0, r1)});
  m.add(halfDiscMoments(0.0, r1, -1.0));
  m.add(halfDiscMoments(l, r2, +1.0));
  return m;
}

}  // namespace

double PlanarModel::totalMass() const {
  double sum = 0.0;
  for (const PlanarBody& body : bodies) sum += body.mass;
  return sum;
}

bool isValid(const PlanarModel& model) {
  if (model.bodies.empty() || !model.gravity.allFinite()) return false;
  for (int b = 0; b < model.bodyCount(); ++b) {
    const PlanarBody& body = model.bodies[b];
    bool parentOk = b == 0 ? body.parent == -1 : body.parent >= 0 && body.parent < b;
    if (!parentOk || !(body.mass > 0.0) || !(body.inertia > 0.0) || !std::isfinite(body.mass) ||
        !std::isfinite(body.inertia) || !body.comOffset.allFinite() ||
        !body.jointAnchor.allFinite())
      return false;
  }
  return true;
}

PlanarModel planarModelFromCharacterTable() {
  PlanarModel model;
  model.bodies.resize(kLinkCount);
  for (int i = 0; i < kLinkCount; ++i) {
    const LinkDef& link = kLinks[i];
    AreaMoments shape = cappedTrapezoidMoments(link);
    double density = link.mass / shape.area;
    double comOffset = shape.firstMoment.x() / shape.area;
    PlanarBody& body = model.bodies[i];
    body.mass = link.mass;
    body.inertia = density * (shape.polarAtOrigin - shape.area * comOffset * comOffset);
    body.comOffset = Vec2(link.axisSign * comOffset, 0.0);
  }
  for (int j = 0; j < kJointCount; ++j) {
    const JointDef& joint = kJoints[j];
    // The coordinate layout relies on the table's order: joint j moves link j + 1.
    assert(joint.childLink == j + 1 && joint.parentLink < joint.childLink);
    PlanarBody& child = model.bodies[joint.childLink];
    child.parent = joint.parentLink;
    child.jointAnchor = Vec2(kLinks[joint.parentLink].axisSign * joint.anchorOnParent, 0.0);
    child.jointLowerLimit = degToRad(joint.minDeg);
    child.jointUpperLimit = degToRad(joint.maxDeg);
  }
  return model;
}

}  // namespace scl
