// Small helpers the feature controller's files share: resizing without allocation,
// body-frame vectors and interpolated targets.
#pragma once

#include <Eigen/Core>
#include <utility>

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

/// Linear interpolation of a target over `duration` (seconds) from `start`, at `time`
/// (seconds): the target and its rate.
template <typename T>
std::pair<T, T> interpolate(const T& start, const T& target, double duration, double time) {
  if (!(duration > 0.0) || time >= duration) return {target, T(target - target)};
  const double s = time / duration;
  return {T(start + s * (target - start)), T((target - start) / duration)};
}

}  // namespace scl
