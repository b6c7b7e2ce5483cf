// The SCL language server as a function of messages: one JSON-RPC message in, the
// responses and notifications to send back out. Nothing here reads or writes a stream, so
// tests drive it in-process; `scl lsp` (stdio.h) puts the framing around it.
//
// Diagnostics are published when the server is idle (idle(): no message waiting), so a
// burst of keystrokes costs one analysis, not one per keystroke. Every request is answered
// from the document's current text. No input makes it throw: malformed JSON, unknown
// methods, missing or mistyped parameters and out-of-range positions become error
// responses or are clamped.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace scl::lsp {

class LspServer {
 public:
  /// `version`: what `serverInfo.version` says (the scl version).
  explicit LspServer(std::string version = "");
  ~LspServer();
  LspServer(const LspServer&) = delete;
  LspServer& operator=(const LspServer&) = delete;

  /// Handles one message (a frame's body); returns what to send, in order.
  std::vector<nlohmann::json> handle(std::string_view message);
  /// The answer to bytes that framed no message (JSON-RPC parse error, id null).
  std::vector<nlohmann::json> framingError(const std::string& why);
  /// True when diagnostics of a changed document wait to be published.
  bool hasPendingWork() const;
  /// Publishes the diagnostics of every document changed since its last publication.
  std::vector<nlohmann::json> idle();

  /// True once the `exit` notification came.
  bool exited() const;
  /// The process's exit code after `exit`: 0 when `shutdown` came before it, else 1.
  int exitCode() const;
  /// The current text of an open document; nullptr when it is not open.
  const std::string* documentText(const std::string& uri) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A message as the wire carries it: compact JSON, invalid UTF-8 replaced (never throws).
std::string serialize(const nlohmann::json& message);

}  // namespace scl::lsp
