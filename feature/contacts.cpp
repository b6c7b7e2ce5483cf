#include "feature/contacts.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <utility>

#include "feature/feature_math.h"

namespace scl {

ContactSet::ContactSet(const Character& character, const PlanarDynamics& dynamics,
                       const SupportSet& support, const FeatureSettings& settings)
    : character_(character), dynamics_(dynamics), support_(support), settings_(settings) {
  const size_t capacity = 2 * static_cast<size_t>(character.linkCount());
  pushJacobian_.resize(2, dynamics.dofCount());
  points_.reserve(capacity);
  forceUnknowns_.reserve(capacity);
  normalUnknown_.reserve(capacity);
  tangentUnknown_.reserve(capacity);
}

void ContactSet::gather(const CharacterState& state) {
  points_.clear();
  for (int link = 0; link < character_.linkCount(); ++link) {
    const LinkState& linkState = state.links[link];
    if ((support_.links[link] || support_.pushing[link]) && linkState.contactPointCount > 0)
      gatherLink(link, linkState);
  }
  assignForceUnknowns();
}

// The link's points: the extremes of its contact points along the contact surface (a flat
// foot: heel and toe), one when they are close; or the lowest points of its caps near the
// surface.
void ContactSet::gatherLink(int link, const LinkState& linkState) {
  Vec2 normal = Vec2::Zero();
  for (int i = 0; i < linkState.contactPointCount; ++i) normal += linkState.contactNormals[i];
  if (!(normal.norm() > 1e-9)) return;
  normal.normalize();
  const Vec2 tangent = perp(normal);
  int first = 0, last = 0;
  for (int i = 1; i < linkState.contactPointCount; ++i) {
    const double s = tangent.dot(linkState.contactPoints[i]);
    if (s < tangent.dot(linkState.contactPoints[first])) first = i;
    if (s > tangent.dot(linkState.contactPoints[last])) last = i;
  }
  const BodyMotion& body = dynamics_.bodies()[link];
  const double friction = frictionOf(linkState) * settings_.frictionMargin;
  const LinkDef& def = character_.links[link];
  const double middleX =
      dynamics_.pointPosition(link, Vec2(0.5 * def.axisSign * def.length, 0.0)).x();
  // A point of an end the support leaves out (`[support leftFoot toe]`: the heel's) is not
  // the QP's: that end may lift.
  auto add = [&](const Vec2& point) {
    if (!endMayCarry(support_, link, point.x(), middleX)) return;
    points_.push_back({link, point, toBodyFrame(body, point - body.origin), normal, tangent,
                       friction, linkState.supportVelocity, linkState.supportAcceleration});
  };
  // The link's caps near the surface (the surface: the lowest contact point along the
  // normal) give its points: the lowest point of each such cap.
  double surface = normal.dot(linkState.contactPoints[0]);
  for (int i = 1; i < linkState.contactPointCount; ++i)
    surface = std::min(surface, normal.dot(linkState.contactPoints[i]));
  const std::array<std::pair<Vec2, double>, 2> caps = {{
      {Vec2::Zero(), 0.5 * def.proximalThickness},
      {Vec2(def.axisSign * def.length, 0.0), 0.5 * def.distalThickness},
  }};
  int capsNear = 0;
  std::array<Vec2, 2> capPoints;
  for (const auto& [centre, radius] : caps) {
    const Vec2 lowest = dynamics_.pointPosition(link, centre) - radius * normal;
    if (normal.dot(lowest) - surface < settings_.capTolerance) capPoints[capsNear++] = lowest;
  }
  if (capsNear == 2) {
    // Ordered along the tangent, as the merged points below.
    if (tangent.dot(capPoints[0]) > tangent.dot(capPoints[1]))
      std::swap(capPoints[0], capPoints[1]);
    add(capPoints[0]);
    add(capPoints[1]);
    return;
  }
  const Vec2& a = linkState.contactPoints[first];
  const Vec2& b = linkState.contactPoints[last];
  if ((b - a).norm() < settings_.mergeDistance) {
    add(0.5 * (a + b));
  } else {
    add(a);
    add(b);
  }
}

double ContactSet::frictionOf(const LinkState& linkState) const {
  const std::vector<double>& bodies = settings_.bodyFriction;
  if (bodies.empty() || linkState.touching == 0) return settings_.friction;
  double least = std::numeric_limits<double>::infinity();
  for (std::uint64_t bits = linkState.touching; bits != 0; bits &= bits - 1) {
    const auto body = static_cast<size_t>(std::countr_zero(bits));
    least = std::min(least, body < bodies.size() ? bodies[body] : settings_.friction);
  }
  return least;
}

// The force unknowns of this step's contacts: a lone point's normal and tangential
// force; a line contact's two normal forces and one tangential force at its middle.
void ContactSet::assignForceUnknowns() {
  forceUnknowns_.clear();
  normalUnknown_.clear();
  tangentUnknown_.clear();
  for (size_t i = 0; i < points_.size();) {
    const Point& c = points_[i];
    const int count = linePairAt(i) ? 2 : 1;
    Vec2 middle = Vec2::Zero();
    for (int e = 0; e < count; ++e) {
      const Point& end = points_[i + static_cast<size_t>(e)];
      normalUnknown_.push_back(forceCount());
      forceUnknowns_.push_back({end.link, end.local, end.normal});
      middle += end.local / count;
    }
    for (int e = 0; e < count; ++e) tangentUnknown_.push_back(forceCount());
    forceUnknowns_.push_back({c.link, middle, c.tangent});
    i += static_cast<size_t>(count);
  }
}

void ContactSet::writeForceColumn(int unknown, const Eigen::Matrix2Xd& pointJacobian) {
  jacobian_.col(unknown).noalias() =
      pointJacobian.transpose() * forceUnknowns_[static_cast<size_t>(unknown)].direction;
}

// A point moves with what it stands on: it accelerates with it, and its velocity relative
// to it is braked (on still terrain: it does not accelerate and a moving one is braked).
// The Jacobian each row is made of
// is also the one of a force unknown at the same point: its column of J_cᵀ is written
// from it.
Vec2 ContactSet::heldAcceleration(const Point& contact, const Vec2& local) const {
  const Vec2 velocity = dynamics_.pointVelocity(contact.link, local);
  return contact.supportAcceleration -
         settings_.contactDamping * (velocity - contact.supportVelocity);
}

void ContactSet::addRows(ObjectiveRows& rows) {
  const int level = contactRowLevel(settings_);
  const double weight = settings_.contactWeight;
  fit(jacobian_, dynamics_.dofCount(), forceCount());
  for (size_t i = 0; i < points_.size();) {
    const Point& c = points_[i];
    if (support_.pushing[static_cast<size_t>(c.link)]) {
      // A force task's link: held along the surface, free along its normal (were it held
      // to move with what it pushes, it would chase what it sets moving).
      const size_t end = i + (linePairAt(i) ? 2 : 1);
      for (; i < end; ++i) {
        dynamics_.pointJacobian(points_[i].link, points_[i].local, pushJacobian_);
        writeForceColumn(normalUnknown_[i], pushJacobian_);
      }
      const ForceUnknown& tangential =
          forceUnknowns_[static_cast<size_t>(tangentUnknown_[end - 1])];
      writeForceColumn(
          tangentUnknown_[end - 1],
          rows.addPoint(c.link, tangential.local, heldAcceleration(c, tangential.local), level,
                        weight, &c.tangent));
      continue;
    }
    if (!linePairAt(i)) {
      const Eigen::Matrix2Xd& pointJacobian =
          rows.addPoint(c.link, c.local, heldAcceleration(c, c.local), level, weight);
      writeForceColumn(normalUnknown_[i], pointJacobian);
      writeForceColumn(tangentUnknown_[i], pointJacobian);
      ++i;
      continue;
    }
    // A line contact: the normal acceleration of both ends, the tangential one of the
    // middle (four rows would repeat one of a rigid body's three).
    for (size_t e = i; e < i + 2; ++e) {
      const Point& end = points_[e];
      writeForceColumn(normalUnknown_[e],
                       rows.addPoint(end.link, end.local, heldAcceleration(end, end.local), level,
                                     weight, &end.normal));
    }
    const ForceUnknown& tangential = forceUnknowns_[static_cast<size_t>(tangentUnknown_[i])];
    writeForceColumn(tangentUnknown_[i],
                     rows.addPoint(c.link, tangential.local, heldAcceleration(c, tangential.local),
                                   level, weight, &c.tangent));
    i += 2;
  }
}

int ContactSet::inequalityCount() const {
  const int pointCount = static_cast<int>(points_.size());
  int pairs = 0;
  for (size_t i = 0; i < points_.size(); ++i)
    if (linePairAt(i)) ++pairs;
  const int links = pointCount - pairs;  // a link has one point or a line pair
  const int tangents = forceCount() - pointCount;
  return pointCount + 2 * tangents + 2 * pairs + links;  // the last: a load bound each
}

bool ContactSet::linkForceRow(int link, const Vec2& axis, Eigen::RowVectorXd& row) const {
  fit(row, forceCount());
  row.setZero();
  bool touches = false;
  for (int k = 0; k < forceCount(); ++k) {
    const ForceUnknown& unknown = forceUnknowns_[static_cast<size_t>(k)];
    if (unknown.link != link) continue;
    row[k] = unknown.direction.dot(axis);
    touches = true;
  }
  return touches;
}

void ContactSet::addTangentialWeight(Eigen::MatrixXd& g, int first) const {
  for (size_t i = 0; i < points_.size(); ++i)
    if (i == 0 || tangentUnknown_[i] != tangentUnknown_[i - 1])
      g(first + tangentUnknown_[i], first + tangentUnknown_[i]) += settings_.tangentialWeight;
}

int ContactSet::addInequalities(Eigen::MatrixXd& c, Eigen::VectorXd& b, int row, int first) const {
  // Contacts push, within the friction cone: f_n ≥ 0 at each point, and a tangential
  // force within μ times the normal forces of its point (of its line's two ends):
  // μ Σf_n ± f_t ≥ 0.
  for (size_t i = 0; i < points_.size(); ++i) c(row++, first + normalUnknown_[i]) = 1.0;
  for (size_t i = 0; i < points_.size(); i += linePairAt(i) ? 2 : 1) {
    const int tangent = first + tangentUnknown_[i];
    const double mu = points_[i].friction;
    for (double sign : {-1.0, 1.0}) {
      c(row, first + normalUnknown_[i]) = mu;
      if (linePairAt(i)) c(row, first + normalUnknown_[i + 1]) = mu;
      c(row++, tangent) = sign;
    }
  }
  // A line contact's ends each carry at least the margin's share of its normal force:
  // (1 − α) f₁ − α f₂ ≥ 0 and (1 − α) f₂ − α f₁ ≥ 0.
  const double alpha = settings_.pressureMargin;
  for (size_t i = 0; i < points_.size(); ++i) {
    if (!linePairAt(i)) continue;
    const int one = first + normalUnknown_[i], two = first + normalUnknown_[i + 1];
    c(row, one) = 1.0 - alpha;
    c(row++, two) = -alpha;
    c(row, two) = 1.0 - alpha;
    c(row++, one) = -alpha;
  }
  // Each touching link of the support carries at least its minimum load; a force task's
  // link presses at most its limit instead: −Σf_n ≥ −limit.
  const PlanarModel& model = dynamics_.model();
  const double minimum = settings_.minimumLoad * model.totalMass() * model.gravity.norm();
  for (size_t i = 0; i < points_.size(); i += linePairAt(i) ? 2 : 1) {
    const auto link = static_cast<size_t>(points_[i].link);
    const bool pushes = support_.pushing[link];
    const double sign = pushes ? -1.0 : 1.0;
    c(row, first + normalUnknown_[i]) = sign;
    if (linePairAt(i)) c(row, first + normalUnknown_[i + 1]) = sign;
    b[row++] = pushes ? -support_.pushLimit[link] : minimum;
  }
  return row;
}

// A line contact's tangential force is drawn split between its ends in proportion to
// their normal forces, so that each drawn force lies in its friction cone.
void ContactSet::plan(const Eigen::VectorXd& y, int first,
                      std::vector<PlannedContactForce>& planned) const {
  for (size_t i = 0; i < points_.size(); ++i) {
    const Point& c = points_[i];
    const double fn = y[first + normalUnknown_[i]];
    double ft = y[first + tangentUnknown_[i]];
    const bool line = linePairAt(i) || (i > 0 && tangentUnknown_[i] == tangentUnknown_[i - 1]);
    if (line) {
      const size_t other = linePairAt(i) ? i + 1 : i - 1;
      const double total = fn + y[first + normalUnknown_[other]];
      ft *= total > 0.0 ? fn / total : 0.5;
    }
    planned.push_back({c.link, c.point, fn * c.normal + ft * c.tangent});
  }
}

}  // namespace scl
