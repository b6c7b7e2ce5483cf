#include "scl/printer.h"

#include <algorithm>
#include <cctype>

#include "scl/world.h"

namespace scl {

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
    return std::string("vf ") + (vf.stanceBalance ? "sb" : "") + vec(vf.values) +
           " on: " + vf.on.text + ", by: " + vf.by.text;
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
  std::string operator()(const syntax::Com& com) const {
    if (com.standing) {
      const std::string axis = com.axis == 0 ? "" : std::string(1, com.axis) + " ";
      const std::string offset = com.axis == 0     ? vec(com.target)
                                 : com.axis == 'x' ? number(com.target.x)
                                                   : number(com.target.y);
      return "com " + axis + "standing" +
             (com.hasOffset ? " " + offset + (com.inLegs ? " legs" : "") : "") + taskArgs(com.args);
    }
    const std::string target = com.axis == 0     ? vec(com.target)
                               : com.axis == 'x' ? "x " + number(com.target.x)
                                                 : "y " + number(com.target.y);
    return "com " + target + (com.inLegs ? " legs" : "") + taskArgs(com.args);
  }
  std::string operator()(const syntax::AngMom& angmom) const {
    return "angmom " + number(angmom.target) + taskArgs(angmom.args);
  }
  std::string operator()(const syntax::Track& track) const {
    std::string out = "track " + track.on.text + " ";
    if (!track.clip.clips.empty())
      return out + "clip: " + names(track.clip.clips) + clipArgs(track.clip) + taskArgs(track.args);
    out += track.toBody     ? track.toBody->text
           : track.position ? vec(*track.position) + (track.inLegs ? " legs" : "")
           : track.standing ? std::string("standing")
                            : number(*track.angle);
    return out + taskArgs(track.args);
  }
  std::string operator()(const syntax::Posture& posture) const {
    std::string out = "posture";
    if (!posture.clip.clips.empty()) out += " clip: " + names(posture.clip.clips);
    return out + clipArgs(posture.clip) + taskArgs(posture.args);
  }
  std::string operator()(const syntax::ClipItem& item) const {
    std::string out = "clip " + names(item.args.clips);
    if (!item.joints.empty()) out += " joints: " + names(item.joints);
    return out + clipArgs(item.args);
  }
  std::string operator()(const syntax::Support& support) const {
    std::string out = "support ";
    for (size_t i = 0; i < support.links.size(); ++i) {
      if (i > 0) out += ", ";
      out += support.links[i].text;
      const char end = i < support.ends.size() ? support.ends[i] : '\0';
      if (end != '\0') out += end == 'h' ? " heel" : " toe";
    }
    return out;
  }
  std::string operator()(const syntax::Grasp& grasp) const {
    std::string out = "grasp " + joined(grasp.links, [](const Name& n) { return n.text; }) + " " +
                      grasp.body.text;
    if (grasp.reach) out += " reach: " + number(*grasp.reach);
    if (grasp.grip) out += " grip: " + number(*grasp.grip);
    return out;
  }
  std::string operator()(const syntax::Force& force) const {
    std::string out = "force " + force.link.text + " " + vec(force.force);
    if (force.max) out += " max: " + number(*force.max);
    return out + taskArgs(force.args);
  }
  std::string operator()(const syntax::Swing& swing) const {
    std::string out = "swing " + swing.foot.text + " " + vec(swing.target);
    if (swing.inLegs) out += " legs";
    if (swing.lift) out += " lift: " + number(*swing.lift);
    if (swing.feedback) out += " feedback: " + vec(*swing.feedback);
    return out + taskArgs(swing.args);
  }
  std::string operator()(const syntax::Use& use) const { return use.block.text; }

  static std::string names(const std::vector<Name>& list) {
    return joined(list, [](const Name& n) { return n.text; });
  }
  // In canonical order: speed:, from:, loop, nearest (the clips come first).
  static std::string clipArgs(const syntax::ClipArgs& args) {
    std::string out;
    if (args.speed) out += " speed: " + number(*args.speed);
    if (args.from) out += " from: " + number(*args.from);
    if (args.loop) out += " loop";
    if (args.nearest) out += " nearest";
    return out;
  }

