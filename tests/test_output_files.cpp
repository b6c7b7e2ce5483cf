// runtime/output_files.h: outputs are written so that nothing the user has is lost
// (docs/cli.md, "Nothing the user made is lost"): regular files replaced whole with their
// permissions kept, symbolic links written through, devices and FIFOs written directly
// (a FIFO nobody reads is an error, not a hang), several outputs all or none, stale
// temporaries of killed processes removed; and when two paths are the same file.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/output_files.h"
#include "tests/cli_support.h"

using namespace scl;
using scl::testing::isCharacterDevice;
using scl::testing::readText;
using scl::testing::TempDir;
using scl::testing::writeText;
namespace fs = std::filesystem;

namespace {

fs::perms permissionsOf(const fs::path& path) {
  return fs::status(path).permissions() & fs::perms::mask;
}

// Contents larger than a pipe's buffer (64 KiB), so that a FIFO's writer has to wait for
// its reader.
std::string largeContents() {
  std::string text;
  for (int i = 0; text.size() < 200'000; ++i) text += "row " + std::to_string(i) + "\n";
  return text;
}

// The pid of a process that has ended (and been reaped): no process has it now.
pid_t deadProcessId() {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return child;
}

// Reads a FIFO in a thread of its own: opened (non-blocking) before the writer comes, so
// that a writer finds a reader; drained until the writer has closed it.
class FifoReader {
 public:
  explicit FifoReader(const fs::path& fifo)
      : descriptor_(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {
    REQUIRE(descriptor_ >= 0);
    thread_ = std::thread([this] { drain(); });
  }
  ~FifoReader() {
    writerDone_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(descriptor_);
  }
  FifoReader(const FifoReader&) = delete;
  FifoReader& operator=(const FifoReader&) = delete;

  // Everything read, once the writer is done (writeFileAtomically returned).
  std::string finish() {
    writerDone_ = true;
    thread_.join();
    return received_;
  }

 private:
  void drain() {
    // Before a writer opens the FIFO and after it closed it, read() returns 0; only once
    // the writer is done does 0 mean the end. A safety net ends the loop in any case.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    char buffer[65536];
    while (std::chrono::steady_clock::now() < deadline) {
      const bool done = writerDone_.load();
      const ssize_t n = ::read(descriptor_, buffer, sizeof buffer);
      if (n > 0) {
        received_.append(buffer, static_cast<size_t>(n));
        continue;
      }
      if (n == 0 && done) return;
      if (n < 0 && errno != EAGAIN && errno != EINTR) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  int descriptor_;
  std::atomic<bool> writerDone_{false};
  std::string received_;
  std::thread thread_;
};

}  // namespace

TEST_CASE("a regular file is replaced whole and keeps its permissions", "[output_files]") {
  TempDir dir;
  const fs::path file = dir.path() / "out.csv";
  writeText(file, "old contents that are longer than the new ones\n");
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  REQUIRE(permissionsOf(file) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));  // 0640

  writeFileAtomically(file, "new\n");
  CHECK(readText(file) == "new\n");
  CHECK(fs::is_regular_file(fs::symlink_status(file)));
  CHECK(permissionsOf(file) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(dir.entries() == std::vector<std::string>{"out.csv"});  // no temporary left
}

TEST_CASE("a new file is created with the usual permissions", "[output_files]") {
  TempDir dir;
  const fs::path file = dir.path() / "new.svg";
  writeFileAtomically(file, "<svg/>\n");
  CHECK(readText(file) == "<svg/>\n");
  CHECK(permissionsOf(file) == (fs::perms::owner_read | fs::perms::owner_write |
                                fs::perms::group_read | fs::perms::others_read));  // 0644
  CHECK(dir.entries() == std::vector<std::string>{"new.svg"});
}

TEST_CASE("a symbolic link is written through to its target", "[output_files]") {
  TempDir dir;
  fs::create_directory(dir.path() / "data");
  const fs::path target = dir.path() / "data" / "run.csv";
  const fs::path link = dir.path() / "latest.csv";

  SECTION("an existing target gets the contents, the link stays a link") {
    writeText(target, "old\n");
    fs::create_symlink("data/run.csv", link);
    writeFileAtomically(link, "new\n");
    REQUIRE(fs::is_symlink(fs::symlink_status(link)));
    CHECK(fs::read_symlink(link) == "data/run.csv");
    CHECK(readText(target) == "new\n");
    CHECK(fs::is_regular_file(fs::symlink_status(target)));
  }
  SECTION("a dangling link creates its target") {
    fs::create_symlink(target, link);  // absolute, to a file that does not exist yet
    writeFileAtomically(link, "created\n");
    REQUIRE(fs::is_symlink(fs::symlink_status(link)));
    CHECK(fs::read_symlink(link) == target);
    REQUIRE(fs::is_regular_file(fs::symlink_status(target)));
    CHECK(readText(target) == "created\n");
  }
  // No temporary beside the link or the target.
  CHECK(dir.entries() == std::vector<std::string>{"data", "latest.csv"});
  std::vector<std::string> data;
  for (const auto& entry : fs::directory_iterator(dir.path() / "data"))
    data.push_back(entry.path().filename().string());
  CHECK(data == std::vector<std::string>{"run.csv"});
}

TEST_CASE("/dev/null is written, never replaced", "[output_files][devices]") {
  if (!isCharacterDevice("/dev/null")) {
    WARN("/dev/null is not a character device here");
    return;
  }
  writeFileAtomically("/dev/null", "nothing to keep\n");
  CHECK(isCharacterDevice("/dev/null"));
  OutputFiles outputs;
  outputs.add("/dev/null", "again\n");
  outputs.write();
  CHECK(isCharacterDevice("/dev/null"));
}

TEST_CASE("a FIFO with a reader receives the contents", "[output_files]") {
  TempDir dir;
  const fs::path fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string contents = largeContents();
  FifoReader reader(fifo);
  writeFileAtomically(fifo, contents);
  const std::string received = reader.finish();
  CHECK(received.size() == contents.size());
  CHECK(received == contents);
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));  // still the FIFO, not a file in its place
  CHECK(dir.entries() == std::vector<std::string>{"pipe"});
}

TEST_CASE("a FIFO nobody reads is an error at once, not a hang", "[output_files]") {
  TempDir dir;
  const fs::path fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);

  // A watchdog so that a writer blocking in open() cannot hang the suite: after a long
  // grace period it opens the FIFO for reading, which lets the writer through.
  std::mutex mutex;
  std::condition_variable returned;
  bool done = false, hung = false;
  std::thread watchdog([&] {
    std::unique_lock lock(mutex);
    if (returned.wait_for(lock, std::chrono::seconds(60), [&] { return done; })) return;
    hung = true;
    lock.unlock();
    const int descriptor = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    std::this_thread::sleep_for(std::chrono::seconds(5));
    if (descriptor >= 0) ::close(descriptor);
  });
  std::string message;
  bool threw = false;
  try {
    writeFileAtomically(fifo, "nobody listens\n");
  } catch (const OutputError& error) {
    threw = true;
    message = error.what();
  }
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  returned.notify_all();
  watchdog.join();
  CHECK_FALSE(hung);
  REQUIRE(threw);
  INFO(message);
  CHECK(message.find(fifo.string()) != std::string::npos);
  CHECK(message.find("FIFO") != std::string::npos);
  CHECK(message.find("no process is reading") != std::string::npos);
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));
  CHECK(dir.entries() == std::vector<std::string>{"pipe"});
}

