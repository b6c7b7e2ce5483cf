// Hot reload of an SCL script (tools/reload; no GUI, no threads).
//
// A HotReloader watches one script file through a FileWatcher and compiles each settled
// version. Only a version that compiles replaces the program; a failing one leaves the
// last good program in place and exposes its diagnostics until the next good save. A
// script that disappears keeps the last program and reports "watching: file missing"
// until it comes back. Driven by poll(now) so it is testable without threads.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/program.h"
#include "tools/reload/file_watcher.h"

namespace scl {

struct HotReloadDef {
  /// The script to watch.
  std::string path;
  /// The file must stay unchanged this long before it is compiled.
  std::chrono::milliseconds debounce{30};
  /// The character every version is compiled for (CompileOptions::character: it wins
  /// over the script's `scene character:`); nullptr: each version's own choice.
  std::shared_ptr<const Character> character = nullptr;
};

/// Where the watched script stands.
enum class ReloadStatus {
  Running,       ///< the current file compiled; its program is the current one
  CompileError,  ///< the current file does not compile; the last good program runs on
  FileMissing,   ///< nothing at the path; the last good program runs on
  NotAFile,      ///< the path is a directory (or a device, ...), not a script
  Unreadable,    ///< the file exists but cannot be read
};

/// What a poll (or the initial load) found.
enum class ReloadEvent {
  None,     ///< nothing new
  Loaded,   ///< a new program compiled; program() and generation() changed
  Failed,   ///< the new version does not compile (or cannot be read); old program kept
  Missing,  ///< the file disappeared; old program kept
  Resumed,  ///< the file reappeared unchanged; nothing to reload
};

class HotReloader {
 public:
  explicit HotReloader(HotReloadDef def);

  /// Reads and compiles the script now (at start, before any poll).
  ReloadEvent loadNow();
  /// Checks the file; compiles a version once it has settled (see FileWatcher).
  ReloadEvent poll(WatchClock::time_point now);

  /// The last program that compiled; nullptr when none has yet.
  const Program* program() const { return program_ ? &*program_ : nullptr; }
  /// Number of successful loads so far (0 before the first).
  int generation() const { return generation_; }
  ReloadStatus status() const { return status_; }
  /// Diagnostics of the last compile (errors when status() is CompileError; warnings of a
  /// good version otherwise).
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// The diagnostics rendered compiler-style against the source they came from.
  std::string renderedDiagnostics() const;
  /// One line for the viewer's status bar, e.g. "watching: file missing (walk.scl)".
  std::string statusLine() const;
  /// The source of the current program.
  const std::string& programSource() const { return programSource_; }
  const std::string& path() const { return watcher_.path(); }
  /// True while a change has been seen but not yet compiled (for tests).
  bool changePending() const { return watcher_.changePending(); }

 private:
  ReloadEvent apply(const FileSnapshot& snapshot);

  FileWatcher watcher_;
  std::shared_ptr<const Character> character_;
  std::optional<Program> program_;
  std::string programSource_;
  int generation_ = 0;
  ReloadStatus status_ = ReloadStatus::FileMissing;
  /// What the path was at the last settled look (to word the status line).
  FileKind kind_ = FileKind::Missing;
  std::vector<Diagnostic> diagnostics_;
  /// The source the diagnostics refer to.
  std::string diagnosticsSource_;
};

}  // namespace scl
