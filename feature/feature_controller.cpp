#include "feature/feature_controller.h"

#include <Eigen/LU>
#include <algorithm>
#include <cassert>
#include <cmath>

#include "dynamics/character_coordinates.h"
#include "dynamics/dense_kernels.h"

namespace scl {

namespace {

constexpr int kRootCoordinates = 3;

// A task of the phase, as the QP sees it: which rows, at which level, with what gains.
struct ComTask {
  ComPrimitive definition;
  int level = 0;
  Vec2 start = Vec2::Zero();  // the centre of mass from the frame origin at phase start
};

struct AngularMomentumTask {
  AngularMomentumPrimitive definition;
  int level = 0;
};

struct TrackTask {
  TrackPrimitive definition;
  int level = 0;
  int body = 0;
  Vec2 local = Vec2::Zero();  // the tracked point in the body's frame
  Vec2 start = Vec2::Zero();  // position from the frame origin, or (angle, 0), at phase start
};

// One contact point the QP may push on, after merging a link's points.
struct ContactPoint {
  int link = 0;
  Vec2 point = Vec2::Zero();
  Vec2 local = Vec2::Zero();
  Vec2 normal = Vec2::UnitY();
  Vec2 tangent = Vec2::UnitX();
};

// A force unknown: the normal force at one contact point, or a contact's tangential
// force (one per link touching along a line, at the line's middle: tangential forces
// along one line differ only in where the total is split, which the dynamics cannot tell
// apart), newtons along `direction`.
struct ForceUnknown {
  int link = 0;
  Vec2 local = Vec2::Zero();
  Vec2 direction = Vec2::UnitY();
};

// What one row of the objective asks: row · x ≈ target, with a weight, in a level.
struct RowInfo {
  int level = 0;
  double weight = 0.0;
  /// The row is the unit vector of this joint coordinate (a posture row), or -1. Such a
  /// row adds only to G's diagonal: no rank update.
  int unitColumn = -1;
};

// The level of a row that is an equality of every level (hard contacts).
constexpr int kHardRow = -1;

// Whether level `level` holds the row near its value at its own level's optimum.
bool isHeld(const RowInfo& row, int level) {
  return row.level >= 0 && row.level < level && row.weight > 0.0;
}

Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }

// A world vector in the body's frame: turned back by the body's angle (its cached cos
// and sin, not a sincos per point).
Vec2 toBodyFrame(const BodyMotion& body, const Vec2& v) {
  const double c = body.cosAngle, s = body.sinAngle;
  return Vec2(c * v.x() + s * v.y(), c * v.y() - s * v.x());
}

// Linear interpolation of a target over `duration` from `start`: the target and its rate.
template <typename T>
std::pair<T, T> interpolate(const T& start, const T& target, double duration, double time) {
  if (!(duration > 0.0) || time >= duration) return {target, T(target - target)};
  const double s = time / duration;
  return {T(start + s * (target - start)), T((target - start) / duration)};
}

// Resizes without touching the contents when the size already fits.
void fit(Eigen::MatrixXd& matrix, int rows, int cols) {
  if (matrix.rows() != rows || matrix.cols() != cols) matrix.resize(rows, cols);
}
void fit(Eigen::VectorXd& vector, int size) {
  if (vector.size() != size) vector.resize(size);
}

}  // namespace

struct FeatureController::Impl {
  const Character& character;
  FeatureSettings settings;
  PlanarDynamics dynamics;
  int dofs = 0;

  std::vector<ComTask> com;
  std::vector<AngularMomentumTask> angularMomentum;
  std::vector<TrackTask> track;
  PosturePrimitive posture;
  int postureLevel = 0;
  std::array<bool, kLinkCount> supportLinks{};
  // `[support]` was written: its links that do not touch are set down.
  bool supportNamed = false;
  std::vector<int> landing;  // this step's such links
  int levels = 1;
  Vec2 frameOrigin = Vec2::Zero();