TEST_CASE("several outputs are written all or none", "[output_files][devices]") {
  if (!isCharacterDevice("/dev/full")) {
    WARN("/dev/full is not a character device here");
    return;
  }
  TempDir dir;
  const fs::path kept = dir.path() / "kept.csv";
  const std::string before = "time,x\n0,1\n";
  writeText(kept, before);

  SECTION("the device fails after the file was staged") {
    OutputFiles outputs;
    outputs.add(kept, "time,x\n0,2\n");
    outputs.add("/dev/full", "does not fit\n");
    CHECK_THROWS_AS(outputs.write(), OutputError);
  }
  SECTION("the device comes first") {
    OutputFiles outputs;
    outputs.add("/dev/full", "does not fit\n");
    outputs.add(kept, "time,x\n0,2\n");
    CHECK_THROWS_AS(outputs.write(), OutputError);
  }
  CHECK(readText(kept) == before);
  CHECK(dir.entries() == std::vector<std::string>{"kept.csv"});  // no temporary left
  CHECK(isCharacterDevice("/dev/full"));
}

TEST_CASE("a failing output names itself and leaves no temporary", "[output_files]") {
  TempDir dir;
  const fs::path written = dir.path() / "a.csv";
  const fs::path missing = dir.path() / "no_such_dir" / "b.csv";
  writeText(written, "old a\n");
  OutputFiles outputs;
  outputs.add(written, "new a\n");
  outputs.add(missing, "b\n");
  try {
    outputs.write();
    FAIL("an output in a missing directory was written");
  } catch (const OutputError& error) {
    CHECK(std::string(error.what()).find(missing.string()) != std::string::npos);
  }
  CHECK(readText(written) == "old a\n");
  CHECK(dir.entries() == std::vector<std::string>{"a.csv"});
}

