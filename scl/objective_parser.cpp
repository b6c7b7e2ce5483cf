// The objective file parser (docs/objectives.md): what `scl optimize` minimises, one
// statement per line, on the statement base that problem files share
// (scl/statement_parser.h) and the shared name lookup.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "scl/lexer.h"
#include "scl/names.h"
#include "scl/objective.h"
#include "scl/push.h"
#include "scl/statement_parser.h"

namespace scl {

namespace {

constexpr std::array<std::string_view, 8> kPredefinedTerms = {
    "time", "height", "airborne", "energy", "skid", "proneSkid", "contactless", "final"};
constexpr std::array<std::string_view, 5> kAggregations = {"sum", "min", "max", "last", "mean"};
constexpr std::array<std::string_view, 7> kGlobalQuantities = {
    "head", "headHeight", "airborne", "contacts", "time", "energy", "skid"};
constexpr std::array<std::string_view, 7> kLinkFields = {"x",     "y",     "vx",     "vy",
                                                         "angle", "omega", "contact"};
constexpr std::array<std::string_view, 5> kJointFields = {"x", "y", "angle", "omega", "torque"};
constexpr std::array<std::string_view, 4> kComFields = {"x", "y", "vx", "vy"};
constexpr std::array<std::string_view, 6> kObjectFields = {"x", "y", "vx", "vy", "angle", "omega"};
constexpr std::array<QuantityKind, 6> kObjectKinds = {
    QuantityKind::ObjectX,  QuantityKind::ObjectY,     QuantityKind::ObjectVx,
    QuantityKind::ObjectVy, QuantityKind::ObjectAngle, QuantityKind::ObjectOmega};
constexpr std::array<std::string_view, 5> kConditionWords = {"airborne", "grounded", "fallen",
                                                             "contact", "nocontact"};

bool isComparison(TokenKind kind) {
  return kind == TokenKind::Less || kind == TokenKind::LessEqual || kind == TokenKind::Greater ||
         kind == TokenKind::GreaterEqual;
}

class ObjectiveParser : public StatementParser {
 public:
  ObjectiveParser(std::string_view source, std::string_view fileName)
      : StatementParser(source, fileName) {
    objective_.fileName = std::string(fileName);
  }

  // objective := { statement }   (one statement per line)
  ObjectiveParseResult parse() {
    ObjectiveParseResult result;
    result.diagnostics = parseFile();
    if (hasErrors(result.diagnostics)) return result;
    objective_.scene = shared().scene;
    objective_.duration = shared().duration;
    objective_.populationSize = shared().populationSize;
    result.objective = std::move(objective_);
    return result;
  }

 private:
  // statement := scene | duration | population        (the base's)
  //            | bounds | bound | term | stop | trial | combine
  void parseStatement(const Token& head) override {
    const std::string_view word = head.text;
    if (word == "bounds")
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
      error(in().location(head), "unknown statement '" + quoteToken(word) + "'" +
                                     didYouMean(word, kObjectiveStatements));
  }

