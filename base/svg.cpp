#include "base/svg.h"

#include <utility>

#include "base/format.h"
#include "base/xml.h"

namespace scl {

SvgElement::SvgElement(SvgWriter& writer, std::string_view tag) : writer_(writer), tag_(tag) {
  writer_.out_ += '<';
  writer_.out_ += tag_;
}

SvgElement& SvgElement::attribute(std::string_view name, double value) {
  return attribute(name, std::string_view(writer_.number(value)));
}

SvgElement& SvgElement::attribute(std::string_view name, std::string_view text) {
  std::string& out = writer_.out_;
  out += ' ';
  out += name;
  out += "=\"";
  out += escapeXml(text);
  out += '"';
  return *this;
}

SvgElement& SvgElement::points(std::span<const SvgPoint> points, bool spaceAfterEach) {
  std::string list;
  for (size_t i = 0; i < points.size(); ++i) {
    if (i > 0 && !spaceAfterEach) list += ' ';
    list += writer_.number(points[i].x) + ',' + writer_.number(points[i].y);
    if (spaceAfterEach) list += ' ';
  }
  return attribute("points", std::string_view(list));
}

void SvgElement::close(std::string_view after) {
  writer_.out_ += "/>";
  writer_.out_ += after;
}

void SvgElement::open(std::string_view after) {
  writer_.out_ += '>';
  writer_.out_ += after;
}

void SvgElement::text(std::string_view content, std::string_view after) {
  markup(escapeXml(content), after);
}

void SvgElement::markup(std::string_view content, std::string_view after) {
  std::string& out = writer_.out_;
  out += '>';
  out += content;
  out += "</";
  out += tag_;
  out += '>';
  out += after;
}

SvgWriter::SvgWriter(const SvgDef& def) : decimals_(def.decimals) {
  if (def.xmlDeclaration) out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const int sizeDecimals = def.sizeDecimals >= 0 ? def.sizeDecimals : def.decimals;
  const std::string width = formatFixed(def.width, sizeDecimals);
  const std::string height = formatFixed(def.height, sizeDecimals);
  out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height +
          "\" viewBox=\"0 0 " + width + ' ' + height + '"';
  if (!def.rootAttributes.empty()) out_ += ' ' + def.rootAttributes;
  out_ += ">\n";
}

SvgElement SvgWriter::element(std::string_view tag) { return SvgElement(*this, tag); }

SvgElement SvgWriter::rect(double x, double y, double width, double height) {
  SvgElement rect = element("rect");
  rect.attribute("x", x).attribute("y", y).attribute("width", width).attribute("height", height);
  return rect;
}

SvgElement SvgWriter::line(double x1, double y1, double x2, double y2) {
  SvgElement line = element("line");
  line.attribute("x1", x1).attribute("y1", y1).attribute("x2", x2).attribute("y2", y2);
  return line;
}

SvgElement SvgWriter::circle(double cx, double cy, double r) {
  SvgElement circle = element("circle");
  circle.attribute("cx", cx).attribute("cy", cy).attribute("r", r);
  return circle;
}

SvgElement SvgWriter::text(double x, double y) {
  SvgElement text = element("text");
  text.attribute("x", x).attribute("y", y);
  return text;
}

void SvgWriter::background(std::string_view fill) {
  element("rect")
      .attribute("width", "100%")
      .attribute("height", "100%")
      .attribute("fill", fill)
      .close();
}

void SvgWriter::closeGroup(std::string_view after) {
  out_ += "</g>";
  out_ += after;
}

void SvgWriter::raw(std::string_view markup) { out_ += markup; }

std::string SvgWriter::number(double value) const { return formatFixed(value, decimals_); }

std::string SvgWriter::finish() {
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace scl
