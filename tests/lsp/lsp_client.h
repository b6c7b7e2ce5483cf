// A JSON-RPC test driver for the language server (tools/lsp): a client that sends
// requests and notifications to an in-process LspServer and keeps what comes back, as an
// editor would see it.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/lsp/server.h"

namespace scl::testing {

using nlohmann::json;

class LspClient {
 public:
  /// `capabilities`: the client's (InitializeParams.capabilities); initialize is sent
  /// unless `initialize` is false.
  explicit LspClient(json capabilities = defaultCapabilities(), bool initialize = true) {
    if (!initialize) return;
    initializeResult = request(
        "initialize",
        {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", std::move(capabilities)}});
    notify("initialized", json::object());
  }

  /// What a typical editor declares: markdown, related information, hierarchical symbols.
  static json defaultCapabilities() {
    return {{"textDocument",
             {{"hover", {{"contentFormat", {"markdown", "plaintext"}}}},
              {"publishDiagnostics", {{"relatedInformation", true}}},
              {"documentSymbol", {{"hierarchicalDocumentSymbolSupport", true}}}}}};
  }

  /// Sends raw text as one message; returns every message that came back.
  std::vector<json> send(const std::string& text) {
    std::vector<json> answers = server.handle(text);
    for (const json& answer : answers) {
      // Every answer must survive the wire.
      CHECK_NOTHROW(json::parse(lsp::serialize(answer)));
      if (answer.contains("method")) keep(answer);
    }
    return answers;
  }

  /// Sends a request and returns its response (the whole message: result or error).
  json request(const std::string& method, const json& params) {
    const int id = nextId_++;
    const json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    for (const json& answer : send(message.dump()))
      if (answer.contains("id") && answer["id"] == id) return answer;
    FAIL("no response to " << method);
    return nullptr;
  }

  /// The result of a request that must succeed.
  json result(const std::string& method, const json& params) {
    const json answer = request(method, params);
    INFO(answer.dump());
    REQUIRE(answer.contains("result"));
    return answer["result"];
  }

  void notify(const std::string& method, const json& params) {
    send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump());
  }

  /// Lets the server publish what waits (as `scl lsp` does when no message waits).
  void idle() {
    for (const json& message : server.idle()) keep(message);
  }

  void open(const std::string& uri, const std::string& text, int version = 1) {
    notify("textDocument/didOpen",
           {{"textDocument",
             {{"uri", uri}, {"languageId", "scl"}, {"version", version}, {"text", text}}}});
  }

  /// An incremental change replacing the range with `text`.
  void change(const std::string& uri, int version, int line0, int char0, int line1, int char1,
              const std::string& text) {
    notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                      {"contentChanges",
                                       {{{"range",
                                          {{"start", {{"line", line0}, {"character", char0}}},
                                           {"end", {{"line", line1}, {"character", char1}}}}},
                                         {"text", text}}}}});
  }

  /// The diagnostics last published for `uri` (after idle()).
  json diagnostics(const std::string& uri) {
    idle();
    const auto found = published_.find(uri);
    REQUIRE(found != published_.end());
    return found->second;
  }

  static json at(const std::string& uri, int line, int character) {
    return {{"textDocument", {{"uri", uri}}},
            {"position", {{"line", line}, {"character", character}}}};
  }

  /// The labels of a completion list.
  std::vector<std::string> completionLabels(const std::string& uri, int line, int character) {
    const json list = result("textDocument/completion", at(uri, line, character));
    std::vector<std::string> labels;
    for (const json& item : list["items"]) labels.push_back(item["label"].get<std::string>());
    return labels;
  }

  lsp::LspServer server{"test"};
  json initializeResult;
  /// Notifications other than diagnostics (log messages), in order.
  std::vector<json> logs;

 private:
  void keep(const json& message) {
    if (message["method"] == "textDocument/publishDiagnostics")
      published_[message["params"]["uri"].get<std::string>()] = message["params"]["diagnostics"];
    else
      logs.push_back(message);
  }

  int nextId_ = 1;
  std::map<std::string, json> published_;
};

/// Whether `labels` holds `label`.
inline bool has(const std::vector<std::string>& labels, const std::string& label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

}  // namespace scl::testing
