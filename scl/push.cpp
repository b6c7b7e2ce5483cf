// findPushTarget(): what `push NAME` and `--push NAME:...` push (push.h).
#include "scl/push.h"

#include <cmath>
#include <tuple>
#include <vector>

#include "base/format.h"
#include "scl/names.h"
#include "scl/scene.h"

namespace scl {

namespace {

// The movable objects of `bodies`, by name.
std::vector<std::string_view> objectNames(std::span<const SceneBodyDef> bodies) {
  std::vector<std::string_view> names;
  for (const SceneBodyDef& body : bodies)
    if (body.movable()) names.emplace_back(body.name);
  return names;
}

// `CHAIN.N`: the chain and its link N (from 1), when `target` is written so.
std::optional<std::pair<std::string_view, std::string_view>> splitChainLink(
    std::string_view target) {
  const size_t dot = target.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == target.size()) return std::nullopt;
  return std::pair(target.substr(0, dot), target.substr(dot + 1));
}

PushTargetLookup failed(std::string error) { return {std::nullopt, std::move(error)}; }

// A part of the movable `object`, named `name` (`linkNumber` after its dot, if any).
PushTargetLookup objectPart(const SceneBodyDef& object, std::string_view objectName,
                            std::optional<std::string_view> linkNumber) {
  PushTarget target;
  target.body = object.name;
  if (object.kind != SceneBodyKind::Chain) {
    if (linkNumber)
      return failed("'" + std::string(objectName) + "' is a " +
                    std::string(sceneBodyKindName(object.kind)) + ", one body: push it as '" +
                    std::string(objectName) + "'");
    return {target, ""};
  }
  target.part = object.count - 1;  // the chain's last link
  if (linkNumber) {
    const std::optional<double> number = parseFiniteNumber(*linkNumber);
    if (!number || *number != std::floor(*number) || *number < 1 || *number > object.count)
      return failed("chain '" + std::string(objectName) + "' has links 1 to " +
                    std::to_string(object.count) + " (got '" + std::string(*linkNumber) + "')");
    target.part = static_cast<int>(*number) - 1;
  }
  return {target, ""};
}

}  // namespace

std::string pushTimeError(double seconds, bool duration) {
  const bool within = (duration ? seconds > 0.0 : seconds >= 0.0) && seconds <= kMaxDuration;
  if (within) return "";
  return std::string(duration ? "a push lasts more than 0 s" : "a push starts at 0 s or later") +
         ", at most " + formatNumber(kMaxDuration) + " s (found " + formatNumber(seconds) + " s)";
}

PushTargetLookup findPushTarget(std::string_view name, const Character& character,
                                std::span<const SceneBodyDef> bodies, std::string_view argument) {
  const CharacterNames names(character);
  const NameLookup link = names.links(name, Groups::Rejected, argument);
  if (link.ok()) return {PushTarget{link.index(), "", 0}, ""};
  std::string_view objectName = name;
  std::optional<std::string_view> linkNumber;
  if (const auto split = splitChainLink(name)) std::tie(objectName, linkNumber) = *split;
  const SceneBodyDef* object = findSceneBody(bodies, objectName);
  if (object && object->movable()) return objectPart(*object, objectName, linkNumber);
  if (object)  // terrain
    return failed("'" + std::string(objectName) + "' is a " +
                  std::string(sceneBodyKindName(object->kind)) +
                  ", which does not move; push a link or a movable object (box, ball, capsule, "
                  "chain)");
  // A name the character knows otherwise (a group, a joint, a role it lacks): why not.
  if (!link.error.starts_with("unknown link")) return failed(link.error);
  std::vector<std::string_view> candidates = names.linkNames(false);
  const std::vector<std::string_view> objects = objectNames(bodies);
  candidates.insert(candidates.end(), objects.begin(), objects.end());
  std::string message = unknownNameMessage("link or object", name, candidates);
  message += " (links: " + CharacterNames::joined(names.linkNames(false));
  message += objects.empty() ? "; the scene has no movable objects)"
                             : "; objects: " + CharacterNames::joined(objects) + ")";
  return failed(message);
}

}  // namespace scl
