// Drawing the scene and the overlays with SFML 2.5, in window pixels through a Camera.
#pragma once

#include <SFML/Graphics.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "primitives/control_frame.h"
#include "runtime/simulation.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/session.h"
#include "tools/viewer/world_picture.h"

namespace scl {

/// The palette (also read by the screenshot test, which looks for the link colours).
namespace palette {
inline const sf::Color kBackground{236, 240, 244};
inline const sf::Color kGround{120, 132, 110};
inline const sf::Color kGroundTick{96, 106, 88};
/// The terrain: the chair, platforms, walls, tables, stairs, slopes.
inline const sf::Color kTerrain{150, 104, 64};
/// Movable objects (boxes, balls, capsules, chains) and their outline.
inline const sf::Color kObject{150, 110, 200};
inline const sf::Color kObjectOutline{70, 40, 110};
/// Links on the far (left) side, on the midline, on the near (right) side.
inline const sf::Color kLinkFar{52, 84, 150};
inline const sf::Color kLinkMid{66, 110, 196};
inline const sf::Color kLinkNear{98, 146, 228};
/// A link touching the environment.
inline const sf::Color kLinkContact{236, 134, 40};
inline const sf::Color kOutline{24, 32, 48};
inline const sf::Color kCom{214, 40, 40};
inline const sf::Color kFootSpan{40, 170, 80};
inline const sf::Color kVirtualForce{200, 40, 200};
inline const sf::Color kStanceForce{0, 160, 170};
inline const sf::Color kGravityForce{140, 140, 140};
/// The feature QP's plan: its contact forces and its centre-of-mass target.
inline const sf::Color kContactForce{230, 150, 20};
inline const sf::Color kComTarget{214, 40, 40};
inline const sf::Color kDrag{220, 30, 30};
inline const sf::Color kText{20, 24, 32};
}  // namespace palette

struct RendererDef {
  /// Arrow length per newton of a virtual force, metres/N.
  double forceScale = 0.001;
  /// Fonts; when missing the viewer draws no text and says so once on stderr.
  std::string font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  std::string monoFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  /// Text size, pixels.
  unsigned textSize = 15;
};

/// Everything the overlays show.
struct HudInfo {
  std::string script;
  int phase = 0;
  int phaseCount = 0;
  std::string phaseName;
  /// The phase began by the previous one's `or after` fallback, not its condition.
  bool phaseTimedOut = false;
  double phaseTime = 0.0;
  double time = 0.0;
  double speed = 1.0;
  bool paused = false;
  bool continueOnReload = false;
  bool recording = false;
  /// The reloader's status line, and whether it is an error.
  std::string status;
  bool statusIsError = false;
  /// Compile diagnostics (or a runtime failure) drawn over the scene; empty: none.
  std::string diagnostics;
  /// A transient note ("screenshot saved to ...").
  std::string message;
  /// The summary's key figures: standing or fell, rise time, airborne time, energy.
  std::string figures;
  /// Whether the character stands now, and whether it fell (the figures' colour).
  bool standing = false;
  bool fell = false;
  bool showHelp = false;
};

/// The mouse push for drawing: grabbed point, mouse point (world) and the force.
struct DragView {
  Vec2 from = Vec2::Zero();
  Vec2 to = Vec2::Zero();
  double newtons = 0.0;
};

class SceneRenderer {
 public:
  /// Loads the fonts (a stderr note when they are missing).
  explicit SceneRenderer(const RendererDef& def = {});

  /// Background, terrain, ground, objects, character, centre of mass, foot span, forces.
  /// `world`: the world's outlines (ViewerSession::worldOutlines(), or a snapshot's).
  void drawWorld(sf::RenderTarget& target, const Camera& camera, const Character& character,
                 const CharacterState& state, std::span<const WorldOutline> world,
                 std::span<const AppliedForce> forces, const FeatureOverlay& feature = {}) const;
  void drawDrag(sf::RenderTarget& target, const Camera& camera, const DragView& drag) const;
  /// The HUD in the layout's bands (top: phase, time, mode, figures; bottom: status), the
  /// diagnostics and the help over the plot side of the window.
  void drawHud(sf::RenderTarget& target, const HudInfo& hud, const ViewerLayout& layout) const;

  bool hasFont() const { return hasFont_; }
  /// The text font, nullptr when it is missing.
  const sf::Font* font() const { return hasFont_ ? &font_ : nullptr; }

 private:
  void drawGround(sf::RenderTarget& target, const Camera& camera) const;
  /// The outlines of `world` that are movable objects (`objects`) or terrain (not).
  void drawOutlines(sf::RenderTarget& target, const Camera& camera,
                    std::span<const WorldOutline> world, bool objects) const;
  void drawCharacter(sf::RenderTarget& target, const Camera& camera, const Character& character,
                     const CharacterState& state) const;
  void drawBalance(sf::RenderTarget& target, const Camera& camera, const Character& character,
                   const CharacterState& state) const;
  void drawArrow(sf::RenderTarget& target, const Camera& camera, const Vec2& from, const Vec2& to,
                 sf::Color colour, float width) const;
  void drawText(sf::RenderTarget& target, const std::string& text, sf::Vector2f position,
                sf::Color colour, bool mono = false, unsigned size = 0) const;
  void drawPanel(sf::RenderTarget& target, const std::string& text, sf::Vector2f position,
                 sf::Color fill, sf::Color colour, bool mono) const;

  RendererDef def_;
  sf::Font font_;
  sf::Font monoFont_;
  bool hasFont_ = false;
  bool hasMonoFont_ = false;
};

}  // namespace scl
