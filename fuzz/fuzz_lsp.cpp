// libFuzzer target for `scl lsp`'s input: the byte stream an editor writes, framed by
// Content-Length headers (tools/lsp/json_rpc.h) and carrying JSON-RPC messages the server
// handles (tools/lsp/server.h) — the whole of what stdio.cpp does, without the pipes.
//
// Invariants checked on every input: nothing crashes (nor leaks, nor hangs, nor recurses
// without bound); the reader splits the stream into the same frames whether it arrives at
// once or a byte at a time; every answer is a JSON-RPC 2.0 object that serializes; a
// response carries `result` or `error`, never both; nothing is answered after `exit`.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/lsp/json_rpc.h"
#include "tools/lsp/server.h"

namespace {

// Frames as (ok, body-or-error) pairs, the stream fed in pieces of `piece` bytes.
std::vector<scl::lsp::Frame> framesOf(std::string_view stream, size_t piece) {
  scl::lsp::MessageReader reader;
  std::vector<scl::lsp::Frame> frames;
  for (size_t at = 0; at < stream.size(); at += piece) {
    reader.feed(stream.substr(at, piece));
    while (std::optional<scl::lsp::Frame> frame = reader.next()) frames.push_back(*frame);
  }
  return frames;
}

bool sameFrames(const std::vector<scl::lsp::Frame>& a, const std::vector<scl::lsp::Frame>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].body != b[i].body || a[i].error != b[i].error) return false;
  return true;
}

void checkAnswers(const std::vector<nlohmann::json>& answers) {
  for (const nlohmann::json& answer : answers) {
    if (!answer.is_object()) std::abort();
    const auto version = answer.find("jsonrpc");
    if (version == answer.end() || *version != "2.0") std::abort();
    if (answer.contains("result") && answer.contains("error")) std::abort();
    if (answer.contains("id") && !answer.contains("result") && !answer.contains("error"))
      std::abort();
    if (scl::lsp::serialize(answer).empty()) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view stream(reinterpret_cast<const char*>(data), size);
  const std::vector<scl::lsp::Frame> frames = framesOf(stream, stream.size() + 1);
  if (!sameFrames(frames, framesOf(stream, 1))) std::abort();
  if (!sameFrames(frames, framesOf(stream, 7))) std::abort();

  scl::lsp::LspServer server("fuzz");
  for (const scl::lsp::Frame& frame : frames) {
    if (server.exited()) std::abort();
    checkAnswers(frame.ok() ? server.handle(frame.body) : server.framingError(frame.error));
    if (server.exited()) break;
    if (server.hasPendingWork()) checkAnswers(server.idle());
  }
  return 0;
}
