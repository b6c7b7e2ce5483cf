// BVH files: the reader, the writer, mapping files and the import onto a character
// (bvh.h).
#include "scl/bvh.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "base/format.h"
#include "scl/line_parser.h"
#include "scl/names.h"

namespace scl {

namespace {

constexpr std::array<std::string_view, 6> kChannelNames = {"Xposition", "Yposition", "Zposition",
                                                           "Xrotation", "Yrotation", "Zrotation"};
constexpr std::array<std::string_view, 3> kAxisNames = {"x", "y", "z"};

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// --- reading BVH ---------------------------------------------------------------------

// A BVH word: whitespace-separated text, `{` and `}` words of their own.
struct BvhWord {
  std::string_view text;
  int line = 0;
  int column = 0;
};

class BvhReader {
 public:
  BvhReader(std::string_view text, std::string_view fileName, DiagnosticSink& sink)
      : text_(text), file_(fileName), sink_(sink) {
    advance();
  }

  // bvh := "HIERARCHY" joint "MOTION" "Frames:" INT "Frame" "Time:" NUM { NUM }
  Bvh parseFile() {
    if (!keyword("HIERARCHY", "'HIERARCHY' to begin a BVH file")) return std::move(bvh_);
    if (!parseHierarchy()) return std::move(bvh_);
    if (!keyword("MOTION", "'MOTION' after the hierarchy") ||
        !keyword("Frames:", "'Frames: N' (the number of frames)"))
      return std::move(bvh_);
    const BvhWord countAt = word_;
    const std::optional<double> count = number("the number of frames");
    if (!count) return std::move(bvh_);
    if (*count < 0 || *count != std::floor(*count) || *count > 1e8)
      return fail(countAt, "the number of frames must be a whole number ≥ 0"), std::move(bvh_);
    if (!keyword("Frame", "'Frame Time: SECONDS'") || !keyword("Time:", "'Time:' after 'Frame'"))
      return std::move(bvh_);
    const BvhWord timeAt = word_;
    const std::optional<double> time = number("the time between frames (s)");
    if (!time) return std::move(bvh_);
    if (!(*time > 0) || *time > 1000)
      return fail(timeAt, "the frame time must be above 0 and at most 1000 s (found " +
                              formatNumber(*time) + ")"),
             std::move(bvh_);
    bvh_.frameTime = *time;
    parseFrames(static_cast<long>(*count), countAt);
    return std::move(bvh_);
  }

 private:
  // The joints, read with an explicit stack (a deeply nested file cannot overflow the
  // program's). joint := ( "ROOT" | "JOINT" ) NAME "{" "OFFSET" NUM NUM NUM
  //                      [ "CHANNELS" INT { CHANNEL } ] { joint | end-site } "}"
  bool parseHierarchy() {
    if (!isKeyword("ROOT")) return expected("'ROOT NAME' (the hierarchy's root joint)"), false;
    std::vector<int> open;  // the joints whose '}' is still to come
    std::set<std::string, std::less<>> names;
    do {
      if (isKeyword("End")) {
        if (open.empty()) return expected("'JOINT' or '}'"), false;
        if (!parseEndSite(bvh_.joints[static_cast<size_t>(open.back())])) return false;
      } else if (isKeyword("}")) {
        if (open.empty()) return expected("'MOTION'"), false;
        open.pop_back();
        advance();
      } else if (isKeyword(open.empty() ? "ROOT" : "JOINT")) {
        if (!open.empty() && bvh_.joints.size() >= static_cast<size_t>(kMaxBvhJoints))
          return fail(word_, "the file has more than " + std::to_string(kMaxBvhJoints) + " joints"),
                 false;
        if (open.empty() && !bvh_.joints.empty())
          return fail(word_, "the file has a second root: a BVH hierarchy has one"), false;
        BvhJoint joint;
        joint.parent = open.empty() ? -1 : open.back();
        if (!parseJointHead(joint, names)) return false;
        open.push_back(static_cast<int>(bvh_.joints.size()));
        bvh_.joints.push_back(std::move(joint));
      } else {
        return expected(open.empty() ? "'ROOT NAME'" : "'JOINT NAME', 'End Site' or '}'"), false;
      }
    } while (!open.empty() && !sink_.full());
    return !sink_.full();
  }

