// Running the built `scl` program from the tests: a private temporary directory, reading
// and writing files, and running `scl ARGS` with its exit code, stdout and stderr
// captured. Shared by the tests of the command line (test_cli_*.cpp).
#pragma once

#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace scl::testing {

namespace fs = std::filesystem;

/// The `scl` program of this build.
inline const std::string kScl = SCL_BINARY_DIR "/tools/scl";
/// The small scripts of tests/cli/.
inline const std::string kCliScripts = SCL_SOURCE_DIR "/tests/cli/";

/// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "scl_cli_test_XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  /// Names of the files in the directory, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

/// The bytes of a file ("" when it cannot be read).
inline std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Writes `contents` to `path` byte for byte (the test fails when it cannot).
inline void writeText(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
  out.close();
  REQUIRE(out.good());
}

/// Whether `path` (followed through links) is a character device: /dev/null, /dev/full.
inline bool isCharacterDevice(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISCHR(status.st_mode);
}

/// `text` quoted for /bin/sh.
inline std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

/// Command-line words joined with spaces (not quoted: for paths without spaces).
inline std::string joined(std::initializer_list<std::string_view> words) {
  std::string text;
  for (std::string_view word : words) {
    if (!text.empty()) text += ' ';
    text += word;
  }
  return text;
}

/// The `scl ...` lines of a docs page's code blocks, without `scl ` and without a trailing
/// `  # comment`: the commands the page shows, for a test to run as it says.
inline std::vector<std::string> sclCommandsOf(const std::string& page) {
  std::istringstream lines(page);
  std::string line;
  std::vector<std::string> commands;
  bool inCode = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("```")) inCode = !inCode;
    if (!inCode || !line.starts_with("scl ")) continue;
    const size_t comment = line.find("  #");
    commands.push_back(
        line.substr(4, comment == std::string::npos ? std::string::npos : comment - 4));
  }
  return commands;
}

struct Outcome {
  /// The exit status; 128 + N when the process was ended by signal N (as a shell says).
  int exitCode = -1;
  std::string out, err;
};

struct RunOptions {
  /// Where standard output goes (e.g. "/dev/full"); empty: captured into Outcome::out.
  std::string stdoutPath;
  /// The directory the program runs in; empty: the test's.
  std::string workingDirectory;
  /// Environment variables removed for the program (e.g. DISPLAY for `scl view`).
  std::vector<std::string> unsetEnvironment;
  /// A safety net, not a measurement: a program still running after this long is killed
  /// and the test fails (so that a broken build cannot hang the suite).
  std::chrono::seconds timeout{900};
  /// The largest file the program may write, bytes (RLIMIT_FSIZE; SIGXFSZ ignored, so a
  /// larger write fails with EFBIG as on a full disk); 0: no limit.
  rlim_t fileSizeLimit = 0;
};

/// While it lives, the processes this one starts inherit a file size limit of `bytes`
/// (0: none) and ignore SIGXFSZ; this process's own limit and handler are restored after.
class ChildFileSizeLimit {
 public:
  explicit ChildFileSizeLimit(rlim_t bytes) : active_(bytes > 0) {
    if (!active_) return;
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved_) == 0);
    rlimit limited = saved_;
    limited.rlim_cur = std::min(bytes, saved_.rlim_max);
    savedHandler_ = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~ChildFileSizeLimit() {
    if (!active_) return;
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, savedHandler_);
  }
  ChildFileSizeLimit(const ChildFileSizeLimit&) = delete;
  ChildFileSizeLimit& operator=(const ChildFileSizeLimit&) = delete;

 private:
  bool active_;
  rlimit saved_{};
  void (*savedHandler_)(int) = SIG_DFL;
};

/// Waits for `pid`; kills it and fails the test when it runs longer than `timeout`.
/// Returns the wait status.
inline int waitWithTimeout(pid_t pid, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    REQUIRE(done == 0);
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      FAIL("the program was still running after " << timeout.count() << " s; killed");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

/// Runs `scl ARGS` through /bin/sh (so ARGS may hold quoted words; the caller quotes paths
/// where needed) with stdout and stderr captured in files of a private directory.
inline Outcome runScl(const std::string& args, const RunOptions& options = {}) {
  TempDir capture;
  std::string command;
  if (!options.workingDirectory.empty())
    command += "cd " + shellQuote(options.workingDirectory) + " && ";
  command += "exec ";
  if (!options.unsetEnvironment.empty()) {
    command += "env";
    for (const std::string& name : options.unsetEnvironment) command += " -u " + name;
    command += ' ';
  }
  const std::string out = options.stdoutPath.empty() ? capture / "out" : options.stdoutPath;
  command += kScl + " " + args + " >" + shellQuote(out) + " 2>" + shellQuote(capture / "err");
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  {
    const ChildFileSizeLimit limit(options.fileSizeLimit);
    REQUIRE(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) ==
            0);
  }
  const int status = waitWithTimeout(pid, options.timeout);
  Outcome outcome;
  REQUIRE((WIFEXITED(status) || WIFSIGNALED(status)));
  outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (options.stdoutPath.empty()) outcome.out = readText(capture / "out");
  outcome.err = readText(capture / "err");
  return outcome;
}

/// Whether `scl` was built with the viewer (`scl view`).
inline bool viewerBuilt() { return runScl("view --help").exitCode == 0; }

/// How often `what` occurs in `text`.
inline size_t countOf(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace scl::testing
