#include "tools/reload/file_watcher.h"

#include <sys/stat.h>

#include <utility>

#include "base/files.h"

namespace scl {

FileSnapshot takeSnapshot(const std::string& path) {
  FileSnapshot snapshot;
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return snapshot;  // Missing
  snapshot.device = static_cast<std::uint64_t>(info.st_dev);
  snapshot.inode = static_cast<std::uint64_t>(info.st_ino);
  snapshot.size = static_cast<std::uint64_t>(info.st_size);
  snapshot.modifiedNs =
      static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
  if (S_ISDIR(info.st_mode)) {
    snapshot.kind = FileKind::Directory;
    return snapshot;
  }
  if (!S_ISREG(info.st_mode)) {
    snapshot.kind = FileKind::Other;
    return snapshot;
  }
  FileRead read = readWholeFile(path);
  if (!read) {
    snapshot.kind = FileKind::Unreadable;
    return snapshot;
  }
  snapshot.kind = FileKind::Regular;
  snapshot.content = std::move(read.text);
  // A UTF-8 byte-order mark is no content, as for every input file (tools/cli.h,
  // readInputFile): the viewer compiles what `scl check` and `scl run` compile.
  stripByteOrderMark(snapshot.content);
  return snapshot;
}

FileWatcher::FileWatcher(std::string path, FileWatcherDef def)
    : path_(std::move(path)), def_(def) {}

const FileSnapshot& FileWatcher::readNow() {
  reported_ = takeSnapshot(path_);
  pending_.reset();
  return reported_;
}

std::optional<FileSnapshot> FileWatcher::poll(WatchClock::time_point now) {
  FileSnapshot current = takeSnapshot(path_);
  if (current == reported_) {
    pending_.reset();  // changed and changed back before settling: nothing to report
    return std::nullopt;
  }
  if (!pending_ || !(*pending_ == current)) {
    pending_ = std::move(current);
    pendingSince_ = now;
    if (def_.debounce.count() > 0) return std::nullopt;
  }
  if (now - pendingSince_ < def_.debounce) return std::nullopt;
  reported_ = std::move(*pending_);
  pending_.reset();
  return reported_;
}

}  // namespace scl
