// `scl lsp` as a child process on two pipes, for tests of the real transport: framed
// messages written to its standard input, its standard output read back as messages with a
// time limit (a safety net, not a measurement).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/cli_support.h"
#include "tools/lsp/json_rpc.h"

namespace scl::testing {

class LspProcess {
 public:
  LspProcess() {
    int input[2], output[2];
    REQUIRE(::pipe(input) == 0);
    REQUIRE(::pipe(output) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    for (int fd : {input[0], input[1], output[0], output[1]})
      posix_spawn_file_actions_addclose(&actions, fd);
    const char* argv[] = {kScl.c_str(), "lsp", nullptr};
    const int spawned =
        ::posix_spawn(&pid_, kScl.c_str(), &actions, nullptr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(input[0]);
    ::close(output[1]);
    in_ = input[1];
    out_ = output[0];
    REQUIRE(spawned == 0);
  }
  ~LspProcess() {
    closeInput();
    if (out_ >= 0) ::close(out_);
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  LspProcess(const LspProcess&) = delete;
  LspProcess& operator=(const LspProcess&) = delete;

  /// Writes one message, framed.
  void send(const nlohmann::json& message) { sendRaw(lsp::frameMessage(message.dump())); }
  void sendRaw(const std::string& bytes) {
    size_t written = 0;
    while (written < bytes.size()) {
      const ssize_t count = ::write(in_, bytes.data() + written, bytes.size() - written);
      REQUIRE(count > 0);
      written += static_cast<size_t>(count);
    }
  }
  void closeInput() {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
  }

  /// The next message from the server; nullopt at the end of its output. Fails the test
  /// after 30 s without one.
  std::optional<nlohmann::json> receive() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      if (auto frame = reader_.next()) {
        REQUIRE(frame->ok());
        return nlohmann::json::parse(frame->body);
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      REQUIRE(left.count() > 0);
      pollfd request{out_, POLLIN, 0};
      if (::poll(&request, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[65536];
      const ssize_t count = ::read(out_, buffer, sizeof buffer);
      if (count <= 0) return std::nullopt;
      reader_.feed(std::string_view(buffer, static_cast<size_t>(count)));
    }
  }

  /// Messages until one satisfies `done` (returned); fails at the end of output.
  template <typename Predicate>
  nlohmann::json receiveUntil(Predicate done) {
    for (;;) {
      std::optional<nlohmann::json> message = receive();
      REQUIRE(message);
      if (done(*message)) return *message;
    }
  }

  /// Waits for the process; its exit code (128 + N after signal N).
  int wait() {
    const int status = waitWithTimeout(pid_, std::chrono::seconds(30));
    waited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = 0;
  int in_ = -1, out_ = -1;
  bool waited_ = false;
  lsp::MessageReader reader_;
};

}  // namespace scl::testing
