#include "scl/parser.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>

#include "scl/character.h"
#include "scl/lexer.h"
#include "scl/names.h"
#include "scl/scene.h"
#include "scl/token_cursor.h"
#include "scl/world.h"

namespace scl {

namespace {

using syntax::ComCondition;
using syntax::ContactEvent;
using syntax::ContactQuantifier;
using syntax::Define;
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

constexpr std::array<std::string_view, 14> kPrimitiveKeywords = {
    "vf",    "ik",      "relax",   "gc",    "symm",  "com",   "angmom",
    "track", "posture", "support", "grasp", "force", "swing", "clip"};
constexpr std::array<std::string_view, 3> kTransitionKeywords = {"after", "when", "and"};
// Words after which a contact condition has ended.
constexpr std::array<std::string_view, 6> kTransitionEnds = {"after",  "when",    "and",
                                                             "backto", "finally", "or"};
constexpr std::array<std::string_view, 5> kContactWords = {"established", "lost", "changed", "any",
                                                           "all"};
// Words that may follow the body of a primitive; used to suggest a fix for a typo there.
constexpr std::array<std::string_view, 20> kTrailingWords = {
    "child", "parent", "time",   "on",       "by",       "rel",   "strength",
    "kp",    "kd",     "weight", "priority", "velocity", "lift",  "feedback",
    "clip",  "speed",  "from",   "loop",     "nearest",  "joints"};
// The options of features (task-arg), in canonical order.
enum TaskArg : unsigned {
  kTaskKp = 1,
  kTaskKd = 2,
  kTaskTime = 4,
  kTaskWeight = 8,
  kTaskPriority = 16,
  kTaskVelocity = 32
};

class ScriptParser : private TokenCursor {
 public:
  ScriptParser(TokenStream& tokens, FileName fileName, DiagnosticSink& sink)
      : TokenCursor(tokens, std::move(fileName), sink) {
    setComparisonHint(
        "; '<' and '>' compare the centre of mass in a transition only: "
        "'when com vy < 0'");
  }

  // script := [ scene ] { world-statement } { clip-decl } { define } phase { transition phase }
  //           [ "finally" transition "backto" NAME ]
  //
  // Each phase goes to the visitor once its exit transition is known (when the next
  // phase begins, or at the end), so no more than one phase is held here.
  void parseScript(ScriptVisitor& visitor) {
    visitor_ = &visitor;
    if (isWord("scene")) visitor.scene(parseScene());
    bool inLooseRun = false;  // inside a run of primitives written outside any phase
    bool reportedLoose = false;
    std::optional<Finally> finally;
    while (!atEnd()) {
      const Token token = peek();
      const bool loose = token.kind == TokenKind::LeftBracket;
      if (!loose) inLooseRun = false;
      if (token.kind == TokenKind::LeftBrace) {
        if (pending_ && !pending_->exit && !pending_->recovered)
          errorAt(token,
                  "missing transition between phases; write 'after NUM' or "
                  "'when contact LINK' before '{'");
        startPhase(parsePhase());
      } else if (isTransitionStart()) {
        Transition transition = parseTransition();
        if (isWord("backto")) parseCountedBackto(transition);
        if (!pending_)
          sink().error(transition.location, "a transition must follow a phase");
        else if (pending_->exit)
          sink().error(transition.location,
                       "two transitions in a row; expected '{' to start a phase");
        else
          pending_->exit = std::move(transition);
      } else if (isWord("finally")) {
        if (pending_ && pending_->exit)
          errorAt(token, "'finally' must follow the last phase, not a transition");
        finally = parseFinally();
        if (!atEnd()) {
          expectedNear("end of file after 'backto NAME'", peek());
          break;
        }
      } else if (loose) {
        if (!reportedLoose)
          errorAt(token, "primitive outside a phase; enclose primitives in '{ }'");
        reportedLoose = true;
        if (!inLooseRun) {
          Phase phase;
          phase.location = location(token);
          phase.recovered = true;
          startPhase(std::move(phase));
        }
        inLooseRun = true;
        parsePrimitive(pending_->primitives, pending_->recovered);
      } else if (isWord("clip") && !isKind(TokenKind::LeftBracket, 1)) {
        if (pending_)
          errorAt(token, "clips are declared before the first phase; move 'clip' above it");
        if (auto clip = parseClipDecl()) {
          if (!pending_) visitor.clip(std::move(*clip));
        } else {
          skipUntilTopLevel();
        }
      } else if (isWord("define")) {
        if (pending_)
          errorAt(token,
                  "primitive blocks are defined before the first phase; move 'define' above it");
        if (auto block = parseDefine()) visitor.define(std::move(*block));
      } else if (isWord("scene")) {
        errorAt(token, "the scene header must come before the first phase");
        parseScene();
      } else if (isWorldStatementStart(*this)) {
        if (pending_)
          errorAt(token, "the world's bodies are written before the first phase; move '" +
                             std::string(token.text) + "' above it");
        if (auto statement = parseWorld()) {
          if (!pending_) visitor.world(std::move(*statement));
        } else {
          while (!isPhaseBoundary() && !isWorldStatementStart(*this)) next();
        }
      } else if (!pending_ && token.kind == TokenKind::Identifier &&
                 isKind(TokenKind::Identifier, 1) &&
                 !closestMatch(token.text, worldKindNames()).empty()) {
        errorAt(token, "unknown kind of body '" + quoteToken(token.text) + "'" +
                           didYouMean(token.text, worldKindNames()));
        next();
        while (!isPhaseBoundary() && !isWorldStatementStart(*this)) next();
      } else {
        std::string hint;
        if (token.kind == TokenKind::Identifier) hint = didYouMean(token.text, kTransitionKeywords);
        expectedNear("'{' to start a phase or a transition", token, hint);
        next();
        skipUntilTopLevel();
      }
    }
    if (!pending_ && sink().errorCount() == 0)
      sink().error({fileName(), 1, 1},
                   "the script has no phases; write at least one '{ [primitive] }'");
    if (pending_ && pending_->exit && !finally)
      sink().error(pending_->exit->location,
                   "transition after the last phase; add a phase after it or write "
                   "'finally <transition> backto NAME'");
    if (pending_) visitor.phase(std::move(*pending_), true);
    pending_.reset();
    visitor.end(std::move(finally));
  }

 private:
  // The phase parsed last goes to the visitor: a new one follows it.
  void startPhase(Phase phase) {
    if (pending_) visitor_->phase(std::move(*pending_), false);
    pending_ = std::move(phase);
  }

  // --- token access -------------------------------------------------------------------

