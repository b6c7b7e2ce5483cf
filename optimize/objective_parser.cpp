// The objective file reader: one statement per line, `//` comments, compiler-style
// diagnostics with "did you mean" for misspelled names. Format: docs/objectives.md.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "optimize/objective.h"
#include "scl/poses.h"

namespace scl {

namespace {

enum class TokenKind { Word, Number, Symbol };

struct Token {
  TokenKind kind = TokenKind::Word;
  std::string text;
  double number = 0.0;
  int column = 1;
};

constexpr std::array<std::string_view, 8> kPredefinedTerms = {
    "time", "height", "airborne", "energy", "skid", "proneSkid", "contactless", "final"};
constexpr std::array<std::string_view, 5> kAggregations = {"sum", "min", "max", "last", "mean"};
constexpr std::array<std::string_view, 6> kStatements = {"scene",  "duration", "population",
                                                         "bounds", "bound",    "term"};
constexpr std::array<std::string_view, 11> kGlobalQuantities = {
    "head", "headHeight", "airborne", "contacts", "time", "energy",
    "skid", "com",        "abs",      "sq",       "1"};
constexpr std::array<std::string_view, 7> kLinkFields = {"x",     "y",     "vx",     "vy",
                                                         "angle", "omega", "contact"};
constexpr std::array<std::string_view, 5> kJointFields = {"x", "y", "angle", "omega", "torque"};
constexpr std::array<std::string_view, 4> kComFields = {"x", "y", "vx", "vy"};
constexpr std::array<std::string_view, 5> kConditionWords = {"airborne", "grounded", "fallen",
                                                             "contact", "nocontact"};

bool isWordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '*';
}
bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '*' ||
         c == '#';
}

// Reads one statement line at a time and reports errors at token positions.
class Parser {
 public:
  Parser(std::string_view source, std::string_view fileName) : source_(source), file_(fileName) {
    objective_.fileName = std::string(fileName);
  }

  ObjectiveParseResult parse() {
    int lineNumber = 0;
    size_t start = 0;
    while (start <= source_.size() && !sink_.full()) {
      size_t end = source_.find('\n', start);
      if (end == std::string_view::npos) end = source_.size();
      ++lineNumber;
      parseLine(source_.substr(start, end - start), lineNumber);
      start = end + 1;
    }
    if (objective_.terms.empty() && sink_.errorCount() == 0)
      sink_.error({std::string(file_), 0, 0},
                  "the objective has no terms (add a line such as 'term 1 energy')");
    ObjectiveParseResult result;
    result.diagnostics = sink_.take();
    if (!hasErrors(result.diagnostics)) result.objective = std::move(objective_);
    return result;
  }

 private:
  // --- lexing -----------------------------------------------------------------------

