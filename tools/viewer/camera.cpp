#include "tools/viewer/camera.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace scl {

WorldBox bodyBox(const Character& character, const CharacterState& state) {
  WorldBox box{Vec2::Constant(1e300), Vec2::Constant(-1e300)};
  for (int link = 0; link < character.linkCount(); ++link) {
    const LinkDef& def = character.links[link];
    const LinkState& at = state.links[link];
    const Vec2 distal = at.origin + def.length * linkAxis(character, link, at.angle);
    for (const auto& [centre, radius] : {std::pair{at.origin, 0.5 * def.proximalThickness},
                                         std::pair{distal, 0.5 * def.distalThickness}}) {
      box.low = box.low.cwiseMin(centre - Vec2::Constant(radius));
      box.high = box.high.cwiseMax(centre + Vec2::Constant(radius));
    }
  }
  return box;
}

Camera::Camera(const CameraDef& def, const Vec2& viewport, const Vec2& origin)
    : def_(def), viewport_(viewport), origin_(origin) {}

Vec2 Camera::followTarget(const Vec2& com) const {
  return {com.x(), std::max(def_.minCentreHeight, com.y())};
}

void Camera::snapTo(const Vec2& com) { followed_ = followTarget(com); }

void Camera::follow(const Vec2& com, double dt) {
  double blend = 1.0 - std::exp(-def_.followRate * std::max(0.0, dt));
  followed_ += blend * (followTarget(com) - followed_);
}

void Camera::followBody(const Vec2& com, const WorldBox& body, double dt) {
  follow(com, dt);
  if (zoom_ > 1.0) {  // the user zoomed in on a detail: keep it
    fitZoom_ = 1.0;
    return;
  }
  // The zoom that fits the body with its margins; zooming out is immediate (nothing may
  // leave the view), zooming back in smooth.
  const Vec2 needed = body.high - body.low + Vec2::Constant(2.0 * def_.margin);
  const double aspect = viewport_.x() / std::max(1.0, viewport_.y());
  const double fit = std::min(
      {1.0, def_.viewHeight / zoom_ / needed.y(), def_.viewHeight * aspect / zoom_ / needed.x()});
  const double blend = 1.0 - std::exp(-def_.followRate * std::max(0.0, dt));
  fitZoom_ = fit < fitZoom_ ? fit : fitZoom_ + blend * (fit - fitZoom_);
  keepInView(body);
}

void Camera::snapToBody(const Vec2& com, const WorldBox& body) {
  snapTo(com);
  fitZoom_ = 1.0;
  followBody(com, body, 0.0);
}

void Camera::keepInView(const WorldBox& body) {
  const Vec2 half = 0.5 * viewport_ / pixelsPerMetre();
  for (int axis = 0; axis < 2; ++axis) {
    // The centre (without the user's pan) that keeps the body inside, margins included.
    const double low = body.high[axis] + def_.margin - half[axis];
    const double high = body.low[axis] - def_.margin + half[axis];
    followed_[axis] = low <= high ? std::clamp(followed_[axis], low, high) : 0.5 * (low + high);
  }
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

double Camera::pixelsPerMetre() const { return zoom_ * fitZoom_ * viewport_.y() / def_.viewHeight; }

Vec2 Camera::worldToScreen(const Vec2& world) const {
  Vec2 offset = (world - centre()) * pixelsPerMetre();
  return {origin_.x() + 0.5 * viewport_.x() + offset.x(),
          origin_.y() + 0.5 * viewport_.y() - offset.y()};
}

Vec2 Camera::screenToWorld(const Vec2& screen) const {
  Vec2 offset(screen.x() - origin_.x() - 0.5 * viewport_.x(),
              origin_.y() + 0.5 * viewport_.y() - screen.y());
  return centre() + offset / pixelsPerMetre();
}

}  // namespace scl
