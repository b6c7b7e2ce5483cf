#include "tools/viewer/renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "tools/viewer/keys.h"
#include "tools/viewer/link_geometry.h"

namespace scl {

namespace {

sf::Vector2f toPixels(const Vec2& point) {
  return {static_cast<float>(point.x()), static_cast<float>(point.y())};
}

enum class Side { Far, Mid, Near };

Side sideOf(const Character& character, int link) {
  const int side = character.links[static_cast<size_t>(link)].side;
  return side < 0 ? Side::Mid : side == 0 ? Side::Far : Side::Near;
}

sf::Color linkColour(const Character& character, int link, bool contact) {
  if (contact) return palette::kLinkContact;
  switch (sideOf(character, link)) {
    case Side::Far:
      return palette::kLinkFar;
    case Side::Mid:
      return palette::kLinkMid;
    case Side::Near:
      return palette::kLinkNear;
  }
  return palette::kLinkMid;
}

void drawCircle(sf::RenderTarget& target, sf::Vector2f centre, float radius, sf::Color fill,
                float outline = 0.0f, sf::Color outlineColour = sf::Color::Transparent) {
  sf::CircleShape circle(radius, 28);
  circle.setOrigin(radius, radius);
  circle.setPosition(centre);
  circle.setFillColor(fill);
  circle.setOutlineThickness(outline);
  circle.setOutlineColor(outlineColour);
  target.draw(circle);
}

// A thick line segment, pixels.
void drawSegment(sf::RenderTarget& target, sf::Vector2f from, sf::Vector2f to, float width,
                 sf::Color colour) {
  sf::Vector2f delta = to - from;
  float length = std::hypot(delta.x, delta.y);
  if (length <= 0.0f) return;
  sf::RectangleShape bar({length, width});
  bar.setOrigin(0.0f, 0.5f * width);
  bar.setPosition(from);
  bar.setRotation(std::atan2(delta.y, delta.x) * 180.0f / static_cast<float>(kPi));
  bar.setFillColor(colour);
  target.draw(bar);
}

bool loadFont(sf::Font& font, const std::string& path) {
  std::error_code error;
  // Checked first: SFML's own failure message is noisy and less clear.
  return std::filesystem::is_regular_file(path, error) && font.loadFromFile(path);
}

std::string formatHudLine(const HudInfo& hud) {
  char line[256];
  std::string name = hud.phaseName.empty() ? "" : " '" + hud.phaseName + "'";
  if (hud.phaseTimedOut) name += " (by timeout)";
  std::snprintf(line, sizeof line, "phase %d/%d%s   phase time %.2f s   time %.3f s", hud.phase + 1,
                hud.phaseCount, name.c_str(), hud.phaseTime, hud.time);
  return line;
}

std::string formatModeLine(const HudInfo& hud) {
  char speed[64];
  if (hud.speed >= 1.0)
    std::snprintf(speed, sizeof speed, "speed x%g", hud.speed);
  else
    std::snprintf(speed, sizeof speed, "speed x1/%g", 1.0 / hud.speed);
  std::string line = speed;
  if (hud.paused) line += "   PAUSED";
  line += hud.continueOnReload ? "   on save: continue" : "   on save: restart";
  if (hud.recording) line += "   REC";
  line += "   F1/? help";
  return line;
}

// At most `maxLines` lines, with a note of how many were left out.
std::string firstLines(const std::string& text, int maxLines) {
  std::istringstream in(text);
  std::string line, kept;
  int count = 0, dropped = 0;
  while (std::getline(in, line)) {
    if (count < maxLines) {
      kept += line + "\n";
      ++count;
    } else {
      ++dropped;
    }
  }
  if (dropped > 0) kept += "... (" + std::to_string(dropped) + " more lines)\n";
  if (!kept.empty()) kept.pop_back();
  return kept;
}

}  // namespace

SceneRenderer::SceneRenderer(const RendererDef& def) : def_(def) {
  hasFont_ = loadFont(font_, def_.font);
  hasMonoFont_ = loadFont(monoFont_, def_.monoFont);
  if (!hasFont_)
    std::cerr << "scl view: font " << def_.font
              << " not found (install fonts-dejavu-core); drawing without text\n";
}

void SceneRenderer::drawWorld(sf::RenderTarget& target, const Camera& camera,
                              const Character& character, const CharacterState& state,
                              std::span<const WorldOutline> world,
                              std::span<const AppliedForce> forces,
                              const FeatureOverlay& feature) const {
  target.clear(palette::kBackground);
  // The terrain stands on the ground, which covers whatever of it reaches below y = 0.
  drawOutlines(target, camera, world, false);
  drawGround(target, camera);
  drawOutlines(target, camera, world, true);
  drawCharacter(target, camera, character, state);
  drawBalance(target, camera, character, state);
  for (const AppliedForce& force : forces) {
    sf::Color colour = force.kind == ForceKind::Virtual         ? palette::kVirtualForce
                       : force.kind == ForceKind::StanceBalance ? palette::kStanceForce
                                                                : palette::kGravityForce;
    float width = force.kind == ForceKind::Gravity ? 1.5f : 3.0f;
    drawArrow(target, camera, force.point, force.point + def_.forceScale * force.force, colour,
              width);
  }
  for (const PlannedContactForce& force : feature.contactForces)
    drawArrow(target, camera, force.point, force.point + def_.forceScale * force.force,
              palette::kContactForce, 2.0f);
  if (feature.comTarget) {
    // A hollow diamond where the QP wants the centre of mass (the filled circle is where it is).
    const sf::Vector2f at = toPixels(camera.worldToScreen(*feature.comTarget));
    const float r = 8.0f;
    const std::array<sf::Vector2f, 4> corners = {at + sf::Vector2f(0, -r), at + sf::Vector2f(r, 0),
                                                 at + sf::Vector2f(0, r), at + sf::Vector2f(-r, 0)};
    for (size_t i = 0; i < corners.size(); ++i)
      drawSegment(target, corners[i], corners[(i + 1) % corners.size()], 2.0f, palette::kComTarget);
  }
}

void SceneRenderer::drawGround(sf::RenderTarget& target, const Camera& camera) const {
  sf::Vector2u size = target.getSize();
  float groundY = static_cast<float>(camera.worldToScreen(Vec2::Zero()).y());
  if (groundY >= static_cast<float>(size.y)) return;
  float top = std::max(0.0f, groundY);
  sf::RectangleShape ground({static_cast<float>(size.x), static_cast<float>(size.y) - top});
  ground.setPosition(0.0f, top);
  ground.setFillColor(palette::kGround);
  target.draw(ground);
  // A tick every metre, so that motion shows although the camera follows.
  Vec2 left = camera.screenToWorld(Vec2(0.0, groundY));
  Vec2 right = camera.screenToWorld(Vec2(size.x, groundY));
  double metresPerPixel = 1.0 / camera.pixelsPerMetre();
  if (metresPerPixel > 0.1) return;  // zoomed out too far for ticks to mean anything
  for (double x = std::ceil(left.x()); x <= right.x(); x += 1.0) {
    float px = static_cast<float>(camera.worldToScreen(Vec2(x, 0.0)).x());
    drawSegment(target, {px, groundY}, {px, groundY + 10.0f}, 2.0f, palette::kGroundTick);
  }
}

void SceneRenderer::drawOutlines(sf::RenderTarget& target, const Camera& camera,
                                 std::span<const WorldOutline> world, bool objects) const {
  const sf::Color fill = objects ? palette::kObject : palette::kTerrain;
  const double scale = camera.pixelsPerMetre();
  // Pass 0 draws each outline with its border, pass 1 its fill again without: a part made
  // of several shapes (a capsule's caps and bar) shows no seams inside it. The terrain has
  // no border: its pieces (a table's top and legs, the steps of stairs) make one solid.
  auto draw = [&](const WorldOutline& item, bool border) {
    const WorldShape& shape = item.shape;
    const float thickness = border ? 1.5f : 0.0f;
    if (shape.corners.empty()) {
      drawCircle(target, toPixels(camera.worldToScreen(shape.centre)),
                 static_cast<float>(shape.radius * scale), fill, thickness,
                 palette::kObjectOutline);
      return;
    }
    sf::ConvexShape polygon(shape.corners.size());
    for (size_t i = 0; i < shape.corners.size(); ++i)
      polygon.setPoint(i, toPixels(camera.worldToScreen(shape.corners[i])));
    polygon.setFillColor(fill);
    polygon.setOutlineThickness(thickness);
    polygon.setOutlineColor(palette::kObjectOutline);
    target.draw(polygon);
  };
  for (size_t begin = 0; begin < world.size();) {
    size_t end = begin + 1;  // one part's outlines
    while (end < world.size() && world[end].slot >= 0 && world[end].slot == world[begin].slot)
      ++end;
    if (world[begin].shape.movable == objects) {
      for (int pass = objects ? 0 : 1; pass < 2; ++pass)
        for (size_t i = begin; i < end; ++i) draw(world[i], pass == 0);
      for (size_t i = begin; i < end; ++i)
        if (world[i].rim)  // a spoke that turns with the ball
          drawSegment(target, toPixels(camera.worldToScreen(world[i].shape.centre)),
                      toPixels(camera.worldToScreen(*world[i].rim)), 1.5f, palette::kObjectOutline);
    }
    begin = end;
  }
}

void SceneRenderer::drawCharacter(sf::RenderTarget& target, const Camera& camera,
                                  const Character& character, const CharacterState& state) const {
  float outline = 1.5f;
  for (Side side : {Side::Far, Side::Mid, Side::Near}) {
    for (int link = 0; link < character.linkCount(); ++link) {
      if (sideOf(character, link) != side) continue;
      CappedTrapezoid shape = linkShape(character, link, state.links[link]);
      sf::Color fill = linkColour(character, link, state.links[link].contact);
      double scale = camera.pixelsPerMetre();
      sf::ConvexShape trapezoid(4);
      for (int i = 0; i < 4; ++i)
        trapezoid.setPoint(i, toPixels(camera.worldToScreen(shape.corners[i])));
      trapezoid.setFillColor(fill);
      // Outlines first, then the trapezoid's fill again over the seams inside the link.
      trapezoid.setOutlineThickness(outline);
      trapezoid.setOutlineColor(palette::kOutline);
      target.draw(trapezoid);
      drawCircle(target, toPixels(camera.worldToScreen(shape.proximal)),
                 static_cast<float>(shape.proximalRadius * scale), fill, outline,
                 palette::kOutline);
      drawCircle(target, toPixels(camera.worldToScreen(shape.distal)),
                 static_cast<float>(shape.distalRadius * scale), fill, outline, palette::kOutline);
      trapezoid.setOutlineThickness(0.0f);
      target.draw(trapezoid);
    }
  }
}

void SceneRenderer::drawBalance(sf::RenderTarget& target, const Camera& camera,
                                const Character& character, const CharacterState& state) const {
  // Foot span: the horizontal extent of both feet, with its middle, drawn at the height of
  // their lowest point (the ground, or a platform or box they stand on).
  double low = 1e9, high = -1e9, bottom = 1e9;
  for (int foot : character.roles.feet()) {
    CappedTrapezoid shape = linkShape(character, foot, state.links[foot]);
    low = std::min(
        {low, shape.proximal.x() - shape.proximalRadius, shape.distal.x() - shape.distalRadius});
    high = std::max(
        {high, shape.proximal.x() + shape.proximalRadius, shape.distal.x() + shape.distalRadius});
    bottom = std::min(
        {bottom, shape.proximal.y() - shape.proximalRadius, shape.distal.y() - shape.distalRadius});
  }
  bottom = std::max(bottom, 0.0);
  sf::Vector2f spanLow = toPixels(camera.worldToScreen(Vec2(low, bottom)));
  sf::Vector2f spanHigh = toPixels(camera.worldToScreen(Vec2(high, bottom)));
  drawSegment(target, spanLow, spanHigh, 5.0f, palette::kFootSpan);
  sf::Vector2f middle = 0.5f * (spanLow + spanHigh);
  drawSegment(target, middle + sf::Vector2f(0.0f, -8.0f), middle + sf::Vector2f(0.0f, 8.0f), 2.0f,
              palette::kFootSpan);

  // Whole-body centre of mass and its projection on the ground.
  sf::Vector2f com = toPixels(camera.worldToScreen(state.com));
  sf::Vector2f foot = toPixels(camera.worldToScreen(Vec2(state.com.x(), bottom)));
  for (float y = com.y + 8.0f; y < foot.y; y += 12.0f)
    drawSegment(target, {com.x, y}, {com.x, std::min(y + 6.0f, foot.y)}, 1.5f, palette::kCom);
  drawCircle(target, com, 6.0f, sf::Color::White, 2.0f, palette::kCom);
  drawSegment(target, com + sf::Vector2f(-6.0f, 0.0f), com + sf::Vector2f(6.0f, 0.0f), 2.0f,
              palette::kCom);
  drawSegment(target, com + sf::Vector2f(0.0f, -6.0f), com + sf::Vector2f(0.0f, 6.0f), 2.0f,
              palette::kCom);
}

void SceneRenderer::drawArrow(sf::RenderTarget& target, const Camera& camera, const Vec2& from,
                              const Vec2& to, sf::Color colour, float width) const {
  sf::Vector2f start = toPixels(camera.worldToScreen(from));
  sf::Vector2f end = toPixels(camera.worldToScreen(to));
  sf::Vector2f delta = end - start;
  float length = std::hypot(delta.x, delta.y);
  if (length < 1.0f) return;
  sf::Vector2f direction = delta / length;
  float head = std::min(length, 4.0f * width + 6.0f);
  sf::Vector2f base = end - head * direction;
  drawSegment(target, start, base, width, colour);
  sf::Vector2f across(-direction.y, direction.x);
  sf::ConvexShape tip(3);
  tip.setPoint(0, end);
  tip.setPoint(1, base + 0.5f * head * across);
  tip.setPoint(2, base - 0.5f * head * across);
  tip.setFillColor(colour);
  target.draw(tip);
}

void SceneRenderer::drawDrag(sf::RenderTarget& target, const Camera& camera,
                             const DragView& drag) const {
  sf::Vector2f from = toPixels(camera.worldToScreen(drag.from));
  sf::Vector2f to = toPixels(camera.worldToScreen(drag.to));
  drawSegment(target, from, to, 2.0f, palette::kDrag);
  drawCircle(target, from, 4.0f, palette::kDrag);
  drawCircle(target, to, 3.0f, sf::Color::White, 1.5f, palette::kDrag);
  char label[32];
  std::snprintf(label, sizeof label, "%.0f N", drag.newtons);
  drawText(target, label, to + sf::Vector2f(8.0f, -20.0f), palette::kDrag);
}

void SceneRenderer::drawHud(sf::RenderTarget& target, const HudInfo& hud,
                            const ViewerLayout& layout) const {
  if (!hasFont_) return;
  sf::Vector2u size = target.getSize();
  // The bands are the HUD's own, outside the scene: no text covers the character.
  const sf::Color band(255, 255, 255, 235);
  for (const PixelRect& rect : {layout.hud, layout.status}) {
    sf::RectangleShape background(
        {static_cast<float>(rect.width), static_cast<float>(rect.height)});
    background.setPosition(static_cast<float>(rect.x), static_cast<float>(rect.y));
    background.setFillColor(band);
    target.draw(background);
  }
  const float lineHeight = static_cast<float>(def_.textSize) * 1.35f;
  const float top = static_cast<float>(layout.hud.y) + 5.0f;
  drawText(target, formatHudLine(hud), {10.0f, top}, palette::kText);
  drawText(target, formatModeLine(hud), {10.0f, top + lineHeight}, palette::kText);
  const sf::Color figures = hud.fell       ? sf::Color(190, 30, 30)
                            : hud.standing ? sf::Color(20, 130, 60)
                                           : palette::kText;
  drawText(target, hud.figures, {10.0f, top + 2.0f * lineHeight}, figures);

  sf::Color statusColour = hud.statusIsError ? sf::Color(170, 20, 20) : palette::kText;
  std::string bottom = hud.status;
  if (!hud.message.empty()) bottom = hud.message + "   " + bottom;
  drawText(target, bottom, {10.0f, static_cast<float>(layout.status.y) + 4.0f}, statusColour);

  if (!hud.diagnostics.empty())
    drawPanel(target, firstLines(hud.diagnostics, 14),
              {8.0f, static_cast<float>(layout.scene.y) + 8.0f}, sf::Color(255, 228, 228, 235),
              sf::Color(140, 0, 0), true);

  if (hud.showHelp) {
    std::string help = "keys\n";
    for (const std::string& line : keyHelp()) help += line + "\n";
    help.pop_back();
    drawPanel(target, help, {static_cast<float>(size.x) * 0.5f - 260.0f, 90.0f},
              sf::Color(255, 255, 255, 240), palette::kText, true);
  }
}

void SceneRenderer::drawText(sf::RenderTarget& target, const std::string& text,
                             sf::Vector2f position, sf::Color colour, bool mono,
                             unsigned size) const {
  if (!hasFont_) return;
  const sf::Font& font = mono && hasMonoFont_ ? monoFont_ : font_;
  sf::Text label(sf::String::fromUtf8(text.begin(), text.end()), font, size ? size : def_.textSize);
  label.setFillColor(colour);
  label.setPosition(position);
  target.draw(label);
}

void SceneRenderer::drawPanel(sf::RenderTarget& target, const std::string& text,
                              sf::Vector2f position, sf::Color fill, sf::Color colour,
                              bool mono) const {
  if (!hasFont_ || text.empty()) return;
  const sf::Font& font = mono && hasMonoFont_ ? monoFont_ : font_;
  sf::Text label(sf::String::fromUtf8(text.begin(), text.end()), font, def_.textSize);
  label.setFillColor(colour);
  label.setPosition(position + sf::Vector2f(6.0f, 4.0f));
  sf::FloatRect bounds = label.getGlobalBounds();
  sf::RectangleShape background({bounds.width + 14.0f, bounds.height + 14.0f});
  background.setPosition(position);
  background.setFillColor(fill);
  target.draw(background);
  target.draw(label);
}

}  // namespace scl
