// The viewer's camera: world metres <-> screen pixels, following the character, with the
// user's zoom and pan on top. Pure math (no SFML) so it is testable and shared with the
// screenshot checker.
#pragma once

#include "primitives/character_state.h"

namespace scl {

struct CameraDef {
  /// Metres visible from the top to the bottom of the window at zoom 1.
  double viewHeight = 2.8;
  /// The view centre is never lower than this, metres, so the ground stays in view
  /// when the character lies down.
  double minCentreHeight = 1.0;
  /// How fast the view catches up with the character, 1/s (exponential smoothing).
  double followRate = 4.0;
  /// Zoom limits (1 = viewHeight metres tall).
  double minZoom = 0.1;
  double maxZoom = 20.0;
};

class Camera {
 public:
  /// `viewport` is the window size in pixels.
  Camera(const CameraDef& def, const Vec2& viewport);

  void setViewport(const Vec2& viewport) { viewport_ = viewport; }
  const Vec2& viewport() const { return viewport_; }

  /// The point the camera follows for a character whose centre of mass is `com`.
  Vec2 followTarget(const Vec2& com) const;
  /// Jumps to the follow target (at start and restart).
  void snapTo(const Vec2& com);
  /// Moves toward the follow target over `dt` seconds of wall time.
  void follow(const Vec2& com, double dt);

  /// Multiplies the zoom by `factor`, keeping the world point under `screenPoint` fixed.
  void zoomAt(const Vec2& screenPoint, double factor);
  /// Moves the view by a mouse drag of `screenDelta` pixels (the world follows the mouse).
  void panBy(const Vec2& screenDelta);
  /// Forgets zoom and pan.
  void resetView();

  /// World point at the centre of the window, metres.
  Vec2 centre() const { return followed_ + panOffset_; }
  double zoom() const { return zoom_; }
  /// Screen pixels per world metre.
  double pixelsPerMetre() const;
  /// Screen pixels have +y down; the world has +y up.
  Vec2 worldToScreen(const Vec2& world) const;
  Vec2 screenToWorld(const Vec2& screen) const;

 private:
  CameraDef def_;
  Vec2 viewport_;
  /// Where the follow smoothing has got to, metres.
  Vec2 followed_ = Vec2::Zero();
  /// The user's pan, metres, added to the followed point.
  Vec2 panOffset_ = Vec2::Zero();
  double zoom_ = 1.0;
};

}  // namespace scl
