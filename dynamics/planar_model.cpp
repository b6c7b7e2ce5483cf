#include "dynamics/planar_model.h"

#include <array>
#include <cassert>
#include <cmath>

#include "scl/character.h"

namespace scl {

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

PlanarModel planarModelFromCharacter(const Character& character) {
  PlanarModel model;
  model.bodies.resize(character.links.size());
  for (int i = 0; i < character.linkCount(); ++i) {
    const LinkDef& link = character.links[i];
    PlanarBody& body = model.bodies[i];
    body.mass = link.mass;
    body.inertia = link.inertia;  // the exact capped-trapezoid values (scl/character.h)
    body.comOffset = Vec2(link.axisSign * link.comOffset, 0.0);
  }
  for (int j = 0; j < character.jointCount(); ++j) {
    const JointDef& joint = character.joints[j];
    // The coordinate layout relies on the table's order: joint j moves link j + 1.
    assert(joint.childLink == j + 1 && joint.parentLink < joint.childLink);
    PlanarBody& child = model.bodies[joint.childLink];
    child.parent = joint.parentLink;
    child.jointAnchor =
        Vec2(character.links[joint.parentLink].axisSign * joint.anchorOnParent, 0.0);
    child.jointLowerLimit = degToRad(joint.minDeg);
    child.jointUpperLimit = degToRad(joint.maxDeg);
  }
  return model;
}

}  // namespace scl
