#include "tools/filmstrip.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/format.h"
#include "base/svg.h"
#include "runtime/world_metrics.h"

namespace scl {

namespace {

// Left links are drawn lighter and first, so the right side is in front.
const char* linkColour(const LinkDef& link, bool contact) {
  if (contact) return "#d9472b";
  return link.side == 0 ? "#9fb3c8" : "#3d5a80";
}

// The chair (as before), the terrain, and the movable objects with their border.
constexpr const char* kChairColour = "#b08968";
constexpr const char* kTerrainColour = "#a39e93";
constexpr const char* kObjectColour = "#2a9d8f";
constexpr const char* kObjectBorder = "#1d4e47";

// Box2D keeps a polygon this much fatter than its corners (b2_polygonRadius; the scene's
// shapes are made that much smaller, runtime/scene_world.cpp): a polygon is drawn with a
// stroke of twice it so that its outline is the body's size as written.
constexpr double kPolygonSkin = 0.01;

// The centre of an outline: its corners' mean, or its circle's centre.
Vec2 centreOf(const WorldShape& shape) {
  if (shape.corners.empty()) return shape.centre;
  Vec2 sum = Vec2::Zero();
  for (const Vec2& corner : shape.corners) sum += corner;
  return sum / static_cast<double>(shape.corners.size());
}

// The part of the shape's body nearest its centre in `start` (a chain's link carries the
// link's box; a capsule's one part its caps and bar); -1 when its body has no parts.
int carrierOf(const WorldShape& shape, const std::vector<WorldBodyState>& start) {
  const WorldParts parts = partsOf(start, shape.sceneBody);
  const Vec2 centre = centreOf(shape);
  int best = -1;
  double bestDistance = 0.0;
  for (int i = parts.first; i < parts.first + parts.count; ++i) {
    const double distance = (start[static_cast<size_t>(i)].position - centre).squaredNorm();
    if (best < 0 || distance < bestDistance) best = i, bestDistance = distance;
  }
  return best;
}

// The environment's box around the chair's outline (drawn as it always was); its
// outline's box grown by the skin when there is none.
EnvironmentBox chairBox(const WorldShape& shape, const std::vector<EnvironmentBox>& boxes) {
  const Vec2 centre = centreOf(shape);
  const EnvironmentBox* best = nullptr;
  for (const EnvironmentBox& box : boxes)
    if (!best || (box.centre - centre).squaredNorm() < (best->centre - centre).squaredNorm())
      best = &box;
  if (best && (best->centre - centre).norm() < 2.0 * kPolygonSkin) return *best;
  Vec2 low = centre, high = centre;
  for (const Vec2& corner : shape.corners) {
    low = low.cwiseMin(corner);
    high = high.cwiseMax(corner);
  }
  return {0.5 * (low + high), 0.5 * (high - low) + Vec2::Constant(kPolygonSkin)};
}

}  // namespace

FilmstripWorld filmstripWorld(const Simulation& simulation) {
  FilmstripWorld world;
  world.start = simulation.worldBodies();
  const std::vector<SceneBodyDef>& bodies = simulation.definition().scene.bodies;
  for (WorldShape& shape : simulation.worldShapes()) {
    const auto body = static_cast<size_t>(shape.sceneBody);
    const SceneBodyDef* def = body < bodies.size() ? &bodies[body] : nullptr;
    if (def && def->kind == SceneBodyKind::Chair) {
      world.boxes.push_back(chairBox(shape, simulation.environmentBoxes()));
      continue;
    }
    world.parts.push_back(carrierOf(shape, world.start));
    world.names.push_back(def ? def->name : std::string());
    world.shapes.push_back(std::move(shape));
  }
  return world;
}

FilmstripWorld filmstripWorld(const std::vector<EnvironmentBox>& boxes) {
  FilmstripWorld world;
  world.boxes = boxes;
  return world;
}

std::vector<WorldShape> shapesAt(const FilmstripWorld& world,
                                 const std::vector<WorldBodyState>& frame) {
  std::vector<WorldShape> shapes = world.shapes;
  if (frame.size() != world.start.size()) return shapes;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const int part = world.parts[i];
    if (part < 0) continue;
    const WorldBodyState& from = world.start[static_cast<size_t>(part)];
    const WorldBodyState& to = frame[static_cast<size_t>(part)];
    // The rigid motion of the part from the start to the frame.
    const Eigen::Rotation2Dd turn(to.angle - from.angle);
    auto move = [&](const Vec2& point) -> Vec2 {
      return to.position + turn * (point - from.position);
    };
    WorldShape& shape = shapes[i];
    for (Vec2& corner : shape.corners) corner = move(corner);
    shape.centre = move(shape.centre);
  }
  return shapes;
}

