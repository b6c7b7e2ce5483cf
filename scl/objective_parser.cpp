// The objective and problem file parser: one statement per line, on the script lexer
// (with the objective's LexerOptions) and the shared token cursor, scene rule and name
// lookup. Formats: docs/objectives.md, docs/state-action.md (a problem file shares the
// scene, duration and population statements and adds its own).
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "scl/lexer.h"
#include "scl/names.h"
#include "scl/objective.h"
#include "scl/problem.h"
#include "scl/scene.h"
#include "scl/token_cursor.h"

namespace scl {

namespace {

constexpr std::array<std::string_view, 8> kPredefinedTerms = {
    "time", "height", "airborne", "energy", "skid", "proneSkid", "contactless", "final"};
constexpr std::array<std::string_view, 5> kAggregations = {"sum", "min", "max", "last", "mean"};
constexpr std::array<std::string_view, 9> kStatements = {
    "scene", "duration", "population", "bounds", "bound", "term", "stop", "trial", "combine"};
constexpr std::array<std::string_view, 8> kProblemStatements = {
    "scene", "duration", "state", "action", "compatible", "paths", "population", "step"};
constexpr std::array<std::string_view, 1> kStateQuantities = {"height"};
constexpr std::array<std::string_view, 7> kGlobalQuantities = {
    "head", "headHeight", "airborne", "contacts", "time", "energy", "skid"};
constexpr std::array<std::string_view, 7> kLinkFields = {"x",     "y",     "vx",     "vy",
                                                         "angle", "omega", "contact"};
constexpr std::array<std::string_view, 5> kJointFields = {"x", "y", "angle", "omega", "torque"};
constexpr std::array<std::string_view, 4> kComFields = {"x", "y", "vx", "vy"};
constexpr std::array<std::string_view, 5> kConditionWords = {"airborne", "grounded", "fallen",
                                                             "contact", "nocontact"};

LexerOptions objectiveLexing() { return {.comparisons = true, .slash = true, .paths = true}; }

bool isComparison(TokenKind kind) {
  return kind == TokenKind::Less || kind == TokenKind::LessEqual || kind == TokenKind::Greater ||
         kind == TokenKind::GreaterEqual;
}

template <typename Names>
bool contains(const Names& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

class ObjectiveParser {
 public:
  // `problem`: parse a problem file into it instead of an objective.
  ObjectiveParser(std::string_view source, std::string_view fileName, ProblemDef* problem = nullptr)
      : source_(source), file_(fileName), problem_(problem) {
    objective_.fileName = std::string(fileName);
  }

  // objective := { statement }   (one statement per line)
  ObjectiveParseResult parse() {
    const std::vector<Token> tokens = lex(source_, file_, sink_, objectiveLexing());
    // A line the lexer already reported is not parsed: its errors would only repeat it.
    std::set<int> badLines;
    for (const Diagnostic& diagnostic : sink_.diagnostics())
      badLines.insert(diagnostic.location.line);
    std::vector<Token> statement;
    for (size_t i = 0; i + 1 < tokens.size() && !sink_.full(); ++i) {
      statement.push_back(tokens[i]);
      if (tokens[i + 1].line == tokens[i].line && tokens[i + 1].kind != TokenKind::EndOfFile)
        continue;
      if (!badLines.count(tokens[i].line)) parseStatement(statement);
      statement.clear();
    }
    if (problem_ && sink_.errorCount() == 0)
      checkProblem();
    else if (objective_.terms.empty() && sink_.errorCount() == 0)
      sink_.error({std::string(file_), 0, 0},
                  "the objective has no terms (add a line such as 'term 1 energy')");
    ObjectiveParseResult result;
    result.diagnostics = sink_.take();
    if (!hasErrors(result.diagnostics)) result.objective = std::move(objective_);
    return result;
  }

 private:
  // --- the statement's tokens ---------------------------------------------------------

  bool atEnd() const { return in_->atEnd(); }
  Token peek() const { return in_->peek(); }
  bool peekWord(std::string_view word) const { return in_->isWord(word); }
  bool peekKind(TokenKind kind) const { return in_->isKind(kind); }
  SourceLocation here() const { return in_->location(peek()); }
  std::string describeNext() const { return describeToken(peek()); }

  void error(const SourceLocation& location, std::string message) {
    sink_.error(location, std::move(message));
  }
  // Reports at the current token and returns false, so callers can `return fail(...)`.
  bool fail(std::string message) {
    error(here(), std::move(message));
    return false;
  }
  bool expected(std::string_view what) {
    return fail("expected " + std::string(what) + ", found " + describeNext());
  }

  bool expectNumber(double& value, std::string_view what) {
    if (!peekKind(TokenKind::Number)) return expected(what);
    if (peek().parameter)
      return fail("objective numbers cannot be '@' parameters ('@' marks a script's numbers)");
    value = in_->next().number;
    return true;
  }
  bool expectWord(std::string& word, std::string_view what) {
    if (!peekKind(TokenKind::Identifier)) return expected(what);
    word = std::string(in_->next().text);
    return true;
  }
  bool expectColon() {
    if (!peekKind(TokenKind::Colon)) return expected("':'");
    in_->next();
    return true;
  }
  bool expectLineEnd() {
    if (!atEnd()) return fail("unexpected " + describeNext() + " at the end of the statement");
    return true;
  }

  // --- statements ---------------------------------------------------------------------

  // statement := scene | duration | population | bounds | bound | term | stop | trial | combine
  void parseStatement(std::vector<Token>& tokens) {
    const Token& last = tokens.back();
    Token end;
    end.kind = TokenKind::EndOfLine;
    end.line = last.line;
    end.column = last.column + static_cast<int>(last.text.size());
    tokens.push_back(end);
    TokenCursor cursor(tokens, std::string(file_), sink_);
    in_ = &cursor;
    statement_ = &tokens;
    const Token& head = in_->next();
    if (head.kind != TokenKind::Identifier) {
      error(in_->location(head),
            "expected a statement (scene, duration, population, bounds, bound, term, stop, "
            "trial, combine), found " +
                describeToken(head));
      return;
    }
    const std::string_view word = head.text;
    // Both kinds of file have a scene, a duration and a population.
    if (word == "scene")
      parseScene(head);
    else if (word == "duration")
      parseDuration();
    else if (word == "population")
      parsePopulation();
    else if (problem_)
      parseProblemStatement(head);
    else if (word == "bounds")
      parseBounds();
    else if (word == "bound")
      parseBound();
    else if (word == "term")
      parseTerm(head);
    else if (word == "stop")
      parseStop(head);
    else if (word == "trial")
      parseTrial(head);
    else if (word == "combine")
      parseCombine();
    else
      error(in_->location(head),
            "unknown statement '" + quoteToken(word) + "'" + didYouMean(word, kStatements));
  }

  // --- problem files (docs/state-action.md) -------------------------------------------

  // problem-statement := scene | duration | population        (shared, above)
  //                    | state | action | compatible | paths | step
  void parseProblemStatement(const Token& head) {
    const std::string_view word = head.text;
    if (word == "state")
      parseState(head);
    else if (word == "action")
      parseAction(head);
    else if (word == "compatible")
      parseCompatible();
    else if (word == "paths")
      parsePaths();
    else if (word == "step")
      parseStep();
    else if (contains(kStatements, word))
      error(in_->location(head),
            "'" + std::string(word) + "' belongs in an objective file; a problem file has " +
                "scene, duration, state, action, compatible, paths, " + "population and step");
    else
      error(in_->location(head),
            "unknown statement '" + quoteToken(word) + "'" + didYouMean(word, kProblemStatements));
  }

  // range := NUM NUM "scale" weight      (lower < upper, scale > 0)
  bool parseRange(double& lower, double& upper, double& scale) {
    const SourceLocation lowerAt = here();
    if (!expectNumber(lower, "the lower end of the range") ||
        !expectNumber(upper, "the upper end of the range"))
      return false;
    if (!(lower < upper)) return error(lowerAt, "the range must have lower < upper"), false;
    if (!peekWord("scale")) return expected("'scale' and the distance scale (e.g. scale 1/40)");
    in_->next();
    const SourceLocation scaleAt = here();
    if (!parseWeight(scale)) return false;
    if (!(scale > 0)) return error(scaleAt, "the scale must be positive"), false;
    return true;
  }

  // state := "state" QUANTITY range "start" NUM
  bool parseState(const Token& keyword) {
    ProblemState state;
    state.location = in_->location(keyword);
    const SourceLocation nameAt = here();
    if (!expectWord(state.name, "a state quantity (height)")) return false;
    if (!contains(kStateQuantities, state.name))
      return error(nameAt, "unknown state quantity '" + quoteToken(state.name) + "'" +
                               didYouMean(state.name, kStateQuantities) +
                               " (state quantities: height, the chair's seat height in m)"),
             false;
    for (const ProblemState& earlier : problem_->states)
      if (earlier.name == state.name)
        return error(nameAt, "the state '" + state.name + "' is given twice"), false;
    if (!parseRange(state.lower, state.upper, state.scale)) return false;
    if (!peekWord("start")) return expected("'start' and the starting point's value");
    in_->next();
    const SourceLocation startAt = here();
    if (!expectNumber(state.start, "the starting point's value")) return false;
    if (state.start < state.lower || state.start > state.upper)
      return error(startAt, "the start must lie inside the range"), false;
    problem_->states.push_back(state);
    return expectLineEnd();
  }

  // action := "action" PARAMETER range
  bool parseAction(const Token& keyword) {
    ProblemAction action;
    action.location = in_->location(keyword);
    const SourceLocation nameAt = here();
    if (!expectWord(action.parameter, "a parameter name of the script (e.g. lean.pd.waist)"))
      return false;
    for (const ProblemAction& earlier : problem_->actions)
      if (earlier.parameter == action.parameter)
        return error(nameAt, "the action '" + action.parameter + "' is given twice"), false;
    if (!parseRange(action.lower, action.upper, action.scale)) return false;
    problem_->actions.push_back(action);
    return expectLineEnd();
  }

  // compatible := "compatible" ( "standing" "at" "end" | "no" "fall" )
  bool parseCompatible() {
    const SourceLocation at = here();
    std::string words;
    while (!atEnd()) words += (words.empty() ? "" : " ") + std::string(in_->next().text);
    CompatibleWhen when{};
    if (words == "standing at end")
      when = CompatibleWhen::StandingAtEnd;
    else if (words == "no fall")
      when = CompatibleWhen::NoFall;
    else
      return error(at, "expected 'standing at end' or 'no fall' after 'compatible', found '" +
                           quoteToken(words) + "'"),
             false;
    problem_->compatible.push_back(when);
    return true;
  }

  // paths := "paths" NUM
  bool parsePaths() {
    const SourceLocation at = here();
    double count = 0;
    if (!expectNumber(count, "the number of sampling paths")) return false;
    if (count != std::floor(count) || count < 1 || count > 64)
      return error(at, "the number of paths must be a whole number from 1 to 64"), false;
    problem_->paths = static_cast<int>(count);
    return expectLineEnd();
  }

  // step := "step" NUM
  bool parseStep() {
    const SourceLocation at = here();
    double step = 0;
    if (!expectNumber(step, "the initial step in scaled units (e.g. 0.5)")) return false;
    if (!(step > 0)) return error(at, "the step must be positive"), false;
    problem_->step = step;
    return expectLineEnd();
  }

  void checkProblem() {
    const SourceLocation file{std::string(file_), 0, 0};
    if (problem_->states.empty())
      sink_.error(file,
                  "the problem has no state (add a line such as "
                  "'state height 0.15 0.75 scale 10 start 0.45')");
    if (problem_->actions.empty())
      sink_.error(file,
                  "the problem has no action (add a line such as "
                  "'action lean.pd.waist 0 90 scale 1/40')");
    if (problem_->compatible.empty())
      sink_.error(file,
                  "the problem does not say what compatible means (add a line such as "
                  "'compatible standing at end')");
  }

  // scene := "scene" ( "from" "script" | scene-args )   (scene-args: scl/scene.h)
  bool parseScene(const Token& keyword) {
    if (sceneSeen_) return error(in_->location(keyword), "the scene is given twice"), false;
    sceneSeen_ = true;
    if (peekWord("from")) {
      in_->next();
      const SourceLocation wordAt = here();
      std::string word;
      if (!expectWord(word, "'script'")) return false;
      if (word != "script") return error(wordAt, "expected 'script' after 'scene from'"), false;
      return expectLineEnd();
    }
    syntax::SceneHeader header;
    header.location = in_->location(keyword);
    if (!parseSceneArguments(*in_, header) || !expectLineEnd()) return false;
    // The character is the script's: one objective measures motions of any body.
    if (header.character)
      return error(header.character->location,
                   "an objective does not choose the character: the script's 'scene "
                   "character:' or 'scl optimize --character' does"),
             false;
    const int errorsBefore = sink_.errorCount();
    Scene scene = bindScene(header, Scene{}, *humanCharacter(), sink_);
    if (sink_.errorCount() > errorsBefore) return false;
    if (scene.duration) {
      if (objective_.duration)
        return error(header.duration->location, "the duration is given twice"), false;
      objective_.duration = scene.duration;
      scene.duration.reset();
    }
    objective_.scene = scene;
    return true;
  }

  // duration := "duration" NUM
  bool parseDuration() {
    if (objective_.duration) return fail("the duration is given twice");
    const SourceLocation at = here();
    double duration = 0;
    if (!expectNumber(duration, "the simulated time in seconds")) return false;
    if (!(duration > 0) || duration > kMaxDuration)
      return error(at, "the duration must be in (0, 3600] seconds"), false;
    objective_.duration = duration;
    return expectLineEnd();
  }

  // population := "population" NUM
  bool parsePopulation() {
    const SourceLocation at = here();
    double count = 0;
    if (!expectNumber(count, "the number of candidates per generation")) return false;
    if (count != std::floor(count) || count < 2 || count > 10000)
      return error(at, "the population must be a whole number from 2 to 10000"), false;
    objective_.populationSize = static_cast<int>(count);
    return expectLineEnd();
  }

  // bounds := "bounds" "relative" NUM
  bool parseBounds() {
    std::string word;
    const SourceLocation wordAt = here();
    if (!expectWord(word, "'relative'")) return false;
    if (word != "relative") return error(wordAt, "expected 'relative' after 'bounds'"), false;
    const SourceLocation at = here();
    double range = 0;
    if (!expectNumber(range, "the relative range (e.g. 0.5)")) return false;
    if (!(range > 0)) return error(at, "the relative range must be positive"), false;
    objective_.relativeRange = range;
    return expectLineEnd();
  }

  // bound := "bound" PATTERN NUM NUM
  bool parseBound() {
    ParameterBound bound;
    bound.location = here();
    if (!expectWord(bound.pattern, "a parameter name (e.g. propel.vf.fx, *.time)")) return false;
    const SourceLocation lowerAt = here();
    if (!expectNumber(bound.lower, "the lower bound") ||
        !expectNumber(bound.upper, "the upper bound"))
      return false;
    if (!(bound.lower < bound.upper))
      return error(lowerAt, "the lower bound must be below the upper bound"), false;
    objective_.bounds.push_back(std::move(bound));
    return expectLineEnd();
  }

  // `key: NUM` arguments; `values` holds the defaults. `owner` names the statement in
  // messages ("unknown argument 'x' of term 'time'", "unknown trial argument 'x'").
  // Keys past the end of `values` take a word instead, read by `wordArgument(key)` after
  // the colon.
  bool parseNumberArguments(std::string_view unknownPrefix, std::string_view unknownSuffix,
                            std::span<const std::string_view> keys, std::span<double> values,
                            std::span<SourceLocation> locations = {},
                            const std::function<bool(std::string_view)>& wordArgument = nullptr) {
    while (!atEnd()) {
      const SourceLocation keyAt = here();
      std::string key;
      if (!expectWord(key, "an argument 'name: value'")) return false;
      auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end()) {
        std::string message =
            std::string(unknownPrefix) + "'" + quoteToken(key) + "'" + std::string(unknownSuffix);
        message += keys.empty() ? " (it takes none)" : didYouMean(key, keys);
        return error(keyAt, message), false;
      }
      const size_t index = static_cast<size_t>(it - keys.begin());
      if (!expectColon()) return false;
      if (index >= values.size()) {
        if (!wordArgument(key)) return false;
        continue;
      }
      if (index < locations.size()) locations[index] = here();
      if (!expectNumber(values[index], "a number")) return false;
    }
    return true;
  }

  // trial := "trial" { ( "dt:" | "perturb:" | "seed:" ) NUM | "pd:" ( "explicit" | "stable" ) }
  bool parseTrial(const Token& keyword) {
    ObjectiveTrial trial;
    trial.location = in_->location(keyword);
    constexpr std::array<std::string_view, 4> keys = {"dt", "perturb", "seed", "pd"};
    std::array<double, 3> values = {0.0, 0.0, 0.0};
    std::array<SourceLocation, 3> locations;
    // pd: a word, the last key (past the three numbers).
    auto readMode = [&](std::string_view) {
      const SourceLocation wordAt = here();
      std::string mode;
      if (!expectWord(mode, "'explicit' or 'stable'")) return false;
      constexpr std::array<std::string_view, 2> modes = {"explicit", "stable"};
      if (mode != "explicit" && mode != "stable")
        return error(wordAt, "unknown PD mode '" + quoteToken(mode) + "': 'explicit' or 'stable'" +
                                 didYouMean(mode, modes)),
               false;
      trial.stablePd = mode == "stable";
      return true;
    };
    if (!parseNumberArguments("unknown trial argument ", "", keys, values, locations, readMode))
      return false;
    const auto [dt, perturb, seed] = values;
    if (!locations[0].file.empty()) {
      if (!(dt >= 1e-5 && dt <= 0.01))
        return error(locations[0],
                     "the time step must be from 0.00001 to 0.01 seconds (e.g. 0.0003)"),
               false;
      trial.timeStep = dt;
    }
    if (!locations[1].file.empty()) {
      if (!(perturb >= 0) || perturb > 180)
        return error(locations[1], "the perturbation must be from 0 to 180 degrees"), false;
      trial.perturbDegrees = perturb;
    }
    if (!locations[2].file.empty()) {
      if (!(seed >= 0) || seed != std::floor(seed) || seed > 9007199254740992.0)
        return error(locations[2], "the seed must be a whole number ≥ 0"), false;
      trial.seed = static_cast<uint64_t>(seed);
    }
    objective_.trials.push_back(std::move(trial));
    return true;
  }

  // combine := "combine" ( "mean" | "worst" )
  bool parseCombine() {
    const SourceLocation at = here();
    std::string word;
    if (!expectWord(word, "'mean' or 'worst'")) return false;
    if (word == "mean") {
      objective_.combination = TrialCombination::Mean;
    } else if (word == "worst") {
      objective_.combination = TrialCombination::Worst;
    } else {
      constexpr std::array<std::string_view, 2> names = {"mean", "worst"};
      return error(at, "unknown combination '" + quoteToken(word) + "'" + didYouMean(word, names)),
             false;
    }
    return expectLineEnd();
  }

  // weight := NUM [ "/" NUM ]
  bool parseWeight(double& weight) {
    if (!expectNumber(weight, "a weight (e.g. 10 or 1/50000)")) return false;
    if (peekKind(TokenKind::Slash)) {
      in_->next();
      const SourceLocation at = here();
      double denominator = 0;
      if (!expectNumber(denominator, "the weight's denominator")) return false;
      if (denominator == 0) return error(at, "division by zero in the weight"), false;
      weight /= denominator;
    }
    return true;
  }

  // term := "term" weight ( predefined { NAME ":" NUM } | AGG quantity [ "when" conditions ] )
  bool parseTerm(const Token& keyword) {
    ObjectiveTerm term;
    term.location = in_->location(keyword);
    if (!parseWeight(term.weight)) return false;
    const SourceLocation nameAt = here();
    const size_t nameToken = in_->position();
    std::string name;
    if (!expectWord(name,
                    "a term (time, height, airborne, energy, skid, proneSkid, contactless, final) "
                    "or an aggregation (sum, min, max, last, mean)"))
      return false;
    term.location = nameAt;
    bool ok = false;
    if (contains(kPredefinedTerms, name)) {
      ok = parsePredefined(name, term);
    } else if (contains(kAggregations, name)) {
      ok = parseGeneric(name, term, nameToken);
    } else {
      std::vector<std::string_view> names(kPredefinedTerms.begin(), kPredefinedTerms.end());
      names.insert(names.end(), kAggregations.begin(), kAggregations.end());
      error(nameAt, "unknown term '" + quoteToken(name) + "'" + didYouMean(name, names));
      return false;
    }
    if (!ok) return false;
    objective_.terms.push_back(std::move(term));
    return true;
  }

  static Condition headCompare(Comparison comparison, double threshold) {
    Condition condition;
    condition.kind = ConditionKind::Compare;
    condition.quantity.kind = QuantityKind::HeadHeight;
    condition.comparison = comparison;
    condition.threshold = threshold;
    return condition;
  }

  bool termArguments(const std::string& name, std::span<const std::string_view> keys,
                     std::span<double> values) {
    return parseNumberArguments("unknown argument ", " of term '" + name + "'", keys, values);
  }

  bool parsePredefined(const std::string& name, ObjectiveTerm& term) {
    term.label = name;
    Condition airborne;
    airborne.kind = ConditionKind::Airborne;
    if (name == "time" || name == "final") {
      const bool final = name == "final";
      constexpr std::array<std::string_view, 1> timeKeys = {"below"};
      constexpr std::array<std::string_view, 2> finalKeys = {"below", "penalty"};
      std::array<double, 2> values = {1.8, 1000.0};
      if (final ? !termArguments(name, finalKeys, values)
                : !termArguments(name, timeKeys, std::span(values).first(1)))
        return false;
      term.quantity.kind = QuantityKind::Constant;
      term.quantity.constant = final ? values[1] : 1.0;
      term.conditions.push_back(headCompare(Comparison::Less, values[0]));
      term.aggregation = final ? Aggregation::Last : Aggregation::Sum;
      return true;
    }
    if (name == "skid" || name == "proneSkid") {
      constexpr std::array<std::string_view, 2> keys = {"tolerance", "above"};
      std::array<double, 2> values = {20.0, name == "proneSkid" ? 1.5 : -1.0};
      if (!termArguments(name, keys, values)) return false;
      term.quantity.kind = QuantityKind::Skid;
      term.quantity.skidTolerance = degToRad(values[0]);
      if (values[1] >= 0) term.conditions.push_back(headCompare(Comparison::Greater, values[1]));
      term.aggregation = Aggregation::Sum;
      return true;
    }
    if (!termArguments(name, {}, {})) return false;
    if (name == "height") {
      // Thesis: min over steps of (−pelvis height while airborne, else 0) = −max.
      term.sign = -1.0;
      term.quantity.kind = QuantityKind::LinkY;
      term.quantity.index = kPelvis;
      term.conditions.push_back(airborne);
      term.aggregation = Aggregation::Max;
    } else if (name == "airborne" || name == "contactless") {
      term.sign = name == "airborne" ? -1.0 : 1.0;
      term.quantity.kind = QuantityKind::Constant;
      term.conditions.push_back(airborne);
      term.aggregation = Aggregation::Sum;
    } else {  // energy
      term.quantity.kind = QuantityKind::Energy;
      term.aggregation = Aggregation::Sum;
    }
    return true;
  }

  bool parseGeneric(const std::string& aggregation, ObjectiveTerm& term, size_t firstToken) {
    term.aggregation = aggregation == "sum"    ? Aggregation::Sum
                       : aggregation == "min"  ? Aggregation::Min
                       : aggregation == "max"  ? Aggregation::Max
                       : aggregation == "last" ? Aggregation::Last
                                               : Aggregation::Mean;
    if (!parseQuantity(term.quantity)) return false;
    if (peekWord("when")) {
      in_->next();
      if (!parseConditions(term.conditions)) return false;
    }
    if (!expectLineEnd()) return false;
    // The label is the term as written, tokens separated by single spaces.
    for (size_t i = firstToken; i + 1 < statement_->size(); ++i) {
      const Token& token = (*statement_)[i];
      if (i > firstToken && token.kind != TokenKind::Comma) term.label += ' ';
      term.label += token.text;
    }
    return true;
  }

  // quantity := [ "abs" | "sq" ] ( NUM | NAME )
  bool parseQuantity(Quantity& quantity) {
    if (peekWord("abs") || peekWord("sq")) {
      quantity.transform =
          in_->next().text == "abs" ? QuantityTransform::Abs : QuantityTransform::Square;
    }
    if (peekKind(TokenKind::Number)) return expectNumber(quantity.constant, "a number");
    const SourceLocation nameAt = here();
    std::string name;
    if (!expectWord(name, "a quantity (e.g. pelvis.y, com.vx, leftKnee.angle, head, energy)"))
      return false;
    if (!resolveQuantity(name, quantity)) return error(nameAt, quantityError(name)), false;
    return true;
  }

  bool resolveQuantity(std::string_view name, Quantity& quantity) const {
    if (name == "head" || name == "headHeight")
      return quantity.kind = QuantityKind::HeadHeight, true;
    if (name == "airborne") return quantity.kind = QuantityKind::Airborne, true;
    if (name == "contacts") return quantity.kind = QuantityKind::Contacts, true;
    if (name == "time") return quantity.kind = QuantityKind::Time, true;
    if (name == "energy") return quantity.kind = QuantityKind::Energy, true;
    if (name == "skid") return quantity.kind = QuantityKind::Skid, true;
    const size_t dot = name.find('.');
    if (dot == std::string_view::npos) return false;
    const std::string_view base = name.substr(0, dot), field = name.substr(dot + 1);
    if (base == "com") {
      if (field == "x")
        quantity.kind = QuantityKind::ComX;
      else if (field == "y")
        quantity.kind = QuantityKind::ComY;
      else if (field == "vx")
        quantity.kind = QuantityKind::ComVx;
      else if (field == "vy")
        quantity.kind = QuantityKind::ComVy;
      else
        return false;
      return true;
    }
    if (NameLookup link = names_.links(base, Groups::Rejected); link.ok()) {
      quantity.index = link.index();
      if (field == "x")
        quantity.kind = QuantityKind::LinkX;
      else if (field == "y")
        quantity.kind = QuantityKind::LinkY;
      else if (field == "vx")
        quantity.kind = QuantityKind::LinkVx;
      else if (field == "vy")
        quantity.kind = QuantityKind::LinkVy;
      else if (field == "angle")
        quantity.kind = QuantityKind::LinkAngle;
      else if (field == "omega")
        quantity.kind = QuantityKind::LinkAngularVelocity;
      else if (field == "contact")
        quantity.kind = QuantityKind::LinkContact;
      else
        return false;
      return true;
    }
    if (NameLookup joint = names_.joints(base, Groups::Rejected); joint.ok()) {
      quantity.index = joint.index();
      if (field == "x")
        quantity.kind = QuantityKind::JointX;
      else if (field == "y")
        quantity.kind = QuantityKind::JointY;
      else if (field == "angle")
        quantity.kind = QuantityKind::JointAngle;
      else if (field == "omega")
        quantity.kind = QuantityKind::JointVelocity;
      else if (field == "torque")
        quantity.kind = QuantityKind::JointTorque;
      else
        return false;
      return true;
    }
    return false;
  }

  // Why `name` is no quantity, with the closest known spelling.
  std::string quantityError(std::string_view name) const {
    const std::string prefix = "unknown quantity '" + quoteToken(name) + "'";
    const size_t dot = name.find('.');
    const bool isLink = names_.links(name.substr(0, dot), Groups::Rejected).ok();
    const bool isJoint = names_.joints(name.substr(0, dot), Groups::Rejected).ok();
    if (dot == std::string_view::npos) {
      std::string suggestion = didYouMean(name, kGlobalQuantities);
      if (suggestion.empty() && (isLink || isJoint))
        return prefix + "; a link or joint needs a field, e.g. '" + std::string(name) + ".y' or '" +
               std::string(name) + ".angle'";
      return prefix + suggestion;
    }
    const std::string_view base = name.substr(0, dot), field = name.substr(dot + 1);
    if (base == "com")
      return prefix + "; the centre of mass has x, y, vx, vy" + didYouMean(field, kComFields);
    if (isLink)
      return prefix + "; a link has x, y, vx, vy, angle, omega, contact" +
             didYouMean(field, kLinkFields);
    if (isJoint)
      return prefix + "; a joint has x, y, angle, omega, torque" + didYouMean(field, kJointFields);
    if (names_.links(base, Groups::Allowed).ok() || names_.joints(base, Groups::Allowed).ok())
      return prefix + "; '" + quoteToken(base) + "' is a group: name one of its members";
    std::vector<std::string_view> bases = {"com"};
    for (std::string_view link : names_.linkNames(false)) bases.push_back(link);
    for (std::string_view joint : names_.jointNames(false)) bases.push_back(joint);
    return unknownNameMessage("link or joint", base, bases);
  }

  // conditions := condition { "and" condition }
  bool parseConditions(std::vector<Condition>& conditions) {
    while (true) {
      Condition condition;
      if (!parseCondition(condition)) return false;
      conditions.push_back(std::move(condition));
      if (!peekWord("and")) return true;
      in_->next();
    }
  }

  // condition := "airborne" | "grounded" | "fallen" | "contact" [ "any" | "all" ] links
  //            | "nocontact" links | quantity ( "<" | "<=" | ">" | ">=" ) NUM
  bool parseCondition(Condition& condition) {
    const SourceLocation wordAt = here();
    const bool transformed = peekWord("abs") || peekWord("sq");
    if (!transformed && peekKind(TokenKind::Identifier) && !isComparison(in_->peek(1).kind)) {
      const std::string word(peek().text);
      if (word == "airborne" || word == "grounded" || word == "fallen") {
        condition.kind = word == "airborne"   ? ConditionKind::Airborne
                         : word == "grounded" ? ConditionKind::Grounded
                                              : ConditionKind::Fallen;
        in_->next();
        return true;
      }
      if (word == "contact" || word == "nocontact") {
        condition.kind = word == "contact" ? ConditionKind::Contact : ConditionKind::NoContact;
        in_->next();
        if (condition.kind == ConditionKind::Contact && (peekWord("all") || peekWord("any")))
          condition.all = in_->next().text == "all";
        return parseLinks(condition.links);
      }
      Quantity probe;
      if (!resolveQuantity(word, probe)) {
        std::string suggestion = didYouMean(word, kConditionWords);
        if (!suggestion.empty())
          return error(wordAt, "unknown condition '" + quoteToken(word) + "'" + suggestion), false;
      }
    }
    condition.kind = ConditionKind::Compare;
    if (!parseQuantity(condition.quantity)) return false;
    if (!isComparison(peek().kind))
      return expected("a comparison (<, <=, >, >=) after the quantity");
    const TokenKind op = in_->next().kind;
    condition.comparison = op == TokenKind::Less        ? Comparison::Less
                           : op == TokenKind::LessEqual ? Comparison::LessEqual
                           : op == TokenKind::Greater   ? Comparison::Greater
                                                        : Comparison::GreaterEqual;
    return expectNumber(condition.threshold, "a threshold");
  }

  // links := link-or-group { "," link-or-group }
  bool parseLinks(std::vector<int>& links) {
    while (true) {
      const SourceLocation nameAt = here();
      std::string name;
      if (!expectWord(name, "a link or link group")) return false;
      NameLookup lookup = names_.links(name, Groups::Allowed);
      if (!lookup.ok()) return error(nameAt, lookup.error), false;
      links.insert(links.end(), lookup.indices.begin(), lookup.indices.end());
      if (!peekKind(TokenKind::Comma)) return true;
      in_->next();
    }
  }

  // stop := "stop" "when" conditions { "after" NUM | "penalty" NUM }
  bool parseStop(const Token& keyword) {
    EarlyStop rule;
    rule.location = in_->location(keyword);
    const SourceLocation whenAt = here();
    std::string word;
    if (!expectWord(word, "'when'")) return false;
    if (word != "when") return error(whenAt, "expected 'when' after 'stop'"), false;
    constexpr std::array<std::string_view, 2> terminators = {"after", "penalty"};
    if (!parseConditions(rule.conditions)) return false;
    while (!atEnd()) {
      const SourceLocation keyAt = here();
      if (!expectWord(word, "'after' or 'penalty'")) return false;
      if (word == "after") {
        const SourceLocation valueAt = here();
        if (!expectNumber(rule.after, "a time in seconds")) return false;
        if (rule.after < 0) return error(valueAt, "the time must not be negative"), false;
      } else if (word == "penalty") {
        if (!expectNumber(rule.penalty, "a penalty")) return false;
      } else {
        return error(keyAt, "expected 'after', 'penalty' or 'and', found '" + quoteToken(word) +
                                "'" + didYouMean(word, terminators)),
               false;
      }
    }
    objective_.stops.push_back(std::move(rule));
    return true;
  }

  std::string_view source_;
  std::string_view file_;
  DiagnosticSink sink_;
  ObjectiveDef objective_;
  // Quantities name the biped's links and joints, which every character has.
  CharacterNames names_{*humanCharacter()};
  TokenCursor* in_ = nullptr;                      // the statement being parsed
  const std::vector<Token>* statement_ = nullptr;  // its tokens, ending with EndOfLine
  bool sceneSeen_ = false;
  ProblemDef* problem_;  // parsing a problem file into it (else an objective)
};

}  // namespace

ObjectiveParseResult parseObjective(std::string_view source, std::string_view fileName) {
  return ObjectiveParser(source, fileName).parse();
}

ProblemParseResult parseProblem(std::string_view source, std::string_view fileName) {
  ProblemDef problem;
  ObjectiveParseResult parsed = ObjectiveParser(source, fileName, &problem).parse();
  ProblemParseResult result;
  result.diagnostics = std::move(parsed.diagnostics);
  if (!parsed.objective) return result;
  problem.scene = parsed.objective->scene;
  problem.duration = parsed.objective->duration;
  if (parsed.objective->populationSize > 0) problem.population = parsed.objective->populationSize;
  problem.fileName = std::string(fileName);
  result.problem = std::move(problem);
  return result;
}

std::vector<std::string_view> predefinedTermNames() {
  return {kPredefinedTerms.begin(), kPredefinedTerms.end()};
}

}  // namespace scl
