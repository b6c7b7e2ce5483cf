// World statements: their kinds and keys, parser, printer, binder and files (world.h).
#include "scl/world.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "base/files.h"
#include "scl/comment_layout.h"
#include "scl/printer.h"
#include "scl/scene.h"

namespace scl {

namespace {

using syntax::Name;
using syntax::NumberLit;
using syntax::Vec;
using syntax::WorldArgument;
using syntax::WorldStatement;
using Type = WorldValueType;

// Keys shared by several kinds.
constexpr WorldKey kFriction{"friction", Type::Number, "the friction coefficient (0 to 2)"};
constexpr WorldKey kLeftEdge{"at", Type::Number, "the left edge's x (m)", true};
constexpr WorldKey kBlockSize{"size", Type::Vec, "(width, height) of the top (m)", true};

// The keys of every movable body: its centre, its shape's, the common ones, `extra`.
std::vector<WorldKey> movable(std::vector<WorldKey> shape, std::vector<WorldKey> extra = {}) {
  shape.insert(shape.begin(), WorldKey{"at", Type::Vec, "the centre (x, y) (m)", true});
  for (const WorldKey& key : std::initializer_list<WorldKey>{
           {"angle", Type::Number, "the angle (degrees, counter-clockwise)"},
           {"mass", Type::Number, "the mass (kg)"},
           {"density", Type::Number, "the mass per area (kg/m²), instead of a mass"},
           {"velocity", Type::Vec, "the velocity (vx, vy) at the start or launch (m/s)"},
           {"spin", Type::Number, "the angular velocity (rad/s, counter-clockwise)"},
           {"launch", Type::Number,
            "held still until this time (s), then let go with its velocity"},
           kFriction,
           {"restitution", Type::Number, "the bounce (0 to 1)"},
       })
    shape.push_back(key);
  shape.insert(shape.end(), extra.begin(), extra.end());
  return shape;
}

const std::vector<WorldKind>& kinds() {
  static const std::vector<WorldKind> kKinds = {
      {SceneBodyKind::Ground,
       "the flat ground, y = 0 (always there; sets its friction)",
       {kFriction}},
      {SceneBodyKind::Platform,
       "a solid block from the ground up: a step, a platform; moves with `move:`",
       {kLeftEdge,
        kBlockSize,
        {"move", Type::Vec, "the amplitude (x, y) of a back-and-forth motion (m)"},
        {"frequency", Type::Number, "the frequency of that motion (Hz)"},
        {"start", Type::Number, "when that motion starts (s; still before)"},
        {"ramp", Type::Number, "the time that motion takes to grow to full, from rest (s)"},
        kFriction}},
      {SceneBodyKind::Wall,
       "a solid block from the ground up, tall and thin",
       {kLeftEdge, {"size", Type::Vec, "(thickness, height) (m)", true}, kFriction}},
      {SceneBodyKind::Table,
       "a table top on two legs, room below it",
       {kLeftEdge, kBlockSize, kFriction}},
      {SceneBodyKind::Stairs,
       "a flight of steps rising in +x, then a landing",
       {{"at", Type::Number, "the first riser's x (m)", true},
        {"rise", Type::Number, "each step's height (m)", true},
        {"run", Type::Number, "each step's depth (m)", true},
        {"count", Type::Number, "the number of steps", true},
        {"landing", Type::Number, "the landing's depth at the top (m; 1 by default)"},
        kFriction}},
      {SceneBodyKind::Slope,
       "solid below a straight surface from one point to another",
       {{"from", Type::Vec, "the surface's left end (x, y) (m)", true},
        {"to", Type::Vec, "the surface's right end (x, y) (m)", true},
        kFriction}},
      {SceneBodyKind::Box, "a movable box",
       movable({{"size", Type::Vec, "(width, height) (m)", true}})},
      {SceneBodyKind::Ball, "a movable ball (a disc)",
       movable({{"radius", Type::Number, "the radius (m)", true}})},
      {SceneBodyKind::Capsule, "a movable capsule (a bar with round ends) along its angle",
       movable({{"length", Type::Number, "the length between the end caps' centres (m)", true},
                {"radius", Type::Number, "the radius (m)", true}})},
      {SceneBodyKind::Chain, "movable links joined end to end; `at` is its first link's start",
       movable({{"count", Type::Number, "the number of links", true},
                {"size", Type::Vec, "each link's (length, thickness) (m)", true}},
               {{"fixed", Type::Word, "'yes': its start is pinned where it is"}})},
  };
  return kKinds;
}

std::string spelled(const WorldKey& key) { return std::string(key.key) + ":"; }

std::string valueText(const WorldArgument& argument) {
  auto number = [](const NumberLit& n) { return (n.parameter ? "@" : "") + formatNumber(n.value); };
  if (argument.number) return number(*argument.number);
  if (argument.vec) return "(" + number(argument.vec->x) + ", " + number(argument.vec->y) + ")";
  if (argument.word) return argument.word->text;
  return "";
}

// --- binding -------------------------------------------------------------------------

class StatementBinder {
 public:
  StatementBinder(const WorldStatement& statement, const WorldKind& kind, DiagnosticSink& sink)
      : statement_(statement), kind_(kind), sink_(sink) {}

