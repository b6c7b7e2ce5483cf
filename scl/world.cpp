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
      {SceneBodyKind::Ground,
       "a push the script carries: a constant force at the centre of mass of a link or a "
       "movable object (a chain's last link, or `rope.3`) over a time window, as `--push`",
       {{"force", Type::Vec, "the force (fx, fy) (N)", true},
        {"at", Type::Number, "when the push starts (s)", true},
        {"for", Type::Number, "how long it lasts (s)", true}},
       true},
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

// `rope.3`: the lexer reads a name and the number `.3`; written without a space, they are
// a push's chain link.
void joinChainLink(TokenCursor& cursor, const Token& nameToken, Name& name) {
  const Token& after = cursor.peek();
  const bool adjacent = after.line == nameToken.line &&
                        after.column == nameToken.column + static_cast<int>(nameToken.text.size());
  if (!cursor.isKind(TokenKind::Number) || !adjacent || after.parameter ||
      !after.text.starts_with('.') || after.text.size() < 2 ||
      !std::all_of(after.text.begin() + 1, after.text.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return;
  name.text += after.text;
  cursor.next();
}

// --- binding -------------------------------------------------------------------------

class StatementBinder {
 public:
  // `parametersAllowed`: `@` numbers are parameters (a script's), else errors.
  StatementBinder(const WorldStatement& statement, const WorldKind& kind, DiagnosticSink& sink,
                  bool parametersAllowed)
      : statement_(statement), kind_(kind), sink_(sink), parametersAllowed_(parametersAllowed) {}

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

  // The statement's `@` numbers, in order.
  const std::vector<WorldParameter>& parameters() const { return parameters_; }

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
  // A number as written; an `@` number is a parameter (a script's) or an error (a world
  // file's).
  double number(const WorldArgument& argument, const NumberLit& literal, size_t component,
                std::string_view suffix = "") {
    if (literal.parameter) {
      if (parametersAllowed_)
        parameters_.push_back({body_.name + "." + argument.key.text + std::string(suffix),
                               body_.name, argument.key.text, component, literal});
      else
        error(literal.location, "a world file's numbers cannot be '@' parameters; write the " +
                                    statement_.kind.text +
                                    " in the script to make them parameters");
    }
    return literal.value;
  }
  int count(const WorldArgument& argument) {
    const double value = argument.number->value;
    if (argument.number->parameter) {
      error(argument.number->location,
            "'count:' cannot be an '@' parameter: it is a whole number, not tuned");
      return 0;
    }
    if (value != std::floor(value) || !(std::abs(value) < 1e6)) {
      error(argument.number->location,
            "'count:' is a whole number (found " + formatNumber(value) + ")");
      return 0;
    }
    return static_cast<int>(value);
  }

  void set(const WorldArgument& argument) {
    const std::string& key = argument.key.text;
    if (key == "count") {
      body_.count = count(argument);
    } else if (key == "fixed") {
      const std::string& word = argument.word->text;
      if (word != "yes" && word != "no")
        error(argument.word->location,
              "'fixed:' is 'yes' or 'no' (found '" + word + "')" +
                  didYouMean(word, std::array<std::string_view, 2>{"yes", "no"}));
      body_.fixed = word == "yes";
    } else if (argument.number) {
      const double value = number(argument, *argument.number, 0);
      if (double* field = sceneBodyNumber(body_, key)) *field = value;
    } else if (argument.vec) {
      const double x = number(argument, argument.vec->x, 0, ".x");
      const double y = number(argument, argument.vec->y, 1, ".y");
      if (double* field = sceneBodyNumber(body_, key, 0)) *field = x;
      if (double* field = sceneBodyNumber(body_, key, 1)) *field = y;
    }
  }

  const WorldStatement& statement_;
  const WorldKind& kind_;
  DiagnosticSink& sink_;
  bool parametersAllowed_;
  std::vector<WorldParameter> parameters_;
  SceneBodyDef body_;
  bool ok_ = true;
};

}  // namespace

std::string_view WorldKind::name() const { return push ? "push" : sceneBodyKindName(kind); }

std::span<const WorldKind> worldKinds() { return kinds(); }

const WorldKind* findWorldKind(std::string_view word) {
  for (const WorldKind& kind : kinds())
    if (kind.name() == word) return &kind;
  return nullptr;
}

std::vector<std::string_view> worldKindNames() {
  std::vector<std::string_view> names;
  for (const WorldKind& kind : kinds()) names.push_back(kind.name());
  return names;
}

bool isPushStatement(const WorldStatement& statement) {
  const WorldKind* kind = findWorldKind(statement.kind.text);
  return kind && kind->push;
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
  if (kind->named()) {
    if (!cursor.isKind(TokenKind::Identifier) || cursor.isKind(TokenKind::Colon, 1)) {
      cursor.expectedNear(kind->push ? "what to push, a link or a movable object (as in 'push "
                                       "trunk force: ...')"
                                     : "a name for the " + statement.kind.text + " (as in '" +
                                           statement.kind.text + " crate size: ...')",
                          cursor.peek());
      return std::nullopt;
    }
    const Token nameToken = cursor.peek();
    statement.name = cursor.parseName();
    if (kind->push) joinChainLink(cursor, nameToken, *statement.name);
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
               DiagnosticSink& sink, std::vector<WorldParameter>* parameters) {
  // Each body is checked in the list it joins (names are unique across it).
  std::vector<std::pair<size_t, StatementBinder>> added;  // body index, its binder
  const std::optional<SceneBodyDef> groundBefore =
      bodies.empty() ? std::nullopt : std::optional(bodies.front());
  for (const WorldStatement& statement : statements) {
    const WorldKind* kind = findWorldKind(statement.kind.text);
    if (!kind || kind->push) continue;  // the parser reported it; bindPushStatement()
    StatementBinder binder(statement, *kind, sink, parameters != nullptr);
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
  if (parameters)
    for (const auto& [index, binder] : added)
      if (!failed[index])
        parameters->insert(parameters->end(), binder.parameters().begin(),
                           binder.parameters().end());
}

namespace {

// The argument `key:` of `statement`, or nullptr.
const WorldArgument* argumentOf(const WorldStatement& statement, std::string_view key) {
  for (const WorldArgument& argument : statement.arguments)
    if (argument.key.text == key) return &argument;
  return nullptr;
}

// A push's number: an `@` number is an error (a push is not tuned).
bool plainNumber(const NumberLit& number, DiagnosticSink& sink) {
  if (number.parameter) sink.error(number.location, "a push's numbers cannot be '@' parameters");
  return !number.parameter;
}

// A push's time `key:` (seconds) into `out`: from 0 (above 0 when `open`) to kMaxDuration.
void pushTime(const WorldStatement& statement, std::string_view key, bool open, double& out,
              DiagnosticSink& sink) {
  const WorldArgument* argument = argumentOf(statement, key);
  if (!argument || !argument->number || !plainNumber(*argument->number, sink)) return;
  out = argument->number->value;
  if (std::string why = pushTimeError(out, open); !why.empty())
    sink.error(argument->number->location, std::move(why));
}

}  // namespace

std::optional<ScriptPush> bindPushStatement(const WorldStatement& statement,
                                            const Character& character,
                                            std::span<const SceneBodyDef> bodies,
                                            DiagnosticSink& sink, bool quietUnknown) {
  if (!statement.name) return std::nullopt;  // the parser reported it
  const int errorsBefore = sink.errorCount();
  ScriptPush push;
  push.name = statement.name->text;
  push.location = statement.location;
  const PushTargetLookup found = findPushTarget(push.name, character, bodies, "push");
  if (found.target)
    push.target = *found.target;
  else if (!quietUnknown || !found.error.starts_with("unknown"))
    sink.error(statement.name->location, found.error);
  for (const WorldKey& key : findWorldKind("push")->keys)
    if (!argumentOf(statement, key.key))
      sink.error(statement.kind.location,
                 "a push needs '" + spelled(key) + "' (" + std::string(key.what) + ")");
  if (const WorldArgument* force = argumentOf(statement, "force"); force && force->vec) {
    const bool plainX = plainNumber(force->vec->x, sink);
    const bool plainY = plainNumber(force->vec->y, sink);
    if (plainX && plainY) push.force = {force->vec->x.value, force->vec->y.value};
  }
  pushTime(statement, "at", false, push.start, sink);
  pushTime(statement, "for", true, push.duration, sink);
  if (sink.errorCount() > errorsBefore || !found.target) return std::nullopt;
  return push;
}

std::vector<WorldParameterIssue> worldParameterIssues(const Program& program) {
  std::vector<WorldParameterIssue> out;
  const std::vector<SceneBodyDef>& bodies = program.scene.bodies;
  for (const SceneBodyIssue& issue : sceneBodyIssues(bodies)) {
    if (issue.body >= bodies.size()) continue;
    WorldParameterIssue found;
    found.message = issue.message;
    std::vector<int> ofBody;
    for (const SceneBodyParameter& parameter : program.sceneParameters) {
      if (parameter.body != bodies[issue.body].name) continue;
      ofBody.push_back(parameter.slot);
      if (parameter.key == issue.key) found.slots.push_back(parameter.slot);
    }
    if (found.slots.empty()) found.slots = std::move(ofBody);
    if (!found.slots.empty()) out.push_back(std::move(found));
  }
  return out;
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
        if (statement && isPushStatement(*statement)) {
          sink().error(statement->kind.location,
                       "a push is written in the script that is to survive it, not in a world "
                       "file");
          continue;
        }
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
    for (const WorldKind& kind : worldKinds())
      if (!kind.push) joined += (joined.empty() ? "" : ", ") + std::string(kind.name());
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
  load.path = path.string();
  SourceFileRead read = readSourceFile(path, "world file '" + path.string() + "'");
  if (!read.text) {
    load.notFound = read.unreadable;
    load.diagnostics.push_back(read.diagnostic(path));
    return load;
  }
  std::shared_ptr<std::string> text = std::move(read.text);
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
