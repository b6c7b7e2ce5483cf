// Clip files: the parser, the printer, binding to a character and loading (clip_file.h).
#include "scl/clip_file.h"

#include <algorithm>
#include <set>

#include "base/format.h"
#include "scl/comment_layout.h"
#include "scl/line_parser.h"
#include "scl/names.h"

namespace scl {

namespace {

constexpr std::array<std::string_view, 2> kInterpolations = {"linear", "spline"};
constexpr std::array<std::string_view, 2> kYesNo = {"yes", "no"};

class ClipParser : private LineParser {
 public:
  ClipParser(TokenStream& tokens, FileName fileName, DiagnosticSink& sink)
      : LineParser(tokens, std::move(fileName), sink, "a clip") {}

  // clip-file := "clip" NAME { statement } { frame }   (one statement or frame a line)
  Clip parseFile() {
    if (!isWord("clip")) {
      std::string hint;
      if (isKind(TokenKind::Identifier)) hint = didYouMean(peek().text, kClipStatements);
      expectedNear("'clip NAME' to begin a clip file", peek(), hint);
      skipUnknownLine(kClipStatements);
    } else {
      beginLine();
      setHead(peek());
      clip_.locations.clip = location(next());
      if (auto name = lineWord("the clip's name")) clip_.name = name->text;
      finishLine();
    }
    while (!atEnd()) {
      beginLine();
      if (isKind(TokenKind::Number))
        parseFrame();
      else if (isKind(TokenKind::Identifier))
        parseStatement();
      else
        expectedNear("a statement (" + statementList() + ") or a frame (its time, then its values)",
                     peek());
      finishLine();
    }
    if (sink().errorCount() == 0) checkComplete();
    return std::move(clip_);
  }

 private:
  // statement := "character" NAME | "interpolation" ( "linear" | "spline" )
  //            | "loop" ( "yes" | "no" ) | "timescale" NUM | "root" LINK
  //            | "joints" JOINT { JOINT } | "effectors" LINK { LINK }
  void parseStatement() {
    const Token head = next();
    setHead(head);
    const std::string_view word = head.text;
    const bool known =
        std::find(kClipStatements.begin(), kClipStatements.end(), word) != kClipStatements.end();
    if (known && !clip_.frames.empty()) {
      errorAt(head, "'" + std::string(word) +
                        "' after the first frame: the statements come before the frames");
      return;
    }
    if (known && !seen_.insert(std::string(word)).second) {
      errorAt(head, "'" + std::string(word) + "' is given twice");
      return;
    }
    if (word == "character") {
      if (auto name = lineWord("the character's name (e.g. human)")) {
        clip_.character = name->text;
        clip_.locations.character = name->location;
      }
    } else if (word == "interpolation") {
      if (auto name = choice("'linear' or 'spline'", kInterpolations, "interpolation"))
        clip_.interpolation =
            *name == "spline" ? ClipInterpolation::Spline : ClipInterpolation::Linear;
    } else if (word == "loop") {
      if (auto name = choice("'yes' or 'no'", kYesNo, "loop")) clip_.loop = *name == "yes";
    } else if (word == "timescale") {
      if (auto number = lineNumber("the timescale (2: half speed)")) clip_.timescale = *number;
    } else if (word == "root") {
      if (auto name = lineWord("the root link's name (e.g. pelvis)")) {
        clip_.rootLink = name->text;
        clip_.locations.root = name->location;
      }
    } else if (word == "joints") {
      names(clip_.joints, clip_.locations.joints, "a joint's name (e.g. leftKnee)", "joint");
    } else if (word == "effectors") {
      names(clip_.effectors, clip_.locations.effectors, "a link's name (e.g. leftFoot)",
            "effector");
    } else {
      errorAt(head, "unknown statement '" + quoteToken(word) + "'" +
                        didYouMean(word, kClipStatements) +
                        (clip_.frames.empty() ? "" : " (a frame begins with its time)"));
    }
  }

  // frame := NUM { NUM }   (its time, then the root's x y angle, the joints' angles, the
  //                         effectors' x y)
  void parseFrame() {
    const Token time = peek();
    ClipFrame frame;
    constexpr std::string_view kValue = "a number (a frame is its time, then one value per column)";
    std::optional<double> value = number(kValue);
    if (!value) return;
    frame.time = *value;
    std::vector<double> values;
    while (!atLineEnd()) {
      value = number(kValue);
      if (!value) return;
      values.push_back(*value);
    }
    const size_t rootColumns = clip_.hasRoot() ? 3 : 0;
    const size_t needed = rootColumns + clip_.joints.size() + 2 * clip_.effectors.size();
    if (values.size() != needed) {
      errorAt(time, "the frame at " + formatNumber(frame.time) + " s has " +
                        std::to_string(values.size()) +
                        " values after its time; the columns need " + std::to_string(needed) +
                        " (" + columnList() + ")");
      return;
    }
    size_t at = 0;
    if (clip_.hasRoot()) {
      frame.root = {values[0], values[1], degToRad(values[2])};
      at = 3;
    }
    for (size_t j = 0; j < clip_.joints.size(); ++j)
      frame.jointAngles.push_back(degToRad(values[at++]));
    for (size_t e = 0; e < clip_.effectors.size(); ++e, at += 2)
      frame.effectors.push_back({values[at], values[at + 1]});
    clip_.frames.push_back(std::move(frame));
    clip_.locations.frames.push_back(location(time));
  }

