#include "scl/compile.h"

#include <algorithm>
#include <stdexcept>

#include "scl/binder.h"
#include "scl/lexer.h"
#include "scl/parser.h"
#include "scl/printer.h"

namespace scl {

namespace {

// Parser and binder report in two passes; the user reads them in source order. A note
// stays right after the diagnostic it belongs to; the stable sort keeps equal locations in
// the order they were found.
std::vector<Diagnostic> sortedByLocation(std::vector<Diagnostic> diagnostics) {
  std::vector<std::vector<Diagnostic>> groups;
  for (Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity != Severity::Note || groups.empty()) groups.emplace_back();
    groups.back().push_back(std::move(diagnostic));
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    const SourceLocation& x = a.front().location;
    const SourceLocation& y = b.front().location;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  std::vector<Diagnostic> sorted;
  for (auto& group : groups)
    for (Diagnostic& diagnostic : group) sorted.push_back(std::move(diagnostic));
  return sorted;
}

// Passes every piece on to the binder and keeps a copy in a syntax tree
// (CompileOptions::syntaxTree).
class TreeTee : public ScriptVisitor {
 public:
  TreeTee(ScriptVisitor& next, syntax::Script& tree) : next_(next), tree_(tree) {}
  void scene(syntax::SceneHeader header) override {
    tree_.scene = header;
    next_.scene(std::move(header));
  }
  void world(syntax::WorldStatement statement) override {
    tree_.world.push_back(statement);
    next_.world(std::move(statement));
  }
  void clip(syntax::ClipDecl clip) override {
    tree_.clips.push_back(clip);
    next_.clip(std::move(clip));
  }
  void define(syntax::Define block) override {
    tree_.defines.push_back(block);
    next_.define(std::move(block));
  }
  void phase(syntax::Phase phase, bool last) override {
    tree_.phases.push_back(phase);
    next_.phase(std::move(phase), last);
  }
  void end(std::optional<syntax::Finally> finally) override {
    tree_.finally = finally;
    next_.end(std::move(finally));
  }

 private:
  ScriptVisitor& next_;
  syntax::Script& tree_;
};

}  // namespace

CompileResult compile(std::string_view source, std::string_view fileName,
                      const CompileOptions& options) {
  DiagnosticSink sink;
  sink.readAllowComments(source, FileName(fileName));
  // Bind as the parser reads, phase by phase (a long script never has its whole syntax
  // tree in memory), and even after syntax errors, so that one pass also reports unknown
  // names; the parser dropped the broken pieces, and the program is kept only without
  // errors.
  std::filesystem::path baseDirectory = options.baseDirectory;
  if (baseDirectory.empty()) baseDirectory = std::filesystem::path(fileName).parent_path();
  ScriptBinder binder(sink, options.character, std::move(baseDirectory), options.world,
                      options.clipFiles);
  if (options.syntaxTree) {
    *options.syntaxTree = {};
    TreeTee tee(binder, *options.syntaxTree);
    parse(source, fileName, sink, tee);
  } else {
    parse(source, fileName, sink, binder);
  }
  CompileResult result;
  std::optional<Program> program = binder.take();
  if (!hasErrors(sink.diagnostics())) result.program = std::move(program);
  result.diagnostics = sortedByLocation(sink.take());
  return result;
}

namespace {

// Byte offset of a 1-based line and column; npos when outside the source.
size_t offsetOf(std::string_view source, int line, int column) {
  size_t offset = 0;
  for (int current = 1; current < line; ++current) {
    offset = source.find('\n', offset);
    if (offset == std::string_view::npos) return offset;
    ++offset;
  }
  offset += static_cast<size_t>(column - 1);
  return offset < source.size() ? offset : std::string_view::npos;
}

}  // namespace

std::string substituteParameters(std::string_view source, const Program& program,
                                 std::vector<SourceLocation>* newLocations) {
  struct Edit {
    size_t begin, end;
    std::string text;
    size_t slot;
  };
  std::vector<Edit> edits;
  for (const Parameter& parameter : program.parameters) {
    const SourceLocation& at = parameter.location;
    size_t begin = at.line > 0 && at.column > 0 ? offsetOf(source, at.line, at.column)
                                                : std::string_view::npos;
    if (begin == std::string_view::npos || source[begin] != '@')
      throw std::invalid_argument("parameter '" + parameter.name +
                                  "' is not at an '@' number at line " + std::to_string(at.line) +
                                  ", column " + std::to_string(at.column));
    const size_t end = begin + 1 + numberLength(source.substr(begin + 1));
    std::string text = "@";
    text += formatNumber(parameter.value);
    edits.push_back({begin, end, std::move(text), edits.size()});
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  size_t copied = 0;
  if (newLocations) newLocations->assign(edits.size(), {});
  // A number holds no line break: an edit moves the later columns of its line only.
  int line = 0, shift = 0;
  for (const Edit& edit : edits) {
    if (edit.begin < copied) throw std::invalid_argument("two parameters at the same location");
    out.append(source.substr(copied, edit.begin - copied));
    out += edit.text;
    copied = edit.end;
    if (newLocations) {
      SourceLocation at = program.parameters[edit.slot].location;
      if (at.line != line) line = at.line, shift = 0;
      at.column += shift;
      (*newLocations)[edit.slot] = at;
      shift += static_cast<int>(edit.text.size()) - static_cast<int>(edit.end - edit.begin);
    }
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace scl

namespace scl {

std::string withSceneArgument(std::string_view source, std::string_view key,
                              std::string_view value) {
  DiagnosticSink sink;
  const std::vector<Token> tokens = lex(source, "", sink, scriptLexing());
  const auto offset = [&](const Token& token) {
    return static_cast<size_t>(token.text.data() - source.data());
  };
  const std::string argument = std::string(key) + ": " + std::string(value);
  if (tokens.empty() || tokens[0].kind != TokenKind::Identifier || tokens[0].text != "scene")
    return "scene " + argument + "\n" + std::string(source);
  // The header runs up to the first phase `{` or `define`.
  size_t last = 0;
  for (size_t i = 1; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind == TokenKind::EndOfFile || token.kind == TokenKind::LeftBrace ||
        (token.kind == TokenKind::Identifier && token.text == "define"))
      break;
    if (token.kind == TokenKind::Identifier && token.text == key && i + 2 < tokens.size() &&
        tokens[i + 1].kind == TokenKind::Colon && tokens[i + 2].kind != TokenKind::EndOfFile) {
      const Token& old = tokens[i + 2];
      return std::string(source.substr(0, offset(old))) + std::string(value) +
             std::string(source.substr(offset(old) + old.text.size()));
    }
    last = i;
  }
  const size_t end = offset(tokens[last]) + tokens[last].text.size();
  return std::string(source.substr(0, end)) + " " + argument + std::string(source.substr(end));
}

}  // namespace scl
