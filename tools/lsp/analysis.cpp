#include "tools/lsp/analysis.h"

#include <algorithm>
#include <climits>
#include <filesystem>

#include "scl/character_file.h"
#include "scl/compile.h"
#include "scl/objective.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "scl/problem.h"
#include "scl/world.h"

namespace scl::lsp {

namespace {

namespace sx = syntax;

// Lexing stops after a sink's error limit; these chunks (whole lines) keep the number of
// lexical errors held at once small however much garbage a document holds.
constexpr size_t kLexChunk = size_t{64} * 1024;

void addOccurrence(Analysis& analysis, SymbolKind kind, const sx::Name& name, bool declaration) {
  if (name.text.empty() || name.location.line <= 0) return;
  analysis.occurrences.push_back({kind, name.text, name.location, declaration});
}

void addUses(Analysis& analysis, const std::vector<sx::Primitive>& primitives) {
  for (const sx::Primitive& primitive : primitives)
    if (const auto* use = std::get_if<sx::Use>(&primitive.node))
      addOccurrence(analysis, SymbolKind::Block, use->block, false);
}

void addTransition(Analysis& analysis, const sx::Transition& transition) {
  if (transition.backto) addOccurrence(analysis, SymbolKind::Phase, *transition.backto, false);
}

void collectOccurrences(Analysis& analysis) {
  const sx::Script& tree = analysis.tree;
  for (const sx::Define& block : tree.defines) {
    addOccurrence(analysis, SymbolKind::Block, block.name, true);
    addUses(analysis, block.primitives);
  }
  for (size_t i = 0; i < tree.phases.size(); ++i) {
    const sx::Phase& phase = tree.phases[i];
    if (phase.name) addOccurrence(analysis, SymbolKind::Phase, *phase.name, true);
    if (phase.mirrorOf) addOccurrence(analysis, SymbolKind::Phase, *phase.mirrorOf, false);
    addUses(analysis, phase.primitives);
    if (phase.exit) addTransition(analysis, *phase.exit);
    analysis.phaseNames.push_back(phase.name ? phase.name->text : "phase" + std::to_string(i + 1));
  }
  if (tree.finally) addOccurrence(analysis, SymbolKind::Phase, tree.finally->backto, false);
  std::stable_sort(analysis.occurrences.begin(), analysis.occurrences.end(),
                   [](const Occurrence& a, const Occurrence& b) {
                     return a.location.line != b.location.line
                                ? a.location.line < b.location.line
                                : a.location.column < b.location.column;
                   });
}

// The character the names bind against when there is no program: the scene's (a
// built-in's name or a file beside the script), else the human.
std::shared_ptr<const Character> sceneCharacter(const sx::Script& tree,
                                                const std::string& fileName) {
  if (tree.scene && tree.scene->character) {
    const CharacterLoad load =
        loadCharacter(tree.scene->character->text, std::filesystem::path(fileName).parent_path());
    if (load.ok()) return load.character;
  }
  return humanCharacter();
}

std::string number(const sx::NumberLit& value) {
  return (value.parameter ? "@" : "") + formatNumber(value.value);
}

}  // namespace

bool isCharacterFileName(std::string_view fileName) {
  return fileName.size() >= 10 && fileName.substr(fileName.size() - 10) == ".character";
}

bool isStatementFileName(std::string_view fileName) {
  return fileName.ends_with(".objective") || fileName.ends_with(".problem");
}

bool isWorldFileName(std::string_view fileName) { return fileName.ends_with(".world"); }

std::vector<Diagnostic> worldFileDiagnostics(std::string_view text, const std::string& fileName,
                                             std::vector<syntax::WorldStatement>* statements) {
  WorldFileParse parsed = parseWorldFile(text, fileName);
  // The bodies checked on their own, as a scene naming the file checks them (loadWorldFile).
  DiagnosticSink sink;
  std::vector<SceneBodyDef> bodies = {groundBody()};
  bindWorld(parsed.file.statements, bodies, sink);
  for (Diagnostic& diagnostic : sink.take()) parsed.diagnostics.push_back(std::move(diagnostic));
  if (statements) *statements = std::move(parsed.file.statements);
  return std::move(parsed.diagnostics);
}

Analysis analyze(std::string_view text, const std::string& fileName) {
  Analysis analysis;
  if (isStatementFileName(fileName)) {
    analysis.statementFile = true;
    analysis.diagnostics = fileName.ends_with(".objective")
                               ? parseObjective(text, fileName).diagnostics
                               : parseProblem(text, fileName).diagnostics;
    analysis.character = humanCharacter();
    return analysis;
  }
  if (isWorldFileName(fileName)) {
    analysis.worldFile = true;
    analysis.diagnostics = worldFileDiagnostics(text, fileName, &analysis.tree.world);
    analysis.character = humanCharacter();
    return analysis;
  }
  if (isCharacterFileName(fileName)) {
    analysis.characterFile = true;
    CharacterLoad load = compileCharacter(text, fileName);
    analysis.diagnostics = std::move(load.diagnostics);
    analysis.character = load.character ? load.character : humanCharacter();
    return analysis;
  }
  CompileOptions options;
  options.syntaxTree = &analysis.tree;
  CompileResult result = compile(text, fileName, options);
  analysis.diagnostics = std::move(result.diagnostics);
  analysis.program = std::move(result.program);
  analysis.character =
      analysis.program ? analysis.program->character : sceneCharacter(analysis.tree, fileName);
  collectOccurrences(analysis);
  return analysis;
}

std::optional<size_t> worldStatementStart(std::span<const Token> tokens) {
  const auto isKindWord = [&](size_t i) {
    return tokens[i].kind == TokenKind::Identifier && findWorldKind(tokens[i].text) != nullptr;
  };
  for (size_t i = tokens.size(); i-- > 0;) {
    const Token& token = tokens[i];
    if (token.kind == TokenKind::Identifier && token.text == "define") return std::nullopt;
    if (!isKindWord(i)) continue;
    if (i > 0 && tokens[i - 1].kind == TokenKind::Colon) continue;  // a value
    // The name of a body whose kind word comes before it (the ground has none).
    if (i > 0 && isKindWord(i - 1) && tokens[i - 1].text != "ground") continue;
    return i;
  }
  return std::nullopt;
}

const Occurrence* occurrenceAt(const Analysis& analysis, int line, int column) {
  const auto& all = analysis.occurrences;
  // The first occurrence starting after the column; the one before it may cover it.
  auto after = std::upper_bound(all.begin(), all.end(), std::pair(line, column),
                                [](const std::pair<int, int>& at, const Occurrence& o) {
                                  return at.first != o.location.line
                                             ? at.first < o.location.line
                                             : at.second < o.location.column;
                                });
  if (after == all.begin()) return nullptr;
  const Occurrence& candidate = *std::prev(after);
  const int end = candidate.location.column + static_cast<int>(candidate.name.size());
  if (candidate.location.line == line && column >= candidate.location.column && column <= end)
    return &candidate;
  return nullptr;
}

std::vector<const Occurrence*> occurrencesLike(const Analysis& analysis, const Occurrence& of) {
  std::vector<const Occurrence*> out;
  for (const Occurrence& occurrence : analysis.occurrences)
    if (occurrence.kind == of.kind && occurrence.name == of.name) out.push_back(&occurrence);
  std::stable_partition(out.begin(), out.end(),
                        [](const Occurrence* occurrence) { return occurrence->declaration; });
  return out;
}

std::vector<Token> tokensOf(std::string_view text, size_t begin, size_t end) {
  end = std::min(end, text.size());
  std::vector<Token> tokens;
  while (begin < end) {
    // A chunk of whole lines (or the rest).
    size_t chunkEnd = std::min(end, begin + kLexChunk);
    if (chunkEnd < end) {
      const size_t newline = text.find('\n', chunkEnd);
      chunkEnd = newline == std::string_view::npos ? end : std::min(end, newline + 1);
    }
    DiagnosticSink sink(INT_MAX, 0);
    TokenStream stream(text.substr(begin, chunkEnd - begin), "", sink, scriptLexing());
    for (Token token = stream.next(); token.kind != TokenKind::EndOfFile; token = stream.next())
      tokens.push_back(token);
    begin = chunkEnd;
  }
  return tokens;
}

size_t tokenLengthAt(std::string_view text, size_t offset) {
  if (offset >= text.size() || text[offset] == '\n' || text[offset] == '\r') return 0;
  // A window, not the whole line: a token longer than this is shown by its start.
  constexpr size_t kWindow = 4096;
  const size_t lineEnd = std::min({text.find('\n', offset), text.size(), offset + kWindow});
  const std::vector<Token> tokens = tokensOf(text, offset, lineEnd);
  if (!tokens.empty() && offsetIn(text, tokens.front()) == offset)
    return tokens.front().text.size();
  return 1;
}

std::string describeTransition(const sx::Transition& transition) {
  std::string out;
  if (transition.com) {
    const sx::ComCondition& com = *transition.com;
    out = std::string(transition.after ? "and when com " : "when com ") +
          std::string(comQuantityWord(com.quantity)) + (com.above ? " > " : " < ") +
          number(com.value) + (com.legs ? " legs" : "");
  } else if (transition.holding || transition.released) {
    out = transition.holding ? "when holding " + transition.holding->text
                             : "when released " + transition.released->text;
  } else if (!transition.contact) {
    return transition.after ? "after " + number(*transition.after) + " s" : "";
  } else {
    out = transition.after ? "and when contact" : "when contact";
    if (transition.event)
      out += *transition.event == sx::ContactEvent::Lost      ? " lost"
             : *transition.event == sx::ContactEvent::Changed ? " changed"
                                                              : " established";
    if (transition.quantifier)
      out += *transition.quantifier == sx::ContactQuantifier::All ? " all" : " any";
    for (size_t i = 0; i < transition.targets.size(); ++i)
      out += (i ? ", " : " ") + transition.targets[i].text;
    if (transition.body) out += " with " + transition.body->text;
  }
  if (transition.after) out += " after " + number(*transition.after) + " s";
  if (transition.timeout) out += " or after " + number(*transition.timeout) + " s";
  return out;
}

std::string describeExit(const Analysis& analysis, size_t index) {
  const sx::Script& tree = analysis.tree;
  const sx::Phase& phase = tree.phases[index];
  std::string out;
  if (phase.mirrorOf) out = "mirror of " + phase.mirrorOf->text;
  const auto append = [&](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
  if (index + 1 < tree.phases.size() && phase.exit) {
    std::string text = describeTransition(*phase.exit) + " → ";
    if (phase.exit->backto && phase.exit->times)
      text += phase.exit->backto->text + " (" + formatNumber(phase.exit->times->value) +
              " times in all), then ";
    append(text + analysis.phaseNames[index + 1]);
  } else if (index + 1 == tree.phases.size() && tree.finally) {
    append(
        "finally " + describeTransition(tree.finally->transition) + " → " +
        tree.finally->backto.text +
        (tree.finally->times ? " (" + formatNumber(tree.finally->times->value) + " times)" : ""));
  }
  return out;
}

}  // namespace scl::lsp
