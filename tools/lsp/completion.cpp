// Completion: what may be written at the cursor, read from the tokens before it (the
// parser drops the unfinished primitive being typed, so the tree cannot say).
//
// Tokens never span lines, so the tokens before the cursor are read from a line start far
// enough back to hold the last `{` or `}`: everything since then decides the place.
#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>

#include "scl/character_file.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "scl/world.h"
#include "tools/lsp/features.h"
#include "tools/lsp/language_words.h"

namespace scl::lsp {

using nlohmann::json;

namespace {

// LSP CompletionItemKind values.
constexpr int kItemFunction = 3;
constexpr int kItemClass = 7;
constexpr int kItemVariable = 6;
constexpr int kItemProperty = 10;
constexpr int kItemValue = 12;
constexpr int kItemKeyword = 14;
constexpr int kItemFile = 17;
constexpr int kItemEnumMember = 20;
constexpr int kItemEvent = 23;

constexpr std::array<std::string_view, 3> kContactEvents = {"established", "lost", "changed"};
constexpr std::array<std::string_view, 2> kQuantifiers = {"any", "all"};

bool isWord(const Token& token, std::string_view word) {
  return token.kind == TokenKind::Identifier && token.text == word;
}

bool isBrace(const Token& token) {
  return token.kind == TokenKind::LeftBrace || token.kind == TokenKind::RightBrace;
}

std::string plain(std::string_view markdown) {
  std::string text(markdown);
  std::erase_if(text, [](char c) { return c == '*' || c == '`'; });
  return text;
}

// The items of one completion request.
class Items {
 public:
  explicit Items(const DocumentView& document) : document_(document) {}

  json take() { return {{"isIncomplete", false}, {"items", std::move(items_)}}; }