  // ( "ROOT" | "JOINT" ) NAME "{" "OFFSET" NUM NUM NUM [ "CHANNELS" INT { CHANNEL } ]
  bool parseJointHead(BvhJoint& joint, std::set<std::string, std::less<>>& names) {
    const int line = word_.line;
    advance();
    if (atEnd() || word_.line != line || word_.text == "{")
      return expected("the joint's name"), false;
    joint.location = location(word_);
    // A name of several words is one, joined by '_' (as Blender reads it).
    while (!atEnd() && word_.line == line && word_.text != "{") {
      joint.name += (joint.name.empty() ? "" : "_") + std::string(word_.text);
      advance();
    }
    if (!names.insert(joint.name).second)
      return sink_.error(joint.location, "joint '" + quoteToken(joint.name) + "' is given twice"),
             false;
    if (!keyword("{", "'{' after the joint's name") || !parseOffset(joint.offset)) return false;
    if (!isKeyword("CHANNELS")) return true;
    advance();
    const BvhWord countAt = word_;
    const std::optional<double> count = number("the number of channels");
    if (!count) return false;
    if (*count < 0 || *count > kMaxBvhChannels || *count != std::floor(*count))
      return fail(countAt, "a joint has from 0 to 6 channels (found " + formatNumber(*count) + ")"),
             false;
    joint.firstChannel = bvh_.channelCount;
    for (int c = 0; c < static_cast<int>(*count); ++c) {
      const auto it =
          std::find_if(kChannelNames.begin(), kChannelNames.end(),
                       [&](std::string_view name) { return equalsIgnoringCase(name, word_.text); });
      if (atEnd() || it == kChannelNames.end())
        return fail(word_, "unknown channel " + shown(word_) +
                               didYouMean(word_.text, kChannelNames) +
                               " (channels: Xposition, Yposition, Zposition, Xrotation, "
                               "Yrotation, Zrotation)"),
               false;
      joint.channels.push_back(static_cast<BvhChannel>(it - kChannelNames.begin()));
      advance();
    }
    bvh_.channelCount += static_cast<int>(*count);
    return true;
  }

  // end-site := "End" "Site" "{" "OFFSET" NUM NUM NUM "}"
  bool parseEndSite(BvhJoint& joint) {
    advance();
    if (!keyword("Site", "'Site' after 'End'") || !keyword("{", "'{' after 'End Site'"))
      return false;
    std::array<double, 3> offset{};
    if (!parseOffset(offset) || !keyword("}", "'}' after the end site's offset")) return false;
    joint.endSite = offset;
    return true;
  }

  bool parseOffset(std::array<double, 3>& offset) {
    if (!keyword("OFFSET", "'OFFSET X Y Z'")) return false;
    for (double& value : offset) {
      const std::optional<double> read = number("the offset's x, y and z");
      if (!read) return false;
      value = *read;
    }
    return true;
  }

  // { NUM }: frameCount × channelCount of them.
  void parseFrames(long count, const BvhWord& countAt) {
    const size_t expected = static_cast<size_t>(count) * static_cast<size_t>(bvh_.channelCount);
    // Not sized from the header: a file cannot make the reader allocate more than its text.
    bvh_.values.reserve(std::min(expected, text_.size() / 2 + 1));
    while (!atEnd() && !sink_.full()) {
      const std::optional<double> value = number("a channel's value");
      if (!value) return;
      bvh_.values.push_back(*value);
    }
    if (bvh_.values.size() != expected) {
      fail(countAt, "the file says " + std::to_string(count) + " frames of " +
                        std::to_string(bvh_.channelCount) + " channels (" +
                        std::to_string(expected) + " values) but has " +
                        std::to_string(bvh_.values.size()) + " values");
      return;
    }
    bvh_.frameCount = static_cast<int>(count);
  }

  // --- words ---------------------------------------------------------------------------

  bool atEnd() const { return word_.text.empty(); }