std::string renderFilmstrip(const Character& character, const std::vector<FilmstripFrame>& frames,
                            const std::vector<EnvironmentBox>& environment,
                            const FilmstripDef& def) {
  return renderFilmstrip(character, frames, filmstripWorld(environment), def);
}

std::string renderFilmstrip(const Character& character, const std::vector<FilmstripFrame>& frames,
                            const FilmstripWorld& world, const FilmstripDef& def) {
  const double s = def.scale;
  const double panelPixels = def.panelWidth * s;
  const double groundY = def.panelHeight * s;  // pixel row of y = 0
  const double labelSpace = 40.0;
  const double width = panelPixels * static_cast<double>(frames.empty() ? 1 : frames.size());
  const double height = groundY + labelSpace;

  SvgDef page;
  page.width = width;
  page.height = height;
  SvgWriter svg(page);
  svg.background("white");

  for (size_t f = 0; f < frames.size(); ++f) {
    const FilmstripFrame& frame = frames[f];
    const double left = panelPixels * static_cast<double>(f);  // the panel's left edge, px
    double centreX = frame.state.links[static_cast<size_t>(character.roles.pelvis)].com.x();
    // World (x, y) to panel pixels.
    auto px = [&](double x) { return left + panelPixels / 2.0 + (x - centreX) * s; };
    auto py = [&](double y) { return groundY - y * s; };
    const std::string panel = "panel" + std::to_string(f);

    svg.element("g")
        .attribute("class", "frame")
        .attribute("data-time", formatSignificant(frame.time, 6))
        .open();
    svg.element("clipPath").attribute("id", panel).open("");
    svg.element("rect")
        .attribute("x", left)
        .attribute("y", "0")
        .attribute("width", panelPixels)
        .attribute("height", height)
        .close("");
    svg.raw("</clipPath>\n");
    svg.element("g").attribute("clip-path", "url(#" + panel + ")").open();
    svg.rect(left, groundY, panelPixels, labelSpace).attribute("fill", "#e8e2d6").close();
    for (const EnvironmentBox& box : world.boxes) {
      svg.rect(px(box.centre.x() - box.halfSize.x()), py(box.centre.y() + box.halfSize.y()),
               2 * box.halfSize.x() * s, 2 * box.halfSize.y() * s)
          .attribute("fill", kChairColour)
          .close();
    }
    // The terrain, then the objects, where they are at this frame (behind the character).
    const std::vector<WorldShape> shapes = shapesAt(world, frame.world);
    for (const bool movable : {false, true}) {
      const char* fill = movable ? kObjectColour : kTerrainColour;
      const char* edge = movable ? kObjectBorder : kTerrainColour;
      for (size_t i = 0; i < shapes.size(); ++i) {
        const WorldShape& shape = shapes[i];
        if (shape.movable != movable) continue;
        const char* kind = movable ? "object" : "terrain";
        if (shape.corners.empty()) {
          // A circle has no skin: its border lies inside its radius.
          svg.element("circle")
              .attribute("class", kind)
              .attribute("data-body", world.names[i])
              .attribute("cx", px(shape.centre.x()))
              .attribute("cy", py(shape.centre.y()))
              .attribute("r", std::max(0.0, shape.radius - kPolygonSkin) * s)
              .attribute("fill", fill)
              .attribute("stroke", edge)
              .attribute("stroke-width", 2.0 * kPolygonSkin * s)
              .close();
          continue;
        }
        std::vector<SvgPoint> corners;
        for (const Vec2& corner : shape.corners)
          corners.push_back({px(corner.x()), py(corner.y())});
        svg.element("polygon")
            .attribute("class", kind)
            .attribute("data-body", world.names[i])
            .attribute("fill", fill)
            .attribute("stroke", edge)
            .attribute("stroke-width", 2.0 * kPolygonSkin * s)
            .attribute("stroke-linejoin", "round")
            .points(corners, true)
            .close();
      }
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < character.linkCount(); ++i) {
        bool left = character.links[i].side == 0;
        if ((pass == 0) != left) continue;
        const LinkState& link = frame.state.links[i];
        const LinkDef& def = character.links[i];
        Vec2 axis = linkAxis(character, i, link.angle);
        Vec2 normal(-axis.y(), axis.x());
        Vec2 a = link.origin, b = link.origin + def.length * axis;
        double r1 = def.proximalThickness / 2, r2 = def.distalThickness / 2;
        svg.element("g")
            .attribute("fill", linkColour(def, link.contact))
            .attribute("stroke", "#1b263b")
            .attribute("stroke-width", "0.6")
            .open("");
        svg.circle(px(a.x()), py(a.y()), r1 * s).close("");
        svg.circle(px(b.x()), py(b.y()), r2 * s).close("");
        std::vector<SvgPoint> corners;
        const Vec2 outline[4] = {a + r1 * normal, b + r2 * normal, b - r2 * normal,
                                 a - r1 * normal};
        for (const Vec2& c : outline) corners.push_back({px(c.x()), py(c.y())});
        svg.element("polygon").attribute("stroke", "none").points(corners, true).close("");
        svg.closeGroup();
      }
    }
    svg.element("circle")
        .attribute("cx", px(frame.state.com.x()))
        .attribute("cy", py(frame.state.com.y()))
        .attribute("r", "4")
        .attribute("fill", "#ffb703")
        .attribute("stroke", "black")
        .close();
    svg.closeGroup();
    svg.text(left + panelPixels / 2, groundY + 17)
        .attribute("font-family", "sans-serif")
        .attribute("font-size", "14")
        .attribute("text-anchor", "middle")
        .text("t = " + formatFixed(frame.time, 2) + " s" +
              (frame.phase.empty() ? "" : " · " + frame.phase));
    svg.closeGroup();
  }
  return svg.finish();
}

