// Reading a whole input file and writing a file atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace scl {

/// A file that could not be written; what() names the path and the reason.
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The largest input file read unless the caller says otherwise (bytes): far above any
/// script, character, objective or samples file, far below what would exhaust memory.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{64} << 20;

/// Why a file was not read.
enum class FileReadFailure { None, Missing, Directory, NotRegular, TooLarge, Unreadable };

/// A whole file's bytes, or why they could not be read.
struct FileRead {
  /// The file's bytes exactly (a byte-order mark included), empty on failure.
  std::string text;
  /// None when `text` is the file.
  FileReadFailure failure = FileReadFailure::None;
  /// Why not, to follow the path in a message: "does not exist", "is a directory, not a
  /// file", "is not a regular file", "is larger than 64 MiB ...", "cannot be read: ...".
  std::string reason;
  /// The message naming the path: "'PATH' " + reason; empty on success.
  std::string error;

  explicit operator bool() const { return failure == FileReadFailure::None; }
};

/// Reads all of `path`. Refuses, without blocking, a directory, a device, a FIFO or a
/// socket (/dev/stdin or a pipe could block or never end) and a file larger than
/// `maxBytes`.
FileRead readWholeFile(const std::filesystem::path& path,
                       std::uintmax_t maxBytes = kMaxInputFileBytes);

/// A UTF-8 byte-order mark, which some Windows editors write first.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

/// Removes a leading byte-order mark from `text`; whether there was one.
bool stripByteOrderMark(std::string& text);

/// Writes all of `contents` to an open descriptor (again after a signal interrupts);
/// false with errno set when a write fails.
bool writeAll(int descriptor, std::string_view contents);

/// A regular file written beside its target and renamed over it by commit(): a reader
/// never sees half a file, and until commit() succeeds the target is exactly as it was.
/// The temporary is named ".NAME.tmp.PID.XXXXXX"; those a killed process left behind
/// for the same target are removed. The new file keeps an existing target's permissions.
class AtomicFile {
 public:
  /// Writes `contents` to a temporary in `target`'s folder and flushes it to the disk.
  /// Throws FileError ("cannot write 'TARGET': reason"), leaving nothing behind.
  AtomicFile(std::filesystem::path target, std::string_view contents);
  /// Removes the temporary unless it was committed.
  ~AtomicFile();
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Renames the temporary over the target. Throws FileError.
  void commit();

 private:
  void abandon() noexcept;

  std::filesystem::path target_;
  std::filesystem::path temporary_;  // empty once committed or abandoned
};

}  // namespace scl