  void advance() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        lineStart_ = pos_ + 1;
      }
      if (!std::isspace(static_cast<unsigned char>(c))) break;
      ++pos_;
    }
    const size_t start = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '{' || text_[pos_] == '}')) {
      ++pos_;
    } else {
      while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
             text_[pos_] != '{' && text_[pos_] != '}')
        ++pos_;
    }
    word_ = {text_.substr(start, pos_ - start), line_, static_cast<int>(start - lineStart_) + 1};
  }

  bool isKeyword(std::string_view keyword) const {
    return !atEnd() && equalsIgnoringCase(word_.text, keyword);
  }

  bool keyword(std::string_view keyword, std::string_view what) {
    if (!isKeyword(keyword)) {
      std::string hint;
      if (!atEnd()) hint = didYouMean(word_.text, std::array<std::string_view, 1>{keyword});
      return fail(word_, "expected " + std::string(what) + ", found " + shown(word_) + hint), false;
    }
    advance();
    return true;
  }

  std::optional<double> number(std::string_view what) {
    const std::optional<double> value = atEnd() ? std::nullopt : parseFiniteNumber(word_.text);
    if (!value) {
      expected(what);
      return std::nullopt;
    }
    advance();
    return value;
  }

  void expected(std::string_view what) {
    fail(word_, "expected " + std::string(what) + ", found " + shown(word_));
  }

  static std::string shown(const BvhWord& word) {
    return word.text.empty() ? "the end of the file" : "'" + quoteToken(word.text) + "'";
  }

  SourceLocation location(const BvhWord& word) const { return {file_, word.line, word.column}; }

  void fail(const BvhWord& word, std::string message) {
    BvhWord at = word;
    if (at.text.empty()) at = {"", line_, static_cast<int>(pos_ - lineStart_) + 1};
    sink_.error(location(at), std::move(message));
  }

  std::string_view text_;
  FileName file_;
  DiagnosticSink& sink_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  int line_ = 1;
  BvhWord word_;
  Bvh bvh_;
};

// --- the character as a BVH hierarchy ----------------------------------------------------

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

// The character's links as a tree rooted at `root`: each link's BVH parent link and the
// joint between them, links in depth-first order from the root.
struct LinkTree {
  std::vector<int> order;
  std::vector<int> parent;  // BVH parent link, -1 for the root
  std::vector<int> joint;   // the joint to the BVH parent, -1 for the root
  std::vector<std::vector<int>> children;
};

LinkTree linkTree(const Character& character, int root) {
  const size_t links = character.links.size();
  LinkTree tree;
  tree.parent.assign(links, -1);
  tree.joint.assign(links, -1);
  tree.children.resize(links);
  std::vector<bool> seen(links, false);
  std::vector<int> stack = {root};
  seen[static_cast<size_t>(root)] = true;
  while (!stack.empty()) {
    const int link = stack.back();
    stack.pop_back();
    tree.order.push_back(link);
    // Its neighbours, in the character's joint order (pushed reversed: visited in order).
    std::vector<int> next;
    for (size_t j = 0; j < character.joints.size(); ++j) {
      const JointDef& def = character.joints[j];
      const int other = def.parentLink == link  ? def.childLink
                        : def.childLink == link ? def.parentLink
                                                : -1;
      if (other < 0 || seen[static_cast<size_t>(other)]) continue;
      seen[static_cast<size_t>(other)] = true;
      tree.parent[static_cast<size_t>(other)] = link;
      tree.joint[static_cast<size_t>(other)] = static_cast<int>(j);
      tree.children[static_cast<size_t>(link)].push_back(other);
      next.push_back(other);
    }
    stack.insert(stack.end(), next.rbegin(), next.rend());
  }
  return tree;
}

// Every link's world angle (radians) from one link's and the joint angles.
std::vector<double> worldAngles(const Character& character, const LinkTree& tree, int root,
                                double rootAngle, const std::vector<double>& jointAngles) {
  std::vector<double> angles(character.links.size(), 0.0);
  angles[static_cast<size_t>(root)] = rootAngle;
  for (int link : tree.order) {
    const int parent = tree.parent[static_cast<size_t>(link)];
    if (parent < 0) continue;
    const int joint = tree.joint[static_cast<size_t>(link)];
    const double angle = jointAngles[static_cast<size_t>(joint)];
    // Down the character's tree the child adds the joint's angle; up it, takes it off.
    const bool down = character.joints[static_cast<size_t>(joint)].childLink == link;
    angles[static_cast<size_t>(link)] =
        angles[static_cast<size_t>(parent)] + (down ? angle : -angle);
  }
  return angles;
}

