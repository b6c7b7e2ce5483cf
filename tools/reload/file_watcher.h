// Watching one file for changes that have settled (tools/reload; no GUI, no threads).
//
// Driven by poll(now): each poll takes a snapshot of the path (stat + content) and
// reports a snapshot only once the file has stayed the same for the debounce interval,
// so editors that write in chunks, or save through a temporary file and a rename (the
// path briefly missing), produce one report of the finished file.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace scl {

using WatchClock = std::chrono::steady_clock;

/// What the watched path is.
enum class FileKind {
  Missing,     ///< nothing at the path
  Regular,     ///< a regular file whose content was read
  Directory,   ///< a directory (not a script)
  Other,       ///< a device, socket, ...
  Unreadable,  ///< exists, but could not be read
};

/// The state of the path at one poll.
struct FileSnapshot {
  FileKind kind = FileKind::Missing;
  /// Device and inode: a rename over the path gives a new inode.
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  /// Size in bytes and modification time in nanoseconds since the epoch.
  std::uint64_t size = 0;
  std::int64_t modifiedNs = 0;
  /// The whole file (Regular only), a UTF-8 byte-order mark dropped. Compared too,
  /// because the modification time may not change between two quick writes of the same
  /// size.
  std::string content;
  bool operator==(const FileSnapshot&) const = default;
};

/// Reads a snapshot of `path` now.
FileSnapshot takeSnapshot(const std::string& path);

struct FileWatcherDef {
  /// The file must stay unchanged this long before it is reported.
  std::chrono::milliseconds debounce{30};
};

class FileWatcher {
 public:
  explicit FileWatcher(std::string path, FileWatcherDef def = {});

  /// Takes a snapshot now and makes it the last reported one (for the initial load).
  const FileSnapshot& readNow();

  /// Takes a snapshot; returns it when it differs from the last reported one and has been
  /// the same for at least the debounce interval of `now`s, nullopt otherwise.
  std::optional<FileSnapshot> poll(WatchClock::time_point now);

  const std::string& path() const { return path_; }
  /// The last reported snapshot.
  const FileSnapshot& reported() const { return reported_; }
  /// True while a change has been seen but has not yet settled.
  bool changePending() const { return pending_.has_value(); }

 private:
  std::string path_;
  FileWatcherDef def_;
  FileSnapshot reported_;
  /// A changed snapshot waiting to settle, and when it was first seen in that state.
  std::optional<FileSnapshot> pending_;
  WatchClock::time_point pendingSince_{};
};

}  // namespace scl
