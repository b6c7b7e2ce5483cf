// Output files are written to a temporary file beside the target and renamed over it, so
// a reader never sees half a file and a failed run leaves nothing (or the old file).
#pragma once

#include <filesystem>
#include <string_view>

namespace scl {

/// Writes `contents` to `path` atomically. Throws std::runtime_error with a one-line
/// message naming the path and the reason when it cannot (missing directory, no
/// permission, disk full); no partial file is left behind.
void writeFileAtomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace scl