  bool isTransitionStart() const { return isWord("after") || isWord("when") || isWord("and"); }
  // Tokens where a phase-level construct can start: resynchronisation points.
  bool isPhaseBoundary() const {
    return atEnd() || isKind(TokenKind::LeftBrace) || isTransitionStart() || isWord("finally") ||
           isWord("define") || isClipDeclStart();
  }
  bool isClipDeclStart() const {
    return isWord("clip") && isKind(TokenKind::Identifier, 1) && isKind(TokenKind::Colon, 2);
  }

  void skipUntilTopLevel() {
    while (!isPhaseBoundary()) next();
  }
  // Skips the rest of a broken primitive: through its `]`, or up to a token that starts
  // the next primitive or ends the phase.
  void skipPrimitive() {
    while (!atEnd()) {
      TokenKind kind = peek().kind;
      if (kind == TokenKind::RightBracket) {
        next();
        return;
      }
      if (kind == TokenKind::LeftBracket || kind == TokenKind::RightBrace ||
          kind == TokenKind::LeftBrace)
        return;
      next();
    }
  }
  // Skips junk inside a phase up to the next primitive or the end of the phase.
  void skipInPhase() {
    while (!isPhaseBoundary() && !isKind(TokenKind::LeftBracket) && !isKind(TokenKind::RightBrace))
      next();
  }

  // --- scene header ---------------------------------------------------------------------

  // scene := "scene" scene-args   (scene.h)
  SceneHeader parseScene() {
    SceneHeader scene;
    scene.location = location(next());
    bool ok = parseSceneArguments(*this, scene);
    // `KIND NAME` with a misspelled kind: the top level reports it and goes on.
    const bool looksLikeBody = isKind(TokenKind::Identifier) && isKind(TokenKind::Identifier, 1) &&
                               !isKind(TokenKind::Colon, 1);
    if (ok && !isKind(TokenKind::LeftBrace) && !isWord("define") && !isWord("clip") && !atEnd() &&
        !isWorldStatementStart(*this) && !looksLikeBody) {
      std::string hint;
      if (peek().kind == TokenKind::Identifier) {
        hint =
            didYouMean(peek().text, std::array<std::string_view, 6>{"character", "pose", "env",
                                                                    "height", "duration", "world"});
        if (hint.empty()) hint = didYouMean(peek().text, worldKindNames());
      }
      expectedNear(
          "a scene argument (character:, pose:, env:, height:, duration:, world:), a body of the "
          "world, 'define' or '{'",
          peek(), hint);
      ok = false;
    }
    if (!ok) skipUntilTopLevel();
    return scene;
  }

  // world-statement   (world.h), then the next top-level construct
  std::optional<syntax::WorldStatement> parseWorld() {
    std::optional<syntax::WorldStatement> statement = parseWorldStatement(*this);
    if (!statement) return std::nullopt;
    if (isPhaseBoundary() || isWorldStatementStart(*this)) return statement;
    std::string hint;
    if (const WorldKind* kind = findWorldKind(statement->kind.text);
        kind && isKind(TokenKind::Identifier)) {
      std::vector<std::string_view> keys;
      for (const WorldKey& key : kind->keys) keys.push_back(key.key);
      hint = didYouMean(peek().text, keys);
    }
    expectedNear("a key of the " + statement->kind.text + ", the next body, 'define' or '{'",
                 peek(), hint);
    return std::nullopt;
  }

  // clip-decl := "clip" NAME ":" STRING
  std::optional<syntax::ClipDecl> parseClipDecl() {
    syntax::ClipDecl clip;
    clip.location = location(next());
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a name for the clip (as in 'clip walk: \"clips/walk.clip\"')", peek());
      return std::nullopt;
    }
    clip.name = parseName();
    if (!isKind(TokenKind::Colon)) {
      expectedNear("':' and the clip file after 'clip " + quoteToken(clip.name.text) + "'", peek());
      return std::nullopt;
    }
    next();
    if (!isKind(TokenKind::String)) {
      expectedNear("the clip file's path, a string (as in 'clip walk: \"clips/walk.clip\"')",
                   peek());
      return std::nullopt;
    }
    const Token file = next();
    clip.file = {std::string(file.text.substr(1, file.text.size() - 2)), location(file)};
    if (!isPhaseBoundary() && !isWorldStatementStart(*this)) {
      expectedNear("the next clip, 'define' or '{' after the clip file", peek());
      return std::nullopt;
    }
    return clip;
  }

  // --- phases ---------------------------------------------------------------------------

  // phase := "{" [ "(" NAME ")" [ ":" "(" NAME ")" ] ] primitive* "}"
  Phase parsePhase() {
    Phase phase;
    const Token& open = next();
    phase.location = location(open);
    if (isKind(TokenKind::LeftParen) && !parsePhaseHeader(phase)) {
      phase.recovered = true;
      skipInPhase();
    }
    phase.end = parseBody(open, "phase", phase.primitives, phase.recovered);
    return phase;
  }

  // The primitives of a phase or a block up to its "}" (after `open`, its "{"); returns
  // the location of the "}" (unset when it is missing).
  SourceLocation parseBody(const Token& open, std::string_view what,
                           std::vector<Primitive>& primitives, bool& recovered) {
    while (true) {
      const Token& token = peek();
      if (token.kind == TokenKind::RightBrace) return location(next());
      if (token.kind == TokenKind::LeftBracket) {
        parsePrimitive(primitives, recovered);
      } else if (isPhaseBoundary()) {
        expectedNear("'}' to close the " + std::string(what), token);
        noteOpened(open);
        recovered = true;
        return {};
      } else {
        std::string hint;
        if (token.kind == TokenKind::LeftParen && what == "phase")
          hint = "; the phase name must come right after '{'";
        expectedNear("'[' or '}'", token, hint);
        recovered = true;
        next();
        skipInPhase();
      }
    }
  }

  // phase-header := "(" NAME ")" [ ":" "(" NAME ")" ]
  bool parsePhaseHeader(Phase& phase) {
    phase.name = parseParenthesizedName();
    if (!phase.name) return false;
    if (!isKind(TokenKind::Colon)) return true;
    next();
    if (!isKind(TokenKind::LeftParen)) {
      expectedNear("'(' and the name of the phase to mirror after ':'", peek());
      return false;
    }
    phase.mirrorOf = parseParenthesizedName();
    return phase.mirrorOf.has_value();
  }

  // paren-name := "(" NAME ")"
  std::optional<Name> parseParenthesizedName() {
    const Token& open = next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a phase name after '('", peek());
      return std::nullopt;
    }
    Name name = parseName();
    if (!isKind(TokenKind::RightParen)) {
      expectedNear("')'", peek());
      noteOpened(open);
      return std::nullopt;
    }
    next();
    return name;
  }

