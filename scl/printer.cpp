#include "scl/printer.h"

#include <charconv>

namespace scl {

std::string formatNumber(double value) {
  char buffer[400];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (error != std::errc()) return "0";  // unreachable for finite doubles (at most ~330 chars)
  return std::string(buffer, end);
}

namespace {

using syntax::ContactEvent;
using syntax::ContactQuantifier;
using syntax::Finally;
using syntax::Frame;
using syntax::Gc;
using syntax::Ik;
using syntax::Name;
using syntax::NumberLit;
using syntax::Pd;
using syntax::PdItem;
using syntax::Phase;
using syntax::Primitive;
using syntax::Relax;
using syntax::SceneHeader;
using syntax::Script;
using syntax::Symm;
using syntax::Transition;
using syntax::Vec;
using syntax::Vf;

std::string number(const NumberLit& n) { return (n.parameter ? "@" : "") + formatNumber(n.value); }
std::string vec(const Vec& v) { return "(" + number(v.x) + ", " + number(v.y) + ")"; }

template <typename T, typename F>
std::string joined(const std::vector<T>& items, F format) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + format(items[i]);
  return out;
}

struct PrimitivePrinter {
  std::string operator()(const Pd& pd) const {
    std::string out = joined(pd.items, [](const PdItem& item) {
      std::string text = item.joint.text + " " + number(item.angle);
      if (item.frame == Frame::Child) text += " child";
      if (item.frame == Frame::Parent) text += " parent";
      return text;
    });
    if (pd.time) out += " time: " + number(*pd.time);
    return out;
  }
  std::string operator()(const Vf& vf) const {
    return std::string("vf ") + (vf.stanceBalance ? "sb" : "") + vec(vf.values) + " on: " + vf.on.text +
           ", by: " + vf.by.text;
  }
  std::string operator()(const Ik& ik) const {
    std::string out = "ik " + joined(ik.targets, vec) + " on: " + ik.on.text;
    if (ik.rel) out += " rel: " + ik.rel->text;
    if (ik.time) out += " time: " + number(*ik.time);
    return out;
  }
  std::string operator()(const Relax& relax) const {
    return "relax " + joined(relax.joints, [](const Name& n) { return n.text; }) + " strength " +
           number(relax.strength);
  }
  std::string operator()(const Gc& gc) const {
    std::string out = "gc";
    if (gc.by) out += " by: " + gc.by->text;
    if (gc.strength) out += " strength " + number(*gc.strength);
    return out;
  }
  std::string operator()(const Symm&) const { return "symm"; }
};

std::string transition(const Transition& t) {
  std::string out;
  if (t.contact) {
    out += t.after ? "and when contact" : "when contact";
    if (t.event == ContactEvent::Established) out += " established";
    if (t.event == ContactEvent::Lost) out += " lost";
    if (t.event == ContactEvent::Changed) out += " changed";
    if (t.quantifier == ContactQuantifier::Any) out += " any";
    if (t.quantifier == ContactQuantifier::All) out += " all";
    out += " " + joined(t.targets, [](const Name& n) { return n.text; });
    if (t.after) out += " after " + number(*t.after);
  } else if (t.after) {
    out += "after " + number(*t.after);
  }
  return out;
}

std::string scene(const SceneHeader& s) {
  std::string out = "scene";
  if (s.pose) out += " pose: " + s.pose->text;
  if (s.environment) out += " env: " + s.environment->text;
  if (s.height) out += " height: " + number(*s.height);
  if (s.duration) out += " duration: " + number(*s.duration);
  return out;
}

}  // namespace

std::string print(const syntax::Script& script) {
  std::string out;
  if (script.scene) out += scene(*script.scene) + "\n\n";
  for (const syntax::Phase& phase : script.phases) {
    out += "{\n";
    if (phase.name) {
      out += "  (" + phase.name->text + ")";
      if (phase.mirrorOf) out += " : (" + phase.mirrorOf->text + ")";
      out += "\n";
    }
    for (const syntax::Primitive& primitive : phase.primitives)
      out += "  [" + std::visit(PrimitivePrinter{}, primitive.node) + "]\n";
    out += "}\n";
    if (phase.exit) out += transition(*phase.exit) + "\n";
  }
  if (script.finally) {
    out += "finally " + transition(script.finally->transition) + "\n";
    out += "backto " + script.finally->backto.text + "\n";
  }
  return out;
}

}  // namespace scl
