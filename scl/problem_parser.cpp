// The problem file parser (docs/state-action.md): a state-action problem, one statement
// per line, on the statement base that objective files share (scl/statement_parser.h).
#include <array>
#include <string>

#include "scl/lexer.h"
#include "scl/names.h"
#include "scl/problem.h"
#include "scl/statement_parser.h"

namespace scl {

namespace {

constexpr std::array<std::string_view, 8> kProblemStatements = {
    "scene", "duration", "state", "action", "compatible", "paths", "population", "step"};
constexpr std::array<std::string_view, 1> kStateQuantities = {"height"};

class ProblemParser : public StatementParser {
 public:
  ProblemParser(std::string_view source, std::string_view fileName)
      : StatementParser(source, fileName) {}

  // problem := { statement }   (one statement per line)
  ProblemParseResult parse() {
    ProblemParseResult result;
    result.diagnostics = parseFile();
    if (hasErrors(result.diagnostics)) return result;
    problem_.scene = shared().scene;
    problem_.duration = shared().duration;
    if (shared().populationSize > 0) problem_.population = shared().populationSize;
    problem_.fileName = std::string(fileName());
    result.problem = std::move(problem_);
    return result;
  }

 private:
  // statement := scene | duration | population        (the base's)
  //            | state | action | compatible | paths | step
  void parseStatement(const Token& head) override {
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
    else if (containsName(kObjectiveStatements, word))
      error(in().location(head),
            "'" + std::string(word) + "' belongs in an objective file; a problem file has " +
                "scene, duration, state, action, compatible, paths, " + "population and step");
    else
      error(in().location(head),
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
    in().next();
    const SourceLocation scaleAt = here();
    if (!parseWeight(scale)) return false;
    if (!(scale > 0)) return error(scaleAt, "the scale must be positive"), false;
    return true;
  }

  // state := "state" QUANTITY range "start" NUM
  bool parseState(const Token& keyword) {
    ProblemState state;
    state.location = in().location(keyword);
    const SourceLocation nameAt = here();
    if (!expectWord(state.name, "a state quantity (height)")) return false;
    if (!containsName(kStateQuantities, state.name))
      return error(nameAt, "unknown state quantity '" + quoteToken(state.name) + "'" +
                               didYouMean(state.name, kStateQuantities) +
                               " (state quantities: height, the chair's seat height in m)"),
             false;
    for (const ProblemState& earlier : problem_.states)
      if (earlier.name == state.name)
        return error(nameAt, "the state '" + state.name + "' is given twice"), false;
    if (!parseRange(state.lower, state.upper, state.scale)) return false;
    if (!peekWord("start")) return expected("'start' and the starting point's value");
    in().next();
    const SourceLocation startAt = here();
    if (!expectNumber(state.start, "the starting point's value")) return false;
    if (state.start < state.lower || state.start > state.upper)
      return error(startAt, "the start must lie inside the range"), false;
    problem_.states.push_back(state);
    return expectLineEnd();
  }

  // action := "action" PARAMETER range
  bool parseAction(const Token& keyword) {
    ProblemAction action;
    action.location = in().location(keyword);
    const SourceLocation nameAt = here();
    if (!expectWord(action.parameter, "a parameter name of the script (e.g. lean.pd.waist)"))
      return false;
    for (const ProblemAction& earlier : problem_.actions)
      if (earlier.parameter == action.parameter)
        return error(nameAt, "the action '" + action.parameter + "' is given twice"), false;
    if (!parseRange(action.lower, action.upper, action.scale)) return false;
    problem_.actions.push_back(action);
    return expectLineEnd();
  }

  // compatible := "compatible" ( "standing" "at" "end" | "no" "fall" )
  bool parseCompatible() {
    const SourceLocation at = here();
    std::string words;
    while (!atEnd()) words += (words.empty() ? "" : " ") + std::string(in().next().text);
    CompatibleWhen when{};
    if (words == "standing at end")
      when = CompatibleWhen::StandingAtEnd;
    else if (words == "no fall")
      when = CompatibleWhen::NoFall;
    else
      return error(at, "expected 'standing at end' or 'no fall' after 'compatible', found '" +
                           quoteToken(words) + "'"),
             false;
    problem_.compatible.push_back(when);
    return true;
  }

  // paths := "paths" count
  bool parsePaths() {
    return parseCount(problem_.paths, "the number of sampling paths", "the number of paths", 1,
                      64) &&
           expectLineEnd();
  }

  // step := "step" NUM
  bool parseStep() {
    const SourceLocation at = here();
    double step = 0;
    if (!expectNumber(step, "the initial step in scaled units (e.g. 0.5)")) return false;
    if (!(step > 0)) return error(at, "the step must be positive"), false;
    problem_.step = step;
    return expectLineEnd();
  }

  // A problem needs a state, an action and what compatible means.
  void checkComplete() override {
    if (problem_.states.empty())
      fileError(
          "the problem has no state (add a line such as "
          "'state height 0.15 0.75 scale 10 start 0.45')");
    if (problem_.actions.empty())
      fileError(
          "the problem has no action (add a line such as "
          "'action lean.pd.waist 0 90 scale 1/40')");
    if (problem_.compatible.empty())
      fileError(
          "the problem does not say what compatible means (add a line such as "
          "'compatible standing at end')");
  }

  ProblemDef problem_;
};

}  // namespace

ProblemParseResult parseProblem(std::string_view source, std::string_view fileName) {
  return ProblemParser(source, fileName).parse();
}

}  // namespace scl
