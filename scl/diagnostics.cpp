#include "scl/diagnostics.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "scl/lexer.h"

namespace scl {

bool hasErrors(std::span<const Diagnostic> diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::string_view severityName(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

namespace {

constexpr std::array<std::string_view, 12> kWarningKindNames = {
    "target-range",  "driven-twice",   "strength-range",  "empty-block",
    "symm-self",     "character-file", "group-duplicate", "scene",
    "unknown-allow", "long-time",      "radians",         "contact-wait",
};
static_assert(kWarningKindNames.size() == static_cast<size_t>(WarningKind::ContactWait) + 1,
              "a name for every WarningKind");

// The text of 1-based line `line` of `source`, without its line break; nullopt-like empty
// result with found=false when the source has fewer lines.
bool findLine(std::string_view source, int line, std::string_view& text) {
  size_t start = 0;
  for (int current = 1; current < line; ++current) {
    size_t newline = source.find('\n', start);
    if (newline == std::string_view::npos) return false;
    start = newline + 1;
  }
  size_t end = source.find('\n', start);
  if (end == std::string_view::npos) end = source.size();
  text = source.substr(start, end - start);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return true;
}

// Line starts of a source, so rendering many diagnostics stays linear.
struct LineIndex {
  std::vector<size_t> starts;
  explicit LineIndex(std::string_view source) {
    starts.push_back(0);
    for (size_t i = 0; i < source.size(); ++i)
      if (source[i] == '\n') starts.push_back(i + 1);
  }
};

}  // namespace

std::string_view warningKindName(WarningKind kind) {
  return kWarningKindNames.at(static_cast<size_t>(kind));
}

std::span<const std::string_view> warningKindNames() { return kWarningKindNames; }

std::string renderDiagnostics(std::span<const Diagnostic> diagnostics, std::string_view source) {
  const LineIndex sourceIndex(source);
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    const SourceLocation& at = d.location;
    // A diagnostic of another file (a character file a script names) brings its text.
    std::optional<LineIndex> ownIndex;
    if (d.fileText) ownIndex.emplace(*d.fileText);
    const LineIndex& index = ownIndex ? *ownIndex : sourceIndex;
    const std::string_view text = d.fileText ? std::string_view(*d.fileText) : source;
    out += at.file.empty() ? std::string("<input>") : at.file.str();
    if (at.line > 0) {
      // Appended piecewise: `"literal" + std::string` trips GCC 12's -Wrestrict at -O3.
      out += ':';
      out += std::to_string(at.line);
      out += ':';
      out += std::to_string(at.column);
    }
    out += ": ";
    out += severityName(d.severity);
    out += ": ";
    out += d.message;
    if (d.kind) {
      out += " [";
      out += warningKindName(*d.kind);
      out += ']';
    }
    out += '\n';
    if (at.line <= 0 || at.line > static_cast<int>(index.starts.size())) continue;
    std::string_view line;
    findLine(text.substr(index.starts[at.line - 1]), 1, line);
    if (line.size() > 200) continue;  // minified or binary input: a caret would not help
    std::string shownLine = "  ";
    std::string caret = "  ";
    for (size_t i = 0; i < line.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(line[i]);
      char shown = c == '\t' ? '\t' : (std::isprint(c) ? static_cast<char>(c) : '?');
      shownLine += shown;
      if (static_cast<int>(i) + 1 < at.column) caret += shown == '\t' ? '\t' : ' ';
    }
    out += shownLine;
    out += '\n';
    out += caret;
    out += "^\n";
  }
  return out;
}

void DiagnosticSink::add(Severity severity, const SourceLocation& location, std::string message,
                         std::shared_ptr<const std::string> fileText,
                         std::optional<WarningKind> kind) {
  if (full_) return;
  if (severity == Severity::Note && silencing_) return;
  silencing_ = false;
  if (severity == Severity::Warning && kind && allows(location, *kind)) {
    ++silencedWarnings_;
    silencing_ = true;
    return;
  }
  if (severity == Severity::Error && errorCount_ >= maxErrors_) {
    full_ = true;
    diagnostics_.push_back({Severity::Note, location, "too many errors; stopping here"});
    return;
  }
  if (severity == Severity::Warning && warningCount_ >= maxWarnings_) {
    ++droppedWarnings_;
    lastDropped_ = location;
    return;
  }
  if (severity == Severity::Error) ++errorCount_;
  if (severity == Severity::Warning) ++warningCount_;
  diagnostics_.push_back({severity, location, std::move(message), std::move(fileText), kind});
}

bool DiagnosticSink::allows(const SourceLocation& location, WarningKind kind) const {
  if (allowed_.empty() || !(location.file == allowFile_)) return false;
  const auto line = allowed_.find(location.line);
  return line != allowed_.end() &&
         std::find(line->second.begin(), line->second.end(), kind) != line->second.end();
}

void DiagnosticSink::readAllowComments(std::string_view source, const FileName& fileName) {
  allowFile_ = fileName;
  allowed_.clear();
  constexpr std::string_view kDirective = "allow:";
  if (source.find(kDirective) == std::string_view::npos) return;  // the usual case: cheap
  for (const Comment& comment : scanComments(source)) {
    // `//`, spaces, `allow:`: a comment that merely mentions the word is no directive.
    std::string_view text = std::string_view(comment.text).substr(2);
    const size_t start = text.find_first_not_of(" \t");
    if (start == std::string_view::npos || text.substr(start, kDirective.size()) != kDirective)
      continue;
    size_t at = start + kDirective.size();
    const int line = comment.ownLine ? comment.line + 1 : comment.line;
    // KIND [, KIND ...]; what follows the list is the author's reason, free text.
    while (true) {
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
      size_t end = at;
      while (end < text.size() &&
             (std::islower(static_cast<unsigned char>(text[end])) ||
              std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '-'))
        ++end;
      const std::string_view name = text.substr(at, end - at);
      const SourceLocation where{fileName, comment.line, comment.column + 2 + static_cast<int>(at)};
      const auto known = std::find(kWarningKindNames.begin(), kWarningKindNames.end(), name);
      if (known != kWarningKindNames.end()) {
        allowed_[line].push_back(static_cast<WarningKind>(known - kWarningKindNames.begin()));
      } else {
        std::string message =
            name.empty() ? std::string("'allow:' names no kind of warning")
                         : "unknown kind of warning '" + quoteToken(name) + "' in 'allow:'";
        std::string hint = name.empty() ? "" : didYouMean(name, kWarningKindNames);
        if (hint.empty()) {
          hint = " (the kinds: ";
          for (size_t i = 0; i < kWarningKindNames.size(); ++i)
            hint += (i ? ", " : "") + std::string(kWarningKindNames[i]);
          hint += ')';
        }
        warning(where, WarningKind::UnknownAllow, message + hint);
      }
      at = end;
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
      if (at >= text.size() || text[at] != ',') break;
      ++at;
    }
  }
}

std::vector<Diagnostic> DiagnosticSink::take() {
  if (droppedWarnings_ > 0) {
    SourceLocation fileOnly;
    fileOnly.file = lastDropped_.file;
    diagnostics_.push_back({Severity::Note, fileOnly,
                            std::to_string(droppedWarnings_) + " more warning" +
                                (droppedWarnings_ == 1 ? "" : "s") + " not shown (the first " +
                                std::to_string(maxWarnings_) + " are)"});
    droppedWarnings_ = 0;
  }
  return std::move(diagnostics_);
}

void DiagnosticSink::error(const SourceLocation& location, std::string message) {
  add(Severity::Error, location, std::move(message));
}
void DiagnosticSink::warning(const SourceLocation& location, WarningKind kind,
                             std::string message) {
  add(Severity::Warning, location, std::move(message), nullptr, kind);
}
void DiagnosticSink::note(const SourceLocation& location, std::string message,
                          std::shared_ptr<const std::string> fileText) {
  add(Severity::Note, location, std::move(message), std::move(fileText));
}

int editDistance(std::string_view a, std::string_view b) {
  // Names are short; beyond 64 bytes nothing is a plausible typo of a table name.
  if (a.size() > 64 || b.size() > 64) return 1000;
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  const size_t n = a.size(), m = b.size();
  std::array<std::array<int, 65>, 65> d{};  // on the stack: called for every candidate name
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::string_view closestMatch(std::string_view name, std::span<const std::string_view> candidates) {
  const int limit = std::max(1, static_cast<int>(name.size()) / 3);
  std::string_view best;
  int bestDistance = limit + 1;
  for (std::string_view candidate : candidates) {
    int distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string didYouMean(std::string_view name, std::span<const std::string_view> candidates) {
  std::string_view best = closestMatch(name, candidates);
  if (best.empty()) return "";
  return "; did you mean '" + std::string(best) + "'?";
}

std::string quoteToken(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  if (text.size() > 40) out += "...";
  return out;
}

}  // namespace scl
