// Small helpers the feature controller's files share: resizing without allocation,
// body-frame vectors and interpolated targets.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <utility>

#include "dynamics/character_coordinates.h"
#include "dynamics/planar_dynamics.h"

namespace scl {

/// Resizes without touching the contents when the size already fits (no allocation once
/// a step's problem sizes have been seen).
inline void fit(Eigen::MatrixXd& matrix, int rows, int cols) {
  if (matrix.rows() != rows || matrix.cols() != cols) matrix.resize(rows, cols);
}
inline void fit(Eigen::VectorXd& vector, int size) {
  if (vector.size() != size) vector.resize(size);
}
inline void fit(Eigen::RowVectorXd& vector, int size) {
  if (vector.size() != size) vector.resize(size);
}

/// The vector turned a quarter counter-clockwise.
inline Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }

/// A world vector in the body's frame: turned back by the body's angle (its cached cos
/// and sin, not a sincos per point).
inline Vec2 toBodyFrame(const BodyMotion& body, const Vec2& v) {
  const double c = body.cosAngle, s = body.sinAngle;
  return Vec2(c * v.x() + s * v.y(), c * v.y() - s * v.x());
}

/// A body-frame vector in the world: turned by the body's angle.
inline Vec2 toWorldFrame(const BodyMotion& body, const Vec2& v) {
  const double c = body.cosAngle, s = body.sinAngle;
  return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
}

/// The row whose product with q̈ is the world angular acceleration of `body`: the root's
/// angle and every joint on the body's path from the root (`row` sized to the dofs).
inline void angularAccelerationRow(const PlanarDynamics& dynamics, int body,
                                   Eigen::RowVectorXd& row) {
  row.setZero();
  row[kRootAngle] = 1.0;
  for (int b = body; b > 0; b = dynamics.model().bodies[b].parent) row[jointCoordinate(b)] = 1.0;
}

/// Linear interpolation of a target over `duration` (seconds) from `start`, at `time`
/// (seconds): the target and its rate.
template <typename T>
std::pair<T, T> interpolate(const T& start, const T& target, double duration, double time) {
  if (!(duration > 0.0) || time >= duration) return {target, T(target - target)};
  const double s = time / duration;
  return {T(start + s * (target - start)), T((target - start) / duration)};
}

/// A target moving on a cubic Hermite curve over `duration` (seconds) from `start` at
/// `startRate` to `target` at `targetRate`, at `time` (seconds): the target, its rate and
/// its second derivative. Past the end, the target rests at `target`.
template <typename T>
struct CurvePoint {
  T value, rate, acceleration;
};
template <typename T>
CurvePoint<T> hermite(const T& start, const T& startRate, const T& target, const T& targetRate,
                      double duration, double time) {
  const T zero = T(target - target);
  if (!(duration > 0.0) || time >= duration) return {target, zero, zero};
  const double s = std::max(time, 0.0) / duration, s2 = s * s, s3 = s2 * s;
  const double d = duration;
  // The basis h00, h10, h01, h11 and their first and second derivatives in s.
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
               h11 = s3 - s2;
  const double g00 = 6 * s2 - 6 * s, g10 = 3 * s2 - 4 * s + 1, g01 = -6 * s2 + 6 * s,
               g11 = 3 * s2 - 2 * s;
  const double k00 = 12 * s - 6, k10 = 6 * s - 4, k01 = -12 * s + 6, k11 = 6 * s - 2;
  return {T(h00 * start + h10 * d * startRate + h01 * target + h11 * d * targetRate),
          T((g00 * start + g10 * d * startRate + g01 * target + g11 * d * targetRate) / d),
          T((k00 * start + k10 * d * startRate + k01 * target + k11 * d * targetRate) / (d * d))};
}

}  // namespace scl
