// Hover: what the name, keyword or `@` number under the cursor is.
#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <span>

#include "base/format.h"
#include "scl/character_file.h"
#include "scl/printer.h"
#include "scl/world.h"
#include "tools/lsp/features.h"
#include "tools/lsp/language_words.h"

namespace scl::lsp {

using nlohmann::json;
namespace sx = syntax;

std::string jointSummary(const Character& character, int index) {
  const JointDef& joint = character.joints[static_cast<size_t>(index)];
  const std::string role = character.roleOf(index, true);
  return (role.empty() ? "" : "the " + role + "; ") + "range " + formatTrimmed(joint.minDeg, 1) +
         "° … " + formatTrimmed(joint.maxDeg, 1) + "°, kp " + formatTrimmed(joint.kp, 1) +
         " N·m/rad, kd " + formatTrimmed(joint.kd, 2) + " N·m·s/rad, torque limit " +
         formatTrimmed(joint.maxTorque, 1) + " N·m";
}

std::string linkSummary(const Character& character, int index) {
  const LinkDef& link = character.links[static_cast<size_t>(index)];
  const std::string role = character.roleOf(index, false);
  return (role.empty() ? "" : "the " + role + "; ") + "length " + formatTrimmed(link.length, 3) +
         " m, mass " + formatTrimmed(link.mass, 2) + " kg";
}

namespace {

std::string jointHover(const Character& character, std::string_view name) {
  if (auto index = character.findJoint(name)) {
    const JointDef& joint = character.joints[static_cast<size_t>(*index)];
    return "**" + joint.name + "**: joint of " + character.name + " between " +
           character.links[static_cast<size_t>(joint.parentLink)].name + " (parent) and " +
           character.links[static_cast<size_t>(joint.childLink)].name + " (child)\n\n" +
           jointSummary(character, *index);
  }
  const std::span<const int> members = character.findJointGroup(name);
  if (members.empty()) return "";
  std::string out = "**" + std::string(name) + "**: joint group of " + character.name;
  for (int member : members)
    out += "\n\n- " + character.joints[static_cast<size_t>(member)].name + ": " +
           jointSummary(character, member);
  return out;
}

std::string linkHover(const Character& character, std::string_view name) {
  if (auto index = character.findLink(name)) {
    const LinkDef& link = character.links[static_cast<size_t>(*index)];
    std::string out = "**" + link.name + "**: link of " + character.name + "\n\n" +
                      linkSummary(character, *index);
    if (link.parentJoint >= 0)
      out += "; turned by " + character.joints[static_cast<size_t>(link.parentJoint)].name;
    return out;
  }
  const std::span<const int> members = character.findLinkGroup(name);
  if (members.empty()) return "";
  std::string out = "**" + std::string(name) + "**: link group of " + character.name;
  for (int member : members)
    out += "\n\n- " + character.links[static_cast<size_t>(member)].name + ": " +
           linkSummary(character, member);
  return out;
}

std::string phaseHover(const Analysis& analysis, const Occurrence& occurrence) {
  const auto& names = analysis.phaseNames;
  const auto found = std::find(names.begin(), names.end(), occurrence.name);
  if (found == names.end()) return "**" + occurrence.name + "**: no phase of this name";
  const size_t index = static_cast<size_t>(found - names.begin());
  const sx::Script& tree = analysis.tree;
  std::string out = "**phase " + occurrence.name + "** (" + std::to_string(index + 1) + " of " +
                    std::to_string(names.size()) + ")";
  const std::string exit = describeExit(analysis, index);
  out += "\n\n" + (exit.empty() ? std::string("the last phase: it stays active") : "exit: " + exit);
  // Where it is entered from: the phase before (through its exit) and cycles back to it.
  std::vector<std::string> from;
  if (index == 0) from.push_back("the start");
  if (index > 0 && tree.phases[index - 1].exit)
    from.push_back(names[index - 1] + " (" + describeTransition(*tree.phases[index - 1].exit) +
                   ")");
  for (size_t i = 0; i < tree.phases.size(); ++i) {
    const auto& exitOf = tree.phases[i].exit;
    if (exitOf && exitOf->backto && exitOf->backto->text == occurrence.name)
      from.push_back(names[i] + " (backto, " + describeTransition(*exitOf) + ")");
  }
  if (tree.finally && tree.finally->backto.text == occurrence.name)
    from.push_back(names.back() + " (finally " + describeTransition(tree.finally->transition) +
                   ")");
  out += "\n\nentered from: ";
  for (size_t i = 0; i < from.size(); ++i) out += (i ? "; " : "") + from[i];
  return out;
}

std::string blockHover(const Analysis& analysis, const Occurrence& occurrence) {
  for (const sx::Define& block : analysis.tree.defines) {
    if (block.name.text != occurrence.name) continue;
    size_t uses = 0;
    for (const Occurrence& other : analysis.occurrences)
      uses +=
          other.kind == SymbolKind::Block && !other.declaration && other.name == block.name.text;
    return "**block " + block.name.text + "**: " + std::to_string(block.primitives.size()) +
           (block.primitives.size() == 1 ? " primitive" : " primitives") +
           ", written in place of each `[" + block.name.text + "]`; used " + std::to_string(uses) +
           (uses == 1 ? " time" : " times");
  }
  return "**" + occurrence.name + "**: no block of this name";
}

std::string parameterHover(const Analysis& analysis, int line, int column) {
  if (!analysis.program) return "";
  const auto& parameters = analysis.program->parameters;
  for (size_t slot = 0; slot < parameters.size(); ++slot) {
    const Parameter& parameter = parameters[slot];
    if (parameter.location.line == line && parameter.location.column == column)
      return "**@ parameter " + parameter.name + "** (slot " + std::to_string(slot) +
             "): " + formatNumber(parameter.initial) + " in script units; `scl run --set " +
             parameter.name + "=VALUE`, tuned by `scl optimize`";
  }
  return "";
}

// The value words after `pose:`, `env:` and `character:` in the scene header.
std::string sceneValueHover(const Character& character, std::string_view argument,
                            std::string_view value) {
  if (argument == "pose") {
    if (const PoseDef* pose = character.findPose(value))
      return "**pose " + pose->name + "**: " + pose->description;
  } else if (argument == "env") {
    for (size_t i = 0; i < kEnvironments.size(); ++i)
      if (kEnvironments[i] == value)
        return "**env " + std::string(value) + "**: " + std::string(kEnvironmentDescriptions[i]);
  } else if (argument == "character") {
    for (const BuiltinCharacter& builtin : builtinCharacters())
      if (builtin.name == value) return "**character " + std::string(value) + "**: built in";
  }
  return "";
}

// A kind of body: what it is and the keys it takes.
std::string worldKindHover(const WorldKind& kind) {
  std::string out =
      "**" + std::string(kind.name()) + "**: " + std::string(kind.description) + "\n\nkeys:";
  for (const WorldKey& key : kind.keys)
    out += "\n- `" + std::string(key.key) + ":` " + std::string(key.what) +
           (key.required ? " (required)" : "");
  return out;
}

// A word of a world statement on the hovered line (`tokens`, `found` the hovered one): its
// kind word, the body's name, or a key.
std::string worldHover(std::span<const Token> tokens, size_t found) {
  const std::optional<size_t> start = worldStatementStart(tokens.first(found + 1));
  if (!start) return "";
  const WorldKind* kind = findWorldKind(tokens[*start].text);
  if (!kind) return "";
  const std::string kindName(kind->name());
  if (*start == found) return worldKindHover(*kind);
  if (found == *start + 1 && kind->named())
    return "**" + kindName + " " + std::string(tokens[found].text) +
           "**: " + std::string(kind->description);
  if (found + 1 < tokens.size() && tokens[found + 1].kind == TokenKind::Colon)
    for (const WorldKey& key : kind->keys)
      if (key.key == tokens[found].text)
        return "**" + std::string(key.key) + ":** (" + kindName + ") " + std::string(key.what) +
               (key.required ? "; required" : "");
  return "";
}

// In `when com QUANTITY ...`: `com` and the quantity; empty elsewhere (`com` in a phase is
// the feature, which the keywords explain).
std::string comConditionHover(std::span<const Token> tokens, size_t found) {
  auto isWordAt = [&](size_t i, std::string_view word) {
    return tokens[i].kind == TokenKind::Identifier && tokens[i].text == word;
  };
  if (found >= 1 && isWordAt(found, "com") && isWordAt(found - 1, "when"))
    return std::string(comConditionMeaning());
  if (found < 2 || !isWordAt(found - 1, "com") || !isWordAt(found - 2, "when")) return "";
  for (size_t i = 0; i < kComQuantityWords.size(); ++i)
    if (tokens[found].text == kComQuantityWords[i])
      return std::string(comQuantityMeaning(static_cast<ComQuantity>(i)));
  return "";
}

// The world file a scene header names (`world: "FILE"`): its bodies, or why it cannot be read.
std::string worldFileHover(std::string_view quoted, const std::string& fileName) {
  std::string_view path = quoted;
  if (path.size() >= 2 && path.front() == '"' && path.back() == '"')
    path = path.substr(1, path.size() - 2);
  const WorldLoad load = loadWorldFile(path, std::filesystem::path(fileName).parent_path());
  std::string out = "**world file** `" + std::string(path) + "`";
  if (load.notFound) return out + ": " + load.diagnostics.front().message;
  int errors = 0;
  for (const Diagnostic& diagnostic : load.diagnostics)
    errors += diagnostic.severity == Severity::Error ? 1 : 0;
  if (errors > 0) out += " (" + std::to_string(errors) + (errors == 1 ? " error)" : " errors)");
  out += ": " + std::to_string(load.statements.size()) +
         (load.statements.size() == 1 ? " statement" : " statements");
  for (const sx::WorldStatement& statement : load.statements)
    out += "\n- " + statement.kind.text + (statement.name ? " " + statement.name->text : "");
  return out;
}

std::string plain(std::string text) {
  std::erase_if(text, [](char c) { return c == '*' || c == '`'; });
  return text;
}

}  // namespace

json hover(const DocumentView& document, Position position, const ClientSupport& client) {
  const TextDocument& text = document.text;
  const Analysis& analysis = document.analysis;
  if (analysis.characterFile || analysis.statementFile) return nullptr;
  const size_t offset = text.offsetAt(position, document.encoding);
  const int line = text.lineOf(offset);
  const size_t lineStart = text.lineStart(line);
  const std::vector<Token> tokens =
      tokensOf(text.text(), lineStart, lineStart + text.line(line).size());
  // The token under the cursor, or the one just before it.
  size_t found = tokens.size();
  for (size_t i = 0; i < tokens.size(); ++i) {
    const size_t begin = offsetIn(text.text(), tokens[i]);
    if (begin <= offset && offset <= begin + tokens[i].text.size()) {
      found = i;
      if (offset < begin + tokens[i].text.size()) break;
    }
  }
  if (found == tokens.size()) return nullptr;
  const Token& token = tokens[found];
  const int column = static_cast<int>(offsetIn(text.text(), token) - lineStart) + 1;
  std::string value;
  if (token.kind == TokenKind::Number && token.parameter) {
    value = parameterHover(analysis, line + 1, column);
  } else if (token.kind == TokenKind::String && found >= 2 &&
             tokens[found - 1].kind == TokenKind::Colon && tokens[found - 2].text == "world") {
    value = worldFileHover(token.text, document.fileName);
  } else if (token.kind == TokenKind::Identifier) {
    const Character& character = *analysis.character;
    if (const Occurrence* occurrence = occurrenceAt(analysis, line + 1, column))
      value = occurrence->kind == SymbolKind::Phase ? phaseHover(analysis, *occurrence)
                                                    : blockHover(analysis, *occurrence);
    else if (found >= 2 && tokens[found - 1].kind == TokenKind::Colon)
      value = sceneValueHover(character, tokens[found - 2].text, token.text);
    if (value.empty()) value = comConditionHover(tokens, found);
    if (value.empty()) value = worldHover(tokens, found);
    if (value.empty()) value = jointHover(character, token.text);
    if (value.empty()) value = linkHover(character, token.text);
    if (value.empty()) value = std::string(keywordMeaning(token.text));
  }
  if (value.empty()) return nullptr;
  const size_t begin = offsetIn(text.text(), token);
  const Range range{text.positionAt(begin, document.encoding),
                    text.positionAt(begin + token.text.size(), document.encoding)};
  return {{"contents",
           {{"kind", client.markdown ? "markdown" : "plaintext"},
            {"value", client.markdown ? value : plain(value)}}},
          {"range", toJson(range)}};
}

}  // namespace scl::lsp
