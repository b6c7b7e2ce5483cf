// `scl lsp` as a process on pipes (the real transport: Content-Length framing, diagnostics
// published when the input pauses, shutdown and exit codes) and `scl check --format json`.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_support.h"
#include "tests/lsp/lsp_process.h"

namespace {

using nlohmann::json;
using scl::testing::LspProcess;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::shellQuote;
using scl::testing::TempDir;
using scl::testing::writeText;

json request(int id, const std::string& method, const json& params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

json notification(const std::string& method, const json& params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", params}};
}

auto hasId(int id) {
  return [id](const json& message) { return message.contains("id") && message["id"] == id; };
}

bool isDiagnostics(const json& message) {
  return message.value("method", "") == "textDocument/publishDiagnostics";
}

}  // namespace

TEST_CASE("scl lsp: a session over stdio", "[lsp][cli]") {
  LspProcess server;
  server.send(request(1, "initialize", {{"processId", nullptr}, {"capabilities", json::object()}}));
  const json initialized = server.receiveUntil(hasId(1));
  CHECK(initialized["result"]["capabilities"]["textDocumentSync"]["change"] == 2);
  server.send(notification("initialized", json::object()));
  const std::string uri = "file:///tmp/scl-lsp-test.scl";
  server.send(notification(
      "textDocument/didOpen",
      {{"textDocument",
        {{"uri", uri}, {"languageId", "scl"}, {"version", 1}, {"text", "{\n  [kness 0]\n}\n"}}}}));
  const json published = server.receiveUntil(isDiagnostics);
  REQUIRE(published["params"]["diagnostics"].size() == 1);
  CHECK(published["params"]["diagnostics"][0]["message"] ==
        "unknown joint 'kness'; did you mean 'knees'?");
  CHECK(published["params"]["version"] == 1);
  // Bytes that are no message get a parse error; the session goes on.
  server.sendRaw("Content-Length: 5\r\n\r\n{oops");
  const json error =
      server.receiveUntil([](const json& message) { return message.contains("error"); });
  CHECK(error["error"]["code"] == -32700);
  CHECK(error["id"].is_null());
  server.send(
      request(2, "textDocument/hover",
              {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 1}, {"character", 4}}}}));
  CHECK(server.receiveUntil(hasId(2))["result"].is_null());  // an unknown name
  server.send(request(3, "shutdown", nullptr));
  CHECK(server.receiveUntil(hasId(3))["result"].is_null());
  server.send(notification("exit", nullptr));
  CHECK(server.wait() == 0);
}

TEST_CASE("scl lsp: the input ending without exit, and its options", "[lsp][cli]") {
  LspProcess server;
  server.send(request(1, "initialize", {{"capabilities", json::object()}}));
  server.receiveUntil(hasId(1));
  server.closeInput();
  CHECK(server.wait() == 1);
  CHECK(runScl("lsp --help").exitCode == 0);
  CHECK(runScl("lsp --bogus").exitCode == 2);
  CHECK(runScl("lsp < /dev/null").exitCode == 1);
}