  std::optional<SceneBodyDef> bind() {
    body_.kind = kind_.kind;
    body_.name = statement_.name ? statement_.name->text
                                 : std::string(kind_.kind == SceneBodyKind::Ground ? "ground" : "");
    if (body_.movable()) body_.friction = kDefaultObjectFriction;
    for (const WorldKey& key : kind_.keys)
      if (key.required && !find(key.key) && !(key.key == "mass" || key.key == "density"))
        error(statement_.kind.location, "a " + statement_.kind.text + " needs '" + spelled(key) +
                                            "' (" + std::string(key.what) + ")");
    if (body_.movable() && !find("mass") && !find("density"))
      error(statement_.kind.location,
            "a " + statement_.kind.text + " needs 'mass:' (kg) or 'density:' (kg/m²)");
    if (find("mass") && find("density"))
      error(find("density")->key.location, "give 'mass:' or 'density:', not both");
    for (std::string_view key : {"frequency", "start", "ramp"})
      if (find(key) && !find("move"))
        error(find(key)->key.location,
              "'" + std::string(key) + ":' goes with 'move:' (the amplitude)");
    for (const WorldArgument& argument : statement_.arguments) set(argument);
    if (find("move") && !find("frequency"))
      error(find("move")->key.location, "'move:' needs 'frequency:' (Hz)");
    return ok_ ? std::optional(body_) : std::nullopt;
  }

  // Where an issue about `key` is reported: that key, else the statement's kind word.
  SourceLocation locationOf(std::string_view key) const {
    if (const WorldArgument* argument = find(key)) return argument->key.location;
    return statement_.name ? statement_.name->location : statement_.kind.location;
  }

 private:
  const WorldArgument* find(std::string_view key) const {
    for (const WorldArgument& argument : statement_.arguments)
      if (argument.key.text == key) return &argument;
    return nullptr;
  }
  void error(const SourceLocation& location, std::string message) {
    sink_.error(location, std::move(message));
    ok_ = false;
  }
  double number(const WorldArgument& argument) {
    if (argument.number->parameter)
      error(argument.number->location, "world numbers cannot be '@' parameters");
    return argument.number->value;
  }
  MoveDef& moving() {
    if (!body_.move) body_.move = MoveDef{};
    return *body_.move;
  }
  std::array<double, 2> pair(const WorldArgument& argument) {
    if (argument.vec->x.parameter || argument.vec->y.parameter)
      error(argument.vec->location, "world numbers cannot be '@' parameters");
    return {argument.vec->x.value, argument.vec->y.value};
  }
  int count(const WorldArgument& argument) {
    const double value = number(argument);
    if (value != std::floor(value) || !(std::abs(value) < 1e6)) {
      error(argument.number->location,
            "'count:' is a whole number (found " + formatNumber(value) + ")");
      return 0;
    }
    return static_cast<int>(value);
  }

