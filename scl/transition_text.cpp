#include "scl/transition_text.h"

#include <algorithm>

#include "base/format.h"

namespace scl {

namespace {

// The watched links as a script would name them: a run of links that is a link group
// (`hands`, `feet`) by its group's name, the others by their own.
std::string contactLinksText(const std::vector<int>& links, const Character& character) {
  std::string text;
  for (size_t i = 0; i < links.size();) {
    std::string name = character.links[static_cast<size_t>(links[i])].name;
    size_t length = 1;
    for (const GroupDef& group : character.linkGroups) {
      const size_t size = group.members.size();
      const auto start = links.begin() + static_cast<std::ptrdiff_t>(i);
      if (size > length && i + size <= links.size() &&
          std::equal(group.members.begin(), group.members.end(), start)) {
        name = group.name;
        length = size;
      }
    }
    text += (text.empty() ? "" : ", ") + name;
    i += length;
  }
  return text;
}

}  // namespace

std::string transitionText(const Transition& transition, const Character& character) {
  // Times are seconds in script and internal units alike.
  auto seconds = [](const Number& time) { return formatNumber(time.value); };
  if (!transition.hasContact) return transition.hasTime ? "after " + seconds(transition.time) : "";
  if (transition.holding || transition.released) {
    std::string text = (transition.holding ? "when holding " : "when released ") + transition.body;
    if (transition.hasTimeout) text += " or after " + seconds(transition.timeout);
    return text;
  }
  if (transition.com) {
    std::string text = transition.hasTime ? "and when com " : "when com ";
    text += std::string(comQuantityWord(transition.comQuantity)) +
            (transition.comAbove ? " > " : " < ") + formatNumber(transition.comValue.value) +
            (transition.comInLegs ? " legs" : "");
    if (transition.hasTime) text += " after " + seconds(transition.time);
    if (transition.hasTimeout) text += " or after " + seconds(transition.timeout);
    return text;
  }
  std::string text = transition.hasTime ? "and when contact" : "when contact";
  if (transition.event == ContactEvent::Lost) text += " lost";
  if (transition.event == ContactEvent::Changed) text += " changed";
  // `any` is the default, but with more than one link it says how they combine.
  if (transition.quantifier == ContactQuantifier::All) text += " all";
  if (transition.quantifier == ContactQuantifier::Any && transition.links.size() > 1)
    text += " any";
  text += " " + contactLinksText(transition.links, character);
  if (!transition.body.empty()) text += " with " + transition.body;
  if (transition.hasTime) text += " after " + seconds(transition.time);
  if (transition.hasTimeout) text += " or after " + seconds(transition.timeout);
  return text;
}

}  // namespace scl
