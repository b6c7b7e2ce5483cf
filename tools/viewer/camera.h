// The viewer's camera: world metres <-> screen pixels, following the character, with the
// user's zoom and pan on top. Pure math (no SFML) so it is testable and shared with the
// screenshot checker.
#pragma once

#include "kinematics/character_state.h"

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
  /// Room kept between the character and the edge of the view, metres.
  double margin = 0.15;
};

/// The extent of the character in the world, metres (bodyBox()).
struct WorldBox {
  Vec2 low = Vec2::Zero();
  Vec2 high = Vec2::Zero();
};

/// The extent of every link's shape of `state` (caps included), metres.
WorldBox bodyBox(const Character& character, const CharacterState& state);

class Camera {
 public:
  /// `viewport` is the size of the scene's area in pixels, `origin` its top-left corner in
  /// the window.
  Camera(const CameraDef& def, const Vec2& viewport, const Vec2& origin = Vec2::Zero());

  void setViewport(const Vec2& viewport, const Vec2& origin = Vec2::Zero()) {
    viewport_ = viewport;
    origin_ = origin;
  }
  const Vec2& viewport() const { return viewport_; }
  const Vec2& origin() const { return origin_; }

  /// The point the camera follows for a character whose centre of mass is `com`.
  Vec2 followTarget(const Vec2& com) const;
  /// Jumps to the follow target (at start and restart).
  void snapTo(const Vec2& com);
  /// Moves toward the follow target over `dt` seconds of wall time.
  void follow(const Vec2& com, double dt);
  /// follow(), then keeps the whole character (`body`) in view: the view zooms out when
  /// the body is taller or wider than it (and back in smoothly), and moves so that the
  /// body stays `margin` inside its edges. The user's pan is on top of that.
  void followBody(const Vec2& com, const WorldBox& body, double dt);
  /// snapTo() with the body in view at once.
  void snapToBody(const Vec2& com, const WorldBox& body);

  /// Multiplies the zoom by `factor`, keeping the world point under `screenPoint` fixed.
  void zoomAt(const Vec2& screenPoint, double factor);
  /// Moves the view by a mouse drag of `screenDelta` pixels (the world follows the mouse).
  void panBy(const Vec2& screenDelta);
  /// Forgets zoom and pan.
  void resetView();

  /// World point at the centre of the window, metres.
  Vec2 centre() const { return followed_ + panOffset_; }
  double zoom() const { return zoom_; }
  /// The zoom-out applied to fit the body (1: none).
  double fitZoom() const { return fitZoom_; }
  /// Screen pixels per world metre.
  double pixelsPerMetre() const;
  /// Screen pixels have +y down; the world has +y up.
  Vec2 worldToScreen(const Vec2& world) const;
  Vec2 screenToWorld(const Vec2& screen) const;

 private:
  CameraDef def_;
  void keepInView(const WorldBox& body);

  Vec2 viewport_;
  Vec2 origin_;
  /// The zoom-out that fits the body, 0 < fitZoom_ <= 1.
  double fitZoom_ = 1.0;
  /// Where the follow smoothing has got to, metres.
  Vec2 followed_ = Vec2::Zero();
  /// The user's pan, metres, added to the followed point.
  Vec2 panOffset_ = Vec2::Zero();
  double zoom_ = 1.0;
};

}  // namespace scl