FilmstripSampler::FilmstripSampler(std::vector<double> times, std::optional<double> duration,
                                   double timeStep, int count)
    : count_(count), timeStep_(timeStep) {
  if (!times.empty()) {
    times_ = std::move(times);
  } else if (duration) {
    for (int i = 0; i < count_; ++i) times_.push_back(*duration * i / (count_ - 1));
  } else {
    gridStep_ = std::max(timeStep, 0.005);  // at most 12,000 states for a 60 s run
  }
}

void FilmstripSampler::observe(const StepView& step) {
  const CharacterState& state = step.state;
  const double now = state.time + 0.5 * timeStep_;
  if (gridStep_ > 0.0) {
    if (now >= static_cast<double>(nextGrid_) * gridStep_) {
      grid_.push_back({state.time, std::string(step.phaseName), state,
                       std::vector<WorldBodyState>(step.world.begin(), step.world.end())});
      ++nextGrid_;
    }
    return;
  }
  while (next_ < times_.size() && now >= times_[next_]) {
    frames_.push_back({state.time, std::string(step.phaseName), state,
                       std::vector<WorldBodyState>(step.world.begin(), step.world.end())});
    ++next_;
  }
}

std::vector<FilmstripFrame> FilmstripSampler::finish(const FilmstripFrame& last) {
  if (gridStep_ == 0.0) {
    while (frames_.size() < times_.size()) frames_.push_back(last);  // times at the very end
    return std::move(frames_);
  }
  std::vector<FilmstripFrame> picked;
  for (int i = 0; i < count_ - 1; ++i) {
    double time = last.time * i / (count_ - 1);
    auto index = static_cast<size_t>(std::lround(time / gridStep_));
    picked.push_back(grid_[std::min(index, grid_.size() - 1)]);
  }
  picked.push_back(last);
  return picked;
}

}  // namespace scl