  // --- transitions ----------------------------------------------------------------------

  // transition := "after" NUM
  //             | "when" ( contact | ( "holding" | "released" ) BODY | com ) [ "or" "after" NUM ]
  //             | "and" "when" ( contact | com ) "after" NUM
  // On an error the partial transition is returned (and the phase boundary resynced), so
  // that the phases around it do not report a missing transition as well.
  Transition parseTransition(bool* ok = nullptr) {
    Transition transition;
    transition.location = location(peek());
    const bool parsed = parseTransitionBody(transition);
    if (!parsed) {
      // Possibly misread: do not report them as unknown links, or warn of the wait.
      transition.targets.clear();
      transition.com.reset();
      skipUntilTopLevelAfterTransition();
    }
    if (ok) *ok = parsed;
    return transition;
  }

  bool parseTransitionBody(Transition& transition) {
    if (isWord("after")) {
      next();
      transition.after = parseNumber("a time (seconds) after 'after'");
      return transition.after.has_value();
    }
    if (isWord("when")) {
      next();
      if (isWord("holding") || isWord("released")) {
        const bool holding = isWord("holding");
        next();
        if (!isKind(TokenKind::Identifier)) {
          expectedNear(std::string("the name of a scene body after '") +
                           (holding ? "holding" : "released") + "'",
                       peek());
          return false;
        }
        (holding ? transition.holding : transition.released) = parseName();
      } else if (!parseCondition(transition)) {
        return false;
      }
      if (!isWord("or")) return true;
      next();
      if (!isWord("after")) {
        expectedNear("'after NUM' after 'or' (a fallback: 'when contact ... or after 0.4')",
                     peek());
        return false;
      }
      next();
      transition.timeout = parseNumber("a time (seconds) after 'or after'");
      return transition.timeout.has_value();
    }
    next();  // "and"
    if (!isWord("when")) {
      expectedNear("'when contact' or 'when com' after 'and'", peek());
      return false;
    }
    next();
    if (!parseCondition(transition, true)) return false;
    const std::string_view kind = transition.com ? "com" : "contact";
    if (!isWord("after")) {
      expectedNear("'after NUM' to complete 'and when " + std::string(kind) + " ...'", peek());
      return false;
    }
    next();
    transition.after = parseNumber("a time (seconds) after 'after'");
    if (!transition.after) return false;
    if (isWord("or")) {
      sink().error(location(peek()), "'or after' is the fallback of 'when " + std::string(kind) +
                                         " ...'; 'and when " + std::string(kind) +
                                         " ... after T' already waits for both");
      return false;
    }
    return true;
  }

  // A condition after `when` (`afterAnd`: after `and when`, which takes no body's hold):
  // on the centre of mass, or on contacts.
  bool parseCondition(Transition& transition, bool afterAnd = false) {
    if (isWord("com")) return parseComCondition(transition);
    if (isWord("contact")) return parseContact(transition);
    constexpr std::array<std::string_view, 4> kConditions = {"contact", "com", "holding",
                                                             "released"};
    const std::span<const std::string_view> words(kConditions.data(), afterAnd ? 2 : 4);
    std::string hint;
    if (peek().kind == TokenKind::Identifier) hint = didYouMean(peek().text, words);
    expectedNear((afterAnd ? "'contact' or 'com'" : "'contact', 'com', 'holding' or 'released'") +
                     std::string(" after 'when'"),
                 peek(), hint);
    return false;
  }