  void add(std::string label, int kind, std::string detail, std::string insert = "") {
    json item = {{"label", label}, {"kind", kind}};
    if (!detail.empty()) item["detail"] = std::move(detail);
    if (!insert.empty()) item["insertText"] = std::move(insert);
    items_.push_back(std::move(item));
  }
  void keyword(std::string_view word, bool colon = false) {
    add(std::string(word) + (colon ? ":" : ""), kItemKeyword, plain(keywordMeaning(word)),
        colon ? std::string(word) + ": " : "");
  }
  void primitiveKeywords() {
    for (std::string_view word : scl::primitiveKeywords()) keyword(word);
  }
  void joints(bool groups) {
    const Character& character = *document_.analysis.character;
    for (int i = 0; i < character.jointCount(); ++i)
      add(character.joints[static_cast<size_t>(i)].name, kItemVariable,
          "joint: " + jointSummary(character, i));
    if (groups)
      for (const GroupDef& group : character.jointGroups)
        add(group.name, kItemVariable, "joint group: " + members(group, true));
  }
  void links(bool groups) {
    const Character& character = *document_.analysis.character;
    for (int i = 0; i < character.linkCount(); ++i)
      add(character.links[static_cast<size_t>(i)].name, kItemProperty,
          "link: " + linkSummary(character, i));
    if (groups)
      for (const GroupDef& group : character.linkGroups)
        add(group.name, kItemProperty, "link group: " + members(group, false));
  }
  // The character's limb ends (its ankles and the joints holding its hands) and the
  // groups of them only.
  void effectors() {
    const Character& character = *document_.analysis.character;
    for (int j = 0; j < character.jointCount(); ++j)
      if (character.isLimbEnd(j))
        add(character.joints[static_cast<size_t>(j)].name, kItemVariable, "ik effector");
    for (const GroupDef& group : character.jointGroups)
      if (std::all_of(group.members.begin(), group.members.end(),
                      [&](int j) { return character.isLimbEnd(j); }))
        add(group.name, kItemVariable, "ik effector group");
  }
  // The phases declared before byte `before` (`backto` names this phase or an earlier one,
  // a mirror an earlier one).
  void phases(size_t before) {
    for (const Occurrence& occurrence : document_.analysis.occurrences)
      if (occurrence.kind == SymbolKind::Phase && occurrence.declaration &&
          document_.text.offsetOf(occurrence.location) < before)
        add(occurrence.name, kItemEvent, "phase");
  }
  void blocks() {
    for (const syntax::Define& block : document_.analysis.tree.defines)
      add(block.name.text, kItemFunction,
          "block of " + std::to_string(block.primitives.size()) + " primitives");
  }
  void parameters(const std::vector<Parameter>& parameters) {
    for (const Parameter& parameter : parameters)
      add(parameter.name, kItemValue, "@" + formatNumber(parameter.initial),
          formatNumber(parameter.initial));
  }
  void poses() {
    for (const PoseDef& pose : document_.analysis.character->poses)
      add(pose.name, kItemEnumMember, pose.description);
  }
  void environments() {
    for (std::string_view name : kEnvironments)
      add(std::string(name), kItemEnumMember, "environment");
  }
  void characters() {
    for (std::string_view name : builtinCharacterNames())
      add(std::string(name), kItemEnumMember, "built-in character");
  }
  // The kinds of body a world statement begins with.
  void worldKinds() {
    for (const WorldKind& kind : scl::worldKinds())
      add(std::string(kind.name()), kItemClass, std::string(kind.description),
          std::string(kind.name()) + " ");
  }
  // The keys of `kind` not written in `statement` yet.
  void worldKeys(const WorldKind& kind, std::span<const Token> statement) {
    for (const WorldKey& key : kind.keys) {
      bool written = false;
      for (size_t i = 0; i + 1 < statement.size(); ++i)
        written =
            written || (isWord(statement[i], key.key) && statement[i + 1].kind == TokenKind::Colon);
      if (written) continue;
      add(std::string(key.key) + ":", kItemProperty,
          std::string(key.what) + (key.required ? " (required)" : ""), std::string(key.key) + ": ");
    }
  }
  // The world files beside the document, quoted (`scene world: "FILE"`).
  void worldFiles() {
    std::error_code error;
    const std::filesystem::path directory = std::filesystem::path(document_.fileName).parent_path();
    std::vector<std::string> names;
    for (std::filesystem::directory_iterator it(directory.empty() ? "." : directory, error), end;
         !error && it != end; it.increment(error))
      if (it->path().extension() == ".world") names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) add(name, kItemFile, "world file", "\"" + name + "\"");
  }
  // What a `push` may name: the links, then the movable objects of the bound scene, else
  // of the world statements (the script does not bind while a push lacks its name).
  void pushTargets() {
    links(false);
    const std::optional<Program>& program = document_.analysis.program;
    if (program) {
      for (const SceneBodyDef& body : program->scene.bodies)
        if (body.movable())
          add(body.name, kItemEnumMember, std::string(sceneBodyKindName(body.kind)));
      return;
    }
    for (const syntax::WorldStatement& statement : document_.analysis.tree.world) {
      const WorldKind* kind = findWorldKind(statement.kind.text);
      SceneBodyDef body;
      if (kind && !kind->push) body.kind = kind->kind;
      if (statement.name && body.movable())
        add(statement.name->text, kItemEnumMember, statement.kind.text);
    }
  }
  // The scene bodies a `with` may name: the bound scene's, else the ground and the world
  // statements' (the script does not bind while a `with` lacks its name).
  void sceneBodies() {
    const std::optional<Program>& program = document_.analysis.program;
    if (program) {
      for (const SceneBodyDef& body : program->scene.bodies)
        add(body.name, kItemEnumMember, std::string(sceneBodyKindName(body.kind)));
      return;
    }
    add("ground", kItemEnumMember, "ground");
    for (const syntax::WorldStatement& statement : document_.analysis.tree.world)
      if (statement.name && !isPushStatement(statement))
        add(statement.name->text, kItemEnumMember, statement.kind.text);
  }

 private:
  std::string members(const GroupDef& group, bool joints) const {
    const Character& character = *document_.analysis.character;
    std::string out;
    for (int member : group.members)
      out +=
          (out.empty() ? "" : ", ") + (joints ? character.joints[static_cast<size_t>(member)].name
                                              : character.links[static_cast<size_t>(member)].name);
    return out;
  }