  // Per step.
  Eigen::VectorXd q, qd, h;
  Eigen::MatrixXd massMatrix;
  Eigen::Matrix2Xd pointJacobian;
  Eigen::RowVectorXd momentumJacobian;
  Eigen::RowVectorXd rowBuffer;
  std::vector<ContactPoint> contacts;
  std::vector<ForceUnknown> forceUnknowns;
  // Per contact point: the index among the force unknowns of its normal force and of its
  // (possibly shared) tangential force.
  std::vector<int> normalUnknown, tangentUnknown;
  Eigen::MatrixXd contactJacobian;  // n × forces: the generalized force of each force variable
  Eigen::MatrixXd rows;             // the objective's rows over x = (q̈, f)
  Eigen::VectorXd targets;
  std::vector<RowInfo> rowInfo;
  Eigen::VectorXd rowValue;    // each row's value at the optimum of its own level
  Eigen::MatrixXd torqueRows;  // τ = torqueRows x + torqueOffset
  Eigen::VectorXd torqueOffset;
  // The root's equations of motion, M_rr q̈_r + M_rj q̈_j − J_c,rᵀ f = −h_r, solved for the
  // root's accelerations: q̈_r = P y + p₀ with y = (q̈_j, f), the QP's unknowns. Every row
  // over x = (q̈, f) becomes one over y: three fewer unknowns and no equalities, which
  // halves the solver's work (docs/features.md, The QP).
  Eigen::Matrix<double, kRootCoordinates, Eigen::Dynamic> rootMap;  // P
  Eigen::Matrix<double, kRootCoordinates, 1> rootOffset;            // p₀
  Eigen::MatrixXd reducedRows;                                      // rows over y
  Eigen::VectorXd reducedTargets;
  Eigen::MatrixXd reducedTorqueRows;  // τ = reducedTorqueRows y + reducedTorqueOffset
  Eigen::VectorXd reducedTorqueOffset;
  Eigen::MatrixXd weighted;  // workspace: √w · rows of one level
  Eigen::VectorXd weightedTargets;
  std::vector<QpSolver> solvers;
  std::vector<QpProblem> problems;
  std::vector<QpResult> results;
  std::vector<PlannedContactForce> planned;

  Impl(std::span<const Primitive> primitives, const Character& character,
       const FeatureSettings& settings)
      : character(character),
        settings(settings),
        dynamics(planarModelFromCharacter(character)),
        dofs(dynamics.dofCount()) {
    bool anySupport = false;
    std::vector<int> priorities;
    auto priorityOf = [](const TaskOptions& task) { return task.priority > 0 ? task.priority : 1; };
    for (const Primitive& primitive : primitives) {
      if (const auto* c = std::get_if<ComPrimitive>(&primitive)) {
        com.push_back({*c, priorityOf(c->task), Vec2::Zero()});
        priorities.push_back(priorityOf(c->task));
      } else if (const auto* a = std::get_if<AngularMomentumPrimitive>(&primitive)) {
        angularMomentum.push_back({*a, priorityOf(a->task)});
        priorities.push_back(priorityOf(a->task));
      } else if (const auto* t = std::get_if<TrackPrimitive>(&primitive)) {
        TrackTask task{*t, priorityOf(t->task)};
        if (t->target == TrackPrimitive::Target::JointPosition) {
          task.body = character.joints[t->index].childLink;
        } else {
          task.body = t->index;
          if (t->target == TrackPrimitive::Target::LinkPosition)
            task.local = dynamics.model().bodies[task.body].comOffset;
        }
        track.push_back(task);
        priorities.push_back(priorityOf(t->task));
      } else if (const auto* p = std::get_if<PosturePrimitive>(&primitive)) {
        posture = *p;  // the last one written wins
      } else if (const auto* s = std::get_if<SupportPrimitive>(&primitive)) {
        if (!anySupport) supportLinks.fill(false);
        anySupport = true;
        for (int link : s->links) supportLinks[link] = true;
      }
    }
    if (!anySupport) supportLinks.fill(true);
    supportNamed = anySupport;
    landing.reserve(kLinkCount);
    const int lowest =
        priorities.empty() ? 1 : *std::max_element(priorities.begin(), priorities.end());
    const int posturePriority = posture.task.priority > 0 ? posture.task.priority : lowest;
    priorities.push_back(posturePriority);
    std::sort(priorities.begin(), priorities.end());
    priorities.erase(std::unique(priorities.begin(), priorities.end()), priorities.end());
    levels = static_cast<int>(priorities.size());
    auto levelOf = [&](int priority) {
      return static_cast<int>(std::lower_bound(priorities.begin(), priorities.end(), priority) -
                              priorities.begin());
    };
    for (ComTask& task : com) task.level = levelOf(task.level);
    for (AngularMomentumTask& task : angularMomentum) task.level = levelOf(task.level);
    for (TrackTask& task : track) task.level = levelOf(task.level);
    postureLevel = levelOf(posturePriority);

    q.resize(dofs);
    qd.resize(dofs);
    h.resize(dofs);
    massMatrix.resize(dofs, dofs);
    pointJacobian.resize(2, dofs);
    momentumJacobian.resize(dofs);
    rowBuffer.resize(dofs);
    contacts.reserve(2 * static_cast<size_t>(kLinkCount));
    forceUnknowns.reserve(2 * static_cast<size_t>(kLinkCount));
    normalUnknown.reserve(2 * static_cast<size_t>(kLinkCount));
    tangentUnknown.reserve(2 * static_cast<size_t>(kLinkCount));
    planned.reserve(2 * static_cast<size_t>(kLinkCount));
    rowInfo.reserve(64);
    solvers.resize(static_cast<size_t>(levels));
    problems.resize(static_cast<size_t>(levels));
    results.resize(static_cast<size_t>(levels));
  }

  void setState(const CharacterState& state) {
    coordinatesFromState(dynamics.model(), state, q, qd);
    dynamics.setState(q, qd);
  }