  // com := "com" QUANTITY ( "<" | ">" ) NUM [ "legs" ]
  // QUANTITY := "x" | "y" | "vx" | "vy" | "capture"
  // Strict comparisons only: the quantities are continuous, so `<=` would mean what `<`
  // does, and one spelling keeps the canonical form one.
  bool parseComCondition(Transition& transition) {
    next();  // "com"
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a centre-of-mass quantity after 'com' (" +
                       CharacterNames::joined(kComQuantityWords) + ")",
                   peek());
      return false;
    }
    const Token word = peek();
    const auto found = std::find(kComQuantityWords.begin(), kComQuantityWords.end(), word.text);
    if (found == kComQuantityWords.end()) {
      errorAt(word, unknownNameMessage("CoM quantity", word.text, kComQuantityWords) +
                        " (the quantities: " + CharacterNames::joined(kComQuantityWords) + ")");
      return false;
    }
    next();
    ComCondition com;
    com.quantity = static_cast<ComQuantity>(found - kComQuantityWords.begin());
    if (isKind(TokenKind::LessEqual) || isKind(TokenKind::GreaterEqual)) {
      const std::string strict = isKind(TokenKind::LessEqual) ? "<" : ">";
      errorAt(peek(), "strict comparisons only: write '" + strict + "' (the quantity moves on: '" +
                          strict + "=' would fire when '" + strict + "' does)");
      return false;
    }
    if (!isKind(TokenKind::Less) && !isKind(TokenKind::Greater)) {
      expectedNear("'<' or '>' after 'com " + std::string(word.text) + "'", peek());
      return false;
    }
    com.above = isKind(TokenKind::Greater);
    const Token sign = next();
    const bool velocity = com.quantity == ComQuantity::Vx || com.quantity == ComQuantity::Vy;
    std::optional<NumberLit> value =
        parseNumber(std::string(velocity ? "a velocity (m/s)" : "a distance (metres)") +
                    " after '" + std::string(sign.text) + "'");
    if (!value) return false;
    com.value = *value;
    if (isWord("legs")) {
      next();
      com.legs = true;
    } else if (isKind(TokenKind::Identifier) && !isTransitionEnd()) {
      expectedNear("'legs' or the rest of the transition after the threshold", peek(),
                   didYouMean(peek().text, std::array<std::string_view, 1>{"legs"}));
      return false;
    }
    transition.com = com;
    return true;
  }

  void skipUntilTopLevelAfterTransition() {
    while (!atEnd() && !isKind(TokenKind::LeftBrace) && !isWord("finally") && !isWord("backto"))
      next();
  }

  // contact := "contact" [ "changed" | "established" | "lost" ] [ "any" | "all" ] targets
  //            [ "with" BODY ]
  // targets := link-or-group { "," link-or-group }
  // The body comes last, after a keyword: the parser knows no character and no scene, and
  // a name after the links without one would read as a link missing its comma.
  bool parseContact(Transition& transition) {
    next();  // "contact"
    transition.contact = true;
    if (isWord("established"))
      transition.event = ContactEvent::Established;
    else if (isWord("lost"))
      transition.event = ContactEvent::Lost;
    else if (isWord("changed"))
      transition.event = ContactEvent::Changed;
    if (transition.event) next();
    if (isWord("any"))
      transition.quantifier = ContactQuantifier::Any;
    else if (isWord("all"))
      transition.quantifier = ContactQuantifier::All;
    if (transition.quantifier) next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a link name after 'contact'", peek());
      return false;
    }
    while (true) {
      transition.targets.push_back(parseName());
      if (isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1)) {
        next();
        continue;
      }
      break;
    }
    if (isWord("with")) return parseContactBody(transition);
    // A word right after the first target: most likely a misspelled event or quantifier.
    if (isKind(TokenKind::Identifier) && !isTransitionEnd()) {
      const Name& first = transition.targets.front();
      std::string_view suggestion = closestMatch(first.text, kContactWords);
      if (transition.targets.size() == 1 && (first.text == "both" || first.text == "every"))
        sink().error(first.location, "'" + first.text +
                                         "' is not a quantifier; write 'all' (every listed link) "
                                         "or 'any' (one of them)");
      else if (transition.targets.size() == 1 && !suggestion.empty())
        sink().error(first.location, "unknown contact condition '" + quoteToken(first.text) +
                                         "'; did you mean '" + std::string(suggestion) + "'?");
      else
        expectedNear("',' between contact links", peek(), bodyHint());
      return false;
    }
    return true;
  }

  // "with" BODY, the cursor on "with".
  bool parseContactBody(Transition& transition) {
    next();
    if (!isKind(TokenKind::Identifier) || isTransitionEnd()) {
      expectedNear("a scene body's name after 'with'", peek());
      return false;
    }
    transition.body = parseName();
    if (isKind(TokenKind::Comma)) {
      errorAt(peek(), "one scene body after 'with': a contact condition watches one body");
      return false;
    }
    if (isKind(TokenKind::Identifier) && !isTransitionEnd()) {
      expectedNear(
          "'or after', 'after', 'backto' or '{' after the scene body (a contact "
          "condition watches one body)",
          peek());
      return false;
    }
    return true;
  }

  // A word that ends a contact condition: the next transition's or what follows one.
  bool isTransitionEnd(size_t ahead = 0) const {
    return std::any_of(kTransitionEnds.begin(), kTransitionEnds.end(),
                       [&](std::string_view word) { return isWord(word, ahead); });
  }

  // For a word after the links: `wiht step` meant `with step`; a name alone (`leftFoot
  // step`) a body without its keyword.
  std::string bodyHint() const {
    std::string hint = didYouMean(peek().text, std::array<std::string_view, 1>{"with"});
    if (hint.empty() &&
        (isTransitionEnd(1) || isKind(TokenKind::LeftBrace, 1) || isKind(TokenKind::EndOfFile, 1)))
      hint = "; for contact with the scene body '" + quoteToken(peek().text) + "', write 'with " +
             quoteToken(peek().text) + "'";
    return hint;
  }

  // counted := "backto" NAME NUM "times"      (between phases: after a transition)
  void parseCountedBackto(Transition& transition) {
    next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a phase name after 'backto'", peek());
      return;
    }
    transition.backto = parseName();
    if (!isKind(TokenKind::Number)) {
      expectedNear(
          "'N times' after 'backto NAME' between phases (a cycle without end goes last: "
          "'finally ... backto NAME')",
          peek());
      return;
    }
    transition.times = parseNumber("a count");
    if (!isWord("times")) {
      expectedNear("'times' after 'backto NAME N'", peek());
      return;
    }
    next();
  }

  // finally := "finally" transition "backto" NAME [ NUM "times" ]
  std::optional<Finally> parseFinally() {
    Finally finally;
    finally.location = location(next());
    if (!isTransitionStart()) {
      expectedNear("a transition after 'finally'", peek());
      skipUntilEnd();
      return std::nullopt;
    }
    bool transitionOk = false;
    finally.transition = parseTransition(&transitionOk);
    if (!isWord("backto")) {
      if (transitionOk) expectedNear("'backto NAME' after the final transition", peek());
      skipUntilEnd();
      return std::nullopt;
    }
    next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a phase name after 'backto'", peek());
      skipUntilEnd();
      return std::nullopt;
    }
    finally.backto = parseName();
    if (isKind(TokenKind::Number)) {
      finally.times = parseNumber("a count");
      if (!isWord("times")) {
        expectedNear("'times' after 'backto NAME N'", peek());
        skipUntilEnd();
        return std::nullopt;
      }
      next();
    }
    return finally;
  }
  void skipUntilEnd() {
    while (!atEnd()) next();
  }

  // define := "define" NAME "{" primitive* "}"
  // A broken header skips to the block's "{" when it is on the same line (that "{" does
  // not start a phase). A block without a name is dropped; one with a name is kept, marked
  // recovered, so that its uses are not reported as unknown.
  std::optional<Define> parseDefine() {
    Define block;
    const Token& keyword = next();
    block.location = location(keyword);
    bool ok = isKind(TokenKind::Identifier);
    const bool named = ok;
    if (named)
      block.name = parseName();
    else
      expectedNear("a block name after 'define'", peek());
    if (ok && !isKind(TokenKind::LeftBrace)) {
      expectedNear("'{' to start the primitives of block '" + quoteToken(block.name.text) + "'",
                   peek());
      ok = false;
    }
    if (!ok) {
      block.recovered = true;
      skipUntilTopLevel();
      if (!isKind(TokenKind::LeftBrace) || location(peek()).line != block.location.line)
        return named ? std::optional(block) : std::nullopt;
    }
    const Token& open = next();
    block.end = parseBody(open, "block", block.primitives, block.recovered);
    if (!named) return std::nullopt;
    return block;
  }

  // --- primitives -----------------------------------------------------------------------

  // primitive := "[" ( pd | vf | ik | relax | gc | "symm" | com | angmom | track | posture
  //                 | support | grasp | force | swing | clip-item | use ) "]"
  // use := NAME      (a block's name alone; a joint name alone is a PD target without angle)
  void parsePrimitive(std::vector<Primitive>& primitives, bool& recovered) {
    const Token& open = next();
    Primitive primitive;
    primitive.location = location(open);
    bool ok = false;
    if (isWord("vf")) {
      ok = parseVf(primitive.node.emplace<Vf>());
    } else if (isWord("ik")) {
      ok = parseIk(primitive.node.emplace<Ik>());
    } else if (isWord("relax")) {
      ok = parseRelax(primitive.node.emplace<Relax>());
    } else if (isWord("gc")) {
      ok = parseGc(primitive.node.emplace<Gc>());
    } else if (isWord("symm")) {
      next();
      primitive.node.emplace<Symm>();
      ok = true;
    } else if (isWord("com")) {
      ok = parseCom(primitive.node.emplace<syntax::Com>());
    } else if (isWord("angmom")) {
      ok = parseAngMom(primitive.node.emplace<syntax::AngMom>());
    } else if (isWord("track")) {
      ok = parseTrack(primitive.node.emplace<syntax::Track>());
    } else if (isWord("posture")) {
      ok = parsePosture(primitive.node.emplace<syntax::Posture>());
    } else if (isWord("clip") && isKind(TokenKind::Identifier, 1)) {
      ok = parseClipItem(primitive.node.emplace<syntax::ClipItem>());
    } else if (isWord("support")) {
      ok = parseSupport(primitive.node.emplace<syntax::Support>());
    } else if (isWord("grasp")) {
      ok = parseGrasp(primitive.node.emplace<syntax::Grasp>());
    } else if (isWord("force")) {
      ok = parseForce(primitive.node.emplace<syntax::Force>());
    } else if (isWord("swing")) {
      ok = parseSwing(primitive.node.emplace<syntax::Swing>());
    } else if (isKind(TokenKind::Identifier) && isKind(TokenKind::RightBracket, 1) &&
               !isJointName(peek().text)) {
      primitive.node.emplace<syntax::Use>().block = parseName();
      ok = true;
    } else if (isKind(TokenKind::Identifier)) {
      ok = parsePd(primitive.node.emplace<Pd>());
    } else if (isKind(TokenKind::RightBracket)) {
      errorAt(open, "empty primitive '[]'");
    } else {
      expectedNear(
          "a joint name or a primitive keyword (vf, ik, relax, gc, symm, com, angmom, track, "
          "swing, posture, support, grasp, force, clip)",
          peek());
    }
    if (ok && isKind(TokenKind::RightBracket)) {
      next();
      primitives.push_back(std::move(primitive));
      return;
    }
    if (ok) {
      std::string hint;
      if (peek().kind == TokenKind::Identifier) hint = didYouMean(peek().text, kTrailingWords);
      expectedNear("']'", peek(), hint);
      noteOpened(open);
      // A complete primitive followed by the next one or the end of the phase: only the
      // ']' is missing, so keep the primitive (its names are still checked).
      if (isKind(TokenKind::LeftBracket) || isKind(TokenKind::RightBrace) || isPhaseBoundary())
        primitives.push_back(std::move(primitive));
    }
    recovered = true;
    skipPrimitive();
  }

  // The parser knows no character; every character has the biped's joint names, and the
  // built-in groups are the usual ones.
  static bool isJointName(std::string_view name) {
    const Character& names = *humanCharacter();
    return names.findJoint(name) || !names.findJointGroup(name).empty();
  }

  // pd := pd-item { "," pd-item } [ [","] "time:" NUM ]
  bool parsePd(Pd& pd) {
    while (true) {
      PdItem item;
      if (!parsePdItem(item)) return false;
      pd.items.push_back(std::move(item));
      if (!isKind(TokenKind::Comma)) break;
      next();
      if (isWord("time")) break;
    }
    if (!isWord("time")) return true;
    next();
    if (!expectColonAfter("time")) return false;
    pd.time = parseNumber("a duration (seconds) after 'time:'");
    return pd.time.has_value();
  }

  // pd-item := joint-or-group NUM [ "child" | "parent" ]
  bool parsePdItem(PdItem& item) {
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a joint name", peek());
      return false;
    }
    item.joint = parseName();
    if (!isKind(TokenKind::Number)) {
      std::string_view keyword = closestMatch(item.joint.text, kPrimitiveKeywords);
      if (!keyword.empty() && !isJointName(item.joint.text))
        sink().error(item.joint.location, "unknown primitive '" + quoteToken(item.joint.text) +
                                              "'; did you mean '" + std::string(keyword) + "'?");
      else
        expectedNear("a target angle (degrees) after '" + quoteToken(item.joint.text) + "'",
                     peek());
      return false;
    }
    item.angle = *parseNumber("");
    if (isWord("child"))
      item.frame = Frame::Child;
    else if (isWord("parent"))
      item.frame = Frame::Parent;
    if (item.frame != Frame::Local) next();
    return true;
  }

  // vf := "vf" ( vec | "sb" "(" NUM "," NUM ")" ) [","] "on:" link [","] "by:" joint
  bool parseVf(Vf& vf) {
    const Token& keyword = next();
    if (isKind(TokenKind::LeftParen)) {
      auto force = parseVec("a force (fx, fy)");
      if (!force) return false;
      vf.values = *force;
    } else if (isWord("sb")) {
      next();
      if (!isKind(TokenKind::LeftParen)) {
        expectedNear("the gains of stance balance, sb(kp, kd),", peek());
        return false;
      }
      auto gains = parseVec("the gains of 'sb' (kp, kd)");
      if (!gains) return false;
      vf.stanceBalance = true;
      vf.values = *gains;
    } else {
      expectedNear("a force '(fx, fy)' or 'sb(kp, kd)' after 'vf'", peek());
      return false;
    }
    std::optional<Name> on, by;
    std::array<ArgSpec, 2> specs = {{
        {"on", true, "a link name", &on, nullptr},
        {"by", true, "a joint name", &by, nullptr},
    }};
    if (!parseArgs(specs, "vf")) return false;
    if (!on || !by) {
      errorAt(keyword, std::string("vf needs ") + (on ? "" : "'on: LINK'") +
                           (!on && !by ? " and " : "") + (by ? "" : "'by: JOINT'"));
      return false;
    }
    vf.on = *on;
    vf.by = *by;
    return true;
  }

  // ik := "ik" vec { "," vec } [","] "on:" joint-or-group [ [","] "rel:" joint ]
  //       [ [","] "time:" NUM ]
  bool parseIk(Ik& ik) {
    const Token& keyword = next();
    if (!isKind(TokenKind::LeftParen)) {
      expectedNear("a target '(x, y)' after 'ik'", peek());
      return false;
    }
    while (true) {
      auto target = parseVec("a target (x, y)");
      if (!target) return false;
      ik.targets.push_back(*target);
      if (isKind(TokenKind::Comma) && isKind(TokenKind::LeftParen, 1)) {
        next();
        continue;
      }
      break;
    }
    std::optional<Name> on;
    std::array<ArgSpec, 3> specs = {{
        {"on", true, "a wrist or ankle joint", &on, nullptr},
        {"rel", true, "a joint name", &ik.rel, nullptr},
        {"time", true, "a duration (seconds)", nullptr, &ik.time},
    }};
    if (!parseArgs(specs, "ik")) return false;
    if (!on) {
      errorAt(keyword, "ik needs 'on: JOINT' (a wrist or an ankle)");
      return false;
    }
    ik.on = *on;
    return true;
  }

  // relax := "relax" joint-or-group { "," joint-or-group } [","] "strength" NUM
  bool parseRelax(Relax& relax) {
    next();
    while (true) {
      if (!isKind(TokenKind::Identifier) || isWord("strength")) {
        expectedNear("a joint name after 'relax'", peek());
        return false;
      }
      relax.joints.push_back(parseName());
      if (!isKind(TokenKind::Comma)) break;
      next();
      if (isWord("strength")) break;
    }
    if (!isWord("strength")) {
      std::string hint;
      if (peek().kind == TokenKind::Identifier)
        hint = didYouMean(peek().text, std::array<std::string_view, 1>{"strength"});
      expectedNear("',' or 'strength NUM'", peek(), hint);
      return false;
    }
    next();
    auto strength = parseNumber("a strength (0 to 1) after 'strength'");
    if (!strength) return false;
    relax.strength = *strength;
    return true;
  }

  // gc := "gc" [ [","] "by:" joint ] [ [","] "strength" NUM ]   (arguments in any order)
  bool parseGc(Gc& gc) {
    next();
    std::array<ArgSpec, 2> specs = {{
        {"by", true, "a joint name", &gc.by, nullptr},
        {"strength", false, "a strength (0 to 1)", nullptr, &gc.strength},
    }};
    return parseArgs(specs, "gc");
  }

  // --- features (docs/features.md) -----------------------------------------------------

  // com := "com" ( vec [ "legs" ] | ( "x" | "y" ) ( NUM [ "legs" ] | "standing" [ NUM [ "legs" ] ]
  // )
  //        | "standing" [ vec [ "legs" ] ] ) { task-arg }
  static constexpr unsigned kComArgs =
      kTaskKp | kTaskKd | kTaskTime | kTaskVelocity | kTaskWeight | kTaskPriority;
  bool parseCom(syntax::Com& com) {
    next();
    if (isWord("standing")) {
      next();
      com.standing = true;
      if (isWord("legs")) {
        errorAt(peek(),
                "'legs' goes after a target (x, y); 'standing' is the standing pose's "
                "own height");
        return false;
      }
      if (isKind(TokenKind::LeftParen)) {  // an offset from the standing point
        auto offset = parseVec("the offset (x, y) from the standing centre of mass");
        if (!offset) return false;
        com.target = *offset;
        com.hasOffset = true;
        com.inLegs = parseLegs();
      }
      return parseTaskArgs(com.args, kComArgs, "com");
    }
    if ((isWord("x") || isWord("y")) && !isKind(TokenKind::LeftParen, 1)) {
      // One coordinate, the other free: `[com x 0.2]` moves the body along, at any height.
      com.axis = peek().text[0];
      next();
      if (isWord("standing")) {  // `[com y standing -0.08 legs]`: from the standing height
        next();
        com.standing = true;
        if (isWord("legs")) {
          errorAt(peek(),
                  "'legs' goes after an offset; 'standing' is the standing pose's own height");
          return false;
        }
        if (isKind(TokenKind::LeftParen)) {
          errorAt(peek(), std::string("'com ") + com.axis + " standing' takes one offset, a " +
                              "number: '[com " + com.axis + " standing -0.1 legs]'");
          return false;
        }
        if (isKind(TokenKind::Number)) {
          std::optional<syntax::NumberLit> offset = parseNumber("");
          if (!offset) return false;
          (com.axis == 'x' ? com.target.x : com.target.y) = *offset;
          com.hasOffset = true;
          com.inLegs = parseLegs();
        }
        return parseTaskArgs(com.args, kComArgs, "com");
      }
      std::optional<syntax::NumberLit> value = parseNumber(
          std::string("the target ") + com.axis + " (metres) after 'com " + com.axis + "'");
      if (!value) return false;
      (com.axis == 'x' ? com.target.x : com.target.y) = *value;
      com.inLegs = parseLegs();
      return parseTaskArgs(com.args, kComArgs, "com");
    }
    if (!isKind(TokenKind::LeftParen)) {
      expectedNear("a target '(x, y)', 'x NUM', 'y NUM' or 'standing' after 'com'", peek());
      return false;
    }
    auto target = parseVec("the target (x, y)");
    if (!target) return false;
    com.target = *target;
    com.inLegs = parseLegs();
    return parseTaskArgs(com.args, kComArgs, "com");
  }

  // angmom := "angmom" NUM { task-arg }
  bool parseAngMom(syntax::AngMom& angmom) {
    next();
    auto target = parseNumber("an angular momentum (kg m^2/s) after 'angmom'");
    if (!target) return false;
    angmom.target = *target;
    return parseTaskArgs(angmom.args, kTaskKd | kTaskWeight | kTaskPriority, "angmom");
  }

  // The unit word after a target: `legs` (the character's leg lengths).
  bool parseLegs() {
    if (!isWord("legs")) return false;
    next();
    return true;
  }

  // track := "track" NAME ( vec [ "legs" ] | NUM | "standing" | BODY ) { task-arg }
  //          | "track" NAME "clip:" NAME { clip-arg | task-arg }
  bool parseTrack(syntax::Track& track) {
    next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a joint or link name after 'track'", peek());
      return false;
    }
    track.on = parseName();
    if (isWord("clip") && isKind(TokenKind::Colon, 1)) return parseClipTrack(track);
    if (isKind(TokenKind::Identifier) && !isWord("standing") && !isTaskArgWord(peek().text)) {
      track.toBody = parseName();  // a movable body's centre: `[track rightWrist ball]`
    } else if (isKind(TokenKind::LeftParen)) {
      track.position = parseVec("the target (x, y)");
      if (!track.position) return false;
      track.inLegs = parseLegs();
    } else if (isKind(TokenKind::Number)) {
      track.angle = parseNumber("");
      if (track.angle && isWord("legs")) {
        errorAt(peek(), "'legs' goes after a position (x, y); an angle is in degrees");
        return false;
      }
    } else if (isWord("standing")) {
      next();
      track.standing = true;
    } else {
      expectedNear("a target '(x, y)', an angle (degrees), 'standing' or a body after '" +
                       quoteToken(track.on.text) + "'",
                   peek());
      return false;
    }
    const unsigned endVelocity = track.position ? unsigned{kTaskVelocity} : 0u;
    return parseTaskArgs(track.args,
                         kTaskKp | kTaskKd | kTaskTime | kTaskWeight | kTaskPriority | endVelocity,
                         track.position ? "a position track"
                         : track.toBody ? "a track of a body"
                                        : "an angle track");
  }

  // The clip path's arguments: the clip, its playback (`speed:`, `from:`, `loop`; the
  // binder refuses `nearest`) and the task's gains, weight and priority.
  bool parseClipTrack(syntax::Track& track) {
    const std::array<ArgSpec, 2> own = clipTimeSpecs(track.clip);
    while (true) {
      if (!parseTaskArgs(track.args, kTaskKp | kTaskKd | kTaskWeight | kTaskPriority,
                         "a clip track", "clip", own))
        return false;
      const int found = parseClipWord(track.clip, true);
      if (found < 0) return false;
      if (found == 0) return true;
    }
  }

  static bool isTaskArgWord(std::string_view word) {
    for (std::string_view arg : {"kp", "kd", "time", "weight", "priority", "velocity"})
      if (word == arg) return true;
    return false;
  }

  // support := "support" link-or-group [ "heel" | "toe" ] { "," link-or-group [ "heel" | "toe" ] }
  bool parseSupport(syntax::Support& support) {
    next();
    while (true) {
      if (!isKind(TokenKind::Identifier)) {
        expectedNear("a link name after 'support'", peek());
        return false;
      }
      support.links.push_back(parseName());
      char end = 0;
      if (isWord("heel") || isWord("toe")) {
        end = peek().text[0];
        next();
      }
      support.ends.push_back(end);
      if (!isKind(TokenKind::Comma)) return true;
      next();
    }
  }

  // grasp := "grasp" link-or-group { "," link-or-group } BODY [ "reach:" NUM ]
  // The body is the name after the last link (no comma before it).
  bool parseGrasp(syntax::Grasp& grasp) {
    next();
    while (true) {
      if (!isKind(TokenKind::Identifier)) {
        expectedNear("a link name after 'grasp' (the hands: '[grasp hands box]')", peek());
        return false;
      }
      grasp.links.push_back(parseName());
      if (!isKind(TokenKind::Comma)) break;
      next();
    }
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("the name of the body to grasp after the links ('[grasp hands box]')", peek());
      return false;
    }
    grasp.body = parseName();
    std::array<ArgSpec, 2> specs = {{
        {"reach", true, "a distance (metres)", nullptr, &grasp.reach},
        {"grip", true, "a force (newtons)", nullptr, &grasp.grip},
    }};
    return parseArgs(specs, "grasp");
  }

  // force := "force" LINK vec { "max:" NUM | "weight" NUM | "priority" NUM }
  bool parseForce(syntax::Force& force) {
    next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a link name after 'force' (the one that pushes: '[force rightHand (150, 0)]')",
                   peek());
      return false;
    }
    force.link = parseName();
    if (!isKind(TokenKind::LeftParen)) {
      expectedNear("the force '(fx, fy)' (newtons) after '" + quoteToken(force.link.text) + "'",
                   peek());
      return false;
    }
    std::optional<syntax::Vec> value = parseVec("the force (fx, fy)");
    if (!value) return false;
    force.force = *value;
    // `max:` and the task options, in any order.
    while (parseTaskArgs(force.args, kTaskWeight | kTaskPriority, "force", "max")) {
      const size_t ahead = isKind(TokenKind::Comma) && isWord("max", 1) ? 1 : 0;
      if (!isWord("max", ahead) || !isKind(TokenKind::Colon, ahead + 1)) return true;
      if (force.max) {
        errorAt(peek(ahead), "duplicate argument 'max:'");
        return false;
      }
      for (size_t i = 0; i < ahead + 2; ++i) next();
      force.max = parseNumber("a force (newtons) after 'max:'");
      if (!force.max) return false;
    }
    return false;
  }

  // swing := "swing" LINK vec [ "legs" ] { "lift:" NUM | "feedback:" vec | task-arg }
  bool parseSwing(syntax::Swing& swing) {
    next();
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a foot after 'swing' ('[swing rightFoot (0.3, 0) time: 0.4]')", peek());
      return false;
    }
    swing.foot = parseName();
    if (!isKind(TokenKind::LeftParen)) {
      expectedNear("the landing point '(x, y)' after '" + quoteToken(swing.foot.text) + "'",
                   peek());
      return false;
    }
    std::optional<syntax::Vec> target = parseVec("the landing point (x, y)");
    if (!target) return false;
    swing.target = *target;
    swing.inLegs = parseLegs();
    const std::array<ArgSpec, 2> own = {{
        {"lift", true, "a height (metres, or leg lengths after 'legs')", nullptr, &swing.lift},
        {"feedback", true, "the gains (cd, cv) on the centre of mass's place and velocity", nullptr,
         nullptr, &swing.feedback},
    }};
    return parseTaskArgs(swing.args, kTaskKp | kTaskKd | kTaskTime | kTaskWeight | kTaskPriority,
                         "swing", {}, own);
  }

  // posture := "posture" { clip-arg | task-arg }
  bool parsePosture(syntax::Posture& posture) {
    next();
    const std::array<ArgSpec, 2> own = clipTimeSpecs(posture.clip);
    while (true) {
      if (!parseTaskArgs(posture.args, kTaskKp | kTaskKd | kTaskWeight | kTaskPriority, "posture",
                         "clip", own))
        return false;
      const int found = parseClipWord(posture.clip, true);
      if (found < 0) return false;
      if (found == 0) return true;
    }
  }

  // clip-item := "clip" NAME { "joints:" joint-or-group { "," joint-or-group }
  //                          | "speed:" NUM | "from:" NUM | "loop" }
  bool parseClipItem(syntax::ClipItem& item) {
    next();  // "clip"
    item.args.clips.push_back(parseName());
    std::array<ArgSpec, 2> specs = clipTimeSpecs(item.args);
    constexpr std::array<std::string_view, 1> kStop = {"joints"};
    while (true) {
      if (!parseArgs(specs, "clip", kStop)) return false;
      const size_t ahead = isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1) ? 1 : 0;
      if (isWord("joints", ahead) && isKind(TokenKind::Colon, ahead + 1)) {
        for (size_t i = 0; i < ahead; ++i) next();
        const Token word = next();
        next();  // ':'
        if (!item.joints.empty()) {
          errorAt(word, "duplicate argument 'joints:'");
          return false;
        }
        if (!isKind(TokenKind::Identifier)) {
          expectedNear("a joint or group after 'joints:'", peek());
          return false;
        }
        item.joints.push_back(parseName());
        // More joints after commas, up to the next argument (`speed:`, `loop`).
        while (isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1) &&
               !isKind(TokenKind::Colon, 2) && !isWord("loop", 1)) {
          next();
          item.joints.push_back(parseName());
        }
        continue;
      }
      const int found = parseClipWord(item.args, false);
      if (found < 0) return false;
      if (found == 0) return true;
    }
  }

  // The `speed:` and `from:` of a clip's playback.
  static std::array<ArgSpec, 2> clipTimeSpecs(syntax::ClipArgs& args) {
    return {{
        {"speed", true, "a speed (clip seconds per second)", nullptr, &args.speed},
        {"from", true, "a time in the clip (seconds)", nullptr, &args.from},
    }};
  }

  // clip-arg := "clip:" NAME { "," NAME } | "speed:" NUM | "from:" NUM | "loop" | "nearest"
  // One of the words `loop`, `nearest` or (`named`) `clip: NAME, ...` at the cursor (after a
  // comma, maybe): 1 when one was read, 0 when none is there, -1 after an error.
  int parseClipWord(syntax::ClipArgs& args, bool named) {
    const size_t ahead = isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1) ? 1 : 0;
    const bool clip = named && isWord("clip", ahead) && isKind(TokenKind::Colon, ahead + 1);
    const bool loop = isWord("loop", ahead);
    const bool nearest = named && isWord("nearest", ahead);
    if (!clip && !loop && !nearest) return 0;
    for (size_t i = 0; i < ahead; ++i) next();
    const Token word = peek();
    std::optional<Name>* flag = loop ? &args.loop : nearest ? &args.nearest : nullptr;
    if ((flag && flag->has_value()) || (clip && !args.clips.empty())) {
      errorAt(word, "duplicate argument '" + std::string(word.text) + (clip ? ":'" : "'"));
      return -1;
    }
    if (flag) {
      *flag = parseName();
      return 1;
    }
    next();  // "clip"
    next();  // ':'
    if (!isKind(TokenKind::Identifier)) {
      expectedNear("a clip's name after 'clip:' (declared by 'clip NAME: \"FILE\"')", peek());
      return -1;
    }
    args.clips.push_back(parseName());
    while (isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1) &&
           !isKind(TokenKind::Colon, 2) && !isWord("loop", 1) && !isWord("nearest", 1) &&
           !isWord("kp", 1) && !isWord("kd", 1) && !isWord("weight", 1) && !isWord("priority", 1)) {
      next();
      args.clips.push_back(parseName());
    }
    return 1;
  }

  // task-arg := "kp" NUM | "kd" NUM | "time:" NUM | "weight" NUM | "priority" NUM
  // (each at most once, in any order, commas optional; `accepted` is the kind's subset)
  // `extra`: options of the kind's own, parsed with the task args (swing's `lift:`).
  bool parseTaskArgs(syntax::TaskArgs& args, unsigned accepted, std::string_view owner,
                     std::string_view ownArgument = {}, std::span<const ArgSpec> extra = {}) {
    std::array<ArgSpec, 6> all = {{
        {"kp", false, "a gain (1/s^2)", nullptr, &args.kp},
        {"kd", false, "a gain (1/s)", nullptr, &args.kd},
        {"time", true, "a duration (seconds)", nullptr, &args.time},
        {"weight", false, "a weight", nullptr, &args.weight},
        {"priority", false, "a priority level (1, 2, ...)", nullptr, &args.priority},
        {"velocity", true, "an end velocity (vx, vy)", nullptr, nullptr, &args.velocity},
    }};
    std::array<ArgSpec, 8> specs{};
    // The options this kind does not take, and the one it parses itself (`max:`).
    std::array<std::string_view, 7> others{};
    size_t count = 0, otherCount = 0;
    if (!ownArgument.empty()) others[otherCount++] = ownArgument;
    for (size_t i = 0; i < all.size(); ++i) {
      if (accepted & (1u << i))
        specs[count++] = all[i];
      else
        others[otherCount++] = all[i].name;
    }
    assert(count + extra.size() <= specs.size());
    for (const ArgSpec& own : extra) specs[count++] = own;
    if (!parseArgs(std::span<ArgSpec>(specs.data(), count), owner,
                   std::span<const std::string_view>(others.data(), otherCount)))
      return false;
    // A known option this kind does not take (after a comma, maybe; `time:` included,
    // which would otherwise read as an unknown argument): say so.
    const size_t ahead = isKind(TokenKind::Comma) && isKind(TokenKind::Identifier, 1) ? 1 : 0;
    for (size_t i = 0; i < all.size(); ++i) {
      if ((accepted & (1u << i)) || !isWord(all[i].name, ahead)) continue;
      errorAt(peek(ahead), "'" + std::string(all[i].name) + (all[i].colon ? ":" : "") +
                               "' does not apply to " + std::string(owner) + "; it takes " +
                               describeArgs(specs, count));
      return false;
    }
    return true;
  }

  static std::string describeArgs(const std::array<ArgSpec, 8>& specs, size_t count) {
    std::string out;
    for (size_t i = 0; i < count; ++i)
      out += (i == 0           ? ""
              : i + 1 == count ? " and "
                               : ", ") +
             std::string(specs[i].name) + (specs[i].colon ? ":" : "");
    return out;
  }

  // --- pieces ---------------------------------------------------------------------------

  ScriptVisitor* visitor_ = nullptr;
  // The last phase parsed, not yet given to the visitor: its transition may follow.
  std::optional<Phase> pending_;
};

