// Diagnostics of the SCL front end: errors, warnings and notes with a source location,
// rendered compiler-style (`file:line:col: error: message`, source line, caret).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/program.h"

namespace scl {

enum class Severity { Error, Warning, Note };

/// "error", "warning" or "note", as diagnostics are printed.
std::string_view severityName(Severity severity);

/// What a warning is about. Each kind has a short stable name (warningKindName), printed
/// after the message (`... [target-range]`) and named by an `// allow: NAME` comment to
/// silence that warning on its line (docs/language.md, Silencing a warning). A new warning
/// adds its kind here and its name in diagnostics.cpp.
enum class WarningKind {
  TargetRange,     ///< "target-range": a PD target outside its joint's range (it is clamped)
  DrivenTwice,     ///< "driven-twice": a joint driven by two PD-type primitives of a phase
  StrengthRange,   ///< "strength-range": a `strength` outside [0, 1]
  EmptyBlock,      ///< "empty-block": a `define` without primitives
  SymmSelf,        ///< "symm-self": a `[symm]` of a primitive that is its own mirror image
  CharacterFile,   ///< "character-file": the character file a script names has warnings
  GroupDuplicate,  ///< "group-duplicate": a name twice in a character file's group
  Scene,           ///< "scene": a doubtful value of a scene header
  UnknownAllow,    ///< "unknown-allow": an `allow:` comment names no kind of warning
  LongTime,        ///< "long-time": a time of 100 s or more (milliseconds meant?)
  Radians,         ///< "radians": PD angles that all look like radians
  ContactWait,     ///< "contact-wait": a contact transition that may wait until the 60 s limit
};

/// The stable name of a kind ("target-range").
std::string_view warningKindName(WarningKind kind);

/// Every kind's name, in the order of WarningKind.
std::span<const std::string_view> warningKindNames();

struct Diagnostic {
  Severity severity = Severity::Error;
  /// Where the offending token starts; line 0 for a diagnostic about the whole file.
  SourceLocation location;
  /// One sentence, lower case, no trailing period (e.g. "unknown joint 'leftShoulderr'").
  std::string message;
  /// The text of the file `location` lies in, when that is another file than the one the
  /// diagnostics are rendered with (a character file a script names): renderDiagnostics()
  /// shows the source line from here. Null: the rendered source.
  std::shared_ptr<const std::string> fileText = nullptr;
  /// What a warning is about (its name can silence it); unset for errors and notes.
  std::optional<WarningKind> kind = std::nullopt;
};

/// True when any diagnostic is an error.
bool hasErrors(std::span<const Diagnostic> diagnostics);

/// Renders each diagnostic as `file:line:col: severity: message`, followed by the source
/// line and a caret under the column (when the location lies in `source`, or in the
/// diagnostic's own `fileText`).
std::string renderDiagnostics(std::span<const Diagnostic> diagnostics, std::string_view source);

/// Collects diagnostics, stopping after `maxErrors` errors so that garbage input cannot
/// produce megabytes of output (the first error beyond the limit adds one final note),
/// and keeping at most `maxWarnings` warnings (take() adds a note counting the rest).
class DiagnosticSink {
 public:
  explicit DiagnosticSink(int maxErrors = 50, int maxWarnings = 100)
      : maxErrors_(maxErrors), maxWarnings_(maxWarnings) {}

  void error(const SourceLocation& location, std::string message);
  /// A warning of `kind`; not kept when an `allow:` comment read by readAllowComments()
  /// names its kind on its line (nor are the notes that follow it).
  void warning(const SourceLocation& location, WarningKind kind, std::string message);
  /// `fileText`: the text of the file the note lies in, when it is another file
  /// (Diagnostic::fileText).
  void note(const SourceLocation& location, std::string message,
            std::shared_ptr<const std::string> fileText = nullptr);

  int errorCount() const { return errorCount_; }
  /// True once the error limit was reached; callers stop reporting (and parsing).
  bool full() const { return full_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// Warnings beyond the limit, not kept.
  int droppedWarnings() const { return droppedWarnings_; }
  /// The diagnostics, with a last note "N more warnings not shown" when some were dropped.
  std::vector<Diagnostic> take();

  /// Reads the `// allow: KIND[, KIND...] [why]` comments of `source`, the text of the file
  /// `fileName`: from then on a warning of a named kind located in that file on the
  /// comment's line (a comment after code), or on the next line (a comment alone on its
  /// line), is silenced. A name that is no kind is warned about (with "did you mean").
  /// Every front end calls it once, before parsing, so that `scl check`, `scl run`, the
  /// viewer and the language server silence the same warnings.
  void readAllowComments(std::string_view source, const FileName& fileName);
  /// Warnings silenced by `allow:` comments so far.
  int silencedWarnings() const { return silencedWarnings_; }

 private:
  void add(Severity severity, const SourceLocation& location, std::string message,
           std::shared_ptr<const std::string> fileText = nullptr,
           std::optional<WarningKind> kind = std::nullopt);
  /// Whether an `allow:` comment silences a warning of `kind` at `location`.
  bool allows(const SourceLocation& location, WarningKind kind) const;

  std::vector<Diagnostic> diagnostics_;
  int maxErrors_;
  int maxWarnings_;
  int errorCount_ = 0;
  int warningCount_ = 0;
  int droppedWarnings_ = 0;
  SourceLocation lastDropped_;
  bool full_ = false;
  /// The file the `allow:` comments are in, and the kinds each line allows.
  FileName allowFile_;
  std::map<int, std::vector<WarningKind>> allowed_;
  int silencedWarnings_ = 0;
  /// The last warning was silenced: the notes that explain it go too.
  bool silencing_ = false;
};

/// Optimal-string-alignment edit distance (insert, delete, substitute, swap adjacent),
/// case-insensitive.
int editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `name` by edit distance when it is close enough to be a likely
/// typo (distance <= max(1, length / 3)); empty otherwise.
std::string_view closestMatch(std::string_view name, std::span<const std::string_view> candidates);

/// "; did you mean 'x'?" for the closest candidate, or "" when none is close.
std::string didYouMean(std::string_view name, std::span<const std::string_view> candidates);

/// A token for a message: at most 40 bytes, non-printable bytes as '?'.
std::string quoteToken(std::string_view text);

}  // namespace scl
