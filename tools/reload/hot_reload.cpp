#include "tools/reload/hot_reload.h"

#include <utility>

#include "scl/compile.h"
#include "scl/lexer.h"

namespace scl {

HotReloader::HotReloader(HotReloadDef def)
    : watcher_(std::move(def.path), FileWatcherDef{def.debounce}),
      character_(std::move(def.character)) {}

ReloadEvent HotReloader::loadNow() { return apply(watcher_.readNow()); }

ReloadEvent HotReloader::poll(WatchClock::time_point now) {
  std::optional<FileSnapshot> settled = watcher_.poll(now);
  return settled ? apply(*settled) : ReloadEvent::None;
}

ReloadEvent HotReloader::apply(const FileSnapshot& snapshot) {
  kind_ = snapshot.kind;
  switch (snapshot.kind) {
    case FileKind::Missing:
      status_ = ReloadStatus::FileMissing;
      return ReloadEvent::Missing;
    case FileKind::Directory:
    case FileKind::Other:
      status_ = ReloadStatus::NotAFile;
      return ReloadEvent::Failed;
    case FileKind::Unreadable:
      status_ = ReloadStatus::Unreadable;
      return ReloadEvent::Failed;
    case FileKind::Regular:
      break;
  }
  // Back after a disappearance with the very text that is running: just resume.
  if (status_ == ReloadStatus::FileMissing && program_ && snapshot.content == programSource_) {
    status_ = ReloadStatus::Running;
    return ReloadEvent::Resumed;
  }
  // As every reader does (tools/cli.cpp's readInputFile): a file of CR-only lines would
  // read as one line.
  if (hasCrOnlyLineEndings(snapshot.content)) {
    diagnostics_ = {{Severity::Error, SourceLocation{FileName(path()), 0, 0},
                     "the script has CR-only line endings (classic Mac OS); save it with LF "
                     "(or CRLF) line endings"}};
    diagnosticsSource_ = snapshot.content;
    status_ = ReloadStatus::CompileError;
    return ReloadEvent::Failed;
  }
  CompileOptions options;
  options.character = character_;
  CompileResult result = compile(snapshot.content, path(), options);
  diagnostics_ = std::move(result.diagnostics);
  diagnosticsSource_ = snapshot.content;
  if (!result.program) {
    status_ = ReloadStatus::CompileError;
    return ReloadEvent::Failed;
  }
  program_ = std::move(result.program);
  programSource_ = snapshot.content;
  ++generation_;
  status_ = ReloadStatus::Running;
  return ReloadEvent::Loaded;
}

std::string HotReloader::renderedDiagnostics() const {
  return renderDiagnostics(diagnostics_, diagnosticsSource_);
}

std::string HotReloader::statusLine() const {
  switch (status_) {
    case ReloadStatus::Running:
      return "watching " + path();
    case ReloadStatus::CompileError:
      return program_ ? path() + " does not compile; running the last good version"
                      : path() + " does not compile";
    case ReloadStatus::FileMissing:
      return "watching: file missing (" + path() + ")";
    case ReloadStatus::NotAFile:
      return path() + (kind_ == FileKind::Directory ? ": is a directory, not a script"
                                                    : ": is not a regular file");
    case ReloadStatus::Unreadable:
      return path() + ": cannot read file";
  }
  return {};
}

}  // namespace scl
