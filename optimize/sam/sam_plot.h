// SVG figures of a state–action compatibility model (docs/state-action.md, thesis-style):
// 2-D slices of the space through a focus point, with the sampled points near each slice,
// the regions the learned classifier predicts and its decision = 0 boundary.
//
// Panel (i, j) puts coordinate i on x and coordinate j on y and holds every other
// coordinate at its focus value. The classifier is evaluated at the corners of a
// gridCells × gridCells grid; each cell is shaded by the sign of its corners' mean (runs of
// equal cells in a row merged into one rect) and the boundary is traced by marching
// squares with linear interpolation along the cell edges. With one coordinate (D = 1) the
// figure is a single 1-D strip: coordinate 0 on x, shading and boundary crossings along it.
//
// The output is a pure function of the input: it is drawn through SvgWriter and numbers
// are written by base/format.h (std::to_chars, never the locale), so the same data gives
// the same bytes.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace scl {

/// What a slice plot shows. D = columns.size() coordinates: the states', then the actions'.
struct SamPlotData {
  /// Coordinate names (axis labels and subtitles), D of them.
  std::vector<std::string> columns;
  /// Each coordinate's range, in its own unit (e.g. m, degrees); finite, lower < upper.
  /// The axes span exactly this range; points outside it are not drawn.
  std::vector<double> lower, upper;
  /// Each coordinate's distance scale (> 0, per unit of the coordinate): distances are
  /// |diag(scale)·(p − q)|, e.g. (10, 1/40, 1/40) for a height in m and two angles in °.
  std::vector<double> scale;
  /// Sampled points, each D values in the coordinates' units; may be empty. Points with a
  /// non-finite coordinate are skipped.
  std::vector<std::vector<double>> points;
  /// Label per point: true when the motion succeeded (compatible).
  std::vector<bool> compatible;
  /// The learned classifier, on a point in the coordinates' units: > 0 is predicted
  /// compatible. May be empty (no shading, no boundary). Non-finite values are skipped
  /// (their cells unshaded, no boundary through them); exceptions propagate. Called
  /// (gridCells + 1)² times per panel, on this thread.
  std::function<double(const std::vector<double>&)> decision;
  /// Values (units of each coordinate) of the coordinates not on a panel's axes, D of them;
  /// empty = the middle of each range. Must be finite.
  std::vector<double> focus;
  /// Points to mark with a distinct symbol (e.g. queried actions), each D values, drawn as
  /// stars numbered 1, 2, 3… by their index here; on a panel only within the slab, as
  /// the sampled points are.
  std::vector<std::vector<double>> marked;
  /// Printed above the panels (XML-escaped); empty = no title line.
  std::string title;
};

/// How a slice plot is drawn.
struct SamPlotDef {
  /// Grid cells per axis of each panel (1…1000); the classifier is evaluated at the
  /// (gridCells + 1)² cell corners of every panel.
  int gridCells = 60;
  /// Slab half-width, in scaled distance units: a point (sampled or marked) is drawn on a
  /// panel when every off-axis coordinate d has |scale_d·(p_d − focus_d)| ≤ slab (≥ 0;
  /// +inf draws every point).
  double slab = 0.25;
  /// Side of each panel's plot area, in pixels (50…10000); the 1-D strip is this wide.
  double panelSize = 300;
  /// Panels per row before wrapping to a new row (≥ 1).
  int panelsPerRow = 3;
};

/// An SVG document (starting "<svg", ending "</svg>\n") with one panel per pair of axes
/// (i, j) in `panels` (empty = every pair i < j, in order): x = coordinate i, y =
/// coordinate j (i ≠ j; i > j swaps the axes), the other coordinates at `focus`. With
/// D = 1, `panels` must be empty and the figure is one 1-D strip of coordinate 0.
/// Throws std::invalid_argument, naming the field, on inconsistent sizes, a bad range,
/// scale or focus, a panel index out of range or equal indices, or a bad `def`.
/// Elements carry classes for tools and tests: panel, frame, predicted-compatible,
/// predicted-incompatible, boundary (one path of M…L… segments, in the panel's local
/// pixels: x from 0 at `lower` to panelSize at `upper`, y from panelSize at `lower` up to
/// 0 at `upper`), compatible (circles), incompatible (× paths), marked, marked-label,
/// subtitle, axis-label, tick-label, legend, title.
std::string samSliceSvg(const SamPlotData& data,
                        const std::vector<std::pair<int, int>>& panels = {},
                        const SamPlotDef& def = {});

/// Round tick values (1, 2 or 5 × 10^k apart, about five of them) within [lower, upper],
/// both included when round; {lower, upper} when the range is too narrow for its
/// magnitude. Throws std::invalid_argument unless both are finite and lower < upper.
std::vector<double> samPlotTicks(double lower, double upper);

}  // namespace scl
