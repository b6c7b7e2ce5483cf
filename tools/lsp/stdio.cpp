#include "tools/lsp/stdio.h"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "tools/lsp/json_rpc.h"
#include "tools/lsp/server.h"

namespace scl::lsp {

namespace {

// Writes all of `bytes`; false when the output is gone.
bool writeAll(int out, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(out, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

bool send(int out, const std::vector<nlohmann::json>& messages) {
  for (const nlohmann::json& message : messages)
    if (!writeAll(out, frameMessage(serialize(message)))) return false;
  return true;
}

// True when `in` has bytes (or its end) to read right now.
bool readable(int in) {
  pollfd request{in, POLLIN, 0};
  int ready = 0;
  do {
    ready = ::poll(&request, 1, 0);
  } while (ready < 0 && errno == EINTR);
  return ready > 0;
}

}  // namespace

int serveStdio(LspServer& server, int in, int out) {
  MessageReader reader;
  std::array<char, 65536> buffer{};
  for (;;) {
    while (std::optional<Frame> frame = reader.next()) {
      const auto answers =
          frame->ok() ? server.handle(frame->body) : server.framingError(frame->error);
      if (!send(out, answers)) return 1;
      if (server.exited()) return server.exitCode();
    }
    // Diagnostics wait until no message does: a burst of edits is analysed once.
    if (server.hasPendingWork() && !readable(in)) {
      if (!send(out, server.idle())) return 1;
      continue;
    }
    const ssize_t count = ::read(in, buffer.data(), buffer.size());
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) return 1;  // the client went away without `exit`
    reader.feed(std::string_view(buffer.data(), static_cast<size_t>(count)));
  }
}

}  // namespace scl::lsp