// The rest pose (every link at 90°): each link's origin and each joint's position, metres.
struct RestPose {
  std::vector<Vec3> origins;
  std::vector<Vec3> joints;
  std::vector<Vec3> tips;
};

RestPose restPose(const Character& character) {
  RestPose rest;
  rest.origins.resize(character.links.size());
  rest.tips.resize(character.links.size());
  rest.joints.resize(character.joints.size());
  // A link at 90° points along (0, axisSign): the root up, every other link down.
  auto axis = [&](int link) { return character.links[static_cast<size_t>(link)].axisSign; };
  for (int j : character.treeOrder) {
    const JointDef& joint = character.joints[static_cast<size_t>(j)];
    const Vec3& parent = rest.origins[static_cast<size_t>(joint.parentLink)];
    rest.joints[static_cast<size_t>(j)] = {
        parent.x, parent.y + joint.anchorOnParent * axis(joint.parentLink), 0};
    rest.origins[static_cast<size_t>(joint.childLink)] = rest.joints[static_cast<size_t>(j)];
  }
  for (size_t l = 0; l < character.links.size(); ++l)
    rest.tips[l] = {rest.origins[l].x,
                    rest.origins[l].y + character.links[l].length * axis(static_cast<int>(l)), 0};
  return rest;
}

std::string bvhNumber(double value) { return formatTrimmed(value, 6); }

std::string vec3(const Vec3& v) {
  return bvhNumber(v.x) + " " + bvhNumber(v.y) + " " + bvhNumber(v.z);
}

// --- rotations -------------------------------------------------------------------------

struct Quaternion {
  double w = 1, x = 0, y = 0, z = 0;
  Quaternion operator*(const Quaternion& o) const {
    return {w * o.w - x * o.x - y * o.y - z * o.z, w * o.x + x * o.w + y * o.z - z * o.y,
            w * o.y - x * o.z + y * o.w + z * o.x, w * o.z + x * o.y - y * o.x + z * o.w};
  }
  double component(int axis) const { return axis == 0 ? x : axis == 1 ? y : z; }
};

Quaternion axisRotation(int axis, double degrees) {
  const double half = degToRad(degrees) / 2;
  Quaternion q{std::cos(half), 0, 0, 0};
  (axis == 0 ? q.x : axis == 1 ? q.y : q.z) = std::sin(half);
  return q;
}

// A joint's rotation in frame `frame`: its rotation channels composed in their order.
Quaternion jointRotation(const Bvh& bvh, const BvhJoint& joint, int frame) {
  Quaternion rotation;
  for (size_t c = 0; c < joint.channels.size(); ++c) {
    const int channel = static_cast<int>(joint.channels[c]);
    if (channel < 3) continue;
    rotation = rotation * axisRotation(channel - 3,
                                       bvh.value(frame, joint.firstChannel + static_cast<int>(c)));
  }
  return rotation;
}

// The angle, degrees in (-180, 180], of `rotation`'s twist about the axis `axis`.
double twistDegrees(const Quaternion& rotation, int axis) {
  double angle = radToDeg(2 * std::atan2(rotation.component(axis), rotation.w));
  if (angle > 180) angle -= 360;
  if (angle <= -180) angle += 360;
  return angle;
}

// `angle` plus the whole turns that bring it nearest `near`, degrees.
double nearest(double angle, double near) {
  return angle + 360.0 * std::round((near - angle) / 360.0);
}

// --- mapping files ---------------------------------------------------------------------

class MappingParser : private LineParser {
 public:
  MappingParser(TokenStream& tokens, FileName fileName, DiagnosticSink& sink)
      : LineParser(tokens, std::move(fileName), sink, "a mapping") {}

