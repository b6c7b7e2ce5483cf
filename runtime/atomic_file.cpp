#include "runtime/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace scl {

void writeFileAtomically(const std::filesystem::path& path, std::string_view contents) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& reason) {
    throw std::runtime_error("cannot write '" + path.string() + "': " + reason);
  };
  fs::path directory = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code error;
  if (!fs::is_directory(directory, error))
    fail("directory '" + directory.string() + "' does not exist");
  if (fs::is_directory(path, error)) fail("it is a directory");

  // A unique temporary name beside the target (same file system, so rename is atomic).
  std::string name = ".";
  name += path.filename().string();
  name += ".tmpXXXXXX";  // (built step by step: GCC 12 warns falsely on chained operator+)
  std::string pattern = (directory / name).string();
  int descriptor = mkstemp(pattern.data());
  if (descriptor < 0) fail(std::strerror(errno));
  const std::string temporary = pattern;
  auto cleanupAndFail = [&](const std::string& reason) {
    std::remove(temporary.c_str());
    fail(reason);
  };
  size_t written = 0;
  while (written < contents.size()) {
    ssize_t n = ::write(descriptor, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string reason = std::strerror(errno);
      ::close(descriptor);
      cleanupAndFail(reason);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(descriptor) != 0 || ::close(descriptor) != 0) cleanupAndFail(std::strerror(errno));
  // mkstemp creates 0600; give the file the usual permissions.
  fs::permissions(temporary,
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                      fs::perms::others_read,
                  error);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) cleanupAndFail(std::strerror(errno));
}

}  // namespace scl