  void set(const WorldArgument& argument) {
    const std::string& key = argument.key.text;
    const bool terrain = !body_.movable();
    if (key == "friction")
      body_.friction = number(argument);
    else if (key == "restitution")
      body_.restitution = number(argument);
    else if (key == "at" && terrain)
      body_.x = number(argument);
    else if (key == "at")
      body_.at = pair(argument);
    else if (key == "size")
      body_.size = pair(argument);
    else if (key == "rise")
      body_.rise = number(argument);
    else if (key == "run")
      body_.run = number(argument);
    else if (key == "landing")
      body_.landing = number(argument);
    else if (key == "count")
      body_.count = count(argument);
    else if (key == "from")
      body_.from = pair(argument);
    else if (key == "to")
      body_.to = pair(argument);
    else if (key == "radius")
      body_.radius = number(argument);
    else if (key == "length")
      body_.length = number(argument);
    else if (key == "angle")
      body_.angle = number(argument);
    else if (key == "mass")
      body_.mass = number(argument);
    else if (key == "density")
      body_.density = number(argument);
    else if (key == "velocity")
      body_.velocity = pair(argument);
    else if (key == "spin")
      body_.spin = number(argument);
    else if (key == "launch")
      body_.launch = number(argument);
    else if (key == "move")
      moving().amplitude = pair(argument);
    else if (key == "frequency")
      moving().frequency = number(argument);
    else if (key == "start")
      moving().start = number(argument);
    else if (key == "ramp")
      moving().ramp = number(argument);
    else if (key == "fixed") {
      const std::string& word = argument.word->text;
      if (word != "yes" && word != "no")
        error(argument.word->location,
              "'fixed:' is 'yes' or 'no' (found '" + word + "')" +
                  didYouMean(word, std::array<std::string_view, 2>{"yes", "no"}));
      body_.fixed = word == "yes";
    }
  }

