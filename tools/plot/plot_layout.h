// Laying out PlotData as a stack of panels over one time axis: joint angle against its
// PD target, joint torque against its limit, the centre of mass against the support
// region, the heights, a contact strip per link, phase boundaries as vertical lines. The
// layout draws through PlotCanvas, so `scl plot`'s SVG and the viewer's panel are the
// same drawing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tools/plot/plot_data.h"

namespace scl {

/// What to plot.
struct PlotSelection {
  /// Joints (indices into the character's joints): an angle panel and a torque panel each.
  std::vector<int> joints;
  /// The centre of mass's x against the support region of the feet.
  bool com = false;
  /// Centre-of-mass height and head height.
  bool heights = false;
  /// Heel and toe heights of both feet (heel-off, toe-off, a foot flat on the ground).
  bool feet = false;
  /// Hand heights.
  bool hands = false;
  /// A strip per link, filled where it touches.
  bool contacts = false;
  /// Objects of the scene (indices into PlotData::objects): a panel of its place (x and
  /// y) and one of its angle each.
  std::vector<int> objects;
  /// How many links the contact strip has: the character's (set where the character is
  /// known).
  int contactLinks = kBipedLinkCount;
  /// True when nothing is selected.
  bool empty() const {
    return joints.empty() && !com && !heights && !feet && !hands && !contacts && objects.empty();
  }
};

/// A colour, 0-255 per channel.
struct PlotColour {
  std::uint8_t r = 0, g = 0, b = 0;
};

/// A point on the canvas, pixels (+y down).
struct PlotPoint {
  double x = 0.0;
  double y = 0.0;
};

/// How text is placed relative to its point (the point is on the baseline).
enum class TextAnchor { Start, Middle, End };

/// What the layout draws on: an SVG document or the viewer's window.
class PlotCanvas {
 public:
  virtual ~PlotCanvas() = default;
  /// A polyline of `width` pixels; dashed when `dashed`.
  virtual void polyline(std::span<const PlotPoint> points, PlotColour colour, double width,
                        bool dashed) = 0;
  /// A filled polygon; `opacity` 0-1.
  virtual void polygon(std::span<const PlotPoint> points, PlotColour fill, double opacity) = 0;
  /// A filled rectangle; `opacity` 0-1.
  virtual void rect(double x, double y, double width, double height, PlotColour fill,
                    double opacity) = 0;
  /// One line of text, `size` pixels high.
  virtual void text(double x, double y, std::string_view text, PlotColour colour, double size,
                    TextAnchor anchor) = 0;
  /// How wide `text` is drawn at `size` pixels, pixels: what the layout fits labels by.
  /// By default an estimate for DejaVu Sans (0.62 `size` per character, its widest common
  /// glyphs: digits and most capitals), which an SVG viewer's sans-serif font rarely
  /// exceeds; the viewer measures its font.
  virtual double textWidth(std::string_view text, double size) const;
  /// The series drawn next (until endSeries) is `id` ("leftHip.angle", "com.height"),
  /// with its statistics over the plotted samples (SVG writes them as data attributes).
  virtual void beginSeries(std::string_view /*id*/, double /*first*/, double /*last*/,
                           double /*min*/, double /*max*/) {}
  virtual void endSeries() {}
};

/// Where and how to lay the panels out.
struct PlotFrame {
  /// The area, pixels.
  double x = 0.0, y = 0.0, width = 800.0, height = 600.0;
  /// The time axis, seconds; unset: the data's first and last sample.
  std::optional<double> start, end;
  /// A vertical cursor at this time (the viewer's current or scrubbed time), seconds.
  std::optional<double> cursor;
  /// Text size, pixels.
  double textSize = 12.0;
  /// Width of the left margin for the value axis labels, pixels.
  double leftMargin = 72.0;
  /// Draw each legend entry's last value in the time window.
  bool legendValues = true;
};

/// `text` as drawn in at most `width` pixels at `size` pixels on `canvas`: whole when it
/// fits, else its longest start that fits followed by "…" (never a broken UTF-8 sequence),
/// else "" (not even "…" fits).
std::string fitText(const PlotCanvas& canvas, std::string_view text, double size, double width);

/// The height a selection needs at `frame.textSize`, pixels (an SVG sizes itself by it).
double plotHeight(const PlotSelection& selection, double textSize = 12.0);

/// Draws the selected panels of `data` in `frame`.
void drawPlots(PlotCanvas& canvas, const PlotData& data, const PlotSelection& selection,
               const PlotFrame& frame);

/// Parses "leftHip,leftKnee" (the character's joint names, or a group such as `hips`) into
/// joint indices. Throws std::invalid_argument naming an unknown one with a suggestion.
std::vector<int> parseJointList(std::string_view list, const Character& character);

/// Parses "crate,ball" (names of `data`'s objects) into indices into PlotData::objects.
/// Throws std::invalid_argument naming an unknown one with a suggestion.
std::vector<int> parseObjectList(std::string_view list, const PlotData& data);

}  // namespace scl