  Vec2 bodyPoint(int body, const Vec2& local) const { return dynamics.pointPosition(body, local); }

  // The tracked quantity of a track task now: position from the frame origin, or (angle, 0).
  Vec2 trackValue(const TrackTask& task, const Vec2& origin) const {
    if (task.definition.target == TrackPrimitive::Target::LinkAngle)
      return Vec2(dynamics.bodies()[task.body].angle, 0.0);
    return bodyPoint(task.body, task.local) - origin;
  }

  // The frame of the targets: the middle of the soles (each halfway between its foot's
  // cap centres) of the supporting feet, fixed when the phase begins. The supporting feet
  // are those of `[support]` (both without it) that touch; if none touches, all of them;
  // if `[support]` names no foot, both feet.
  Vec2 supportFeetMiddle(const CharacterState& state) const {
    const std::array<int, 2> feet = {kLeftFoot, kRightFoot};
    int candidates = 0, touching = 0;
    Vec2 all = Vec2::Zero(), touched = Vec2::Zero(), both = Vec2::Zero();
    for (int foot : feet) {
      const LinkDef& link = character.links[foot];
      const Vec2 middle = bodyPoint(foot, Vec2(0.5 * link.axisSign * link.length, 0.0));
      both += middle;
      if (!supportLinks[foot]) continue;
      ++candidates;
      all += middle;
      if (state.links[foot].contact) {
        ++touching;
        touched += middle;
      }
    }
    if (touching > 0) return touched / touching;
    if (candidates > 0) return all / candidates;
    return both / 2.0;
  }

  void begin(const CharacterState& state) {
    setState(state);
    frameOrigin = supportFeetMiddle(state);
    const Vec2& origin = frameOrigin;
    for (ComTask& task : com) task.start = dynamics.com() - origin;
    for (TrackTask& task : track) task.start = trackValue(task, origin);
  }

  // The contact points of the support links, at most two per link: the extremes of its
  // points along the contact surface (a flat foot: heel and toe), one when they are close.
  void gatherContacts(const CharacterState& state) {
    contacts.clear();
    landing.clear();
    for (int link = 0; link < kLinkCount; ++link) {
      const LinkState& linkState = state.links[link];
      if (supportNamed && supportLinks[link] && linkState.contactPointCount == 0)
        landing.push_back(link);
      if (!supportLinks[link] || linkState.contactPointCount == 0) continue;
      Vec2 normal = Vec2::Zero();
      for (int i = 0; i < linkState.contactPointCount; ++i) normal += linkState.contactNormals[i];
      if (!(normal.norm() > 1e-9)) continue;
      normal.normalize();
      const Vec2 tangent = perp(normal);
      int first = 0, last = 0;
      for (int i = 1; i < linkState.contactPointCount; ++i) {
        const double s = tangent.dot(linkState.contactPoints[i]);
        if (s < tangent.dot(linkState.contactPoints[first])) first = i;
        if (s > tangent.dot(linkState.contactPoints[last])) last = i;
      }
      const BodyMotion& body = dynamics.bodies()[link];
      auto add = [&](const Vec2& point) {
        contacts.push_back({link, point, toBodyFrame(body, point - body.origin), normal, tangent});
      };
      // The link's caps near the surface (the surface: the lowest contact point along the
      // normal) give its points: the lowest point of each such cap.
      double surface = normal.dot(linkState.contactPoints[0]);
      for (int i = 1; i < linkState.contactPointCount; ++i)
        surface = std::min(surface, normal.dot(linkState.contactPoints[i]));
      const LinkDef& def = character.links[link];
      const std::array<std::pair<Vec2, double>, 2> caps = {{
          {Vec2::Zero(), 0.5 * def.proximalThickness},
          {Vec2(def.axisSign * def.length, 0.0), 0.5 * def.distalThickness},
      }};
      int capsNear = 0;
      std::array<Vec2, 2> capPoints;
      for (const auto& [centre, radius] : caps) {
        const Vec2 lowest = bodyPoint(link, centre) - radius * normal;
        if (normal.dot(lowest) - surface < settings.capTolerance) capPoints[capsNear++] = lowest;
      }
      if (capsNear == 2) {
        // Ordered along the tangent, as the merged points below.
        if (tangent.dot(capPoints[0]) > tangent.dot(capPoints[1]))
          std::swap(capPoints[0], capPoints[1]);
        add(capPoints[0]);
        add(capPoints[1]);
        continue;
      }
      const Vec2& a = linkState.contactPoints[first];
      const Vec2& b = linkState.contactPoints[last];
      if ((b - a).norm() < settings.mergeDistance) {
        add(0.5 * (a + b));
      } else {
        add(a);
        add(b);
      }
    }
  }

  // Whether contact point i and the next are the two ends of one link's line contact.
  bool linePairAt(size_t i) const {
    return i + 1 < contacts.size() && contacts[i + 1].link == contacts[i].link;
  }