  // mapping-file := "mapping" NAME { statement }   (one a line)
  BvhMapping parseFile() {
    if (!isWord("mapping")) {
      std::string hint;
      if (isKind(TokenKind::Identifier)) hint = didYouMean(peek().text, kBvhMappingStatements);
      expectedNear("'mapping NAME' to begin a mapping file", peek(), hint);
      skipUnknownLine(kBvhMappingStatements);
    } else {
      beginLine();
      setHead(peek());
      mapping_.headerAt = location(next());
      if (auto name = lineWord("the mapping's name")) mapping_.name = name->text;
      finishLine();
    }
    while (!atEnd()) {
      beginLine();
      if (isKind(TokenKind::Identifier))
        parseStatement();
      else
        expectedNear("a statement (character, scale, forward, up, root, joint)", peek());
      finishLine();
    }
    if (sink().errorCount() == 0 && mapping_.character.empty())
      sink().error(mapping_.headerAt,
                   "the mapping names no character: add 'character NAME' (the body it maps onto)");
    if (sink().errorCount() == 0 && mapping_.joints.empty() && !mapping_.root)
      sink().error(mapping_.headerAt,
                   "the mapping maps nothing: add 'joint JOINT from BVHJOINT axis: ...' lines");
    if (sink().errorCount() == 0 && mapping_.forwardAxis == mapping_.upAxis)
      sink().error(mapping_.headerAt, "'forward' and 'up' name the same axis: the plane needs two");
    return std::move(mapping_);
  }

 private:
  // statement := "character" NAME | "scale" NUM | ( "forward" | "up" ) AXIS [ "sign:" NUM ]
  //            | "root" LINK "from" BVHNAME map-args | "joint" JOINT "from" BVHNAME map-args
  void parseStatement() {
    const Token head = next();
    setHead(head);
    const std::string_view word = head.text;
    const bool once = word != "joint";
    if (once &&
        std::find(kBvhMappingStatements.begin(), kBvhMappingStatements.end(), word) !=
            kBvhMappingStatements.end() &&
        !seen_.insert(std::string(word)).second) {
      errorAt(head, "'" + std::string(word) + "' is given twice");
      return;
    }
    if (word == "character") {
      if (auto name = lineWord("the character's name (e.g. human)")) {
        mapping_.character = name->text;
        mapping_.characterAt = name->location;
      }
    } else if (word == "scale") {
      const SourceLocation at = location(peek());
      if (auto scale = lineNumber("metres per BVH length unit (e.g. 0.01 for centimetres)")) {
        if (!(*scale > 0) || *scale > 1000)
          return sink().error(at, "the scale must be above 0 and at most 1000 m per unit");
        mapping_.scale = *scale;
      }
    } else if (word == "forward" || word == "up") {
      const bool forward = word == "forward";
      parseDirection(forward ? mapping_.forwardAxis : mapping_.upAxis,
                     forward ? mapping_.forwardSign : mapping_.upSign);
    } else if (word == "root" || word == "joint") {
      parseLine(word == "root");
    } else {
      errorAt(head, "unknown statement '" + quoteToken(word) + "'" +
                        didYouMean(word, kBvhMappingStatements));
    }
  }

  // AXIS [ "sign:" NUM ]
  void parseDirection(int& axis, double& sign) {
    const std::optional<std::string> name = choice("'x', 'y' or 'z'", kAxisNames, "axis");
    if (!name) return;
    axis = static_cast<int>(std::find(kAxisNames.begin(), kAxisNames.end(), *name) -
                            kAxisNames.begin());
    if (isWord("sign")) {
      next();
      if (!expectColonAfter("sign")) return;
      parseSign(sign);
    }
  }

  bool parseSign(double& sign) {
    const SourceLocation at = location(peek());
    const std::optional<double> value = number("the sign, 1 or -1");
    if (!value) return false;
    if (*value != 1 && *value != -1)
      return sink().error(at, "the sign must be 1 or -1 (found " + formatNumber(*value) + ")"),
             false;
    sign = *value;
    return true;
  }