TEST_CASE("temporaries of killed processes are removed by the next write", "[output_files]") {
  TempDir dir;
  const fs::path output = dir.path() / "out.csv";
  const std::string dead = ".out.csv.tmp." + std::to_string(deadProcessId()) + ".abcdef";
  const std::string live = ".out.csv.tmp." + std::to_string(::getpid()) + ".abcdef";
  const std::string oldFormatStale = ".out.csv.tmpABCDEF";
  const std::string oldFormatRecent = ".out.csv.tmpGHIJKL";
  const std::string otherOutput = ".other.csv.tmp." + std::to_string(deadProcessId()) + ".abcdef";
  for (const std::string& name : {dead, live, oldFormatStale, oldFormatRecent, otherOutput})
    writeText(dir.path() / name, "half a file");
  // An older scl's temporary (no pid in its name) is stale once a minute untouched.
  fs::last_write_time(dir.path() / oldFormatStale,
                      fs::file_time_type::clock::now() - std::chrono::minutes(2));

  writeFileAtomically(output, "complete\n");
  CHECK(readText(output) == "complete\n");
  CHECK_FALSE(fs::exists(dir.path() / dead));
  CHECK_FALSE(fs::exists(dir.path() / oldFormatStale));
  CHECK(fs::exists(dir.path() / live));             // its process may still be writing it
  CHECK(fs::exists(dir.path() / oldFormatRecent));  // touched within the minute
  CHECK(fs::exists(dir.path() / otherOutput));      // another output's: not ours to remove
  std::vector<std::string> expected = {live, oldFormatRecent, otherOutput, "out.csv"};
  std::sort(expected.begin(), expected.end());
  CHECK(dir.entries() == expected);
}

TEST_CASE("the same file through '..', a symbolic link or a hard link", "[output_files]") {
  TempDir dir;
  fs::create_directory(dir.path() / "sub");
  const fs::path x = dir.path() / "x.scl";
  writeText(x, "{ }\n");
  fs::create_symlink("x.scl", dir.path() / "link.csv");
  fs::create_hard_link(x, dir.path() / "hard.csv");
  writeText(dir.path() / "other.scl", "{ }\n");

  CHECK(sameFile(dir.path() / "sub" / ".." / "x.scl", x));
  CHECK(sameFile(dir.path() / "." / "x.scl", x));
  CHECK(sameFile(dir.path() / "link.csv", x));
  CHECK(sameFile(x, dir.path() / "link.csv"));
  CHECK(sameFile(dir.path() / "hard.csv", x));
  CHECK_FALSE(sameFile(dir.path() / "other.scl", x));
  CHECK_FALSE(sameFile(dir.path() / "sub", x));
  // Files that do not exist yet compare by their resolved paths.
  CHECK(sameFile(dir.path() / "sub" / ".." / "new.csv", dir.path() / "new.csv"));
  CHECK_FALSE(sameFile(dir.path() / "new.csv", dir.path() / "new.svg"));
  // A dangling link is the file writing through it would create.
  fs::create_symlink("sub/later.csv", dir.path() / "dangling.csv");
  CHECK(sameFile(dir.path() / "dangling.csv", dir.path() / "sub" / "later.csv"));

  const fs::path resolved = resolvedOutputPath(dir.path() / "sub" / ".." / "link.csv");
  CHECK(resolved == fs::canonical(x));
  CHECK(resolved.is_absolute());
  CHECK(resolvedOutputPath(dir.path() / "dangling.csv") ==
        fs::canonical(dir.path()) / "sub" / "later.csv");
}