  // The force unknowns of this step's contacts: a lone point's normal and tangential
  // force; a line contact's two normal forces and one tangential force at its middle.
  void assignForceUnknowns() {
    forceUnknowns.clear();
    normalUnknown.clear();
    tangentUnknown.clear();
    for (size_t i = 0; i < contacts.size();) {
      const ContactPoint& c = contacts[i];
      const int count = linePairAt(i) ? 2 : 1;
      Vec2 middle = Vec2::Zero();
      for (int e = 0; e < count; ++e) {
        const ContactPoint& end = contacts[i + static_cast<size_t>(e)];
        normalUnknown.push_back(static_cast<int>(forceUnknowns.size()));
        forceUnknowns.push_back({end.link, end.local, end.normal});
        middle += end.local / count;
      }
      for (int e = 0; e < count; ++e)
        tangentUnknown.push_back(static_cast<int>(forceUnknowns.size()));
      forceUnknowns.push_back({c.link, middle, c.tangent});
      i += static_cast<size_t>(count);
    }
  }

  int variableCount() const { return dofs + static_cast<int>(forceUnknowns.size()); }

  // Appends a row (over q̈ only: force columns zero) to the objective.
  void addRow(const Eigen::RowVectorXd& accelerationRow, double target, int level, double weight,
              int unitColumn = -1) {
    const int r = static_cast<int>(rowInfo.size());
    rows.row(r).head(dofs) = accelerationRow;
    rows.row(r).tail(rows.cols() - dofs).setZero();
    targets[r] = target;
    rowInfo.push_back({level, weight, unitColumn});
  }

  // Appends a unit row (a posture row: q̈ of one joint coordinate ≈ target). Its row of
  // `rows` is never written or read: the unit column says it all.
  void addUnitRow(int unitColumn, double target, int level, double weight) {
    targets[static_cast<int>(rowInfo.size())] = target;
    rowInfo.push_back({level, weight, unitColumn});
  }

  // The unknowns of the QP: y = (q̈_j, f), the root's accelerations eliminated.
  int reducedCount() const { return variableCount() - kRootCoordinates; }
  // The first force unknown in y.
  int forceStart() const { return dofs - kRootCoordinates; }

  int rowCapacity() const {
    int count = 2 * static_cast<int>(com.size()) + static_cast<int>(angularMomentum.size()) +
                2 * static_cast<int>(track.size()) + kJointCount;
    return count + 4 * kLinkCount;  // contacts: at most 3 rows per link, landing 4
  }

  // A point's rows: J q̈ = a_des − J̇q̇.
  void addPointRows(int body, const Vec2& local, const Vec2& desired, int level, double weight,
                    const Vec2* direction = nullptr) {
    dynamics.pointJacobian(body, local, pointJacobian);
    const Vec2 rhs = desired - dynamics.pointBiasAcceleration(body, local);
    if (direction) {
      rowBuffer.noalias() = direction->transpose() * pointJacobian;
      addRow(rowBuffer, direction->dot(rhs), level, weight);
      return;
    }
    rowBuffer = pointJacobian.row(0);
    addRow(rowBuffer, rhs.x(), level, weight);
    rowBuffer = pointJacobian.row(1);
    addRow(rowBuffer, rhs.y(), level, weight);
  }