TEST_CASE("scl check --format json: the diagnostics of the text output", "[lsp][cli]") {
  TempDir dir;
  const std::string script = dir / "bad.scl";
  writeText(script, "{\n  [leftShoulderr 20, knees -170]\n  [waist 20\n}\n");
  const auto text = runScl("check " + shellQuote(script));
  const auto out =
      runScl("check --format json " + shellQuote(script) + " " + shellQuote(dir / "missing.scl"));
  CHECK(text.exitCode == 1);
  CHECK(out.exitCode == 2);  // a missing file wins, as in text
  INFO(out.out);
  const json report = json::parse(out.out);
  CHECK(report["errors"] == 3);
  CHECK(report["warnings"] == 2);
  REQUIRE(report["files"].size() == 2);
  const json& file = report["files"][0];
  CHECK(file["file"] == script);
  CHECK(file["errors"] == 2);
  // Each diagnostic and note is a `file:line:col: severity: message` line of the text, a
  // warning's ending with its kind: `... [target-range]`.
  for (const json& diagnostic : file["diagnostics"]) {
    const auto line = [&](const json& item, const std::string& severity) {
      std::string rendered = item["file"].get<std::string>();
      rendered += ":" + std::to_string(item["line"].get<int>());
      rendered += ":" + std::to_string(item["column"].get<int>());
      rendered += ": " + severity + ": ";
      rendered += item["message"].get<std::string>();
      if (item.contains("kind")) rendered += " [" + item["kind"].get<std::string>() + "]";
      return rendered += "\n";
    };
    CHECK_THAT(text.err, Catch::Contains(line(diagnostic, diagnostic["severity"])));
    for (const json& note : diagnostic["notes"])
      CHECK_THAT(text.err, Catch::Contains(line(note, "note")));
  }
  const json& unknown = file["diagnostics"][0];
  CHECK(unknown["line"] == 2);
  CHECK(unknown["column"] == 4);
  CHECK(unknown["endColumn"] == 17);
  CHECK(file["diagnostics"][3]["notes"].size() == 1);
  CHECK_THAT(report["files"][1]["error"].get<std::string>(), Catch::Contains("does not exist"));
  // A character file, and a clean script: nothing on stderr.
  const auto clean =
      runScl("check --format json " + shellQuote(SCL_SOURCE_DIR "/scripts/kipup.scl") + " " +
             shellQuote(SCL_SOURCE_DIR "/characters/robot.character"));
  CHECK(clean.exitCode == 0);
  CHECK(clean.err.empty());
  CHECK(json::parse(clean.out)["files"][1]["diagnostics"].empty());
  CHECK(runScl("check --format xml " + shellQuote(script)).exitCode == 2);
}

TEST_CASE("scl lsp and check --format json: the commands the docs show", "[lsp][cli][docs]") {
  const std::string editors = readText(SCL_SOURCE_DIR "/docs/editors.md");
  const std::string cli = readText(SCL_SOURCE_DIR "/docs/cli.md");
  scl::testing::RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  const std::string check = "scl check --format json scripts/kipup.scl";
  CHECK_THAT(editors, Catch::Contains("\n" + check + "\n"));
  CHECK_THAT(cli, Catch::Contains("\n" + check + "\n"));
  const auto checked = runScl(check.substr(4), top);
  CHECK(checked.exitCode == 0);
  CHECK(json::parse(checked.out)["files"][0]["file"] == "scripts/kipup.scl");
  // The example of docs/cli.md, output and all.
  TempDir dir;
  writeText(dir / "bad.scl", "{\n  (lean)\n  [hips 20]\n  [waist 20\n}\n");
  const std::string example = "scl check --format json bad.scl missing.scl";
  CHECK_THAT(cli, Catch::Contains("\n" + example + "\n"));
  scl::testing::RunOptions inDir;
  inDir.workingDirectory = dir.path().string();
  const auto run = runScl(example.substr(4), inDir);
  CHECK(run.exitCode == 2);
  const size_t shown = cli.find("```json\n", cli.find(example));
  REQUIRE(shown != std::string::npos);
  const size_t start = shown + 8;
  CHECK(json::parse(cli.substr(start, cli.find("```", start) - start)) == json::parse(run.out));
  // The VS Code task the page shows: its command, and its problem matcher the extension's.
  const size_t task = editors.find("```json\n{\n  \"version\": \"2.0.0\"");
  REQUIRE(task != std::string::npos);
  const size_t body = editors.find('\n', task) + 1;
  const json tasks = json::parse(editors.substr(body, editors.find("```", body) - body));
  const std::string command = tasks["tasks"][0]["command"].get<std::string>();
  REQUIRE(command.rfind("scl ", 0) == 0);
  CHECK(runScl(command.substr(4), top).exitCode == 0);
  const json package = json::parse(readText(SCL_SOURCE_DIR "/editors/vscode/package.json"));
  CHECK(tasks["tasks"][0]["problemMatcher"] ==
        "$" + package["contributes"]["problemMatchers"][0]["name"].get<std::string>());
  // `scl lsp` itself is run by the session tests above; its help by this one.
  CHECK_THAT(editors, Catch::Contains("\nscl lsp\n"));
  CHECK_THAT(cli, Catch::Contains("`scl lsp`"));
  CHECK(runScl("lsp --help", top).exitCode == 0);
}
