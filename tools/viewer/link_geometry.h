// Link outlines for drawing and mouse picking, and the spring of a mouse drag. Pure math.
#pragma once

#include <array>
#include <optional>

#include "kinematics/character_state.h"

namespace scl {

/// A link's true shape in the world: a cap circle at each end and the trapezoid whose
/// parallel sides are the cap diameters through the cap centres (as in the Box2D body).
struct CappedTrapezoid {
  Vec2 proximal = Vec2::Zero();
  Vec2 distal = Vec2::Zero();
  /// Cap radii, metres.
  double proximalRadius = 0.0;
  double distalRadius = 0.0;
  /// Trapezoid corners, counter-clockwise or clockwise in order around the outline.
  std::array<Vec2, 4> corners{};
};

CappedTrapezoid linkShape(const Character& character, int link, const LinkState& state);

/// True when `point` lies inside the shape (either cap or the trapezoid).
bool contains(const CappedTrapezoid& shape, const Vec2& point);

/// The link under `point`: the one containing it whose axis is nearest, else the link
/// whose outline is within `tolerance` metres; nullopt when none is.
std::optional<int> pickLink(const Character& character, const CharacterState& state,
                            const Vec2& point, double tolerance);

/// A point fixed on a link, in the link's own frame: `along` its axis from the origin and
/// `across` to the left of the axis, metres.
struct LinkPoint {
  int link = 0;
  double along = 0.0;
  double across = 0.0;
};

LinkPoint toLinkPoint(const Character& character, int link, const LinkState& state,
                      const Vec2& world);
Vec2 toWorld(const Character& character, const LinkPoint& point, const LinkState& state);
/// Velocity of a point fixed on the link, m/s.
Vec2 pointVelocity(const LinkState& state, const Vec2& world);

struct DragSpringDef {
  /// Spring stiffness, N/m.
  double stiffness = 500.0;
  /// Damping of the grabbed point's velocity, N·s/m.
  double damping = 60.0;
  /// Largest force, N (a drag far off-screen should not fling the character).
  double maxForce = 1500.0;
};

/// The force on the grabbed point pulling it toward `mouse`:
/// k (mouse - p) - c v, capped at maxForce.
Vec2 dragSpringForce(const DragSpringDef& def, const Vec2& grabbed, const Vec2& grabbedVelocity,
                     const Vec2& mouse);

}  // namespace scl