  void buildRows(double phaseTime, const FeatureStepInput& input, FeatureStepResult& result) {
    const int n = variableCount();
    fit(rows, rowCapacity(), n);
    fit(targets, rowCapacity());
    rowInfo.clear();
    const Vec2& origin = frameOrigin;
    result.frameOrigin = frameOrigin;

    // Contacts, in the first level: a point does not accelerate (a moving one is braked).
    // The Jacobian each row is made of is also the one of a force unknown at the same
    // point: its column of J_cᵀ is written from it here.
    const double damping = settings.contactDamping;
    const int contactLevel = settings.hardContacts ? kHardRow : 0;
    fit(contactJacobian, dofs, static_cast<int>(forceUnknowns.size()));
    auto forceColumn = [&](int unknown) {
      contactJacobian.col(unknown).noalias() =
          pointJacobian.transpose() * forceUnknowns[static_cast<size_t>(unknown)].direction;
    };
    for (size_t i = 0; i < contacts.size();) {
      const ContactPoint& c = contacts[i];
      if (!linePairAt(i)) {
        const Vec2 v = dynamics.pointVelocity(c.link, c.local);
        addPointRows(c.link, c.local, -damping * v, contactLevel, settings.contactWeight);
        forceColumn(normalUnknown[i]);
        forceColumn(tangentUnknown[i]);
        ++i;
        continue;
      }
      // A line contact: the normal acceleration of both ends, the tangential one of the
      // middle (four rows would repeat one of a rigid body's three).
      for (size_t e = i; e < i + 2; ++e) {
        const ContactPoint& end = contacts[e];
        const Vec2 v = dynamics.pointVelocity(end.link, end.local);
        addPointRows(end.link, end.local, -damping * v, contactLevel, settings.contactWeight,
                     &end.normal);
        forceColumn(normalUnknown[e]);
      }
      const ForceUnknown& tangential = forceUnknowns[static_cast<size_t>(tangentUnknown[i])];
      const Vec2 v = dynamics.pointVelocity(c.link, tangential.local);
      addPointRows(c.link, tangential.local, -damping * v, contactLevel, settings.contactWeight,
                   &c.tangent);
      forceColumn(tangentUnknown[i]);
      i += 2;
    }

    // A named support link that does not touch: its caps' lowest points descend.
    for (int link : landing) {
      const LinkDef& def = character.links[link];
      const Vec2 down(0.0, -1.0);
      for (const Vec2& centre : {Vec2(Vec2::Zero()), Vec2(def.axisSign * def.length, 0.0)}) {
        const double radius =
            centre.isZero() ? 0.5 * def.proximalThickness : 0.5 * def.distalThickness;
        const BodyMotion& body = dynamics.bodies()[link];
        const Vec2 local = centre + toBodyFrame(body, radius * down);
        const Vec2 v = dynamics.pointVelocity(link, local);
        addPointRows(link, local, damping * (settings.landingSpeed * down - v), contactLevel,
                     settings.contactWeight);
      }
    }

    for (const ComTask& task : com) {
      const ComPrimitive& def = task.definition;
      const Vec2 goal(def.x.value, def.y.value);
      auto [relative, rate] = interpolate(task.start, goal, def.duration.value, phaseTime);
      const Vec2 target = origin + relative;
      const Vec2 desired =
          def.kp.value * (target - dynamics.com()) + def.kd.value * (rate - dynamics.comVelocity());
      dynamics.comJacobian(pointJacobian);
      const Vec2 rhs = desired - dynamics.comBiasAcceleration();
      rowBuffer = pointJacobian.row(0);
      addRow(rowBuffer, rhs.x(), task.level, def.task.weight.value);
      rowBuffer = pointJacobian.row(1);
      addRow(rowBuffer, rhs.y(), task.level, def.task.weight.value);
      result.hasComTarget = true;
      result.comTarget = target;
    }

    for (const AngularMomentumTask& task : angularMomentum) {
      const AngularMomentumPrimitive& def = task.definition;
      dynamics.centroidalMomentumJacobian(momentumJacobian);
      const double desired =
          def.kd.value * (def.target.value - dynamics.centroidalAngularMomentum());
      addRow(momentumJacobian, desired - dynamics.centroidalMomentumBias(), task.level,
             def.task.weight.value);
    }

    for (const TrackTask& task : track) {
      const TrackPrimitive& def = task.definition;
      const double weight = def.task.weight.value;
      if (def.target == TrackPrimitive::Target::LinkAngle) {
        auto [angle, rate] =
            interpolate(task.start.x(), def.x.value, def.duration.value, phaseTime);
        const BodyMotion& body = dynamics.bodies()[task.body];
        const double desired =
            def.kp.value * (angle - body.angle) + def.kd.value * (rate - body.angularVelocity);
        // The body's angular acceleration: the root's plus every joint's on its path.
        momentumJacobian.setZero();
        momentumJacobian[kRootAngle] = 1.0;
        for (int b = task.body; b > 0; b = dynamics.model().bodies[b].parent)
          momentumJacobian[jointCoordinate(b)] = 1.0;
        addRow(momentumJacobian, desired, task.level, weight);
        continue;
      }
      const Vec2 goal(def.x.value, def.y.value);
      auto [relative, rate] = interpolate(task.start, goal, def.duration.value, phaseTime);
      const Vec2 position = bodyPoint(task.body, task.local);
      const Vec2 velocity = dynamics.pointVelocity(task.body, task.local);
      const Vec2 desired =
          def.kp.value * (origin + relative - position) + def.kd.value * (rate - velocity);
      addPointRows(task.body, task.local, desired, task.level, weight);
    }

    // Posture: every joint toward its PD target (a relaxed joint's row has weight 0).
    for (int j = 0; j < kJointCount; ++j) {
      const int coordinate = characterJointCoordinate(j);
      const double desired = posture.kp.value * (input.postureTargets[j] - q[coordinate]) -
                             posture.kd.value * qd[coordinate];
      addUnitRow(coordinate - kRootCoordinates, desired, postureLevel,
                 input.postureHeld[j] ? posture.task.weight.value : 0.0);
    }
  }

  // The equations of motion: M q̈ + h = Sᵀτ + J_c f. The root's rows are eliminated
  // (eliminateRoot); the joints' rows give τ = B x + c.
  void buildDynamics() {
    const int n = variableCount();
    const int forces = n - dofs;
    dynamics.massMatrix(massMatrix);
    dynamics.biasForces(h);  // contactJacobian: written with the contact rows (buildRows)
    fit(torqueRows, kJointCount, n);
    fit(torqueOffset, kJointCount);
    torqueRows.leftCols(dofs) = massMatrix.bottomRows(kJointCount);
    torqueRows.rightCols(forces) = -contactJacobian.bottomRows(kJointCount);
    torqueOffset = h.tail(kJointCount);
    eliminateRoot();
  }

