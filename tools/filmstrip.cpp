#include "tools/filmstrip.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tools/xml_text.h"

namespace scl {

namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

// Left links are drawn lighter and first, so the right side is in front.
const char* linkColour(int link, bool contact) {
  if (contact) return "#d9472b";
  return kLinkNames[link].starts_with("left") ? "#9fb3c8" : "#3d5a80";
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

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" viewBox=\"0 0 " << number(width) << " " << number(height) << "\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";

  for (size_t f = 0; f < frames.size(); ++f) {
    const FilmstripFrame& frame = frames[f];
    const double left = panelPixels * static_cast<double>(f);  // the panel's left edge, px
    double centreX = frame.state.links[kPelvis].com.x();
    // World (x, y) to panel pixels.
    auto px = [&](double x) { return left + panelPixels / 2.0 + (x - centreX) * s; };
    auto py = [&](double y) { return groundY - y * s; };

    svg << "<g class=\"frame\" data-time=\"" << frame.time << "\">\n";
    svg << "<clipPath id=\"panel" << f << "\"><rect x=\"" << number(left) << "\" y=\"0\" width=\""
        << number(panelPixels) << "\" height=\"" << number(height) << "\"/></clipPath>\n";
    svg << "<g clip-path=\"url(#panel" << f << ")\">\n";
    svg << "<rect x=\"" << number(left) << "\" y=\"" << number(groundY) << "\" width=\""
        << number(panelPixels) << "\" height=\"" << number(labelSpace) << "\" fill=\"#e8e2d6\"/>\n";
    for (const EnvironmentBox& box : environment) {
      svg << "<rect x=\"" << number(px(box.centre.x() - box.halfSize.x())) << "\" y=\""
          << number(py(box.centre.y() + box.halfSize.y())) << "\" width=\""
          << number(2 * box.halfSize.x() * s) << "\" height=\"" << number(2 * box.halfSize.y() * s)
          << "\" fill=\"#b08968\"/>\n";
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < kLinkCount; ++i) {
        bool left = kLinkNames[i].starts_with("left");
        if ((pass == 0) != left) continue;
        const LinkState& link = frame.state.links[i];
        const LinkDef& def = character.links[i];
        Vec2 axis = linkAxis(character, i, link.angle);
        Vec2 normal(-axis.y(), axis.x());
        Vec2 a = link.origin, b = link.origin + def.length * axis;
        double r1 = def.proximalThickness / 2, r2 = def.distalThickness / 2;
        const char* colour = linkColour(i, link.contact);
        svg << "<g fill=\"" << colour << "\" stroke=\"#1b263b\" stroke-width=\"0.6\">";
        svg << "<circle cx=\"" << number(px(a.x())) << "\" cy=\"" << number(py(a.y())) << "\" r=\""
            << number(r1 * s) << "\"/>";
        svg << "<circle cx=\"" << number(px(b.x())) << "\" cy=\"" << number(py(b.y())) << "\" r=\""
            << number(r2 * s) << "\"/>";
        Vec2 corners[4] = {a + r1 * normal, b + r2 * normal, b - r2 * normal, a - r1 * normal};
        svg << "<polygon stroke=\"none\" points=\"";
        for (const Vec2& c : corners) svg << number(px(c.x())) << "," << number(py(c.y())) << " ";
        svg << "\"/></g>\n";
      }
    }
    svg << "<circle cx=\"" << number(px(frame.state.com.x())) << "\" cy=\""
        << number(py(frame.state.com.y())) << "\" r=\"4\" fill=\"#ffb703\" stroke=\"black\"/>\n";
    svg << "</g>\n";
    char label[64];
    std::snprintf(label, sizeof label, "t = %.2f s", frame.time);
    svg << "<text x=\"" << number(left + panelPixels / 2) << "\" y=\"" << number(groundY + 17)
        << "\" font-family=\"sans-serif\" font-size=\"14\" text-anchor=\"middle\">" << label;
    if (!frame.phase.empty()) svg << " · " << escapeXml(frame.phase);
    svg << "</text>\n</g>\n";
  }
  svg << "</svg>\n";
  return svg.str();
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
