#include "base/files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace scl {

namespace fs = std::filesystem;

namespace {

std::string lastError() { return std::strerror(errno); }

FileRead failed(const fs::path& path, FileReadFailure failure, std::string reason) {
  FileRead read;
  read.failure = failure;
  read.error = "'" + path.string() + "' " + reason;
  read.reason = std::move(reason);
  return read;
}

// "64 MiB" for a limit of whole mebibytes, else the bytes.
std::string sizeText(std::uintmax_t bytes) {
  constexpr std::uintmax_t kMiB = std::uintmax_t{1} << 20;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Closes a descriptor on every way out of a scope.
class Descriptor {
 public:
  explicit Descriptor(int descriptor) : descriptor_(descriptor) {}
  ~Descriptor() {
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return descriptor_; }
  // Closes now; false with errno set when closing failed.
  bool close() { return ::close(std::exchange(descriptor_, -1)) == 0; }

 private:
  int descriptor_;
};

// The prefix of a target's temporaries: ".NAME.tmp".
std::string temporaryPrefix(const fs::path& target) {
  return "." + target.filename().string() + ".tmp";
}

// Whether the process that made a temporary is gone. Names are ".NAME.tmp.PID.XXXXXX";
// an older scl wrote ".NAME.tmpXXXXXX" without its pid: stale after a minute untouched.
bool isStale(const fs::path& temporary, std::string_view afterPrefix) {
  if (!afterPrefix.empty() && afterPrefix.front() == '.') {
    const std::string_view rest = afterPrefix.substr(1);
    const size_t dot = rest.find('.');
    const std::string pidText(rest.substr(0, dot));
    if (dot == std::string_view::npos || pidText.empty() ||
        pidText.find_first_not_of("0123456789") != std::string::npos)
      return false;
    const long pid = std::strtol(pidText.c_str(), nullptr, 10);
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
  }
  std::error_code error;
  const auto modified = fs::last_write_time(temporary, error);
  return !error && fs::file_time_type::clock::now() - modified > std::chrono::minutes(1);
}

// Removes the temporaries of `target` that a killed process left behind.
void removeStaleTemporaries(const fs::path& target) {
  const std::string prefix = temporaryPrefix(target);
  std::error_code error;
  for (fs::directory_iterator it(target.parent_path(), error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !it->is_regular_file(error)) continue;
    if (isStale(it->path(), std::string_view(name).substr(prefix.size())))
      fs::remove(it->path(), error);
  }
}

[[noreturn]] void failWrite(const fs::path& path, const std::string& reason) {
  throw FileError("cannot write '" + path.string() + "': " + reason);
}

}  // namespace

FileRead readWholeFile(const fs::path& path, std::uintmax_t maxBytes) {
  // O_NONBLOCK: opening a FIFO nobody writes returns at once (it is refused below).
  Descriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      return failed(path, FileReadFailure::Missing, "does not exist");
    return failed(path, FileReadFailure::Unreadable, "cannot be read: " + lastError());
  }
  struct stat info {};
  if (::fstat(file.get(), &info) != 0)
    return failed(path, FileReadFailure::Unreadable, "cannot be read: " + lastError());
  if (S_ISDIR(info.st_mode))
    return failed(path, FileReadFailure::Directory, "is a directory, not a file");
  if (!S_ISREG(info.st_mode))
    return failed(path, FileReadFailure::NotRegular, "is not a regular file");
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  const std::string tooLarge = "is larger than " + sizeText(maxBytes) +
                               " (the most an input "
                               "file may have)";
  if (size > maxBytes) return failed(path, FileReadFailure::TooLarge, tooLarge);
  FileRead read;
  read.text.resize(static_cast<size_t>(size));
  size_t done = 0;
  // Until end of file: a file growing while read is read as far as the limit.
  while (true) {
    if (done == read.text.size()) {
      if (read.text.size() > maxBytes) return failed(path, FileReadFailure::TooLarge, tooLarge);
      read.text.resize(std::max<size_t>(2 * done, 4096));
    }
    const ssize_t n = ::read(file.get(), read.text.data() + done, read.text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return failed(path, FileReadFailure::Unreadable, "cannot be read: " + lastError());
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  if (done > maxBytes) return failed(path, FileReadFailure::TooLarge, tooLarge);
  read.text.resize(done);
  return read;
}

bool writeAll(int descriptor, std::string_view contents) {
  size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(descriptor, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

bool stripByteOrderMark(std::string& text) {
  if (!text.starts_with(kByteOrderMark)) return false;
  text.erase(0, kByteOrderMark.size());
  return true;
}

AtomicFile::AtomicFile(fs::path target, std::string_view contents) : target_(std::move(target)) {
  removeStaleTemporaries(target_);
  std::string pattern = (target_.parent_path() / temporaryPrefix(target_)).string();
  pattern += '.' + std::to_string(::getpid()) + ".XXXXXX";
  Descriptor file(::mkstemp(pattern.data()));
  if (file.get() < 0) failWrite(target_, lastError());
  temporary_ = pattern;
  const bool written = writeAll(file.get(), contents) && ::fsync(file.get()) == 0;
  const std::string reason = lastError();
  if (!written) {
    abandon();
    failWrite(target_, reason);
  }
  if (!file.close()) {
    const std::string closeReason = lastError();
    abandon();
    failWrite(target_, closeReason);
  }
  // The new file gets the old one's permissions, or the usual ones (mkstemp makes 0600).
  std::error_code error;
  const fs::file_status old = fs::status(target_, error);
  const fs::perms perms = fs::exists(old) ? old.permissions()
                                          : fs::perms::owner_read | fs::perms::owner_write |
                                                fs::perms::group_read | fs::perms::others_read;
  fs::permissions(temporary_, perms, error);
}

AtomicFile::~AtomicFile() { abandon(); }

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : target_(std::move(other.target_)), temporary_(std::exchange(other.temporary_, {})) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    abandon();
    target_ = std::move(other.target_);
    temporary_ = std::exchange(other.temporary_, {});
  }
  return *this;
}

void AtomicFile::commit() {
  if (temporary_.empty()) failWrite(target_, "nothing staged (already committed)");
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0) failWrite(target_, lastError());
  temporary_.clear();
}

void AtomicFile::abandon() noexcept {
  if (temporary_.empty()) return;
  std::error_code ignored;
  fs::remove(temporary_, ignored);
  temporary_.clear();
}

}  // namespace scl