  // What the file must have once every line parsed: a character, columns, the data's
  // checks (clipIssues), each at the line it is about.
  void checkComplete() {
    if (clip_.character.empty())
      sink().error(clip_.locations.clip,
                   "the clip names no character: add 'character NAME' (the body its joints are "
                   "of)");
    if (clip_.joints.empty() && !clip_.hasRoot() && clip_.effectors.empty())
      sink().error(clip_.locations.clip,
                   "the clip has no columns: add 'joints NAME ...' (and 'root LINK', 'effectors "
                   "LINK ...') before the frames");
    for (const ClipIssue& issue : clipIssues(clip_))
      sink().error(issue.frame >= 0 ? clip_.locations.frames[static_cast<size_t>(issue.frame)]
                                    : clip_.locations.clip,
                   issue.message);
  }

  std::string columnList() const {
    std::string list;
    auto add = [&](const std::string& text) { list += (list.empty() ? "" : ", ") + text; };
    if (clip_.hasRoot()) add("root x, y, angle");
    if (!clip_.joints.empty()) add(std::to_string(clip_.joints.size()) + " joints");
    if (!clip_.effectors.empty()) add(std::to_string(clip_.effectors.size()) + " effectors' x, y");
    return list.empty() ? "no columns yet: 'joints' comes before the frames" : list;
  }

  static std::string statementList() {
    std::string list;
    for (std::string_view word : kClipStatements)
      if (word != "clip") list += (list.empty() ? "" : ", ") + std::string(word);
    return list;
  }

  Clip clip_;
  std::set<std::string> seen_;
};

std::string degrees(double radians) { return formatTrimmed(radToDeg(radians), 6); }
std::string metres(double value) { return formatTrimmed(value, 6); }

}  // namespace

ClipParse parseClip(std::string_view source, std::string_view fileName) {
  DiagnosticSink sink;
  sink.readAllowComments(source, FileName(fileName));
  const FileName file(fileName);
  TokenStream tokens(source, file, sink);
  ClipParse result;
  result.clip = ClipParser(tokens, file, sink).parseFile();
  result.diagnostics = sink.take();
  return result;
}

std::string printClip(const Clip& clip, const std::vector<Comment>& comments) {
  const ClipLocations& at = clip.locations;
  std::vector<std::string> lines;
  std::vector<int> sourceLines;
  auto add = [&](std::string text, const SourceLocation& where) {
    lines.push_back(std::move(text));
    sourceLines.push_back(where.line > 0 ? where.line : at.clip.line);
  };
  add("character " + clip.character, at.character);
  add("interpolation " + std::string(clipInterpolationName(clip.interpolation)), {});
  add(std::string("loop ") + (clip.loop ? "yes" : "no"), {});
  add("timescale " + formatNumber(clip.timescale), {});
  if (clip.hasRoot()) add("root " + clip.rootLink, at.root);
  auto joined = [](std::string word, const std::vector<std::string>& names) {
    for (const std::string& name : names) word += " " + name;
    return word;
  };
  if (!clip.joints.empty())
    add(joined("joints", clip.joints), at.joints.empty() ? SourceLocation{} : at.joints.front());
  if (!clip.effectors.empty())
    add(joined("effectors", clip.effectors),
        at.effectors.empty() ? SourceLocation{} : at.effectors.front());
  const size_t statements = lines.size();
  for (size_t f = 0; f < clip.frames.size(); ++f) {
    const ClipFrame& frame = clip.frames[f];
    std::string line = formatNumber(frame.time);  // exact: times must stay increasing
    if (clip.hasRoot())
      line += "  " + metres(frame.root.x) + " " + metres(frame.root.y) + " " +
              degrees(frame.root.angle) + " ";
    for (double angle : frame.jointAngles) line += " " + degrees(angle);
    if (!frame.effectors.empty()) line += " ";
    for (const ClipPoint& point : frame.effectors)
      line += " " + metres(point.x) + " " + metres(point.y);
    add(std::move(line), f < at.frames.size() ? at.frames[f] : SourceLocation{});
  }
  // Comments: by the lines they were written next to (layOutComments wants increasing
  // lines; a statement written out of order keeps its comment near it).
  for (size_t i = 1; i < sourceLines.size(); ++i)
    sourceLines[i] = std::max(sourceLines[i], sourceLines[i - 1]);
  const CommentLayout layout = layOutComments(at.clip.line, sourceLines, comments);
  std::string out;
  auto emitBefore = [&](size_t index) {
    for (const Comment* comment : layout.before[index]) out += comment->text + '\n';
  };
  auto endLine = [&](size_t index) {
    for (const Comment* comment : layout.after[index]) out += "  " + comment->text;
    out += '\n';
  };
  for (const Comment* comment : layout.header) out += comment->text + '\n';
  out += "clip " + (clip.name.empty() ? std::string("clip") : clip.name);
  endLine(0);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i == statements) out += '\n';
    emitBefore(i + 1);
    out += lines[i];
    endLine(i + 1);
  }
  emitBefore(layout.before.size() - 1);
  return out;
}

