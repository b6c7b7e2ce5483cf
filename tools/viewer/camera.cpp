#include "tools/viewer/camera.h"

#include <algorithm>
#include <cmath>

namespace scl {

Camera::Camera(const CameraDef& def, const Vec2& viewport) : def_(def), viewport_(viewport) {}

Vec2 Camera::followTarget(const Vec2& com) const {
  return {com.x(), std::max(def_.minCentreHeight, com.y())};
}

void Camera::snapTo(const Vec2& com) { followed_ = followTarget(com); }

void Camera::follow(const Vec2& com, double dt) {
  double blend = 1.0 - std::exp(-def_.followRate * std::max(0.0, dt));
  followed_ += blend * (followTarget(com) - followed_);
}

void Camera::zoomAt(const Vec2& screenPoint, double factor) {
  Vec2 anchor = screenToWorld(screenPoint);
  zoom_ = std::clamp(zoom_ * factor, def_.minZoom, def_.maxZoom);
  // Shift the pan so that `anchor` is under `screenPoint` again.
  panOffset_ += anchor - screenToWorld(screenPoint);
}

void Camera::panBy(const Vec2& screenDelta) {
  panOffset_ += Vec2(-screenDelta.x(), screenDelta.y()) / pixelsPerMetre();
}

void Camera::resetView() {
  panOffset_.setZero();
  zoom_ = 1.0;
}

double Camera::pixelsPerMetre() const { return zoom_ * viewport_.y() / def_.viewHeight; }

Vec2 Camera::worldToScreen(const Vec2& world) const {
  Vec2 offset = (world - centre()) * pixelsPerMetre();
  return {0.5 * viewport_.x() + offset.x(), 0.5 * viewport_.y() - offset.y()};
}

Vec2 Camera::screenToWorld(const Vec2& screen) const {
  Vec2 offset(screen.x() - 0.5 * viewport_.x(), 0.5 * viewport_.y() - screen.y());
  return centre() + offset / pixelsPerMetre();
}

}  // namespace scl