  // q̈_r = P y + p₀ from the root's rows, then every row over x rewritten over y:
  // a·x − b = (a_r P + a_y) y − (b − a_r p₀).
  void eliminateRoot() {
    const int n = variableCount(), m = reducedCount();
    const int forces = n - dofs;
    // M_rr is 3×3, symmetric positive definite (the whole body's mass and inertia about
    // the root): its inverse, by cofactors, times one column at a time (fixed-size
    // products, inlined; Eigen's solve against the 3×m block took its blocked path).
    const Eigen::Matrix3d rootInertia = massMatrix.topLeftCorner<3, 3>();
    const Eigen::Matrix3d inverse = rootInertia.inverse();
    rootMap.resize(kRootCoordinates, m);
    for (int c = 0; c < kJointCount; ++c)
      rootMap.col(c).noalias() =
          -(inverse * massMatrix.block<kRootCoordinates, 1>(0, kRootCoordinates + c));
    for (int c = 0; c < forces; ++c)
      rootMap.col(kJointCount + c).noalias() =
          inverse * contactJacobian.block<kRootCoordinates, 1>(0, c);
    rootOffset.noalias() = -(inverse * h.head<3>());

    const int total = static_cast<int>(rowInfo.size());
    fit(reducedRows, total, m);  // the unit rows' part is never written or read
    fit(reducedTargets, total);
    // The unit rows (posture) come last (buildRows) and have no root part: only the rows
    // before them change. Inner dimension 3: coefficient-wise products (lazyProduct) beat
    // the blocked ones.
    int general = 0;
    while (general < total && rowInfo[general].unitColumn < 0) ++general;
    assert(std::all_of(rowInfo.begin() + general, rowInfo.end(),
                       [](const RowInfo& row) { return row.unitColumn >= 0; }));
    reducedTargets = targets.head(total);
    reduceRows(rows, general, reducedRows);
    const auto rootColumns = rows.topLeftCorner(general, kRootCoordinates);
    reducedTargets.head(general).noalias() -= rootColumns.lazyProduct(rootOffset);
    fit(reducedTorqueRows, kJointCount, m);
    fit(reducedTorqueOffset, kJointCount);
    reduceRows(torqueRows, kJointCount, reducedTorqueRows);
    const auto torqueRootColumns = torqueRows.leftCols<kRootCoordinates>();
    reducedTorqueOffset = torqueOffset;
    reducedTorqueOffset.noalias() += torqueRootColumns.lazyProduct(rootOffset);
  }

  // The first `count` rows of `from` (over x) as rows over y: column c of the result is
  // from's column 3 + c plus its three root columns weighted by P's column c. Written as
  // column loops (contiguous, vectorized): at 3 inner terms Eigen's products cost more
  // in dispatch than in arithmetic.
  void reduceRows(const Eigen::MatrixXd& from, int count, Eigen::MatrixXd& to) const {
    const double* r0 = from.col(0).data();
    const double* r1 = from.col(1).data();
    const double* r2 = from.col(2).data();
    for (int c = 0; c < static_cast<int>(rootMap.cols()); ++c) {
      const double p0 = rootMap(0, c), p1 = rootMap(1, c), p2 = rootMap(2, c);
      const double* source = from.col(kRootCoordinates + c).data();
      double* target = to.col(c).data();
      for (int r = 0; r < count; ++r)
        target[r] = source[r] + (r0[r] * p0 + r1[r] * p1 + r2[r] * p2);
    }
  }

