// A small SVG writer every SVG of scl is drawn through: the document's header and footer,
// elements with their attributes in the order given, coordinates through the one number
// formatter (base/format.h) and text escaped (base/xml.h).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace scl {

/// A point in SVG user units (px, y down).
struct SvgPoint {
  double x = 0.0;  ///< px from the left
  double y = 0.0;  ///< px from the top
};

/// The <svg> element.
struct SvgDef {
  /// Width of the drawing and its viewBox (px).
  double width = 0.0;
  /// Height of the drawing and its viewBox (px).
  double height = 0.0;
  /// Whether the file starts with <?xml version="1.0" encoding="UTF-8"?>.
  bool xmlDeclaration = true;
  /// More attributes of <svg>, after viewBox, as written: `font-family="sans-serif"`.
  std::string rootAttributes;
  /// Decimals of every coordinate and length written as a number (count): one is a tenth
  /// of a pixel, finer than any display.
  int decimals = 1;
  /// Decimals of the width, height and viewBox (count); below 0: `decimals`.
  int sizeDecimals = -1;
};

class SvgWriter;

/// One element being written: "<tag", its attributes, then one of the endings. Refers to
/// its writer, so it lives shorter.
class SvgElement {
 public:
  /// name="value" with `value` to the document's decimals.
  SvgElement& attribute(std::string_view name, double value);
  /// name="text" with `text` escaped.
  SvgElement& attribute(std::string_view name, std::string_view text);
  SvgElement& attribute(std::string_view name, const char* text) {
    return attribute(name, std::string_view(text));
  }
  /// points="x,y x,y": with `spaceAfterEach`, every pair is followed by a space.
  SvgElement& points(std::span<const SvgPoint> points, bool spaceAfterEach = false);
  /// Ends as an empty element: "/>" then `after`.
  void close(std::string_view after = "\n");
  /// Ends the start tag only (a group): ">" then `after`.
  void open(std::string_view after = "\n");
  /// Ends with escaped text content: ">text</tag>" then `after`.
  void text(std::string_view content, std::string_view after = "\n");
  /// Ends with markup as given (tspans; escape their text with escapeXml):
  /// ">markup</tag>" then `after`.
  void markup(std::string_view content, std::string_view after = "\n");

 private:
  friend class SvgWriter;
  SvgElement(SvgWriter& writer, std::string_view tag);

  SvgWriter& writer_;
  std::string_view tag_;
};

/// An SVG document. The constructor writes the header; finish() the footer.
class SvgWriter {
 public:
  explicit SvgWriter(const SvgDef& def);

  /// Starts "<tag"; the element's attributes and ending follow.
  SvgElement element(std::string_view tag);
  /// <rect x y width height ...
  SvgElement rect(double x, double y, double width, double height);
  /// <line x1 y1 x2 y2 ...
  SvgElement line(double x1, double y1, double x2, double y2);
  /// <circle cx cy r ...
  SvgElement circle(double cx, double cy, double r);
  /// <text x y ...
  SvgElement text(double x, double y);
  /// A rect filling the whole drawing in `fill`: <rect width="100%" height="100%" .../>.
  void background(std::string_view fill);
  /// Ends a group: "</g>" then `after`.
  void closeGroup(std::string_view after = "\n");
  /// Markup written as given: fixed pieces such as <defs> or a comment.
  void raw(std::string_view markup);

  /// `value` as every coordinate of this document is written.
  std::string number(double value) const;

  /// The document with its closing "</svg>\n".
  std::string finish();

 private:
  friend class SvgElement;

  std::string out_;
  int decimals_;
};

}  // namespace scl
