// Ctrl-C (SIGINT) and SIGTERM during a long `scl run` or `scl optimize` (docs/cli.md,
// exit codes 130 and 143): the command stops at a safe point, writes nothing half-done,
// and `scl optimize` keeps its checkpoint and says how to resume, which works.
//
// The program runs as a child process; the signal is sent once the child is known to be
// in the middle of its work (its handler installed, a generation reported), never after
// a fixed delay, and nothing is asserted about timing. Deadlines are only safety nets.
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli_support.h"

using namespace scl::testing;

namespace {

constexpr auto kSafetyNet = std::chrono::seconds(300);

// `scl ARGS` as a child process: stdout to a file, stderr to a pipe the test reads.
class Child {
 public:
  // stderr goes to a pipe, or with `terminal` to a pseudo-terminal (where `scl run` shows
  // its progress); false from ok() when no pseudo-terminal can be had.
  Child(const std::vector<std::string>& args, const std::string& stdoutPath,
        bool terminal = false) {
    int writeEnd = -1;
    if (terminal) {
      readEnd_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
      char name[256];
      if (readEnd_ < 0 || ::grantpt(readEnd_) != 0 || ::unlockpt(readEnd_) != 0 ||
          ::ptsname_r(readEnd_, name, sizeof name) != 0)
        return;
      writeEnd = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
      if (writeEnd < 0) return;
    } else {
      int pipe[2];
      REQUIRE(::pipe2(pipe, O_CLOEXEC) == 0);
      readEnd_ = pipe[0];
      writeEnd = pipe[1];
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, writeEnd, STDERR_FILENO);
    // The signals' default actions and none blocked, whatever the test runner set.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kScl.c_str()));
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    const int spawned =
        ::posix_spawn(&pid_, kScl.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(writeEnd);
    REQUIRE(spawned == 0);
  }
  ~Child() {
    if (pid_ > 0 && !status_) {  // a failed test: do not leave the child running
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (readEnd_ >= 0) ::close(readEnd_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  /// Whether the child was started.
  bool ok() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  const std::string& err() const { return err_; }

  // Reads stderr until `text` has appeared (true) or the child closed it (false).
  bool waitForStderr(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + kSafetyNet;
    while (err_.find(text) == std::string::npos) {
      if (!readSome(deadline)) return err_.find(text) != std::string::npos;
    }
    return true;
  }

  // Whether the child catches `signal` now (/proc/PID/status, SigCgt): it has installed
  // its handler. nullopt when that cannot be read (the child is gone).
  std::optional<bool> catches(int signal) const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("SigCgt:", 0) != 0) continue;
      const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
      return ((mask >> (signal - 1)) & 1ULL) != 0;
    }
    return std::nullopt;
  }

  // Waits until the child catches `signal`; false when it ended first.
  bool waitUntilCatching(int signal) {
    const auto deadline = std::chrono::steady_clock::now() + kSafetyNet;
    while (std::chrono::steady_clock::now() < deadline) {
      const std::optional<bool> caught = catches(signal);
      if (!caught) return false;
      if (*caught) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = status;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  // Reads stderr to its end, then waits for the child; its wait status.
  int finish() {
    const auto deadline = std::chrono::steady_clock::now() + kSafetyNet;
    while (readSome(deadline)) {
    }
    if (!status_) status_ = waitWithTimeout(pid_, kSafetyNet);
    return *status_;
  }

 private:
  // One read of stderr; false at its end (or at the deadline, when the child is killed).
  bool readSome(std::chrono::steady_clock::time_point deadline) {
    pollfd descriptor{readEnd_, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    const int ready = left.count() > 0 ? ::poll(&descriptor, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) return true;  // (nothing read; try again)
    if (ready == 0) {
      ::kill(pid_, SIGKILL);
      FAIL("scl did not finish within the safety net; killed. stderr: " << err_);
    }
    char buffer[4096];
    const ssize_t n = ::read(readEnd_, buffer, sizeof buffer);
    if (n <= 0) return false;
    err_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int readEnd_ = -1;
  std::string err_;
  std::optional<int> status_;
};

// The words of `text`, split at spaces.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

}  // namespace

TEST_CASE("Ctrl-C stops scl run: exit 130, nothing written", "[cli][signals]") {
  TempDir dir;
  const std::string script = dir / "long.scl";
  const std::string csv = dir / "x.csv";
  const std::vector<std::string> args = {"run", script, "--out", csv, "--filmstrip", dir / "x.svg"};

  SECTION("as soon as the run has begun") {
    // A minute of simulated time: many seconds of work, so the signal comes long before
    // the run could end.
    writeText(script, "scene pose: supine duration: 60\n{\n  (lie)\n  [knees -20]\n}\n");
    Child run(args, dir / "stdout");
    // Its handler is installed just before it simulates: then the run has begun.
    const bool started = run.waitUntilCatching(SIGINT);
    if (started) ::kill(run.pid(), SIGINT);
    const int status = run.finish();
    INFO("stderr: " << run.err());
    REQUIRE(started);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK(run.err().find("interrupted") != std::string::npos);
    CHECK(run.err().find("nothing written") != std::string::npos);
  }
  SECTION("on a terminal, once it shows how far it is") {
    // Ten minutes of simulated time: the progress line (after 2 s of wall time) comes
    // long before the end on any machine.
    writeText(script, "scene pose: supine duration: 600\n{\n  (lie)\n  [knees -20]\n}\n");
    Child run(args, dir / "stdout", true);
    if (!run.ok()) {
      WARN("no pseudo-terminal here");
      return;
    }
    const bool progress = run.waitForStderr("simulating ");
    if (progress) ::kill(run.pid(), SIGINT);
    const int status = run.finish();
    INFO("stderr: " << run.err());
    REQUIRE(progress);
    CHECK(run.err().find("/ 600.0 s") != std::string::npos);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    const std::string marker = "scl run: interrupted at t = ";
    const size_t at = run.err().find(marker);
    REQUIRE(at != std::string::npos);
    const double time = std::stod(run.err().substr(at + marker.size()));
    CHECK(time > 0.0);  // it had simulated for a while
    CHECK(time < 600.0);
    CHECK(run.err().find("nothing written") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(csv));
  CHECK(readText(dir / "stdout").empty());  // no summary of a run that did not end
  CHECK(dir.entries() == std::vector<std::string>{"long.scl", "stdout"});  // no temporary
}

TEST_CASE("SIGTERM stops scl optimize after a generation, the suggested command resumes",
          "[cli][signals]") {
  TempDir dir;
  const std::string script = dir / "s.scl";
  const std::string objective = dir / "o.objective";
  const std::string out = dir / "opt";
  writeText(script, R"(scene pose: standing duration: 0.2
{ [waist @10, knees @-20 time: @0.1] }
)");
  writeText(objective, "term 1/1000 energy\nterm 100 sum sq com.vx\nbounds relative 1\n");
  Child optimize({"optimize", script, objective, "--out", out, "--generations", "100000",
                  "--popsize", "4", "--threads", "1"},
                 dir / "stdout");
  const bool generation = optimize.waitForStderr("gen 1/100000");
  if (generation) ::kill(optimize.pid(), SIGTERM);
  const int status = optimize.finish();
  const std::string err = optimize.err();
  INFO("stderr: " << err);
  REQUIRE(generation);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 143);
  REQUIRE(fs::exists(fs::path(out) / "checkpoint.json"));
  CHECK(readText(dir / "stdout").empty());

  // "interrupted after generation N; ... continue with: scl optimize ... --resume ..."
  const std::string marker = "interrupted after generation ";
  const size_t at = err.find(marker);
  REQUIRE(at != std::string::npos);
  const int done = std::stoi(err.substr(at + marker.size()));
  CHECK(done >= 1);
  const nlohmann::json checkpoint =
      nlohmann::json::parse(readText(fs::path(out) / "checkpoint.json"));
  CHECK(checkpoint.at("log").size() == static_cast<size_t>(done));
  const size_t suggestion = err.find("continue with: scl optimize ");
  REQUIRE(suggestion != std::string::npos);
  const std::string command =
      err.substr(suggestion + 15, err.find('\n', suggestion) - suggestion - 15);
  CHECK(command.find("--resume") != std::string::npos);

  // Run the suggested command as given, but for one more generation only.
  std::vector<std::string> args = words(command);
  REQUIRE(args.size() > 2);
  REQUIRE(args[0] == "scl");
  std::string resume;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--generations" && i + 1 < args.size()) {
      resume += " --generations " + std::to_string(done + 1);
      ++i;
      continue;
    }
    resume += " " + args[i];
  }
  const Outcome resumed = runScl(resume);
  INFO("resumed: scl" << resume << "\nstderr: " << resumed.err);
  CHECK(resumed.exitCode == 0);
  CHECK(resumed.err.find("resuming") != std::string::npos);
  CHECK(resumed.out.find("stopped after generation " + std::to_string(done + 1)) !=
        std::string::npos);
  const nlohmann::json after = nlohmann::json::parse(readText(fs::path(out) / "checkpoint.json"));
  CHECK(after.at("log").size() == static_cast<size_t>(done + 1));
}
