// The language server's request latency (docs/editors.md, Latency): every method on every
// script of scripts/ (the thesis listings among them), typing into them keystroke by
// keystroke with the diagnostics published after each key, and the same on a generated
// 1 MB script. Drives the server in-process (tools/lsp/server.h), so the figures are the
// server's own work without the pipe.
//
//   bench_lsp [SCRIPTS_DIR]     (default: the source tree's scripts/)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tools/generated_script.h"
#include "tools/lsp/server.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Latencies of one method, milliseconds.
struct Samples {
  std::vector<double> ms;
  void add(double value) { ms.push_back(value); }
  double quantile(double q) {
    if (ms.empty()) return 0;
    std::sort(ms.begin(), ms.end());
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * static_cast<double>(ms.size())))];
  }
};

class Bench {
 public:
  Bench() {
    send(request("initialize",
                 {{"capabilities",
                   {{"textDocument",
                     {{"hover", {{"contentFormat", {"markdown"}}}},
                      {"publishDiagnostics", {{"relatedInformation", true}}},
                      {"documentSymbol", {{"hierarchicalDocumentSymbolSupport", true}}}}}}}}));
    send(notification("initialized", json::object()));
  }

  // Milliseconds `work` took.
  static double time(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }

  json request(const std::string& method, const json& params) {
    return {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method}, {"params", params}};
  }
  static json notification(const std::string& method, const json& params) {
    return {{"jsonrpc", "2.0"}, {"method", method}, {"params", params}};
  }
  // Sends a message the way `scl lsp` gets it (as text) and serializes the answers.
  size_t send(const json& message) {
    size_t bytes = 0;
    for (const json& answer : server_.handle(message.dump()))
      bytes += scl::lsp::serialize(answer).size();
    return bytes;
  }
  size_t idle() {
    size_t bytes = 0;
    for (const json& answer : server_.idle()) bytes += scl::lsp::serialize(answer).size();
    return bytes;
  }

  // Every request method at `positions` of an open document, timed into `samples`.
  void requests(const std::string& uri, const std::vector<std::pair<int, int>>& positions,
                std::map<std::string, Samples>& samples) {
    const json document = {{"uri", uri}};
    samples["documentSymbol"].add(time([&] {
      send(request("textDocument/documentSymbol", {{"textDocument", document}}));
    }));
    samples["semanticTokens/full"].add(time([&] {
      send(request("textDocument/semanticTokens/full", {{"textDocument", document}}));
    }));
    samples["formatting"].add(time([&] {
      send(request("textDocument/formatting",
                   {{"textDocument", document}, {"options", json::object()}}));
    }));
    for (const auto& [line, character] : positions) {
      const json at = {{"textDocument", document},
                       {"position", {{"line", line}, {"character", character}}},
                       {"context", {{"includeDeclaration", true}}},
                       {"newName", "renamed"}};
      for (const char* method : {"hover", "completion", "definition", "references", "rename"})
        samples[method].add(
            time([&] { send(request(std::string("textDocument/") + method, at)); }));
    }
  }

  // Types `line` at the start of line `row`, one key at a time, the diagnostics published
  // after each key (a slow typist); returns the per-key latency.
  void type(const std::string& uri, int row, const std::string& line, int& version, Samples& keys) {
    int character = 0;
    for (char key : line) {
      const json change = notification("textDocument/didChange",
                                       {{"textDocument", {{"uri", uri}, {"version", ++version}}},
                                        {"contentChanges",
                                         {{{"range",
                                            {{"start", {{"line", row}, {"character", character}}},
                                             {"end", {{"line", row}, {"character", character}}}}},
                                           {"text", std::string(1, key)}}}}});
      keys.add(time([&] {
        send(change);
        idle();
      }));
      ++character;
    }
  }

  void open(const std::string& uri, const std::string& text) {
    send(notification(
        "textDocument/didOpen",
        {{"textDocument", {{"uri", uri}, {"languageId", "scl"}, {"version", 1}, {"text", text}}}}));
  }

 private:
  scl::lsp::LspServer server_{"bench"};
  int id_ = 0;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A position on every identifier-like spot: the first letter of each word of each line.
std::vector<std::pair<int, int>> wordStarts(const std::string& text, size_t step) {
  std::vector<std::pair<int, int>> out;
  int line = 0, column = 0;
  size_t count = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool start = std::isalpha(static_cast<unsigned char>(c)) &&
                       (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])));
    if (start && count++ % step == 0) out.emplace_back(line, column);
    if (c == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  }
  return out;
}

void print(const char* title, std::map<std::string, Samples>& samples) {
  std::printf("\n%s\n%-22s %8s %10s %10s %10s\n", title, "method", "samples", "median ms", "p95 ms",
              "max ms");
  for (auto& [method, values] : samples)
    std::printf("%-22s %8zu %10.3f %10.3f %10.3f\n", method.c_str(), values.ms.size(),
                values.quantile(0.5), values.quantile(0.95), values.quantile(1.0));
}

int run(int argc, char** argv) {
  const fs::path scripts = argc > 1 ? fs::path(argv[1]) : fs::path(SCL_SOURCE_DIR "/scripts");
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(scripts))
    if (entry.path().extension() == ".scl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "bench_lsp: no .scl files under %s\n", scripts.c_str());
    return 2;
  }

  Bench bench;
  std::map<std::string, Samples> small;
  for (const fs::path& file : files) {
    const std::string uri = "file://" + fs::absolute(file).string();
    const std::string text = readFile(file);
    small["didOpen + diagnostics"].add(Bench::time([&] {
      bench.open(uri, text);
      bench.idle();
    }));
    // Every method at every word, thrice (the first may warm caches).
    for (int round = 0; round < 3; ++round) bench.requests(uri, wordStarts(text, 1), small);
    int version = 1;
    bench.type(uri, 0, "// a comment typed key by key\n", version,
               small["keystroke + diagnostics"]);
  }
  std::printf("scl lsp request latency, %zu scripts of %s (the thesis listings among them)\n",
              files.size(), scripts.c_str());
  print("scripts/", small);

  std::map<std::string, Samples> big;
  int phases = 0;
  const std::string text = scl::generateScript(1'000'000, phases);
  const std::string uri = "file:///generated-1MB.scl";
  big["didOpen + diagnostics"].add(Bench::time([&] {
    bench.open(uri, text);
    bench.idle();
  }));
  bench.requests(uri, wordStarts(text, 4000), big);
  int version = 1;
  // A fast typist: the edits arrive while the server is busy, so the diagnostics follow
  // once per burst (the stdio loop publishes when no message waits).
  Samples& keys = big["keystroke (edit only)"];
  int character = 0;
  for (char key : std::string("  [relax knees strength 0.5]")) {
    const json change = Bench::notification(
        "textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", ++version}}},
                                   {"contentChanges",
                                    {{{"range",
                                       {{"start", {{"line", 20000}, {"character", character}}},
                                        {"end", {{"line", 20000}, {"character", character}}}}},
                                      {"text", std::string(1, key)}}}}});
    keys.add(Bench::time([&] { bench.send(change); }));
    ++character;
  }
  big["diagnostics after a burst"].add(Bench::time([&] { bench.idle(); }));
  bench.type(uri, 20001, "  [gc]\n", version, big["keystroke + diagnostics"]);
  std::printf("\ngenerated script: %.2f MB, %d phases\n", static_cast<double>(text.size()) / 1e6,
              phases);
  print("1 MB script", big);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_lsp: %s\n", error.what());
    return 1;
  }
}