  // Fills level `level`'s problem over y: its rows' objective, the torque regularization,
  // the limits, and the earlier levels' rows held within the tolerance.
  void buildLevel(int level, const FeatureStepInput& input) {
    const int n = reducedCount();
    const int first = forceStart();
    const int pointCount = static_cast<int>(contacts.size());
    int held = 0, hard = 0;
    for (const RowInfo& info : rowInfo) {
      if (info.level == kHardRow) ++hard;
      if (isHeld(info, level)) ++held;
    }
    int pairs = 0;
    for (size_t i = 0; i < contacts.size(); ++i)
      if (linePairAt(i)) ++pairs;
    const int links = pointCount - pairs;  // a link has one point or a line pair
    const int tangents = static_cast<int>(forceUnknowns.size()) - pointCount;
    const int inequalities =
        pointCount + 2 * tangents + 2 * pairs + links + 2 * kJointCount + 2 * held;
    QpProblem& problem = problems[static_cast<size_t>(level)];
    fit(problem.objectiveMatrix, n, n);
    fit(problem.objectiveVector, n);
    fit(problem.equalityMatrix, hard, n);
    fit(problem.equalityVector, hard);
    fit(problem.inequalityMatrix, inequalities, n);
    fit(problem.inequalityVector, inequalities);

    // Objective: Σ w (row·y − target)² + w_τ |B y + c − τ_added|² + ε |y|². A unit row
    // (posture) adds to the diagonal only; the others are stacked for a rank update.
    auto& g = problem.objectiveMatrix;
    auto& a = problem.objectiveVector;
    g.setZero();
    a.setZero();
    const int total = static_cast<int>(rowInfo.size());
    fit(weighted, total + kJointCount, n);
    fit(weightedTargets, total + kJointCount);
    int count = 0;
    for (int r = 0; r < total; ++r) {
      const RowInfo& info = rowInfo[r];
      if (info.level != level || !(info.weight > 0.0)) continue;
      if (info.unitColumn >= 0) {
        g(info.unitColumn, info.unitColumn) += info.weight;
        a[info.unitColumn] -= info.weight * reducedTargets[r];
        continue;
      }
      const double root = std::sqrt(info.weight);
      weighted.row(count) = root * reducedRows.row(r);
      weightedTargets[count] = root * reducedTargets[r];
      ++count;
    }
    // The torque regularization's rows, √w_τ (B y + c − τ_added), join the stack. (The
    // root's accelerations are not regularized: y's own regularization below keeps G
    // positive definite, and their rows were a tenth of G's cost.)
    const double wt = std::sqrt(settings.torqueWeight);
    Eigen::Map<const Eigen::VectorXd> added(input.addedTorques.data(), kJointCount);
    weighted.middleRows(count, kJointCount) = wt * reducedTorqueRows;
    weightedTargets.segment(count, kJointCount) = wt * (added - reducedTorqueOffset);
    count += kJointCount;
    // G's lower triangle only (all the solver reads), as blocks of dot products of the
    // stack's columns: at these sizes (about 30 rows of 20–30 unknowns) a blocked rank
    // update spends more on packing than on arithmetic.
    addLowerGram(weighted, count, g);
    const auto stack = weighted.topRows(count);
    a.noalias() -= stack.transpose() * weightedTargets.head(count);
    g.diagonal().head(first).array() += settings.accelerationRegularization;
    g.diagonal().tail(n - first).array() += settings.forceRegularization;
    for (int i = 0; i < pointCount; ++i)
      if (i == 0 || tangentUnknown[i] != tangentUnknown[i - 1])
        g(first + tangentUnknown[i], first + tangentUnknown[i]) += settings.tangentialWeight;

    // Hard contact rows are equalities (the root's equations are eliminated).
    for (int r = 0, e = 0; r < total; ++r) {
      if (rowInfo[r].level != kHardRow) continue;
      problem.equalityMatrix.row(e) = reducedRows.row(r);
      problem.equalityVector[e++] = reducedTargets[r];
    }

    // Torque limits first, as two blocks (column-wise copies): −τ_max ≤ B y + c ≤ τ_max.
    auto& c = problem.inequalityMatrix;
    auto& b = problem.inequalityVector;
    c.setZero();  // one pass (zeroing the rows below the limits was a memset per column)
    b.setZero();
    c.topRows(kJointCount) = reducedTorqueRows;
    c.middleRows(kJointCount, kJointCount) = -reducedTorqueRows;
    for (int j = 0; j < kJointCount; ++j) {
      const double limit = character.joints[j].maxTorque;
      b[j] = -limit - reducedTorqueOffset[j];
      b[kJointCount + j] = reducedTorqueOffset[j] - limit;
    }
    int row = 2 * kJointCount;
    // Contacts push, within the friction cone: f_n ≥ 0 at each point, and a tangential
    // force within μ times the normal forces of its point (of its line's two ends):
    // μ Σf_n ± f_t ≥ 0.
    const double mu = settings.friction * settings.frictionMargin;
    for (int i = 0; i < pointCount; ++i) c(row++, first + normalUnknown[i]) = 1.0;
    for (size_t i = 0; i < contacts.size(); i += linePairAt(i) ? 2 : 1) {
      const int tangent = first + tangentUnknown[i];
      for (double sign : {-1.0, 1.0}) {
        c(row, first + normalUnknown[i]) = mu;
        if (linePairAt(i)) c(row, first + normalUnknown[i + 1]) = mu;
        c(row++, tangent) = sign;
      }
    }
    // A line contact's ends each carry at least the margin's share of its normal force:
    // (1 − α) f₁ − α f₂ ≥ 0 and (1 − α) f₂ − α f₁ ≥ 0.
    const double alpha = settings.pressureMargin;
    for (size_t i = 0; i < contacts.size(); ++i) {
      if (!linePairAt(i)) continue;
      const int one = first + normalUnknown[i], two = first + normalUnknown[i + 1];
      c(row, one) = 1.0 - alpha;
      c(row++, two) = -alpha;
      c(row, two) = 1.0 - alpha;
      c(row++, one) = -alpha;
    }
    // Each touching link of the support carries at least its minimum load.
    const double minimum =
        settings.minimumLoad * dynamics.model().totalMass() * dynamics.model().gravity.norm();
    for (size_t i = 0; i < contacts.size(); i += linePairAt(i) ? 2 : 1) {
      c(row, first + normalUnknown[i]) = 1.0;
      if (linePairAt(i)) c(row, first + normalUnknown[i + 1]) = 1.0;
      b[row++] = minimum;
    }
    // Earlier levels: each row within the tolerance of its value at its level's optimum.
    const double tolerance = settings.levelTolerance;
    for (int r = 0; r < total; ++r) {
      if (!isHeld(rowInfo[r], level)) continue;
      if (const int unit = rowInfo[r].unitColumn; unit >= 0) {
        c.row(row).setZero();
        c(row, unit) = 1.0;
        b[row++] = rowValue[r] - tolerance;
        c.row(row).setZero();
        c(row, unit) = -1.0;
        b[row++] = -rowValue[r] - tolerance;
        continue;
      }
      c.row(row) = reducedRows.row(r);
      b[row++] = rowValue[r] - tolerance;
      c.row(row) = -reducedRows.row(r);
      b[row++] = -rowValue[r] - tolerance;
    }
  }