  // TARGET "from" BVHNAME { "axis:" AXIS | "sign:" NUM | "offset:" NUM }
  void parseLine(bool root) {
    BvhMapLine line;
    const std::optional<syntax::Name> target = lineWord(
        root ? "the clip's root link (e.g. pelvis)" : "a joint of the character (e.g. leftKnee)");
    if (!target) return;
    line.target = target->text;
    line.targetAt = target->location;
    if (!isWord("from")) return expectedNear("'from' and the BVH joint's name", peek());
    next();
    setHead(peek());
    const std::optional<syntax::Name> source =
        lineWord("the BVH joint's name (a \"string\" when it is no SCL name)", true);
    if (!source) return;
    line.source = source->text;
    line.sourceAt = source->location;
    std::set<std::string, std::less<>> given;
    while (!atLineEnd()) {
      constexpr std::array<std::string_view, 3> keys = {"axis", "sign", "offset"};
      const Token key = peek();
      if (key.kind != TokenKind::Identifier ||
          std::find(keys.begin(), keys.end(), key.text) == keys.end()) {
        std::string hint = key.kind == TokenKind::Identifier ? didYouMean(key.text, keys) : "";
        return expectedNear("'axis:', 'sign:' or 'offset:'", key, hint);
      }
      next();
      if (!given.insert(std::string(key.text)).second)
        return errorAt(key, "'" + std::string(key.text) + ":' is given twice");
      if (!expectColonAfter(key.text)) return;
      if (key.text == "axis") {
        setHead(key);
        const std::optional<std::string> axis = choice("'x', 'y' or 'z'", kAxisNames, "axis");
        if (!axis) return;
        line.axis = static_cast<int>(std::find(kAxisNames.begin(), kAxisNames.end(), *axis) -
                                     kAxisNames.begin());
      } else if (key.text == "sign") {
        if (!parseSign(line.sign)) return;
      } else {
        const SourceLocation at = location(peek());
        const std::optional<double> offset = number("the offset, degrees");
        if (!offset) return;
        if (std::abs(*offset) > 360)
          return sink().error(at, "the offset must be from -360 to 360 degrees");
        line.offsetDeg = *offset;
      }
    }
    if (!given.count("axis"))
      return sink().error(line.sourceAt,
                          "the line needs 'axis: x|y|z', the BVH axis its rotation "
                          "is projected on");
    if (root)
      mapping_.root = std::move(line);
    else
      mapping_.joints.push_back(std::move(line));
  }