  const WorldStatement& statement_;
  const WorldKind& kind_;
  DiagnosticSink& sink_;
  SceneBodyDef body_;
  bool ok_ = true;
};

}  // namespace

std::span<const WorldKind> worldKinds() { return kinds(); }

const WorldKind* findWorldKind(std::string_view word) {
  for (const WorldKind& kind : kinds())
    if (sceneBodyKindName(kind.kind) == word) return &kind;
  return nullptr;
}

std::vector<std::string_view> worldKindNames() {
  std::vector<std::string_view> names;
  for (const WorldKind& kind : kinds()) names.push_back(sceneBodyKindName(kind.kind));
  return names;
}

bool isWorldStatementStart(const TokenCursor& cursor) {
  return cursor.isKind(TokenKind::Identifier) && findWorldKind(cursor.peek().text) != nullptr;
}

// world-statement := KIND [ NAME ] { [","] KEY ":" value }
std::optional<WorldStatement> parseWorldStatement(TokenCursor& cursor) {
  WorldStatement statement;
  const Token kindToken = cursor.next();
  statement.kind = {std::string(kindToken.text), cursor.location(kindToken)};
  statement.location = statement.kind.location;
  const WorldKind* kind = findWorldKind(kindToken.text);
  if (!kind) {
    cursor.errorAt(kindToken, "unknown kind of body '" + quoteToken(kindToken.text) + "'" +
                                  didYouMean(kindToken.text, worldKindNames()));
    return std::nullopt;
  }
  const bool named = kind->kind != SceneBodyKind::Ground;
  if (named) {
    if (!cursor.isKind(TokenKind::Identifier) || cursor.isKind(TokenKind::Colon, 1)) {
      cursor.expectedNear("a name for the " + statement.kind.text + " (as in '" +
                              statement.kind.text + " crate size: ...')",
                          cursor.peek());
      return std::nullopt;
    }
    statement.name = cursor.parseName();
  }
  // One slot per key, filled as the keys come, then kept in the kind's order.
  std::vector<WorldArgument> slots(kind->keys.size());
  std::vector<std::string_view> keyNames;
  for (const WorldKey& key : kind->keys) keyNames.push_back(key.key);
  while (true) {
    const size_t save = cursor.position();
    if (cursor.isKind(TokenKind::Comma) && cursor.isKind(TokenKind::Identifier, 1)) cursor.next();
    if (!cursor.isKind(TokenKind::Identifier) || !cursor.isKind(TokenKind::Colon, 1)) {
      cursor.rewind(save);  // at most one token back
      break;
    }
    const Token keyToken = cursor.next();
    cursor.next();  // ':'
    size_t index = keyNames.size();
    for (size_t i = 0; i < keyNames.size(); ++i)
      if (keyNames[i] == keyToken.text) index = i;
    if (index == keyNames.size()) {
      cursor.errorAt(keyToken, "unknown argument '" + quoteToken(keyToken.text) + ":' for a " +
                                   statement.kind.text + didYouMean(keyToken.text, keyNames));
      return std::nullopt;
    }
    const WorldKey& key = kind->keys[index];
    WorldArgument& slot = slots[index];
    if (!slot.key.text.empty()) {
      cursor.errorAt(keyToken, "duplicate argument '" + std::string(key.key) + ":'");
      return std::nullopt;
    }
    slot.key = {std::string(keyToken.text), cursor.location(keyToken)};
    const std::string what = std::string(key.what) + " after '" + spelled(key) + "'";
    switch (key.type) {
      case Type::Number:
        slot.number = cursor.parseNumber(what);
        if (!slot.number) return std::nullopt;
        break;
      case Type::Vec:
        if (!cursor.isKind(TokenKind::LeftParen)) {
          cursor.expectedNear(what, cursor.peek());
          return std::nullopt;
        }
        slot.vec = cursor.parseVec(what);
        if (!slot.vec) return std::nullopt;
        break;
      case Type::Word:
        if (!cursor.isKind(TokenKind::Identifier)) {
          cursor.expectedNear(what, cursor.peek());
          return std::nullopt;
        }
        slot.word = cursor.parseName();
        break;
    }
  }
  for (WorldArgument& slot : slots)
    if (slot.number || slot.vec || slot.word) statement.arguments.push_back(std::move(slot));
  return statement;
}

std::string printWorldStatement(const WorldStatement& statement) {
  std::string out = statement.kind.text;
  if (statement.name) out += " " + statement.name->text;
  for (const WorldArgument& argument : statement.arguments)
    out += " " + argument.key.text + ": " + valueText(argument);
  return out;
}

void bindWorld(std::span<const WorldStatement> statements, std::vector<SceneBodyDef>& bodies,
               DiagnosticSink& sink) {
  // Each body is checked in the list it joins (names are unique across it).
  std::vector<std::pair<size_t, StatementBinder>> added;  // body index, its binder
  const std::optional<SceneBodyDef> groundBefore =
      bodies.empty() ? std::nullopt : std::optional(bodies.front());
  for (const WorldStatement& statement : statements) {
    const WorldKind* kind = findWorldKind(statement.kind.text);
    if (!kind) continue;  // the parser reported it
    StatementBinder binder(statement, *kind, sink);
    std::optional<SceneBodyDef> body = binder.bind();
    if (!body) continue;
    if (kind->kind == SceneBodyKind::Ground) {
      if (!bodies.empty() && bodies.front().kind == SceneBodyKind::Ground) {
        bodies.front().friction = body->friction;
        added.emplace_back(0, binder);
      }
      continue;
    }
    bodies.push_back(std::move(*body));
    added.emplace_back(bodies.size() - 1, binder);
  }
  std::vector<bool> failed(bodies.size(), false);
  for (const SceneBodyIssue& issue : sceneBodyIssues(bodies)) {
    for (const auto& [index, binder] : added)
      if (index == issue.body) {
        sink.error(binder.locationOf(issue.key), issue.message);
        failed[index] = true;
      }
  }
  // A body with errors is left out, so that nothing downstream sees it; a ground statement
  // with errors leaves the ground as it was.
  for (size_t i = bodies.size(); i-- > 1;)
    if (failed[i]) bodies.erase(bodies.begin() + static_cast<std::ptrdiff_t>(i));
  if (!failed.empty() && failed[0] && groundBefore) bodies.front() = *groundBefore;
}

// --- world files -----------------------------------------------------------------------

namespace {

class WorldFileParser : private TokenCursor {
 public:
  WorldFileParser(TokenStream& tokens, FileName fileName, DiagnosticSink& sink)
      : TokenCursor(tokens, std::move(fileName), sink) {}

  // world-file := "world" NAME { world-statement }
  WorldFile parseFile() {
    WorldFile file;
    if (!isWord("world")) {
      std::string hint;
      if (isKind(TokenKind::Identifier))
        hint = didYouMean(peek().text, std::array<std::string_view, 1>{"world"});
      expectedNear("'world NAME' to begin a world file", peek(), hint);
    } else {
      file.location = location(next());
      if (isKind(TokenKind::Identifier) && !isWorldStatementStart(*this))
        file.name = parseName();
      else
        expectedNear("the world's name after 'world'", peek());
    }
    while (!atEnd()) {
      if (isWorldStatementStart(*this)) {
        std::optional<WorldStatement> statement = parseWorldStatement(*this);
        if (statement && (atEnd() || isWorldStatementStart(*this))) {
          file.statements.push_back(std::move(*statement));
          continue;
        }
        if (statement)
          expectedNear("a key of the " + statement->kind.text + " or the next body", peek());
      } else if (isKind(TokenKind::Identifier) && isKind(TokenKind::Identifier, 1)) {
        errorAt(peek(), "unknown kind of body '" + quoteToken(peek().text) + "'" +
                            didYouMean(peek().text, worldKindNames()));
      } else {
        expectedNear("a body (" + kindList() + ")", peek());
      }
      next();
      while (!atEnd() && !isWorldStatementStart(*this)) next();
    }
    return file;
  }

