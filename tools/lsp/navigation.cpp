// Phases and blocks as symbols: the outline, go to definition, references and rename.
#include <algorithm>
#include <cctype>

#include "scl/parser.h"
#include "scl/printer.h"
#include "tools/lsp/features.h"

namespace scl::lsp {

using nlohmann::json;
namespace sx = syntax;

namespace {

// LSP SymbolKind values.
constexpr int kSymbolPackage = 4;
constexpr int kSymbolFunction = 12;
constexpr int kSymbolObject = 19;
constexpr int kSymbolEvent = 24;

// The occurrence of a phase or block name at `position`, if any.
const Occurrence* occurrenceAtPosition(const DocumentView& document, Position position) {
  const size_t offset = document.text.offsetAt(position, document.encoding);
  const int line = document.text.lineOf(offset);
  const int column = static_cast<int>(offset - document.text.lineStart(line)) + 1;
  return occurrenceAt(document.analysis, line + 1, column);
}

json location(const DocumentView& document, const Occurrence& occurrence) {
  return {{"uri", document.uri},
          {"range", toJson(byteRange(document, occurrence.location, occurrence.name.size()))}};
}

// The range from `begin` through the closing brace at `end` (or to the end of the last
// line the node is known to reach, when its brace is missing).
Range nodeRange(const DocumentView& document, const SourceLocation& begin,
                const SourceLocation& end, int lastLine) {
  const Position start = document.text.positionOf(begin, document.encoding);
  if (end.line > 0) {
    Position close = document.text.positionOf(end, document.encoding);
    ++close.character;  // past the '}'
    return {start, close};
  }
  const int line = std::max(lastLine, begin.line) - 1;
  return {start,
          document.text.positionAt(document.text.lineStart(line) + document.text.line(line).size(),
                                   document.encoding)};
}

int lastPrimitiveLine(const std::vector<sx::Primitive>& primitives, int fallback) {
  return primitives.empty() ? fallback : primitives.back().location.line;
}

json symbol(const std::string& name, int kind, const std::string& detail, const Range& range,
            const Range& selection) {
  return {{"name", name},
          {"kind", kind},
          {"detail", detail},
          {"range", toJson(range)},
          {"selectionRange", toJson(selection)}};
}

bool isIdentifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// Why `name` cannot be the new name of the phase or block `of`; empty when it can.
std::string renameProblem(const Analysis& analysis, const Occurrence& of, const std::string& name) {
  const std::string what = of.kind == SymbolKind::Phase ? "phase" : "block";
  if (!isIdentifier(name))
    return "'" + quoteToken(name) +
           "' is no name (letters, digits and '_', not starting with a digit)";
  const bool taken = std::any_of(
      analysis.occurrences.begin(), analysis.occurrences.end(), [&](const Occurrence& other) {
        return other.kind == of.kind && other.declaration && other.name == name && name != of.name;
      });
  if (taken) return "a " + what + " named '" + name + "' exists already";
  if (of.kind == SymbolKind::Block) {
    const auto keywords = primitiveKeywords();
    if (std::find(keywords.begin(), keywords.end(), name) != keywords.end())
      return "'" + name + "' is a primitive keyword";
    const Character& character = *analysis.character;
    if (character.findJoint(name) || !character.findJointGroup(name).empty())
      return "'" + name + "' is a joint";
  }
  return "";
}

}  // namespace

json documentSymbols(const DocumentView& document, const ClientSupport& client) {
  const Analysis& analysis = document.analysis;
  const sx::Script& tree = analysis.tree;
  json symbols = json::array();
  if (tree.scene) {
    const SourceLocation& at = tree.scene->location;
    const int line = at.line - 1;
    const Range range{
        document.text.positionOf(at, document.encoding),
        document.text.positionAt(document.text.lineStart(line) + document.text.line(line).size(),
                                 document.encoding)};
    symbols.push_back(
        symbol("scene", kSymbolPackage, "initial state", range, byteRange(document, at, 5)));
  }
  // The world's bodies, each on its first line: its name (the ground: its kind), its kind.
  for (const sx::WorldStatement& body : tree.world) {
    const SourceLocation& at = body.location;
    const int line = at.line - 1;
    if (line < 0 || line >= document.text.lineCount()) continue;
    const Range range{
        document.text.positionOf(at, document.encoding),
        document.text.positionAt(document.text.lineStart(line) + document.text.line(line).size(),
                                 document.encoding)};
    const sx::Name& name =
        body.name && body.name->location.line == at.line ? *body.name : body.kind;
    symbols.push_back(symbol(name.text, kSymbolObject, body.kind.text, range,
                             byteRange(document, name.location, name.text.size())));
  }
  for (const sx::Define& block : tree.defines) {
    const Range range = nodeRange(document, block.location, block.end,
                                  lastPrimitiveLine(block.primitives, block.location.line));
    symbols.push_back(symbol(block.name.text, kSymbolFunction,
                             "block of " + std::to_string(block.primitives.size()) +
                                 (block.primitives.size() == 1 ? " primitive" : " primitives"),
                             range,
                             byteRange(document, block.name.location, block.name.text.size())));
  }
  for (size_t i = 0; i < tree.phases.size(); ++i) {
    const sx::Phase& phase = tree.phases[i];
    const Range range = nodeRange(document, phase.location, phase.end,
                                  lastPrimitiveLine(phase.primitives, phase.location.line));
    const Range selection = phase.name
                                ? byteRange(document, phase.name->location, phase.name->text.size())
                                : byteRange(document, phase.location, 1);
    symbols.push_back(
        symbol(analysis.phaseNames[i], kSymbolEvent, describeExit(analysis, i), range, selection));
  }
  if (client.hierarchicalSymbols) return symbols;
  json flat = json::array();
  for (const json& item : symbols)
    flat.push_back({{"name", item["name"]},
                    {"kind", item["kind"]},
                    {"location", {{"uri", document.uri}, {"range", item["range"]}}}});
  return flat;
}

json definition(const DocumentView& document, Position position) {
  const Occurrence* at = occurrenceAtPosition(document, position);
  if (!at) return nullptr;
  json out = json::array();
  for (const Occurrence* occurrence : occurrencesLike(document.analysis, *at))
    if (occurrence->declaration) out.push_back(location(document, *occurrence));
  if (out.empty()) return nullptr;
  return out;
}

json references(const DocumentView& document, Position position, bool includeDeclaration) {
  const Occurrence* at = occurrenceAtPosition(document, position);
  json out = json::array();
  if (!at) return out;
  for (const Occurrence* occurrence : occurrencesLike(document.analysis, *at))
    if (includeDeclaration || !occurrence->declaration)
      out.push_back(location(document, *occurrence));
  return out;
}

json prepareRename(const DocumentView& document, Position position) {
  const Occurrence* at = occurrenceAtPosition(document, position);
  if (!at) return nullptr;
  return {{"range", toJson(byteRange(document, at->location, at->name.size()))},
          {"placeholder", at->name}};
}

json rename(const DocumentView& document, Position position, const std::string& name) {
  const Occurrence* at = occurrenceAtPosition(document, position);
  if (!at) throw RequestError(kRequestFailed, "no phase or block name here to rename");
  const std::string problem = renameProblem(document.analysis, *at, name);
  if (!problem.empty()) throw RequestError(kRequestFailed, problem);
  json edits = json::array();
  for (const Occurrence* occurrence : occurrencesLike(document.analysis, *at))
    edits.push_back(
        {{"range", toJson(byteRange(document, occurrence->location, occurrence->name.size()))},
         {"newText", name}});
  return {{"changes", {{document.uri, edits}}}};
}

}  // namespace scl::lsp