// Collects the pieces into one syntax tree.
class TreeCollector : public ScriptVisitor {
 public:
  explicit TreeCollector(Script& script) : script_(script) {}
  void scene(SceneHeader header) override { script_.scene = std::move(header); }
  void world(syntax::WorldStatement statement) override {
    script_.world.push_back(std::move(statement));
  }
  void clip(syntax::ClipDecl clip) override { script_.clips.push_back(std::move(clip)); }
  void define(Define block) override { script_.defines.push_back(std::move(block)); }
  void phase(Phase phase, bool) override { script_.phases.push_back(std::move(phase)); }
  void end(std::optional<Finally> finally) override { script_.finally = std::move(finally); }

 private:
  Script& script_;
};

}  // namespace

std::span<const std::string_view> primitiveKeywords() { return kPrimitiveKeywords; }

LexerOptions scriptLexing() { return {.comparisons = true, .strings = true}; }

void parse(std::string_view source, std::string_view fileName, DiagnosticSink& sink,
           ScriptVisitor& visitor) {
  const FileName file(fileName);
  TokenStream tokens(source, file, sink, scriptLexing());
  ScriptParser(tokens, file, sink).parseScript(visitor);
}

syntax::Script parse(std::string_view source, std::string_view fileName, DiagnosticSink& sink) {
  Script script;
  TreeCollector collector(script);
  parse(source, fileName, sink, collector);
  return script;
}

ParseResult parse(std::string_view source, std::string_view fileName) {
  DiagnosticSink sink;
  ParseResult result;
  result.script = parse(source, fileName, sink);
  result.diagnostics = sink.take();
  return result;
}

}  // namespace scl
