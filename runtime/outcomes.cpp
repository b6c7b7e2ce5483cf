#include "runtime/outcomes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <utility>

#include "base/format.h"
#include "scl/compile.h"
#include "scl/names.h"

namespace scl {

namespace {

constexpr std::string_view kTag = "// outcome: ";
constexpr std::string_view kQuotaSuffix = " of 20 perturbed starts";

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

// A non-negative number filling `text`, else nullopt.
std::optional<double> amount(std::string_view text) {
  const std::optional<double> value = parseFiniteNumber(trimmed(text));
  if (!value || *value < 0) return std::nullopt;
  return value;
}

// "leftFoot, rightShank": link indices, or the error of the first unknown name.
std::vector<int> linksIn(std::string_view list, const Character& character, std::string& error) {
  const CharacterNames names(character);
  std::vector<int> links;
  std::istringstream words{std::string(list)};
  for (std::string name; std::getline(words, name, ',');) {
    const NameLookup found = names.links(trimmed(name), Groups::Rejected);
    if (!found.ok()) {
      error = found.error;
      return {};
    }
    links.push_back(found.index());
  }
  if (links.empty()) error = "expected link names";
  return links;
}

// What the names of a line are looked up in: the character's links, and the scene's
// bodies, given once a line names one (nullptr when they cannot be had).
struct OutcomeNames {
  const Character& character;
  std::function<const std::vector<SceneBodyDef>*()> bodies;
};

// The index in the scene's bodies of the body `name`, or the error saying why not.
int bodyIn(std::string_view name, const OutcomeNames& names, std::string& error) {
  const std::vector<SceneBodyDef>* bodies = names.bodies();
  if (!bodies) {
    error = "the script's scene could not be read to find the body " + quoteForMessage(name);
    return -1;
  }
  std::vector<std::string_view> choices;
  for (size_t i = 0; i < bodies->size(); ++i) {
    if ((*bodies)[i].name == name) return static_cast<int>(i);
    choices.emplace_back((*bodies)[i].name);
  }
  error = unknownNameMessage("scene body", name, choices);
  if (error.find("; did you mean") == std::string::npos)
    error += " (the scene's bodies: " + CharacterNames::joined(choices) + ")";
  return -1;
}

// `BODY hits LINK`: the two names, or nullopt when the words are not of that form.
std::optional<std::pair<std::string, std::string>> hitNames(std::string_view words) {
  constexpr std::string_view kHits = " hits ";
  const size_t at = words.find(kHits);
  if (at == std::string_view::npos) return std::nullopt;
  std::string body = trimmed(words.substr(0, at));
  std::string link = trimmed(words.substr(at + kHits.size()));
  if (body.empty() || link.empty() || body.find(' ') != std::string::npos ||
      link.find(' ') != std::string::npos)
    return std::nullopt;
  return std::pair{std::move(body), std::move(link)};
}

// `BODY VERB REST` (`ball ends on basket`, `crate moves at least 0.4`): the body's name
// and REST, when the words start with one name and then `verb`.
std::optional<std::pair<std::string, std::string>> objectLine(std::string_view words,
                                                              std::string_view verb) {
  const size_t space = words.find(' ');
  if (space == std::string_view::npos || words.substr(space + 1, verb.size()) != verb)
    return std::nullopt;
  return std::pair{std::string(words.substr(0, space)),
                   trimmed(words.substr(space + 1 + verb.size()))};
}

// The claim of one line's words; an empty error when they read.
OutcomeClaim readClaim(const std::string& words, const OutcomeNames& names, std::string& error) {
  const Character& character = names.character;
  OutcomeClaim claim;
  claim.text = words;
  const auto withAmount = [&](OutcomeKind kind, std::string_view prefix) {
    claim.kind = kind;
    const std::optional<double> value = amount(std::string_view(words).substr(prefix.size()));
    if (!value) error = "expected a number after '" + std::string(prefix) + "'";
    claim.value = value.value_or(0.0);
  };
  // `BODY VERB AMOUNT`: the body and the amount, or the error naming what was expected.
  const auto objectAmount = [&](OutcomeKind kind, const std::pair<std::string, std::string>& line,
                                std::string_view expected) {
    claim.kind = kind;
    claim.body = bodyIn(line.first, names, error);
    const std::optional<double> value = amount(line.second);
    if (!value && error.empty()) error = "expected " + std::string(expected);
    claim.value = value.value_or(0.0);
  };
  if (words == "standing at end") {
    claim.kind = OutcomeKind::StandingAtEnd;
  } else if (words == "not standing at end") {
    claim.kind = OutcomeKind::NotStandingAtEnd;
  } else if (words == "no fall") {
    claim.kind = OutcomeKind::NoFall;
  } else if (startsWith(words, "mark ")) {
    claim.kind = OutcomeKind::Mark;
    claim.mark = trimmed(std::string_view(words).substr(5));
  } else if (startsWith(words, "fell by ")) {
    withAmount(OutcomeKind::FellBy, "fell by ");
  } else if (startsWith(words, "phase changes at least ")) {
    withAmount(OutcomeKind::PhaseChanges, "phase changes at least ");
  } else if (startsWith(words, "airborne at least ")) {
    withAmount(OutcomeKind::Airborne, "airborne at least ");
  } else if (startsWith(words, "travels at least ")) {
    withAmount(OutcomeKind::Travels, "travels at least ");
  } else if (startsWith(words, "touches only ")) {
    claim.kind = OutcomeKind::TouchesOnly;
    claim.links = linksIn(std::string_view(words).substr(13), character, error);
  } else if (startsWith(words, "touches ")) {
    claim.kind = OutcomeKind::Touches;
    claim.links = linksIn(std::string_view(words).substr(8), character, error);
    if (error.empty() && claim.links.size() != 1)
      error = "'touches' names one link ('touches only' names several)";
  } else if (startsWith(words, "ends on ")) {
    claim.kind = OutcomeKind::EndsOn;
    claim.body = bodyIn(trimmed(std::string_view(words).substr(8)), names, error);
    const std::array<int, 2> feet = character.roles.feet();
    claim.links = {feet[0], feet[1]};
  } else if (startsWith(words, "holding ") && words.size() > 15 &&
             words.compare(words.size() - 7, 7, " at end") == 0) {
    claim.kind = OutcomeKind::HoldingAtEnd;
    claim.body =
        bodyIn(trimmed(std::string_view(words).substr(8, words.size() - 15)), names, error);
  } else if (const auto moves = objectLine(words, "moves at least ")) {
    objectAmount(OutcomeKind::ObjectMoves, *moves, "a distance (metres) after 'moves at least'");
  } else if (const auto above = objectLine(words, "ends above ")) {
    objectAmount(OutcomeKind::ObjectEndsAbove, *above, "a height (metres) after 'ends above'");
  } else if (const auto on = objectLine(words, "ends on ")) {
    claim.kind = OutcomeKind::ObjectEndsOn;
    claim.body = bodyIn(on->first, names, error);
    if (error.empty()) claim.other = bodyIn(on->second, names, error);
  } else if (const auto hit = hitNames(words)) {
    claim.kind = OutcomeKind::Hits;
    claim.body = bodyIn(hit->first, names, error);
    if (error.empty()) claim.links = linksIn(hit->second, character, error);
  } else if (words.size() > kQuotaSuffix.size() &&
             words.compare(words.size() - kQuotaSuffix.size(), kQuotaSuffix.size(), kQuotaSuffix) ==
                 0) {
    claim.kind = OutcomeKind::PerturbedQuota;
    const std::optional<double> value =
        amount(std::string_view(words).substr(0, words.size() - kQuotaSuffix.size()));
    if (!value || *value > 20 || *value != std::floor(*value))
      error = "expected a whole number from 0 to 20 before 'of 20 perturbed starts'";
    claim.value = value.value_or(0.0);
  } else {
    error = "unknown outcome " + quoteForMessage(words) +
            " (outcomes: mark NAME, standing at end, not standing at end, no fall, fell by T, "
            "phase changes at least N, airborne at least T, travels at least D, touches LINK, "
            "touches only LINKS, ends on BODY, BODY hits LINK, holding BODY at end, BODY moves "
            "at least D, BODY ends above H, BODY ends on BODY2, N of 20 perturbed starts)";
  }
  return claim;
}

// Every outcome line of `source`, its names looked up in `names`.
OutcomeLines readLines(std::string_view source, std::string_view fileName,
                       const OutcomeNames& names) {
  OutcomeLines lines;
  int number = 0;
  size_t position = 0;
  while (position < source.size()) {
    const size_t end = std::min(source.find('\n', position), source.size());
    const std::string_view line = source.substr(position, end - position);
    position = end + 1;
    ++number;
    if (!startsWith(line, kTag)) continue;
    std::string error;
    OutcomeClaim claim = readClaim(trimmed(line.substr(kTag.size())), names, error);
    claim.line = number;
    if (error.empty())
      lines.claims.push_back(std::move(claim));
    else
      lines.errors.push_back({Severity::Error,
                              {fileName, number, static_cast<int>(kTag.size()) + 1},
                              std::move(error)});
  }
  return lines;
}

}  // namespace

const OutcomeClaim* OutcomeLines::quota() const {
  for (const OutcomeClaim& claim : claims)
    if (claim.kind == OutcomeKind::PerturbedQuota) return &claim;
  return nullptr;
}

OutcomeLines readOutcomeLines(std::string_view source, std::string_view fileName,
                              const Program& program) {
  return readLines(source, fileName,
                   {*program.character, [&program] { return &program.scene.bodies; }});
}

OutcomeLines readOutcomeLines(std::string_view source, std::string_view fileName,
                              const Character& character) {
  std::optional<std::vector<SceneBodyDef>> bodies;
  bool compiled = false;
  const auto sceneBodies = [&]() -> const std::vector<SceneBodyDef>* {
    if (!compiled) {
      compiled = true;
      CompileOptions options;
      // Not owned: `character` outlives the compile.
      options.character =
          std::shared_ptr<const Character>(std::shared_ptr<const Character>(), &character);
      CompileResult result = compile(source, fileName, options);
      if (result.ok()) bodies = std::move(result.program->scene.bodies);
    }
    return bodies ? &*bodies : nullptr;
  };
  return readLines(source, fileName, {character, sceneBodies});
}

namespace {

// The bit of scene body `body` in LinkState::touching.
std::uint64_t bodyBit(int body) { return std::uint64_t{1} << static_cast<unsigned>(body); }

}  // namespace

std::optional<bool> outcomeHolds(const OutcomeClaim& claim, const MotionSummary& summary) {
  switch (claim.kind) {
    case OutcomeKind::Mark:
    case OutcomeKind::PerturbedQuota:
      return std::nullopt;
    case OutcomeKind::StandingAtEnd:
      return summary.standing;
    case OutcomeKind::NotStandingAtEnd:
      return !summary.standing;
    case OutcomeKind::NoFall:
      return !summary.fell;
    case OutcomeKind::FellBy:
      return summary.fell && *summary.fell <= claim.value;
    case OutcomeKind::PhaseChanges:
      return summary.phaseChanges >= claim.value;
    case OutcomeKind::Airborne:
      return summary.longestAirborne >= claim.value;
    case OutcomeKind::Travels:
      return summary.farthest >= claim.value;
    case OutcomeKind::Touches:
      return summary.touched[static_cast<size_t>(claim.links.front())];
    case OutcomeKind::TouchesOnly:
      for (size_t link = 0; link < summary.touched.size(); ++link)
        if (summary.touched[link] && std::find(claim.links.begin(), claim.links.end(),
                                               static_cast<int>(link)) == claim.links.end())
          return false;
      return true;
    case OutcomeKind::EndsOn:
      for (const int foot : claim.links)
        if ((summary.touchingAtEnd[static_cast<size_t>(foot)] & bodyBit(claim.body)) == 0)
          return false;
      return true;
    case OutcomeKind::Hits:
      return (summary.touchedBodies[static_cast<size_t>(claim.links.front())] &
              bodyBit(claim.body)) != 0;
    case OutcomeKind::HoldingAtEnd:
      return (summary.heldAtEnd & bodyBit(claim.body)) != 0;
    case OutcomeKind::ObjectMoves:
    case OutcomeKind::ObjectEndsAbove:
    case OutcomeKind::ObjectEndsOn:
      for (const ObjectSummary& object : summary.objects) {
        if (object.sceneBody != claim.body) continue;
        if (claim.kind == OutcomeKind::ObjectMoves)
          return std::abs(object.final.x() - object.start.x()) >= claim.value;
        if (claim.kind == OutcomeKind::ObjectEndsAbove) return object.final.y() >= claim.value;
        return (object.touchingAtEnd & bodyBit(claim.other)) != 0;
      }
      return false;  // not a movable object: it neither moves nor was followed
  }
  return std::nullopt;
}

int quotaFor(const OutcomeClaim& quota, int starts) {
  return static_cast<int>(std::ceil(quota.value * starts / 20.0 - 1e-9));
}

}  // namespace scl