  void solve(const CharacterState& state, double phaseTime, const FeatureStepInput& input,
             FeatureStepResult& result) {
    result.status = FeatureStatus::Failed;
    result.qpStatus = QpStatus::Optimal;
    result.failedLevel = 0;
    result.hasComTarget = false;
    result.iterations = 0;
    result.levels = 0;
    planned.clear();
    setState(state);
    gatherContacts(state);
    assignForceUnknowns();
    buildRows(phaseTime, input, result);
    buildDynamics();
    fit(rowValue, static_cast<int>(rowInfo.size()));
    int solved = -1;
    for (int level = 0; level < levels; ++level) {
      buildLevel(level, input);
      QpResult& out = results[static_cast<size_t>(level)];
      const QpStatus status =
          solvers[static_cast<size_t>(level)].solve(problems[static_cast<size_t>(level)], out);
      result.iterations += out.iterations;
      if (status != QpStatus::Optimal) {
        result.qpStatus = status;
        result.failedLevel = level + 1;
        break;
      }
      solved = level;
      ++result.levels;
      if (level + 1 == levels) break;  // no later level holds this one's rows
      for (int r = 0; r < static_cast<int>(rowInfo.size()); ++r)
        if (rowInfo[r].level == level)
          rowValue[r] = rowInfo[r].unitColumn >= 0 ? out.x[rowInfo[r].unitColumn]
                                                   : reducedRows.row(r).dot(out.x);
    }
    if (solved < 0) return;
    const Eigen::VectorXd& x = results[static_cast<size_t>(solved)].x;
    Eigen::Map<Eigen::Matrix<double, kJointCount, 1>> torques(result.torques.data());
    torques = reducedTorqueOffset;
    torques.noalias() += reducedTorqueRows * x;
    bool finite = true;
    for (int j = 0; j < kJointCount; ++j) finite = finite && std::isfinite(result.torques[j]);
    if (!finite) {
      result.qpStatus = QpStatus::InvalidInput;
      result.failedLevel = solved + 1;
      return;
    }
    // A line contact's tangential force is drawn split between its ends in proportion
    // to their normal forces, so that each drawn force lies in its friction cone.
    for (size_t i = 0; i < contacts.size(); ++i) {
      const ContactPoint& c = contacts[i];
      const double fn = x[forceStart() + normalUnknown[i]];
      double ft = x[forceStart() + tangentUnknown[i]];
      const bool line = linePairAt(i) || (i > 0 && tangentUnknown[i] == tangentUnknown[i - 1]);
      if (line) {
        const size_t other = linePairAt(i) ? i + 1 : i - 1;
        const double total = fn + x[forceStart() + normalUnknown[other]];
        ft *= total > 0.0 ? fn / total : 0.5;
      }
      planned.push_back({c.link, c.point, fn * c.normal + ft * c.tangent});
    }
    result.contactForces = planned;
    result.status = solved == levels - 1 ? FeatureStatus::Solved : FeatureStatus::LowerLevelFailed;
  }
};

FeatureController::FeatureController(std::span<const Primitive> phasePrimitives,
                                     const Character& character, const FeatureSettings& settings)
    : impl_(std::make_unique<Impl>(phasePrimitives, character, settings)) {}

FeatureController::~FeatureController() = default;

void FeatureController::begin(const CharacterState& state) { impl_->begin(state); }

const FeatureStepResult& FeatureController::solve(const CharacterState& state, double phaseTime,
                                                  const FeatureStepInput& input) {
  impl_->solve(state, phaseTime, input, result_);
  return result_;
}

int FeatureController::levelCount() const { return impl_->levels; }

}  // namespace scl