  BvhMapping mapping_;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace

std::string_view bvhChannelName(BvhChannel channel) {
  return kChannelNames[static_cast<size_t>(channel)];
}

int Bvh::findJoint(std::string_view name) const {
  for (size_t j = 0; j < joints.size(); ++j)
    if (joints[j].name == name) return static_cast<int>(j);
  return -1;
}

BvhParse parseBvh(std::string_view text, std::string_view fileName) {
  DiagnosticSink sink;
  BvhParse result;
  result.bvh = BvhReader(text, fileName, sink).parseFile();
  result.diagnostics = sink.take();
  return result;
}

std::string writeBvh(const Clip& clip, const Character& character, double rate) {
  const std::optional<int> clipRoot =
      clip.hasRoot() ? character.findLink(clip.rootLink) : std::nullopt;
  const int root = clipRoot.value_or(character.root);
  const LinkTree tree = linkTree(character, root);
  const RestPose rest = restPose(character);
  // Each link's pivot: where it turns about its BVH parent (the root: its origin).
  auto pivot = [&](int link) {
    const int joint = tree.joint[static_cast<size_t>(link)];
    return joint < 0 ? rest.origins[static_cast<size_t>(link)]
                     : rest.joints[static_cast<size_t>(joint)];
  };
  std::string out = "HIERARCHY\n";
  // The hierarchy, depth first (tree.order), closing braces as the depth falls.
  std::vector<int> open;
  for (int link : tree.order) {
    while (!open.empty() && open.back() != tree.parent[static_cast<size_t>(link)]) {
      open.pop_back();
      out += std::string(2 * open.size(), ' ') + "}\n";
    }
    const std::string indent(2 * open.size(), ' ');
    const Vec3 at = pivot(link), from = open.empty() ? at : pivot(open.back());
    out += indent + (open.empty() ? "ROOT " : "JOINT ") +
           character.links[static_cast<size_t>(link)].name + "\n";
    out += indent + "{\n";
    out += indent + "  OFFSET " +
           vec3(open.empty() ? Vec3{} : Vec3{at.x - from.x, at.y - from.y, 0}) + "\n";
    out +=
        indent + (open.empty()
                      ? "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                      : "  CHANNELS 3 Zrotation Xrotation Yrotation\n");
    if (tree.children[static_cast<size_t>(link)].empty()) {
      // A leaf ends where the link does: its end farther from its pivot.
      const Vec3 origin = rest.origins[static_cast<size_t>(link)],
                 tip = rest.tips[static_cast<size_t>(link)];
      const Vec3 end =
          std::hypot(tip.x - at.x, tip.y - at.y) >= std::hypot(origin.x - at.x, origin.y - at.y)
              ? tip
              : origin;
      out += indent + "  End Site\n";
      out += indent + "  {\n";
      out += indent + "    OFFSET " + vec3({end.x - at.x, end.y - at.y, 0}) + "\n";
      out += indent + "  }\n";
    }
    open.push_back(link);
  }
  while (!open.empty()) {
    open.pop_back();
    out += std::string(2 * open.size(), ' ') + "}\n";
  }
  const int frames = bvhFrameCount(clip, rate);
  out += "MOTION\nFrames: " + std::to_string(frames) + "\nFrame Time: " + formatExact(1.0 / rate) +
         "\n";
  ClipPose pose = makeClipPose(clip);
  std::vector<double> jointAngles(character.joints.size(), 0.0);
  for (int f = 0; f < frames; ++f) {
    ClipRoot rootPose{0, 0, degToRad(90)};
    if (!clip.frames.empty()) {
      sampleClip(clip, static_cast<double>(f) / rate, pose);
      for (size_t c = 0; c < clip.joints.size(); ++c)
        if (const std::optional<int> joint = character.findJoint(clip.joints[c]))
          jointAngles[static_cast<size_t>(*joint)] = pose.jointAngles[c];
      if (clipRoot) rootPose = pose.root;
    }
    const std::vector<double> angles =
        worldAngles(character, tree, root, rootPose.angle, jointAngles);
    std::string line = bvhNumber(rootPose.x) + " " + bvhNumber(rootPose.y) + " 0";
    for (int link : tree.order) {
      const int parent = tree.parent[static_cast<size_t>(link)];
      const double relative =
          parent < 0 ? angles[static_cast<size_t>(link)] - degToRad(90)
                     : angles[static_cast<size_t>(link)] - angles[static_cast<size_t>(parent)];
      line += " " + bvhNumber(radToDeg(relative)) + " 0 0";
    }
    out += line + "\n";
  }
  return out;
}

int bvhFrameCount(const Clip& clip, double rate) {
  const double duration = clip.frames.empty() ? 0.0 : clip.duration();
  return 1 + static_cast<int>(std::floor(duration * rate + 1e-9));
}

BvhMappingParse parseBvhMapping(std::string_view text, std::string_view fileName) {
  DiagnosticSink sink;
  sink.readAllowComments(text, FileName(fileName));
  const FileName file(fileName);
  TokenStream tokens(text, file, sink, LexerOptions{.strings = true});
  BvhMappingParse result;
  result.mapping = MappingParser(tokens, file, sink).parseFile();
  result.diagnostics = sink.take();
  return result;
}

std::optional<Clip> importBvh(const Bvh& bvh, const BvhMapping& mapping, const Character& character,
                              DiagnosticSink& sink, std::string name) {
  const int errorsBefore = sink.errorCount();
  if (mapping.character != character.name) {
    sink.error(mapping.characterAt, "mapping '" + mapping.name + "' is for character '" +
                                        mapping.character + "', not '" + character.name + "'");
    return std::nullopt;
  }
  const CharacterNames names(character);
  std::vector<std::string_view> bvhNames;
  for (const BvhJoint& joint : bvh.joints) bvhNames.push_back(joint.name);
  // The BVH joint of a line, which must turn (have rotation channels).
  auto source = [&](const BvhMapLine& line) {
    const int joint = bvh.findJoint(line.source);
    if (joint < 0) {
      sink.error(line.sourceAt, unknownNameMessage("BVH joint", line.source, bvhNames));
      return -1;
    }
    const std::vector<BvhChannel>& channels = bvh.joints[static_cast<size_t>(joint)].channels;
    if (std::none_of(channels.begin(), channels.end(),
                     [](BvhChannel c) { return c >= BvhChannel::Xrotation; })) {
      sink.error(line.sourceAt, "BVH joint '" + line.source + "' has no rotation channels");
      return -1;
    }
    return joint;
  };
  // Each joint line's character joint and BVH joint.
  std::vector<std::pair<int, int>> lines;
  for (const BvhMapLine& line : mapping.joints) {
    const NameLookup joint = names.joints(line.target, Groups::Rejected, "joint");
    if (!joint.ok()) sink.error(line.targetAt, joint.error);
    lines.emplace_back(joint.ok() ? joint.index() : -1, source(line));
  }
  int rootLink = -1, rootJoint = -1;
  if (mapping.root) {
    const NameLookup link = names.links(mapping.root->target, Groups::Rejected, "root");
    if (!link.ok()) sink.error(mapping.root->targetAt, link.error);
    rootLink = link.ok() ? link.index() : -1;
    rootJoint = source(*mapping.root);
    if (rootJoint > 0)
      sink.error(mapping.root->sourceAt, "the root line reads BVH joint '" + mapping.root->source +
                                             "', which is not the file's root ('" +
                                             bvh.joints.front().name + "')");
  }
  if (sink.errorCount() > errorsBefore) return std::nullopt;

  Clip clip;
  clip.name = std::move(name);
  clip.character = character.name;
  // The joints the mapping gives, in the character's order, each the sum of its lines.
  std::vector<int> columnOf(character.joints.size(), -1);
  for (const auto& [joint, bvhJoint] : lines) columnOf[static_cast<size_t>(joint)] = 0;
  std::vector<int> jointOfColumn;
  for (size_t j = 0; j < columnOf.size(); ++j)
    if (columnOf[j] == 0) {
      columnOf[j] = static_cast<int>(jointOfColumn.size());
      jointOfColumn.push_back(static_cast<int>(j));
      clip.joints.push_back(character.joints[j].name);
    }
  if (mapping.root) clip.rootLink = character.links[static_cast<size_t>(rootLink)].name;
  std::vector<Quaternion> rotations(bvh.joints.size());
  for (int f = 0; f < bvh.frameCount; ++f) {
    for (size_t j = 0; j < bvh.joints.size(); ++j)
      rotations[j] = jointRotation(bvh, bvh.joints[j], f);
    ClipFrame frame;
    frame.time = f * bvh.frameTime;
    frame.jointAngles.assign(jointOfColumn.size(), 0.0);
    for (size_t l = 0; l < lines.size(); ++l) {
      const BvhMapLine& line = mapping.joints[l];
      frame.jointAngles[static_cast<size_t>(columnOf[static_cast<size_t>(lines[l].first)])] +=
          line.sign * twistDegrees(rotations[static_cast<size_t>(lines[l].second)], line.axis) +
          line.offsetDeg;
    }
    // Continuous from frame to frame; the first frame's near the middle of each range.
    for (size_t c = 0; c < jointOfColumn.size(); ++c) {
      const JointDef& joint = character.joints[static_cast<size_t>(jointOfColumn[c])];
      const double near =
          f == 0 ? (joint.minDeg + joint.maxDeg) / 2 : radToDeg(clip.frames.back().jointAngles[c]);
      frame.jointAngles[c] = degToRad(nearest(frame.jointAngles[c], near));
    }
    if (mapping.root) {
      const BvhMapLine& line = *mapping.root;
      const BvhJoint& joint = bvh.joints.front();
      std::array<double, 3> position = joint.offset;
      for (size_t c = 0; c < joint.channels.size(); ++c)
        if (joint.channels[c] <= BvhChannel::Zposition)
          position[static_cast<size_t>(joint.channels[c])] +=
              bvh.value(f, joint.firstChannel + static_cast<int>(c));
      frame.root.x =
          mapping.forwardSign * position[static_cast<size_t>(mapping.forwardAxis)] * mapping.scale;
      frame.root.y = mapping.upSign * position[static_cast<size_t>(mapping.upAxis)] * mapping.scale;
      const double angle = line.sign * twistDegrees(rotations.front(), line.axis) + line.offsetDeg;
      const double near =
          f == 0 ? character.standingAngleDeg(rootLink) : radToDeg(clip.frames.back().root.angle);
      frame.root.angle = degToRad(nearest(angle, near));
    }
    clip.frames.push_back(std::move(frame));
  }
  for (const ClipIssue& issue : clipIssues(clip)) {
    sink.error(mapping.headerAt, "the imported clip: " + issue.message);
    return std::nullopt;
  }
  return clip;
}

}  // namespace scl