  const DocumentView& document_;
  json items_ = json::array();
};

// The tokens before `offset` from a line start early enough to hold the last brace.
std::vector<Token> tokensBefore(const DocumentView& document, size_t offset) {
  const std::string_view text = document.text.text();
  const int line = document.text.lineOf(offset);
  for (int back = 64;; back *= 8) {
    const size_t start = document.text.lineStart(std::max(0, line - back));
    std::vector<Token> tokens = tokensOf(text, start, offset);
    if (start == 0 || std::any_of(tokens.begin(), tokens.end(), isBrace)) return tokens;
  }
}

bool used(std::span<const Token> tokens, std::string_view word) {
  return std::any_of(tokens.begin(), tokens.end(),
                     [&](const Token& token) { return isWord(token, word); });
}

// The named arguments of `options` not written yet (`on:` with its colon).
void remainingArguments(Items& items, std::span<const Token> inner,
                        std::initializer_list<std::string_view> options) {
  for (std::string_view option : options) {
    const bool colon = option == "on" || option == "by" || option == "rel" || option == "time" ||
                       option == "velocity" || option == "max" || option == "reach" ||
                       option == "grip" || option == "lift" || option == "feedback" ||
                       option == "clip" || option == "speed" || option == "from" ||
                       option == "joints";
    if (!used(inner, option)) items.keyword(option, colon);
  }
}

// Inside `[ ... ` with `inner` the tokens after the `[`.
void primitiveItems(Items& items, std::span<const Token> inner) {
  if (inner.empty()) {
    items.primitiveKeywords();
    items.joints(true);
    items.blocks();
    return;
  }
  const Token& last = inner.back();
  const std::string_view kind = inner.front().text;
  if (last.kind == TokenKind::Colon && inner.size() >= 2) {
    const std::string_view argument = inner[inner.size() - 2].text;
    if (argument == "on" && kind == "ik")
      items.effectors();
    else if (argument == "on")
      items.links(false);
    else if (argument == "by" || argument == "rel")
      items.joints(false);
    return;
  }
  // A word that takes a number next: nothing to complete.
  for (std::string_view word :
       {"kp", "kd", "weight", "priority", "strength", "sb", "on", "by", "rel", "time"})
    if (isWord(last, word)) return;
  if (kind == "vf") {
    if (inner.size() == 1) items.keyword("sb");
    remainingArguments(items, inner, {"on", "by"});
  } else if (kind == "ik") {
    remainingArguments(items, inner, {"on", "rel", "time"});
  } else if (kind == "relax") {
    if (isWord(last, "relax") || last.kind == TokenKind::Comma)
      items.joints(true);
    else if (last.kind == TokenKind::Identifier)
      items.keyword("strength");
  } else if (kind == "gc") {
    remainingArguments(items, inner, {"by", "strength"});
  } else if (kind == "com") {
    remainingArguments(items, inner, {"kp", "kd", "time", "weight", "priority"});
  } else if (kind == "angmom") {
    remainingArguments(items, inner, {"kd", "weight", "priority"});
  } else if (kind == "track") {
    // `track NAME TARGET args`: a joint, a link or a held body; then a movable body to
    // pursue (or a number or a position, which nothing completes); then the options.
    if (inner.size() == 1) {
      items.joints(false);
      items.links(false);
      items.sceneBodies();
    } else if (inner.size() == 2 && last.kind == TokenKind::Identifier) {
      items.sceneBodies();
      items.keyword("standing");
      items.keyword("clip", true);  // `track LINK clip: NAME`: the clip's path of the link
    } else if (used(inner, "clip")) {
      remainingArguments(items, inner, {"speed", "from", "loop", "kp", "kd", "weight", "priority"});
    } else {
      remainingArguments(items, inner, {"kp", "kd", "time", "velocity", "weight", "priority"});
    }
  } else if (kind == "force") {
    // `force LINK (fx, fy) max: N weight W priority P`
    if (inner.size() == 1)
      items.links(false);
    else if (last.kind == TokenKind::RightParen || inner.size() > 3)
      remainingArguments(items, inner, {"max", "weight", "priority"});
  } else if (kind == "swing") {
    // `swing FOOT (x, y) [legs] lift: H feedback: (cd, cv) kp kd time: weight priority`
    if (inner.size() == 1)
      items.links(false);
    else if (last.kind == TokenKind::RightParen || inner.size() > 3)
      remainingArguments(items, inner,
                         {"lift", "feedback", "kp", "kd", "time", "weight", "priority"});
  } else if (kind == "posture") {
    remainingArguments(
        items, inner,
        {"clip", "speed", "from", "loop", "nearest", "kp", "kd", "weight", "priority"});
  } else if (kind == "clip") {
    // `clip NAME joints: ... speed: S from: T loop`
    if (inner.size() > 1) remainingArguments(items, inner, {"joints", "speed", "from", "loop"});
  } else if (kind == "support") {
    if (isWord(last, "support") || last.kind == TokenKind::Comma) items.links(true);
  } else if (kind == "grasp") {
    // `grasp LINKS BODY reach: D grip: N`: links first, then the body, then the options.
    if (isWord(last, "grasp") || last.kind == TokenKind::Comma) {
      items.links(true);
    } else if ((last.kind == TokenKind::Identifier || last.kind == TokenKind::Number) &&
               inner.size() >= 2 && inner[inner.size() - 2].kind != TokenKind::Comma &&
               !isWord(inner[inner.size() - 2], "grasp")) {
      remainingArguments(items, inner, {"reach", "grip"});
    } else if (last.kind == TokenKind::Identifier) {
      items.sceneBodies();
    }
  } else if (kind != "symm") {
    // PD items: `joint angle [child|parent], ... time: T`.
    if (last.kind == TokenKind::Number) {
      items.keyword("child");
      items.keyword("parent");
      items.keyword("time", true);
    } else if (isWord(last, "child") || isWord(last, "parent")) {
      items.keyword("time", true);
    } else if (last.kind == TokenKind::Comma) {
      items.joints(true);
      items.keyword("time", true);
    }
  }
}

// In the scene header (`tokens` from `scene` on).
void sceneItems(Items& items, std::span<const Token> tokens) {
  const Token& last = tokens.back();
  if (last.kind == TokenKind::Colon && tokens.size() >= 2) {
    const std::string_view argument = tokens[tokens.size() - 2].text;
    if (argument == "pose")
      items.poses();
    else if (argument == "env")
      items.environments();
    else if (argument == "character")
      items.characters();
    else if (argument == "world")
      items.worldFiles();
    return;
  }
  for (std::string_view argument : {"character", "pose", "env", "height", "duration", "world"})
    if (!used(tokens, argument))
      items.add(std::string(argument) + ":", kItemKeyword, plain(keywordMeaning(argument)),
                std::string(argument) + ": ");
  items.keyword("define");
}

// In a world statement (`statement` from its kind word on): its keys not written yet, or
// after `fixed:` its words.
void worldStatementItems(Items& items, std::span<const Token> statement) {
  const WorldKind* kind = findWorldKind(statement.front().text);
  if (!kind) return;
  const Token& last = statement.back();
  // The body's name comes first (the ground has none); a push's names what it pushes.
  if (statement.size() == 1 && kind->push) return items.pushTargets();
  if (statement.size() == 1 && kind->named()) return;
  if (last.kind == TokenKind::Colon) {
    if (statement.size() >= 2 && isWord(statement[statement.size() - 2], "fixed"))
      for (std::string_view word : {"yes", "no"})
        items.add(std::string(word), kItemEnumMember,
                  word == "yes" ? "its start is pinned where it is" : "it hangs free");
    return;
  }
  // Inside a pair `(x, y)`: a number is due.
  int open = 0;
  for (const Token& token : statement)
    open += token.kind == TokenKind::LeftParen ? 1 : token.kind == TokenKind::RightParen ? -1 : 0;
  if (open > 0 || last.kind == TokenKind::Comma) return;
  items.worldKeys(*kind, statement);
}

// Inside `when com QUANTITY < NUM [legs]`: the quantities, then `legs` and the rest of the
// transition. False when the cursor is not there.
bool comConditionItems(Items& items, std::span<const Token> tokens) {
  const size_t size = tokens.size();
  const Token& last = tokens.back();
  if (isWord(last, "com") && size >= 2 && isWord(tokens[size - 2], "when")) {
    for (size_t i = 0; i < kComQuantityWords.size(); ++i)
      items.add(std::string(kComQuantityWords[i]), kItemEnumMember,
                plain(comQuantityMeaning(static_cast<ComQuantity>(i))));
    return true;
  }
  const bool afterNumber =
      last.kind == TokenKind::Number && size >= 2 &&
      (tokens[size - 2].kind == TokenKind::Less || tokens[size - 2].kind == TokenKind::Greater);
  const bool afterLegs =
      isWord(last, "legs") && size >= 3 &&
      (tokens[size - 3].kind == TokenKind::Less || tokens[size - 3].kind == TokenKind::Greater);
  if (!afterNumber && !afterLegs) return false;
  if (afterNumber) items.keyword("legs");
  items.keyword(used(tokens, "and") ? "after" : "or");
  items.keyword("backto");
  return true;
}

// Between phases: transitions, `backto`, `finally`.
void topLevelItems(Items& items, std::span<const Token> tokens, size_t offset, bool atStart) {
  if (tokens.empty()) {
    for (std::string_view word : {"after", "when", "and", "finally", "define"}) items.keyword(word);
    if (atStart) items.keyword("scene");
    return;
  }
  const Token& last = tokens.back();
  if (isWord(last, "backto")) return items.phases(offset);
  if (isWord(last, "when")) {
    items.keyword("contact");
    items.add("com", kItemKeyword, plain(comConditionMeaning()));
    if (tokens.size() >= 2 && isWord(tokens[tokens.size() - 2], "and")) return;
    items.keyword("holding");
    return items.keyword("released");
  }
  if (comConditionItems(items, tokens)) return;
  if (isWord(last, "holding") || isWord(last, "released")) return items.sceneBodies();
  if (isWord(last, "and")) return items.keyword("when");
  if (isWord(last, "or")) return items.keyword("after");
  if (isWord(last, "finally")) {
    for (std::string_view word : {"after", "when", "and"}) items.keyword(word);
    return;
  }
  if (isWord(last, "after") || isWord(last, "define")) return;
  if (isWord(last, "with")) return items.sceneBodies();
  // Inside `when contact ...`: the contact words and the links.
  const auto contact = std::find_if(tokens.rbegin(), tokens.rend(),
                                    [](const Token& token) { return isWord(token, "contact"); });
  const bool inContact =
      contact != tokens.rend() && std::none_of(tokens.rbegin(), contact, [](const Token& token) {
        return token.kind == TokenKind::Number || isWord(token, "after") || isWord(token, "backto");
      });
  if (inContact) {
    const bool wordsStill =
        isWord(last, "contact") ||
        std::find(kContactEvents.begin(), kContactEvents.end(), last.text) != kContactEvents.end();
    if (isWord(last, "contact"))
      for (std::string_view word : kContactEvents) items.keyword(word);
    if (wordsStill)
      for (std::string_view word : kQuantifiers) items.keyword(word);
    if (wordsStill || last.kind == TokenKind::Comma ||
        std::find(kQuantifiers.begin(), kQuantifiers.end(), last.text) != kQuantifiers.end()) {
      items.links(true);
      return;
    }
    // After a link: the rest of the transition.
    if (!used(tokens, "with")) items.keyword("with");
    const bool conjunction = used(tokens, "and");
    items.keyword(conjunction ? "after" : "or");
    items.keyword("backto");
    return;
  }
  if (last.kind == TokenKind::Number && tokens.size() >= 2 &&
      tokens[tokens.size() - 2].kind == TokenKind::Identifier && used(tokens, "backto"))
    return items.keyword("times");
  if (last.kind == TokenKind::Number) items.keyword("backto");
}

// Before the first phase (`tokens` all of them, no brace): in a world statement its keys;
// at the start of a line where one may begin, the kinds of body (and, after the scene
// header and before any body, what the header would take). False when neither.
bool worldItems(Items& items, const DocumentView& document, std::span<const Token> tokens,
                size_t offset) {
  const std::string_view text = document.text.text();
  const size_t lineStart = document.text.lineStart(document.text.lineOf(offset));
  const bool lineStarts = tokens.empty() || offsetIn(text, tokens.back()) < lineStart;
  const std::optional<size_t> start = worldStatementStart(tokens);
  const bool worldFile = document.analysis.worldFile;
  if (!lineStarts) {
    if (!start) return worldFile;  // `world NAME`: nothing to offer
    worldStatementItems(items, tokens.subspan(*start));
    return true;
  }
  if (used(tokens, "define")) return false;
  if (worldFile) {
    if (tokens.empty())
      items.keyword("world");
    else
      items.worldKinds();
    return true;
  }
  items.worldKinds();
  if (start) {  // bodies written already: only more of them, a block or the first phase
    items.keyword("define");
    return true;
  }
  return false;  // and what the scene header or the top level offers
}

}  // namespace

