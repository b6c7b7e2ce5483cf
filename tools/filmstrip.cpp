#include "tools/filmstrip.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/format.h"
#include "base/svg.h"

namespace scl {

namespace {

// Left links are drawn lighter and first, so the right side is in front.
const char* linkColour(const LinkDef& link, bool contact) {
  if (contact) return "#d9472b";
  return link.side == 0 ? "#9fb3c8" : "#3d5a80";
}

}  // namespace

std::string renderFilmstrip(const Character& character, const std::vector<FilmstripFrame>& frames,
                            const std::vector<EnvironmentBox>& environment,
                            const FilmstripDef& def) {
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
    for (const EnvironmentBox& box : environment) {
      svg.rect(px(box.centre.x() - box.halfSize.x()), py(box.centre.y() + box.halfSize.y()),
               2 * box.halfSize.x() * s, 2 * box.halfSize.y() * s)
          .attribute("fill", "#b08968")
          .close();
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
      grid_.push_back({state.time, std::string(step.phaseName), state});
      ++nextGrid_;
    }
    return;
  }
  while (next_ < times_.size() && now >= times_[next_]) {
    frames_.push_back({state.time, std::string(step.phaseName), state});
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