  // In canonical order: kp, kd, time:, velocity:, weight, priority.
  static std::string taskArgs(const syntax::TaskArgs& args) {
    std::string out;
    if (args.kp) out += " kp " + number(*args.kp);
    if (args.kd) out += " kd " + number(*args.kd);
    if (args.time) out += " time: " + number(*args.time);
    if (args.velocity) out += " velocity: " + vec(*args.velocity);
    if (args.weight) out += " weight " + number(*args.weight);
    if (args.priority) out += " priority " + number(*args.priority);
    return out;
  }
};

std::string transition(const Transition& t) {
  std::string out = printTransitionCondition(t);
  if (t.backto) {
    out += " backto " + t.backto->text;
    if (t.times) out += " " + number(*t.times) + " times";
  }
  return out;
}

// A name as it is written: bare when it reads as a name, else in quotes (a file path).
std::string nameOrString(const std::string& text) {
  const bool bare =
      !text.empty() && (std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_') &&
      std::all_of(text.begin(), text.end(),
                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  return bare ? text : "\"" + text + "\"";
}

std::string scene(const SceneHeader& s) {
  std::string out = "scene";
  if (s.character) out += " character: " + nameOrString(s.character->text);
  if (s.pose) out += " pose: " + s.pose->text;
  if (s.environment) out += " env: " + s.environment->text;
  if (s.height) out += " height: " + number(*s.height);
  if (s.duration) out += " duration: " + number(*s.duration);
  if (s.world) out += " world: " + nameOrString(s.world->text);
  return out;
}

}  // namespace

namespace {

// One output line of the canonical text and the source line of its node (0: none).
struct Line {
  std::string code;
  int sourceLine = 0;
  /// Indentation of own-line comments that come before it, spaces.
  int commentIndent = 0;
  /// A trailing comment, set when the comments are merged.
  std::string trailing;
};

std::vector<Line> canonicalLines(const syntax::Script& script) {
  std::vector<Line> lines;
  if (script.scene) {
    lines.push_back({scene(*script.scene), script.scene->location.line, 0, {}});
    if (script.world.empty()) lines.push_back({"", 0, 0, {}});
  }
  for (const syntax::WorldStatement& statement : script.world)
    lines.push_back({printWorldStatement(statement), statement.location.line, 0, {}});
  if (!script.world.empty()) lines.push_back({"", 0, 0, {}});
  for (const syntax::ClipDecl& clip : script.clips)
    lines.push_back(
        {"clip " + clip.name.text + ": \"" + clip.file.text + "\"", clip.location.line, 0, {}});
  if (!script.clips.empty()) lines.push_back({"", 0, 0, {}});
  const auto primitiveLines = [&](const std::vector<Primitive>& primitives) {
    for (const Primitive& primitive : primitives)
      lines.push_back({"  [" + std::visit(PrimitivePrinter{}, primitive.node) + "]",
                       primitive.location.line,
                       2,
                       {}});
  };
  for (const syntax::Define& block : script.defines) {
    lines.push_back({"define " + block.name.text + " {", block.location.line, 0, {}});
    primitiveLines(block.primitives);
    lines.push_back({"}", block.end.line, 2, {}});
    lines.push_back({"", 0, 0, {}});
  }
  for (const syntax::Phase& phase : script.phases) {
    lines.push_back({"{", phase.location.line, 0, {}});
    if (phase.name) {
      std::string header = "  (" + phase.name->text + ")";
      if (phase.mirrorOf) header += " : (" + phase.mirrorOf->text + ")";
      lines.push_back({header, phase.name->location.line, 2, {}});
    }
    primitiveLines(phase.primitives);
    lines.push_back({"}", phase.end.line, 2, {}});
    if (phase.exit) lines.push_back({transition(*phase.exit), phase.exit->location.line, 0, {}});
  }
  if (script.finally) {
    lines.push_back({"finally " + transition(script.finally->transition),
                     script.finally->location.line,
                     0,
                     {}});
    std::string backto = "backto " + script.finally->backto.text;
    if (script.finally->times) backto += " " + number(*script.finally->times) + " times";
    lines.push_back({backto, script.finally->backto.location.line, 0, {}});
  }
  return lines;
}

// Puts the comments between and after the lines (see printer.h).
std::vector<Line> withComments(const std::vector<Line>& lines,
                               const std::vector<Comment>& comments) {
  std::vector<Line> out;
  size_t next = 0;
  // A line takes one trailing comment (two would read back as one); more go below it.
  const auto trail = [&](Line& line, const Comment& comment) {
    if (line.trailing.empty()) {
      line.trailing = comment.text;
      return;
    }
    const size_t indent = line.code.find_first_not_of(' ');
    out.push_back(
        {std::string(indent == std::string::npos ? 0 : indent, ' ') + comment.text, 0, 0, {}});
  };
  // Before a line: a comment on its own line stays so; one after code on a line that
  // starts no node (the middle of a phrase split over lines) trails the last node.
  const auto before = [&](const Comment& comment, int indent) {
    if (!comment.ownLine && !out.empty() && out.back().sourceLine > 0)
      return trail(out.back(), comment);
    if (comment.blankLineBefore && !out.empty() && !out.back().code.empty()) out.push_back({});
    out.push_back({std::string(static_cast<size_t>(indent), ' ') + comment.text, 0, 0, {}});
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    if (line.sourceLine > 0)
      for (; next < comments.size() && comments[next].line < line.sourceLine; ++next)
        before(comments[next], line.commentIndent);
    out.push_back(line);
    // A trailing comment goes with the last node that starts on its line.
    const bool lastOnItsLine = i + 1 == lines.size() || lines[i + 1].sourceLine != line.sourceLine;
    if (line.sourceLine > 0 && lastOnItsLine)
      for (; next < comments.size() && comments[next].line == line.sourceLine; ++next)
        trail(out.back(), comments[next]);
  }
  for (; next < comments.size(); ++next) before(comments[next], 0);
  return out;
}

std::string render(const std::vector<Line>& lines) {
  std::string text;
  for (size_t i = 0; i < lines.size();) {
    // A run of consecutive lines with trailing comments aligns them one column apart
    // from its longest code.
    size_t end = i;
    size_t width = 0;
    while (end < lines.size() && !lines[end].trailing.empty())
      width = std::max(width, lines[end++].code.size());
    if (end == i) {
      text += lines[i++].code + "\n";
      continue;
    }
    for (; i < end; ++i)
      text += lines[i].code + std::string(width - lines[i].code.size() + 2, ' ') +
              lines[i].trailing + "\n";
  }
  return text;
}

}  // namespace

std::string print(const syntax::Script& script) { return render(canonicalLines(script)); }

std::string print(const syntax::Script& script, const std::vector<Comment>& comments) {
  return render(withComments(canonicalLines(script), comments));
}

std::string printTransitionCondition(const syntax::Transition& t) {
  std::string out;
  if (t.contact) {
    out += t.after ? "and when contact" : "when contact";
    if (t.event == syntax::ContactEvent::Established) out += " established";
    if (t.event == syntax::ContactEvent::Lost) out += " lost";
    if (t.event == syntax::ContactEvent::Changed) out += " changed";
    if (t.quantifier == syntax::ContactQuantifier::Any) out += " any";
    if (t.quantifier == syntax::ContactQuantifier::All) out += " all";
    out += " " + joined(t.targets, [](const syntax::Name& n) { return n.text; });
    if (t.body) out += " with " + t.body->text;
    if (t.after) out += " after " + number(*t.after);
    if (t.timeout) out += " or after " + number(*t.timeout);
  } else if (t.com) {
    out += t.after ? "and when com " : "when com ";
    out += std::string(comQuantityWord(t.com->quantity)) + (t.com->above ? " > " : " < ") +
           number(t.com->value) + (t.com->legs ? " legs" : "");
    if (t.after) out += " after " + number(*t.after);
    if (t.timeout) out += " or after " + number(*t.timeout);
  } else if (t.holding || t.released) {
    out += t.holding ? "when holding " + t.holding->text : "when released " + t.released->text;
    if (t.timeout) out += " or after " + number(*t.timeout);
  } else if (t.after) {
    out += "after " + number(*t.after);
  }
  return out;
}

}  // namespace scl