json completion(const DocumentView& document, Position position,
                const std::vector<Parameter>& parameters) {
  const std::string_view text = document.text.text();
  const size_t offset = document.text.offsetAt(position, document.encoding);
  Items items(document);
  if (document.analysis.characterFile || document.analysis.statementFile) return items.take();
  const bool worldFile = document.analysis.worldFile;
  // Nothing to complete in a comment or a string.
  const int line = document.text.lineOf(offset);
  const std::string_view before =
      text.substr(document.text.lineStart(line), offset - document.text.lineStart(line));
  if (!scanComments(before).empty() || std::count(before.begin(), before.end(), '"') % 2 == 1)
    return items.take();
  if (offset > 0 && text[offset - 1] == '@') {
    items.parameters(parameters);
    return items.take();
  }
  std::vector<Token> tokens = tokensBefore(document, offset);
  // The word being typed is no context.
  if (!tokens.empty() && offsetIn(text, tokens.back()) + tokens.back().text.size() == offset) {
    if (tokens.back().kind == TokenKind::Number) return items.take();
    if (tokens.back().kind == TokenKind::Identifier) tokens.pop_back();
  }
  if (worldFile) {  // one statement after another
    worldItems(items, document, tokens, offset);
    return items.take();
  }
  const auto brace = std::find_if(tokens.rbegin(), tokens.rend(), isBrace);
  const std::span<const Token> rest(brace.base(), tokens.end());
  const auto bracket = std::find_if(rest.rbegin(), rest.rend(), [](const Token& token) {
    return token.kind == TokenKind::LeftBracket || token.kind == TokenKind::RightBracket;
  });
  if (bracket != rest.rend() && bracket->kind == TokenKind::LeftBracket) {
    primitiveItems(items, std::span<const Token>(bracket.base(), rest.end()));
  } else if (brace != tokens.rend() && brace->kind == TokenKind::LeftBrace) {
    // A phase's header: `{ (name) : (mirrored)`.
    if (rest.size() >= 2 && rest[rest.size() - 1].kind == TokenKind::LeftParen &&
        rest[rest.size() - 2].kind == TokenKind::Colon)
      items.phases(offsetIn(text, *brace));
  } else if (brace == tokens.rend() && worldItems(items, document, rest, offset)) {
    // a world statement, or the start of a line where one may begin
  } else if (brace == tokens.rend() && !rest.empty() && isWord(rest.front(), "scene") &&
             !used(rest, "define")) {
    sceneItems(items, rest);
  } else {
    topLevelItems(items, rest, offset, brace == tokens.rend() && rest.empty());
  }
  return items.take();
}

}  // namespace scl::lsp
