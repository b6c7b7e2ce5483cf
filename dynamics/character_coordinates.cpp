#include "dynamics/character_coordinates.h"

#include <array>
#include <cassert>

#include "dynamics/planar_dynamics.h"

namespace scl {

void coordinatesFromState(const PlanarModel& model, const CharacterState& state,
                          Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd) {
  assert(model.bodyCount() <= kMaxLinks && q.size() == model.dofCount() &&
         qd.size() == model.dofCount());
  const LinkState& root = state.links[0];
  Vec2 comToOrigin = root.origin - root.com;
  Vec2 originVelocity =
      root.comVelocity + root.angularVelocity * Vec2(-comToOrigin.y(), comToOrigin.x());
  q[kRootX] = root.origin.x();
  q[kRootY] = root.origin.y();
  q[kRootAngle] = root.angle;
  qd[kRootX] = originVelocity.x();
  qd[kRootY] = originVelocity.y();
  qd[kRootAngle] = root.angularVelocity;
  for (int b = 1; b < model.bodyCount(); ++b) {
    const LinkState& link = state.links[b];
    const LinkState& parent = state.links[model.bodies[b].parent];
    q[jointCoordinate(b)] = link.angle - parent.angle;
    qd[jointCoordinate(b)] = link.angularVelocity - parent.angularVelocity;
  }
}

CharacterState stateFromCoordinates(const PlanarModel& model,
                                    const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& qd) {
  assert(model.bodyCount() <= kMaxLinks);
  std::array<BodyMotion, kMaxLinks> motions;
  computeBodyMotions(model, q, qd, motions);
  CharacterState state;
  state.linkCount = model.bodyCount();
  state.jointCount = model.bodyCount() - 1;
  Vec2 weightedPosition = Vec2::Zero(), weightedVelocity = Vec2::Zero();
  for (int b = 0; b < model.bodyCount(); ++b) {
    const BodyMotion& motion = motions[b];
    LinkState& link = state.links[b];
    link.origin = motion.origin;
    link.angle = motion.angle;
    link.com = motion.com;
    link.comVelocity = motion.comVelocity;
    link.angularVelocity = motion.angularVelocity;
    weightedPosition += model.bodies[b].mass * motion.com;
    weightedVelocity += model.bodies[b].mass * motion.comVelocity;
  }
  for (int j = 0; j < model.bodyCount() - 1; ++j) {
    int child = j + 1;
    state.jointPositions[j] = motions[child].origin;
    state.jointAngles[j] = q[jointCoordinate(child)];
    state.jointVelocities[j] = qd[jointCoordinate(child)];
  }
  state.com = weightedPosition / model.totalMass();
  state.comVelocity = weightedVelocity / model.totalMass();
  return state;
}

}  // namespace scl
