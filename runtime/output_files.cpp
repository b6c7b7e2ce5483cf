#include "runtime/output_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace scl {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& reason) {
  throw OutputError("cannot write '" + path.string() + "': " + reason);
}

std::string lastError() { return std::strerror(errno); }

// Writes all of `contents` to an open descriptor; false with errno set on failure.
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

// The prefix of this output's temporaries: ".NAME.tmp.".
std::string temporaryPrefix(const fs::path& target) {
  std::string prefix = ".";
  prefix += target.filename().string();
  prefix += ".tmp";
  return prefix;
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
  const fs::path directory = target.parent_path();
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !it->is_regular_file(error)) continue;
    if (isStale(it->path(), std::string_view(name).substr(prefix.size())))
      fs::remove(it->path(), error);
  }
}

// An output staged for writing: a temporary beside a regular target, or a target written
// directly (a device or a FIFO).
struct Staged {
  fs::path target;
  fs::path temporary;  // empty: write `contents` directly
  std::string_view contents;
};

Staged stageRegular(const fs::path& target, std::string_view contents) {
  removeStaleTemporaries(target);
  std::string pattern = (target.parent_path() / temporaryPrefix(target)).string();
  pattern += '.';
  pattern += std::to_string(::getpid());
  pattern += ".XXXXXX";
  const int descriptor = ::mkstemp(pattern.data());
  if (descriptor < 0) fail(target, lastError());
  const fs::path temporary = pattern;
  auto abandon = [&](const std::string& reason) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    fail(target, reason);
  };
  if (!writeAll(descriptor, contents)) {
    const std::string reason = lastError();
    ::close(descriptor);
    abandon(reason);
  }
  if (::fsync(descriptor) != 0) {
    const std::string reason = lastError();
    ::close(descriptor);
    abandon(reason);
  }
  if (::close(descriptor) != 0) abandon(lastError());
  // The new file gets the old one's permissions, or the usual ones (mkstemp makes 0600).
  std::error_code error;
  const fs::file_status old = fs::status(target, error);
  const fs::perms perms = fs::exists(old) ? old.permissions()
                                          : fs::perms::owner_read | fs::perms::owner_write |
                                                fs::perms::group_read | fs::perms::others_read;
  fs::permissions(temporary, perms, error);
  return {target, temporary, contents};
}

// A device or FIFO: opened for writing as it is. A FIFO nobody reads is an error, not a
// hang.
void writeDirectly(const fs::path& target, std::string_view contents) {
  const int descriptor = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (descriptor < 0) {
    if (errno == ENXIO) fail(target, "it is a FIFO and no process is reading it");
    fail(target, lastError());
  }
  const int flags = ::fcntl(descriptor, F_GETFL);
  if (flags >= 0) ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK);
  const bool written = writeAll(descriptor, contents);
  const std::string reason = lastError();
  const bool closed = ::close(descriptor) == 0;
  if (!written) fail(target, reason);
  if (!closed) fail(target, lastError());
}

}  // namespace

fs::path resolvedOutputPath(const fs::path& path) {
  std::error_code error;
  fs::path current = fs::absolute(path, error);
  if (error) current = path;
  // Follow symbolic links by hand: a dangling link names the file writing will create.
  for (int hops = 0; hops < 40; ++hops) {
    const fs::file_status status = fs::symlink_status(current, error);
    if (error || !fs::is_symlink(status)) break;
    const fs::path link = fs::read_symlink(current, error);
    if (error) break;
    current = link.is_absolute() ? link : current.parent_path() / link;
  }
  const fs::path resolved = fs::weakly_canonical(current, error);
  return error ? current.lexically_normal() : resolved;
}

bool sameFile(const fs::path& a, const fs::path& b) {
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) {
    const bool same = fs::equivalent(a, b, error);
    if (!error) return same;
  }
  return resolvedOutputPath(a) == resolvedOutputPath(b);
}

void OutputFiles::add(fs::path path, std::string contents) {
  for (Output& output : outputs_) {
    if (output.path == path) {
      output.contents = std::move(contents);
      return;
    }
  }
  outputs_.push_back({std::move(path), std::move(contents)});
}

void OutputFiles::write() {
  std::vector<Staged> staged;
  auto abandonAll = [&] {
    std::error_code ignored;
    for (const Staged& output : staged)
      if (!output.temporary.empty()) fs::remove(output.temporary, ignored);
  };
  try {
    // 1. Every regular output to its temporary; the checks before anything is written.
    std::vector<Staged> direct;
    for (const Output& output : outputs_) {
      const fs::path target = resolvedOutputPath(output.path);
      std::error_code error;
      const fs::file_status status = fs::status(target, error);
      if (fs::is_directory(status)) fail(output.path, "it is a directory");
      if (!fs::is_directory(target.parent_path(), error))
        fail(output.path, "directory '" + target.parent_path().string() + "' does not exist");
      if (fs::exists(status) && !fs::is_regular_file(status))
        direct.push_back({target, {}, output.contents});
      else
        staged.push_back(stageRegular(target, output.contents));
    }
    // 2. Devices and FIFOs, which cannot be undone: only once every file is staged.
    for (const Staged& output : direct) writeDirectly(output.target, output.contents);
    // 3. Commit: each temporary renamed over its target.
    for (Staged& output : staged) {
      if (std::rename(output.temporary.c_str(), output.target.c_str()) != 0)
        fail(output.target, lastError());
      output.temporary.clear();
    }
  } catch (...) {
    abandonAll();
    throw;
  }
}

void writeFileAtomically(const fs::path& path, std::string_view contents) {
  OutputFiles outputs;
  outputs.add(path, std::string(contents));
  outputs.write();
}

}  // namespace scl