  // An objective needs a term.
  void checkComplete() override {
    if (objective_.terms.empty())
      fileError("the objective has no terms (add a line such as 'term 1 energy')");
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

  // arguments := { NAME ":" ( NUM | WORD ) }
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

  // trial := "trial" { ( "dt:" | "perturb:" | "seed:" ) NUM | "pd:" ( "explicit" | "stable" )
  //                   | "push:" push }
  bool parseTrial(const Token& keyword) {
    ObjectiveTrial trial;
    trial.location = in().location(keyword);
    constexpr std::array<std::string_view, 5> keys = {"dt", "perturb", "seed", "pd", "push"};
    std::array<double, 3> values = {0.0, 0.0, 0.0};
    std::array<SourceLocation, 3> locations;
    // pd: and push: (past the three numbers) take words.
    auto readWords = [&](std::string_view key) {
      if (key == "push") return parsePush(trial.pushes);
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
    if (!parseNumberArguments("unknown trial argument ", "", keys, values, locations, readWords))
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

  // push := NAME { "force:" "(" NUM "," NUM ")" | "at:" NUM | "for:" NUM }   (each once, all
  //         three: the script's push statement after its name)
  bool parsePush(std::vector<ScriptPush>& pushes) {
    ScriptPush push;
    push.location = here();
    if (!expectWord(push.name, "what to push, a link or a movable object (e.g. trunk)"))
      return false;
    if (!pushTarget(push)) return false;
    constexpr std::array<std::string_view, 3> keys = {"force", "at", "for"};
    std::array<bool, 3> given{};
    while (peekKind(TokenKind::Identifier)) {
      const auto it = std::find(keys.begin(), keys.end(), peek().text);
      if (it == keys.end()) break;
      const auto index = static_cast<size_t>(it - keys.begin());
      if (given[index])
        return fail("the push's '" + std::string(*it) + ":' is given twice (another push " +
                    "begins with its own 'push:')");
      given[index] = true;
      in().next();
      if (!expectColon()) return false;
      if (index == 0) {
        if (!parseForce(push.force)) return false;
        continue;
      }
      const SourceLocation at = here();
      double& seconds = index == 1 ? push.start : push.duration;
      if (!expectNumber(seconds, index == 1 ? "when the push starts (s)" : "how long it lasts (s)"))
        return false;
      if (std::string why = pushTimeError(seconds, index == 2); !why.empty())
        return error(at, std::move(why)), false;
    }
    constexpr std::array<std::string_view, 3> needs = {
        "'force: (FX, FY)' (N)", "'at: T' (when it starts, s)", "'for: D' (how long it lasts, s)"};
    for (size_t i = 0; i < keys.size(); ++i)
      if (!given[i]) return error(push.location, "a push needs " + std::string(needs[i])), false;
    pushes.push_back(std::move(push));
    return true;
  }

  // The target of `push.name`: a link of the human (the trial renames it for another
  // character), else a scene body's name left for bindObjectiveObjects(); a misspelled link
  // (`trnk`) or a group is an error at the name.
  bool pushTarget(ScriptPush& push) {
    const NameLookup link = names_.links(push.name, Groups::Rejected, "push:");
    if (link.ok()) return push.target.link = link.index(), true;
    const std::string_view base = std::string_view(push.name).substr(0, push.name.find('.'));
    if (mayBeObject(base)) return push.target.body = base, true;
    return error(push.location, link.error), false;
  }

  // force := "(" NUM "," NUM ")"
  bool parseForce(std::array<double, 2>& force) {
    if (!peekKind(TokenKind::LeftParen)) return expected("the force '(FX, FY)' in newtons");
    in().next();
    if (!expectNumber(force[0], "the force's x (N)")) return false;
    if (!peekKind(TokenKind::Comma)) return expected("',' between the force's x and y");
    in().next();
    if (!expectNumber(force[1], "the force's y (N)")) return false;
    if (!peekKind(TokenKind::RightParen)) return expected("')' after the force's y");
    in().next();
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

  // term := "term" weight ( predefined { NAME ":" NUM } | AGG quantity [ "when" conditions ] )
  // AGG := "sum" | "min" | "max" | "last" | "mean" | "final"   ("final": "last")
  bool parseTerm(const Token& keyword) {
    ObjectiveTerm term;
    term.location = in().location(keyword);
    if (!parseWeight(term.weight)) return false;
    const SourceLocation nameAt = here();
    const size_t nameToken = in().position();
    std::string name;
    if (!expectWord(name,
                    "a term (time, height, airborne, energy, skid, proneSkid, contactless, final) "
                    "or an aggregation (sum, min, max, last, mean)"))
      return false;
    term.location = nameAt;
    bool ok = false;
    // `final QUANTITY` is `last QUANTITY` (`final crate.x`); `final` alone or with its
    // arguments (`below:`, `penalty:`) is the predefined term.
    const bool finalQuantity = name == "final" &&
                               (peekKind(TokenKind::Identifier) || peekKind(TokenKind::Number)) &&
                               in().peek(1).kind != TokenKind::Colon;
    if (finalQuantity) {
      ok = parseGeneric("last", term, nameToken);
    } else if (containsName(kPredefinedTerms, name)) {
      ok = parsePredefined(name, term);
    } else if (containsName(kAggregations, name)) {
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

  // The condition `head < threshold` (or another comparison) of the predefined terms.
  static Condition headCompare(Comparison comparison, double threshold) {
    Condition condition;
    condition.kind = ConditionKind::Compare;
    condition.quantity.kind = QuantityKind::HeadHeight;
    condition.comparison = comparison;
    condition.threshold = threshold;
    return condition;
  }

  // term-arguments := { NAME ":" NUM }   (the keys a predefined term takes)
  bool termArguments(const std::string& name, std::span<const std::string_view> keys,
                     std::span<double> values) {
    return parseNumberArguments("unknown argument ", " of term '" + name + "'", keys, values);
  }

  // predefined := ( "time" | "final" | "skid" | "proneSkid" | "height" | "airborne"
  //                | "energy" | "contactless" ) term-arguments
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
      term.quantity.index = kPelvis;  // the human layout objectives are read against
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

  // generic := AGG quantity [ "when" conditions ]   (AGG: sum, min, max, last, mean)
  bool parseGeneric(const std::string& aggregation, ObjectiveTerm& term, size_t firstToken) {
    term.aggregation = aggregation == "sum"    ? Aggregation::Sum
                       : aggregation == "min"  ? Aggregation::Min
                       : aggregation == "max"  ? Aggregation::Max
                       : aggregation == "last" ? Aggregation::Last
                                               : Aggregation::Mean;
    if (!parseQuantity(term.quantity)) return false;
    if (peekWord("when")) {
      in().next();
      if (!parseConditions(term.conditions)) return false;
    }
    if (!expectLineEnd()) return false;
    // The label is the term as written, tokens separated by single spaces.
    for (size_t i = firstToken; i + 1 < statement().size(); ++i) {
      const Token& token = statement()[i];
      if (i > firstToken && token.kind != TokenKind::Comma) term.label += ' ';
      term.label += token.text;
    }
    return true;
  }

  // quantity := [ "abs" | "sq" ] ( NUM | NAME )
  bool parseQuantity(Quantity& quantity) {
    if (peekWord("abs") || peekWord("sq")) {
      quantity.transform =
          in().next().text == "abs" ? QuantityTransform::Abs : QuantityTransform::Square;
    }
    if (peekKind(TokenKind::Number)) return expectNumber(quantity.constant, "a number");
    const SourceLocation nameAt = here();
    std::string name;
    if (!expectWord(name, "a quantity (e.g. pelvis.y, com.vx, leftKnee.angle, head, energy)"))
      return false;
    quantity.location = nameAt;
    if (!resolveQuantity(name, quantity)) return error(nameAt, quantityError(name)), false;
    return true;
  }

  // The names a scene body's name is not taken for: `com` and the character's links and
  // joints (groups are refused by the lookups themselves).
  std::vector<std::string_view> characterBases() const {
    std::vector<std::string_view> bases = {"com"};
    for (std::string_view link : names_.linkNames(false)) bases.push_back(link);
    for (std::string_view joint : names_.jointNames(false)) bases.push_back(joint);
    return bases;
  }

  // Whether `base` may be a scene body's name: none of the character's names or groups,
  // nor close enough to one to be its misspelling (`pelvs`: an error here, where the
  // scene is not known).
  bool mayBeObject(std::string_view base) const {
    if (base.empty() || names_.links(base, Groups::Allowed).ok() ||
        names_.joints(base, Groups::Allowed).ok())
      return false;
    const std::vector<std::string_view> bases = characterBases();
    return std::find(bases.begin(), bases.end(), base) == bases.end() &&
           closestMatch(base, bases).empty();
  }

  // The link number of `rope.2.x` (1 to kMaxChainLinks), from 0; -1 when `text` is none.
  static int linkNumber(std::string_view text) {
    int number = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, number);
    if (error != std::errc() || ptr != end || number < 1 || number > kMaxChainLinks) return -1;
    return number - 1;
  }

  // object := BODY "." FIELD | BODY "." K "." FIELD   (a scene body, bound to the scene later)
  bool resolveObject(std::string_view base, std::string_view rest, Quantity& quantity) const {
    if (!mayBeObject(base)) return false;
    std::string_view field = rest;
    int part = -1;
    if (const size_t dot = rest.find('.'); dot != std::string_view::npos) {
      part = linkNumber(rest.substr(0, dot));
      if (part < 0) return false;
      field = rest.substr(dot + 1);
    }
    const auto it = std::find(kObjectFields.begin(), kObjectFields.end(), field);
    if (it == kObjectFields.end()) return false;
    quantity.kind = kObjectKinds[static_cast<size_t>(it - kObjectFields.begin())];
    quantity.object = std::string(base);
    quantity.part = part;
    quantity.index = -1;
    return true;
  }

  // NAME := "head" | "headHeight" | "airborne" | "contacts" | "time" | "energy" | "skid"
  //       | "com." FIELD | LINK "." FIELD | JOINT "." FIELD | object
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
    return resolveObject(base, field, quantity);
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
    if (mayBeObject(base)) {
      const size_t second = field.find('.');
      if (second != std::string_view::npos && linkNumber(field.substr(0, second)) < 0)
        return prefix + "; a chain's link is numbered from 1 to " + std::to_string(kMaxChainLinks) +
               " (e.g. '" + quoteToken(base) + ".1.x')";
      const std::string_view last =
          second == std::string_view::npos ? field : field.substr(second + 1);
      return prefix + "; a scene body has x, y, vx, vy, angle, omega" +
             didYouMean(last, kObjectFields);
    }
    return unknownNameMessage("link or joint", base, characterBases());
  }

  // conditions := condition { "and" condition }
  bool parseConditions(std::vector<Condition>& conditions) {
    while (true) {
      Condition condition;
      if (!parseCondition(condition)) return false;
      conditions.push_back(std::move(condition));
      if (!peekWord("and")) return true;
      in().next();
    }
  }

  // condition := "airborne" | "grounded" | "fallen" | "contact" [ "any" | "all" ] links
  //            | "nocontact" links | quantity ( "<" | "<=" | ">" | ">=" ) NUM
  bool parseCondition(Condition& condition) {
    const SourceLocation wordAt = here();
    const bool transformed = peekWord("abs") || peekWord("sq");
    if (!transformed && peekKind(TokenKind::Identifier) && !isComparison(in().peek(1).kind)) {
      const std::string word(peek().text);
      if (word == "airborne" || word == "grounded" || word == "fallen") {
        condition.kind = word == "airborne"   ? ConditionKind::Airborne
                         : word == "grounded" ? ConditionKind::Grounded
                                              : ConditionKind::Fallen;
        in().next();
        return true;
      }
      if (word == "contact" || word == "nocontact") {
        condition.kind = word == "contact" ? ConditionKind::Contact : ConditionKind::NoContact;
        in().next();
        if (condition.kind == ConditionKind::Contact && (peekWord("all") || peekWord("any")))
          condition.all = in().next().text == "all";
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
    const TokenKind op = in().next().kind;
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
      in().next();
    }
  }

  // stop := "stop" "when" conditions { "after" NUM | "penalty" NUM }
  bool parseStop(const Token& keyword) {
    EarlyStop rule;
    rule.location = in().location(keyword);
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

  ObjectiveDef objective_;
  // Quantities name the biped's links and joints, which every character has.
  CharacterNames names_{*humanCharacter()};
};

}  // namespace

ObjectiveParseResult parseObjective(std::string_view source, std::string_view fileName) {
  return ObjectiveParser(source, fileName).parse();
}

std::vector<std::string_view> predefinedTermNames() {
  return {kPredefinedTerms.begin(), kPredefinedTerms.end()};
}

bool isObjectQuantity(QuantityKind kind) {
  return kind >= QuantityKind::ObjectX && kind <= QuantityKind::ObjectOmega;
}

namespace {

// Binds one quantity (a no-op unless it is a scene body's); false after an error.
bool bindObject(Quantity& quantity, std::span<const SceneBodyDef> bodies,
                std::span<const std::string_view> moving, DiagnosticSink& sink) {
  if (!isObjectQuantity(quantity.kind)) return true;
  const std::string& name = quantity.object;
  const auto found = std::find_if(bodies.begin(), bodies.end(),
                                  [&](const SceneBodyDef& body) { return body.name == name; });
  if (found == bodies.end()) {
    if (moving.empty())
      sink.error(quantity.location, "unknown scene body '" + quoteToken(name) +
                                        "': the scene has no movable object or moving "
                                        "platform (world statements: docs/scene.md)");
    else
      sink.error(quantity.location, unknownChoiceMessage("object", name, moving));
    return false;
  }
  const SceneBodyDef& body = *found;
  // Movable objects and moving platforms are what the simulation gives states of.
  if (!body.movable() && !body.move) {
    sink.error(quantity.location,
               std::string(sceneBodyKindName(body.kind)) + " '" + quoteToken(name) +
                   "' does not move: only movable objects and moving platforms have a place "
                   "to score");
    return false;
  }
  if (quantity.part >= 0) {
    if (body.kind != SceneBodyKind::Chain) {
      sink.error(quantity.location, std::string(sceneBodyKindName(body.kind)) + " '" +
                                        quoteToken(name) +
                                        "' has no links: only a chain's are numbered");
      return false;
    }
    if (quantity.part >= body.count) {
      sink.error(quantity.location, "chain '" + quoteToken(name) + "' has " +
                                        std::to_string(body.count) + " links, not " +
                                        std::to_string(quantity.part + 1));
      return false;
    }
  }
  quantity.index = static_cast<int>(found - bodies.begin());
  return true;
}

bool bindObjects(std::vector<Condition>& conditions, std::span<const SceneBodyDef> bodies,
                 std::span<const std::string_view> moving, DiagnosticSink& sink) {
  bool ok = true;
  for (Condition& condition : conditions)
    ok = bindObject(condition.quantity, bodies, moving, sink) && ok;
  return ok;
}

}  // namespace

bool bindObjectiveObjects(ObjectiveDef& objective, std::span<const SceneBodyDef> bodies,
                          DiagnosticSink& sink) {
  std::vector<std::string_view> moving;
  for (const SceneBodyDef& body : bodies)
    if (body.movable() || body.move) moving.push_back(body.name);
  bool ok = true;
  for (ObjectiveTerm& term : objective.terms) {
    ok = bindObject(term.quantity, bodies, moving, sink) && ok;
    ok = bindObjects(term.conditions, bodies, moving, sink) && ok;
  }
  for (EarlyStop& stop : objective.stops)
    ok = bindObjects(stop.conditions, bodies, moving, sink) && ok;
  // A trial's push of an object (a link's was found by the parser).
  for (ObjectiveTrial& trial : objective.trials)
    for (ScriptPush& push : trial.pushes) {
      if (push.target.body.empty()) continue;
      const PushTargetLookup found = findPushTarget(push.name, *humanCharacter(), bodies, "push:");
      if (found.target)
        push.target = *found.target;
      else
        sink.error(push.location, found.error), ok = false;
    }
  return ok;
}

}  // namespace scl