  bool tokenize(std::string_view line) {
    tokens_.clear();
    pos_ = 0;
    size_t i = 0;
    while (i < line.size()) {
      char c = line[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
        continue;
      }
      if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
      Token token;
      token.column = static_cast<int>(i) + 1;
      const bool signedNumber =
          (c == '-' || c == '+') && i + 1 < line.size() &&
          (std::isdigit(static_cast<unsigned char>(line[i + 1])) || line[i + 1] == '.');
      if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || signedNumber) {
        size_t j = i + 1;
        while (j < line.size() &&
               (std::isdigit(static_cast<unsigned char>(line[j])) || line[j] == '.' ||
                ((line[j] == 'e' || line[j] == 'E') && j + 1 < line.size()) ||
                ((line[j] == '-' || line[j] == '+') && (line[j - 1] == 'e' || line[j - 1] == 'E'))))
          ++j;
        token.kind = TokenKind::Number;
        token.text = std::string(line.substr(i, j - i));
        const char* first = token.text.data() + (token.text[0] == '+' ? 1 : 0);
        auto [ptr, ec] =
            std::from_chars(first, token.text.data() + token.text.size(), token.number);
        if (ec != std::errc() || ptr != token.text.data() + token.text.size() ||
            !std::isfinite(token.number)) {
          error(token.column, "malformed number '" + quoteToken(token.text) + "'");
          return false;
        }
        i = j;
      } else if (isWordStart(c)) {
        size_t j = i + 1;
        while (j < line.size() && isWordChar(line[j])) ++j;
        token.kind = TokenKind::Word;
        token.text = std::string(line.substr(i, j - i));
        i = j;
      } else if (c == '<' || c == '>') {
        token.kind = TokenKind::Symbol;
        token.text =
            (i + 1 < line.size() && line[i + 1] == '=') ? std::string{c, '='} : std::string{c};
        i += token.text.size();
      } else if (c == ':' || c == ',' || c == '/') {
        token.kind = TokenKind::Symbol;
        token.text = std::string{c};
        ++i;
      } else {
        error(token.column, "unexpected character '" + quoteToken(line.substr(i, 1)) + "'");
        return false;
      }
      tokens_.push_back(std::move(token));
    }
    lineEnd_ = static_cast<int>(line.size()) + 1;
    return true;
  }

  // --- token access -------------------------------------------------------------------

  bool atEnd() const { return pos_ >= tokens_.size(); }
  const Token* peek() const { return atEnd() ? nullptr : &tokens_[pos_]; }
  bool peekWord(std::string_view word) const {
    return !atEnd() && tokens_[pos_].kind == TokenKind::Word && tokens_[pos_].text == word;
  }
  bool peekSymbol(std::string_view symbol) const {
    return !atEnd() && tokens_[pos_].kind == TokenKind::Symbol && tokens_[pos_].text == symbol;
  }
  int column() const { return atEnd() ? lineEnd_ : tokens_[pos_].column; }
  std::string describeNext() const {
    return atEnd() ? std::string("end of line") : "'" + quoteToken(tokens_[pos_].text) + "'";
  }

  void error(int column, std::string message) {
    sink_.error({std::string(file_), line_, column}, std::move(message));
  }
  // Reports and returns false, so callers can `return fail(...)`.
  bool fail(std::string message) {
    error(column(), std::move(message));
    return false;
  }

  bool expectNumber(double& value, std::string_view what) {
    if (atEnd() || tokens_[pos_].kind != TokenKind::Number)
      return fail("expected " + std::string(what) + ", found " + describeNext());
    value = tokens_[pos_++].number;
    return true;
  }
  bool expectWord(std::string& word, std::string_view what) {
    if (atEnd() || tokens_[pos_].kind != TokenKind::Word)
      return fail("expected " + std::string(what) + ", found " + describeNext());
    word = tokens_[pos_++].text;
    return true;
  }
  bool expectSymbol(std::string_view symbol) {
    if (!peekSymbol(symbol))
      return fail("expected '" + std::string(symbol) + "', found " + describeNext());
    ++pos_;
    return true;
  }
  bool expectLineEnd() {
    if (!atEnd()) return fail("unexpected " + describeNext() + " at the end of the statement");
    return true;
  }

  // --- statements ---------------------------------------------------------------------

  void parseLine(std::string_view line, int lineNumber) {
    line_ = lineNumber;
    if (!tokenize(line) || tokens_.empty()) return;
    const Token& head = tokens_[0];
    if (head.kind != TokenKind::Word) {
      error(head.column,
            "expected a statement (scene, duration, population, bounds, bound, term, stop, trial, "
            "combine), found '" +
                quoteToken(head.text) + "'");
      return;
    }
    pos_ = 1;
    if (head.text == "scene")
      parseScene();
    else if (head.text == "duration")
      parseDuration();
    else if (head.text == "population")
      parsePopulation();
    else if (head.text == "bounds")
      parseBounds();
    else if (head.text == "bound")
      parseBound();
    else if (head.text == "term")
      parseTerm();
    else if (head.text == "stop")
      parseStop();
    else if (head.text == "trial")
      parseTrial();
    else if (head.text == "combine")
      parseCombine();
    else {
      std::vector<std::string_view> names(kStatements.begin(), kStatements.end());
      names.insert(names.end(), {"stop", "trial", "combine"});
      error(head.column,
            "unknown statement '" + quoteToken(head.text) + "'" + didYouMean(head.text, names));
    }
  }

  bool parseScene() {
    if (sceneSeen_) return fail("the scene is given twice");
    sceneSeen_ = true;
    if (peekWord("from")) {
      ++pos_;
      std::string word;
      if (!expectWord(word, "'script'")) return false;
      if (word != "script")
        return error(tokens_[pos_ - 1].column, "expected 'script' after 'scene from'"), false;
      return expectLineEnd();
    }
    Scene scene;
    bool envGiven = false, heightGiven = false;
    while (!atEnd()) {
      const int keyColumn = column();
      std::string key;
      if (!expectWord(key, "'pose:', 'env:' or 'height:'") || !expectSymbol(":")) return false;
      if (key == "pose") {
        const int valueColumn = column();
        if (!expectWord(scene.pose, "a pose name")) return false;
        if (!findPose(scene.pose)) {
          std::vector<std::string_view> names;
          for (const PoseDef& pose : poses()) names.push_back(pose.name);
          return error(valueColumn, "unknown pose '" + quoteToken(scene.pose) + "'" +
                                        didYouMean(scene.pose, names)),
                 false;
        }
      } else if (key == "env") {
        const int valueColumn = column();
        if (!expectWord(scene.environment, "an environment (flat or chair)")) return false;
        envGiven = true;
        if (std::find(kEnvironments.begin(), kEnvironments.end(), scene.environment) ==
            kEnvironments.end())
          return error(valueColumn, "unknown environment '" + quoteToken(scene.environment) + "'" +
                                        didYouMean(scene.environment, kEnvironments)),
                 false;
      } else if (key == "height") {
        const int valueColumn = column();
        if (!expectNumber(scene.chairHeight, "the chair height in metres")) return false;
        heightGiven = true;
        if (!(scene.chairHeight > 0))
          return error(valueColumn, "the chair height must be positive"), false;
      } else {
        constexpr std::array<std::string_view, 3> keys = {"pose", "env", "height"};
        return error(keyColumn,
                     "unknown scene argument '" + quoteToken(key) + "'" + didYouMean(key, keys)),
               false;
      }
    }
    if (scene.pose == "sitting" && !envGiven) scene.environment = "chair";
    if (heightGiven && scene.environment != "chair") return fail("'height:' needs 'env: chair'");
    objective_.scene = scene;
    return true;
  }

  bool parseDuration() {
    if (objective_.duration) return fail("the duration is given twice");
    const int valueColumn = column();
    double duration = 0;
    if (!expectNumber(duration, "the simulated time in seconds")) return false;
    if (!(duration > 0) || duration > 3600)
      return error(valueColumn, "the duration must be in (0, 3600] seconds"), false;
    objective_.duration = duration;
    return expectLineEnd();
  }

  bool parsePopulation() {
    const int valueColumn = column();
    double count = 0;
    if (!expectNumber(count, "the number of candidates per generation")) return false;
    if (count != std::floor(count) || count < 2 || count > 10000)
      return error(valueColumn, "the population must be a whole number from 2 to 10000"), false;
    objective_.populationSize = static_cast<int>(count);
    return expectLineEnd();
  }

  bool parseBounds() {
    std::string word;
    if (!expectWord(word, "'relative'")) return false;
    if (word != "relative")
      return error(tokens_[pos_ - 1].column, "expected 'relative' after 'bounds'"), false;
    const int valueColumn = column();
    double range = 0;
    if (!expectNumber(range, "the relative range (e.g. 0.5)")) return false;
    if (!(range > 0)) return error(valueColumn, "the relative range must be positive"), false;
    objective_.relativeRange = range;
    return expectLineEnd();
  }

  bool parseBound() {
    ParameterBound bound;
    bound.location = {std::string(file_), line_, column()};
    if (!expectWord(bound.pattern, "a parameter name (e.g. propel.vf.fx, *.time)")) return false;
    const int lowerColumn = column();
    if (!expectNumber(bound.lower, "the lower bound") ||
        !expectNumber(bound.upper, "the upper bound"))
      return false;
    if (!(bound.lower < bound.upper))
      return error(lowerColumn, "the lower bound must be below the upper bound"), false;
    objective_.bounds.push_back(std::move(bound));
    return expectLineEnd();
  }

  // trial [dt: S] [perturb: DEG] [seed: N]
  bool parseTrial() {
    ObjectiveTrial trial;
    trial.location = {std::string(file_), line_, tokens_[0].column};
    constexpr std::array<std::string_view, 3> keys = {"dt", "perturb", "seed"};
    while (!atEnd()) {
      const int keyColumn = column();
      std::string key;
      if (!expectWord(key, "'dt:', 'perturb:' or 'seed:'")) return false;
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        return error(keyColumn,
                     "unknown trial argument '" + quoteToken(key) + "'" + didYouMean(key, keys)),
               false;
      if (!expectSymbol(":")) return false;
      const int valueColumn = column();
      double value = 0;
      if (!expectNumber(value, "a number")) return false;
      if (key == "dt") {
        if (!(value > 0) || value > 0.01)
          return error(valueColumn, "the time step must be in (0, 0.01] seconds (e.g. 0.0003)"),
                 false;
        trial.timeStep = value;
      } else if (key == "perturb") {
        if (!(value >= 0) || value > 180)
          return error(valueColumn, "the perturbation must be from 0 to 180 degrees"), false;
        trial.perturbDegrees = value;
      } else {
        if (!(value >= 0) || value != std::floor(value) || value > 9007199254740992.0)
          return error(valueColumn, "the seed must be a whole number ≥ 0"), false;
        trial.seed = static_cast<uint64_t>(value);
      }
    }
    objective_.trials.push_back(std::move(trial));
    return true;
  }

  // combine mean | worst
  bool parseCombine() {
    const int valueColumn = column();
    std::string word;
    if (!expectWord(word, "'mean' or 'worst'")) return false;
    if (word == "mean")
      objective_.combination = TrialCombination::Mean;
    else if (word == "worst")
      objective_.combination = TrialCombination::Worst;
    else {
      constexpr std::array<std::string_view, 2> names = {"mean", "worst"};
      return error(valueColumn,
                   "unknown combination '" + quoteToken(word) + "'" + didYouMean(word, names)),
             false;
    }
    return expectLineEnd();
  }

  bool parseWeight(double& weight) {
    if (!expectNumber(weight, "a weight (e.g. 10 or 1/50000)")) return false;
    if (peekSymbol("/")) {
      ++pos_;
      const int denominatorColumn = column();
      double denominator = 0;
      if (!expectNumber(denominator, "the weight's denominator")) return false;
      if (denominator == 0)
        return error(denominatorColumn, "division by zero in the weight"), false;
      weight /= denominator;
    }
    return true;
  }

  bool parseTerm() {
    ObjectiveTerm term;
    term.location = {std::string(file_), line_, tokens_[0].column};
    if (!parseWeight(term.weight)) return false;
    const int nameColumn = column();
    std::string name;
    if (!expectWord(name,
                    "a term (time, height, airborne, energy, skid, proneSkid, contactless, final) "
                    "or an aggregation (sum, min, max, last, mean)"))
      return false;
    term.location.column = nameColumn;
    bool ok = false;
    if (std::find(kPredefinedTerms.begin(), kPredefinedTerms.end(), name) !=
        kPredefinedTerms.end()) {
      ok = parsePredefined(name, term);
    } else if (std::find(kAggregations.begin(), kAggregations.end(), name) != kAggregations.end()) {
      ok = parseGeneric(name, term);
    } else {
      std::vector<std::string_view> names(kPredefinedTerms.begin(), kPredefinedTerms.end());
      names.insert(names.end(), kAggregations.begin(), kAggregations.end());
      error(nameColumn, "unknown term '" + quoteToken(name) + "'" + didYouMean(name, names));
      return false;
    }
    if (!ok) return false;
    objective_.terms.push_back(std::move(term));
    return true;
  }

  // `key: NUM` arguments of a predefined term; `values` holds the defaults.
  bool parseArguments(std::string_view termName, std::span<const std::string_view> keys,
                      std::span<double> values) {
    while (!atEnd()) {
      const int keyColumn = column();
      std::string key;
      if (!expectWord(key, "an argument 'name: value'")) return false;
      auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end()) {
        std::string message =
            "unknown argument '" + quoteToken(key) + "' of term '" + std::string(termName) + "'";
        if (keys.empty())
          message += " (it takes none)";
        else
          message += didYouMean(key, keys);
        error(keyColumn, message);
        return false;
      }
      if (!expectSymbol(":") || !expectNumber(values[it - keys.begin()], "a number")) return false;
    }
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

  bool parsePredefined(const std::string& name, ObjectiveTerm& term) {
    term.label = name;
    Condition airborne;
    airborne.kind = ConditionKind::Airborne;
    if (name == "time" || name == "final") {
      const bool final = name == "final";
      constexpr std::array<std::string_view, 1> timeKeys = {"below"};
      constexpr std::array<std::string_view, 2> finalKeys = {"below", "penalty"};
      std::array<double, 2> values = {1.8, 1000.0};
      if (final ? !parseArguments(name, finalKeys, values)
                : !parseArguments(name, timeKeys, std::span(values).first(1)))
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
      if (!parseArguments(name, keys, values)) return false;
      term.quantity.kind = QuantityKind::Skid;
      term.quantity.skidTolerance = degToRad(values[0]);
      if (values[1] >= 0) term.conditions.push_back(headCompare(Comparison::Greater, values[1]));
      term.aggregation = Aggregation::Sum;
      return true;
    }
    if (!parseArguments(name, {}, {})) return false;
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

  bool parseGeneric(const std::string& aggregation, ObjectiveTerm& term) {
    const size_t firstToken = pos_ - 1;
    term.aggregation = aggregation == "sum"    ? Aggregation::Sum
                       : aggregation == "min"  ? Aggregation::Min
                       : aggregation == "max"  ? Aggregation::Max
                       : aggregation == "last" ? Aggregation::Last
                                               : Aggregation::Mean;
    if (!parseQuantity(term.quantity)) return false;
    if (peekWord("when")) {
      ++pos_;
      if (!parseConditions(term.conditions)) return false;
    }
    if (!expectLineEnd()) return false;
    for (size_t i = firstToken; i < tokens_.size(); ++i) {
      if (i > firstToken && tokens_[i].text != ",") term.label += ' ';
      term.label += tokens_[i].text;
    }
    return true;
  }

  // QUANTITY := [abs | sq] ( NUMBER | NAME )
  bool parseQuantity(Quantity& quantity) {
    if (peekWord("abs") || peekWord("sq")) {
      quantity.transform =
          tokens_[pos_].text == "abs" ? QuantityTransform::Abs : QuantityTransform::Square;
      ++pos_;
    }
    if (!atEnd() && tokens_[pos_].kind == TokenKind::Number) {
      quantity.kind = QuantityKind::Constant;
      quantity.constant = tokens_[pos_++].number;
      return true;
    }
    const int nameColumn = column();
    std::string name;
    if (!expectWord(name, "a quantity (e.g. pelvis.y, com.vx, leftKnee.angle, head, energy)"))
      return false;
    if (!resolveQuantity(name, quantity)) return error(nameColumn, quantityError(name)), false;
    return true;
  }

  static bool resolveQuantity(std::string_view name, Quantity& quantity) {
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
    if (auto link = findLink(base)) {
      quantity.index = *link;
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
    if (auto joint = findJoint(base)) {
      quantity.index = *joint;
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
  static std::string quantityError(std::string_view name) {
    const std::string prefix = "unknown quantity '" + quoteToken(name) + "'";
    const size_t dot = name.find('.');
    if (dot == std::string_view::npos) {
      std::vector<std::string_view> names(kGlobalQuantities.begin(), kGlobalQuantities.end() - 3);
      std::string suggestion = didYouMean(name, names);
      if (suggestion.empty() && (findLink(name) || findJoint(name)))
        return prefix + "; a link or joint needs a field, e.g. '" + std::string(name) + ".y' or '" +
               std::string(name) + ".angle'";
      return prefix + suggestion;
    }
    const std::string_view base = name.substr(0, dot), field = name.substr(dot + 1);
    if (base == "com")
      return prefix + "; the centre of mass has x, y, vx, vy" + didYouMean(field, kComFields);
    if (findLink(base))
      return prefix + "; a link has x, y, vx, vy, angle, omega, contact" +
             didYouMean(field, kLinkFields);
    if (findJoint(base))
      return prefix + "; a joint has x, y, angle, omega, torque" + didYouMean(field, kJointFields);
    std::vector<std::string_view> bases = {"com"};
    for (const LinkDef& link : kLinks) bases.push_back(link.name);
    for (const JointDef& joint : kJoints) bases.push_back(joint.name);
    return "unknown link or joint '" + quoteToken(base) + "'" + didYouMean(base, bases);
  }

  // CONDS := COND { "and" COND }.
  bool parseConditions(std::vector<Condition>& conditions) {
    while (true) {
      Condition condition;
      if (!parseCondition(condition)) return false;
      conditions.push_back(std::move(condition));
      if (!peekWord("and")) return true;
      ++pos_;
    }
  }

  bool isComparisonNext() const {
    return pos_ + 1 < tokens_.size() && tokens_[pos_ + 1].kind == TokenKind::Symbol &&
           (tokens_[pos_ + 1].text[0] == '<' || tokens_[pos_ + 1].text[0] == '>');
  }

  bool parseCondition(Condition& condition) {
    const int wordColumn = column();
    const bool transformed = peekWord("abs") || peekWord("sq");
    if (!transformed && !atEnd() && tokens_[pos_].kind == TokenKind::Word && !isComparisonNext()) {
      const std::string& word = tokens_[pos_].text;
      if (word == "airborne" || word == "grounded" || word == "fallen") {
        condition.kind = word == "airborne"   ? ConditionKind::Airborne
                         : word == "grounded" ? ConditionKind::Grounded
                                              : ConditionKind::Fallen;
        ++pos_;
        return true;
      }
      if (word == "contact" || word == "nocontact") {
        condition.kind = word == "contact" ? ConditionKind::Contact : ConditionKind::NoContact;
        ++pos_;
        if (condition.kind == ConditionKind::Contact && (peekWord("all") || peekWord("any")))
          condition.all = tokens_[pos_++].text == "all";
        return parseLinks(condition.links);
      }
      Quantity probe;
      if (!resolveQuantity(word, probe)) {
        std::vector<std::string_view> names(kConditionWords.begin(), kConditionWords.end());
        std::string suggestion = didYouMean(word, names);
        if (!suggestion.empty())
          return error(wordColumn, "unknown condition '" + quoteToken(word) + "'" + suggestion),
                 false;
      }
    }
    condition.kind = ConditionKind::Compare;
    if (!parseQuantity(condition.quantity)) return false;
    if (atEnd() || tokens_[pos_].kind != TokenKind::Symbol ||
        (tokens_[pos_].text[0] != '<' && tokens_[pos_].text[0] != '>'))
      return fail("expected a comparison (<, <=, >, >=) after the quantity, found " +
                  describeNext());
    const std::string& op = tokens_[pos_++].text;
    condition.comparison = op == "<"    ? Comparison::Less
                           : op == "<=" ? Comparison::LessEqual
                           : op == ">"  ? Comparison::Greater
                                        : Comparison::GreaterEqual;
    return expectNumber(condition.threshold, "a threshold");
  }

  bool parseLinks(std::vector<int>& links) {
    while (true) {
      const int nameColumn = column();
      std::string name;
      if (!expectWord(name, "a link or link group")) return false;
      if (auto link = findLink(name)) {
        links.push_back(*link);
      } else if (auto group = findLinkGroup(name); !group.empty()) {
        links.insert(links.end(), group.begin(), group.end());
      } else {
        std::vector<std::string_view> names;
        for (const LinkDef& link : kLinks) names.push_back(link.name);
        for (const GroupDef& group : kLinkGroups) names.push_back(group.name);
        return error(nameColumn,
                     "unknown link '" + quoteToken(name) + "'" + didYouMean(name, names)),
               false;
      }
      if (!peekSymbol(",")) return true;
      ++pos_;
    }
  }

  bool parseStop() {
    StopRule rule;
    rule.location = {std::string(file_), line_, tokens_[0].column};
    std::string word;
    if (!expectWord(word, "'when'")) return false;
    if (word != "when")
      return error(tokens_[pos_ - 1].column, "expected 'when' after 'stop'"), false;
    constexpr std::array<std::string_view, 2> terminators = {"after", "penalty"};
    if (!parseConditions(rule.conditions)) return false;
    while (!atEnd()) {
      const int keyColumn = column();
      if (!expectWord(word, "'after' or 'penalty'")) return false;
      if (word == "after") {
        const int valueColumn = column();
        if (!expectNumber(rule.after, "a time in seconds")) return false;
        if (rule.after < 0) return error(valueColumn, "the time must not be negative"), false;
      } else if (word == "penalty") {
        if (!expectNumber(rule.penalty, "a penalty")) return false;
      } else {
        return error(keyColumn, "expected 'after', 'penalty' or 'and', found '" + quoteToken(word) +
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
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int line_ = 0;
  int lineEnd_ = 1;
  bool sceneSeen_ = false;
};

}  // namespace

ObjectiveParseResult parseObjective(std::string_view source, std::string_view fileName) {
  return Parser(source, fileName).parse();
}

std::vector<std::string_view> predefinedTermNames() {
  return {kPredefinedTerms.begin(), kPredefinedTerms.end()};
}

}  // namespace scl