 private:
  static std::string kindList() {
    std::string joined;
    for (std::string_view name : worldKindNames())
      joined += (joined.empty() ? "" : ", ") + std::string(name);
    return joined;
  }
};

}  // namespace

WorldFileParse parseWorldFile(std::string_view source, std::string_view fileName) {
  DiagnosticSink sink;
  const FileName file(fileName);
  TokenStream tokens(source, file, sink, LexerOptions{.strings = true});
  WorldFileParse result;
  result.file = WorldFileParser(tokens, file, sink).parseFile();
  result.diagnostics = sink.take();
  return result;
}

std::string printWorldFile(const WorldFile& file, const std::vector<Comment>& comments) {
  std::vector<int> lines;
  lines.reserve(file.statements.size());
  for (const WorldStatement& statement : file.statements) lines.push_back(statement.location.line);
  const CommentLayout layout = layOutComments(file.location.line, lines, comments);
  std::string out;
  auto emitBefore = [&](size_t index) {
    for (size_t i = 0; i < layout.before[index].size(); ++i) {
      const Comment* comment = layout.before[index][i];
      if (i > 0 && comment->blankLineBefore && !out.ends_with("\n\n")) out += '\n';
      out += comment->text + '\n';
    }
  };
  auto endLine = [&](size_t index) {
    for (const Comment* comment : layout.after[index]) out += "  " + comment->text;
    out += '\n';
  };
  for (const Comment* comment : layout.header) out += comment->text + '\n';
  out += "world " + (file.name ? file.name->text : std::string("world"));
  endLine(0);
  out += '\n';
  for (size_t i = 0; i < file.statements.size(); ++i) {
    emitBefore(i + 1);
    out += printWorldStatement(file.statements[i]);
    endLine(i + 1);
  }
  if (!layout.before.back().empty()) {
    out += '\n';
    emitBefore(layout.before.size() - 1);
  }
  return out;
}

bool WorldLoad::ok() const {
  return !notFound && std::none_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
    return d.severity == Severity::Error;
  });
}

WorldLoad loadWorldFile(std::string_view pathText, const std::filesystem::path& baseDirectory) {
  WorldLoad load;
  std::filesystem::path path(pathText);
  if (path.is_relative() && !baseDirectory.empty()) path = baseDirectory / path;
  FileRead read = readWholeFile(path);
  if (!read) {
    load.notFound = true;
    load.diagnostics.push_back(
        {Severity::Error, {}, "world file '" + path.string() + "' " + read.reason});
    return load;
  }
  auto text = std::make_shared<std::string>(std::move(read.text));
  stripByteOrderMark(*text);
  if (hasCrOnlyLineEndings(*text)) {  // it would read as one line
    Diagnostic diagnostic;
    diagnostic.location.file = FileName(path.string());
    diagnostic.message = "world file '" + path.string() +
                         "' has CR-only line endings (classic Mac OS); save it with LF (or CRLF) "
                         "line endings";
    load.diagnostics.push_back(std::move(diagnostic));
    return load;
  }
  WorldFileParse parse = parseWorldFile(*text, path.string());
  load.statements = std::move(parse.file.statements);
  load.diagnostics = std::move(parse.diagnostics);
  // Its bodies checked on their own, so that their errors are located in the file.
  DiagnosticSink sink;
  std::vector<SceneBodyDef> bodies = {groundBody()};
  bindWorld(load.statements, bodies, sink);
  for (Diagnostic& diagnostic : sink.take()) load.diagnostics.push_back(std::move(diagnostic));
  const std::shared_ptr<const std::string> fileText = std::move(text);
  for (Diagnostic& diagnostic : load.diagnostics) diagnostic.fileText = fileText;
  return load;
}

}  // namespace scl
