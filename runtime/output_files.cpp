#include "runtime/output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace scl {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& reason) {
  throw OutputError("cannot write '" + path.string() + "': " + reason);
}

std::string lastError() { return std::strerror(errno); }

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
  // 1. Every regular output to its temporary (AtomicFile); the checks before anything is
  //    written. A failure drops the temporaries staged so far.
  std::vector<AtomicFile> staged;
  std::vector<std::pair<fs::path, std::string_view>> direct;
  for (const Output& output : outputs_) {
    const fs::path target = resolvedOutputPath(output.path);
    std::error_code error;
    const fs::file_status status = fs::status(target, error);
    if (fs::is_directory(status)) fail(output.path, "it is a directory");
    if (!fs::is_directory(target.parent_path(), error))
      fail(output.path, "directory '" + target.parent_path().string() + "' does not exist");
    if (fs::exists(status) && !fs::is_regular_file(status))
      direct.emplace_back(target, output.contents);
    else
      staged.emplace_back(target, output.contents);
  }
  // 2. Devices and FIFOs, which cannot be undone: only once every file is staged.
  for (const auto& [target, contents] : direct) writeDirectly(target, contents);
  // 3. Commit: each temporary renamed over its target.
  for (AtomicFile& output : staged) output.commit();
}

void writeFileAtomically(const fs::path& path, std::string_view contents) {
  OutputFiles outputs;
  outputs.add(path, std::string(contents));
  outputs.write();
}

}  // namespace scl