std::optional<ClipBinding> bindClip(const Clip& clip, const Character& character,
                                    DiagnosticSink& sink, const ClipNeeds& needs) {
  const ClipLocations& at = clip.locations;
  auto where = [&](const std::vector<SourceLocation>& locations, size_t i) {
    return i < locations.size() ? locations[i] : at.clip;
  };
  const int errorsBefore = sink.errorCount();
  if (clip.character != character.name) {
    sink.error(at.character.line > 0 ? at.character : at.clip,
               "clip '" + clip.name + "' was made for character '" + clip.character + "', not '" +
                   character.name + "' (its joint names and numbers are another body's)");
    return std::nullopt;
  }
  const CharacterNames names(character);
  ClipBinding binding;
  binding.columnOf.assign(character.joints.size(), -1);
  for (size_t j = 0; j < clip.joints.size(); ++j) {
    const NameLookup joint = names.joints(clip.joints[j], Groups::Rejected, "joints");
    if (!joint.ok()) {
      sink.error(where(at.joints, j), joint.error);
      continue;
    }
    binding.jointOf.push_back(joint.index());
    binding.columnOf[static_cast<size_t>(joint.index())] = static_cast<int>(j);
  }
  if (clip.hasRoot()) {
    const NameLookup link = names.links(clip.rootLink, Groups::Rejected, "root");
    if (link.ok())
      binding.rootLink = link.index();
    else
      sink.error(at.root.line > 0 ? at.root : at.clip, link.error);
  }
  for (size_t e = 0; e < clip.effectors.size(); ++e) {
    const NameLookup link = names.links(clip.effectors[e], Groups::Rejected, "effectors");
    if (link.ok())
      binding.effectorOf.push_back(link.index());
    else
      sink.error(where(at.effectors, e), link.error);
  }
  if (sink.errorCount() > errorsBefore) return std::nullopt;
  // What the caller needs of it.
  const SourceLocation& used = needs.usedAt.line > 0 ? needs.usedAt : at.clip;
  std::vector<int> wanted = needs.joints;
  if (needs.allJoints)
    for (int j = 0; j < character.jointCount(); ++j) wanted.push_back(j);
  std::vector<std::string_view> lacking;
  for (int joint : wanted) {
    const std::string_view name = character.joints[static_cast<size_t>(joint)].name;
    if (binding.columnOf[static_cast<size_t>(joint)] < 0 &&
        std::find(lacking.begin(), lacking.end(), name) == lacking.end())
      lacking.push_back(name);
  }
  if (!lacking.empty()) {
    std::vector<std::string_view> has(clip.joints.begin(), clip.joints.end());
    sink.error(used, "clip '" + clip.name + "' has no angles of " +
                         (lacking.size() == 1 ? "joint '" + std::string(lacking[0]) + "'"
                                              : "joints " + CharacterNames::joined(lacking)) +
                         " (its joints: " +
                         (has.empty() ? std::string("none") : CharacterNames::joined(has)) + ")");
  }
  if (needs.root && !clip.hasRoot())
    sink.error(used, "clip '" + clip.name +
                         "' has no root pose: it needs 'root LINK' and the link's x, y and angle "
                         "in every frame");
  if (sink.errorCount() > errorsBefore) return std::nullopt;
  return binding;
}

ClipLoad loadClipFile(std::string_view pathText, const std::filesystem::path& baseDirectory) {
  ClipLoad load;
  std::filesystem::path path(pathText);
  if (path.is_relative() && !baseDirectory.empty()) path = baseDirectory / path;
  load.path = path.string();
  SourceFileRead read = readSourceFile(path, "clip file '" + path.string() + "'");
  if (!read.text) {
    load.notFound = read.unreadable;
    load.diagnostics.push_back(read.diagnostic(path));
    return load;
  }
  ClipParse parse = parseClip(*read.text, path.string());
  load.clip = std::move(parse.clip);
  load.diagnostics = std::move(parse.diagnostics);
  load.text = std::move(read.text);
  for (Diagnostic& diagnostic : load.diagnostics) diagnostic.fileText = load.text;
  return load;
}

}  // namespace scl
