// Writing outputs so that nothing the user has is ever lost.
//
// - A regular file (or a new one) is written to a temporary file beside it and renamed
//   over it (AtomicFile, base/files.h): a reader never sees half a file, and a failure
//   leaves the old file exactly as it was. An existing file keeps its permissions.
// - A symbolic link is written through: its target gets the new contents, the link stays.
// - A device or a FIFO (/dev/null, a pipe) is written directly, never replaced by a file.
// - Temporaries a killed process left behind for the same output are removed.
// - Several outputs of one command are written all or none: every one is staged before
//   any is committed, so a full disk writes none. They are then renamed in the order
//   added: a crash between two renames leaves the earlier ones new and the later ones old,
//   so the output that describes the others (a checkpoint) goes last.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/files.h"

namespace scl {

/// An output that could not be written; what() names the path and the reason. Every
/// pre-existing file is as it was.
using OutputError = FileError;

/// The outputs of one command, written together.
class OutputFiles {
 public:
  /// Adds `contents` to be written to `path` (the same path twice: the later wins).
  void add(std::filesystem::path path, std::string contents);
  /// Writes every output, or none, committing them in the order added (see the file
  /// comment). Throws OutputError.
  void write();

 private:
  struct Output {
    std::filesystem::path path;
    std::string contents;
  };
  std::vector<Output> outputs_;
};

/// One output written as OutputFiles does. Throws OutputError.
void writeFileAtomically(const std::filesystem::path& path, std::string_view contents);

/// Where writing `path` puts the bytes: symbolic links followed (also a dangling one, to
/// the file it names), `.` and `..` resolved, made absolute. For comparing an output with
/// the inputs and the other outputs.
std::filesystem::path resolvedOutputPath(const std::filesystem::path& path);

/// Whether two paths name the same file once resolved (the same inode when both exist:
/// a hard link is the same file).
bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace scl
