// The language server (tools/lsp, docs/editors.md) driven in-process through JSON-RPC:
// the lifecycle, diagnostics as `scl check` gives them with UTF-16 ranges, incremental
// changes, completion, hover, definition, references, rename, symbols, formatting,
// semantic tokens, and robustness against malformed input and a 1 MB document edited
// keystroke by keystroke.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>

#include "scl/compile.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "tests/cli_support.h"
#include "tests/lsp/lsp_client.h"
#include "tools/generated_script.h"
#include "tools/lsp/features.h"
#include "tools/lsp/json_rpc.h"
#include "tools/lsp/text_document.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using scl::testing::has;
using scl::testing::LspClient;

const std::string kUri = "file:///home/user/test%20dir/motion.scl";

const std::string kScript =
    "scene pose: supine duration: 5\n"                // 0
    "define balance {\n"                              // 1
    "  [relax ankles strength 0.1]\n"                 // 2
    "}\n"                                             // 3
    "{\n"                                             // 4
    "  (lean)\n"                                      // 5
    "  [waist @20, hips 120 time: 0.3]\n"             // 6
    "  [balance]\n"                                   // 7
    "}\n"                                             // 8
    "after 0.4\n"                                     // 9
    "{\n"                                             // 10
    "  (standup)\n"                                   // 11
    "  [vf sb(400, 300) on: trunk, by: leftAnkle]\n"  // 12
    "  [symm]\n"                                      // 13
    "  [balance]\n"                                   // 14
    "}\n"                                             // 15
    "when contact all feet\n"                         // 16
    "{\n"                                             // 17
    "  (hold) : (standup)\n"                          // 18
    "}\n"                                             // 19
    "finally after 1 backto lean\n";                  // 20

std::string readFile(const fs::path& path) { return scl::testing::readText(path); }

// Every script of scripts/, thesis listings and ports included.
std::vector<fs::path> scriptFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(SCL_SOURCE_DIR "/scripts"))
    if (entry.path().extension() == ".scl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

json position(int line, int character) { return {{"line", line}, {"character", character}}; }

}  // namespace

TEST_CASE("lsp: a warning's kind is its code, and an allow comment silences it", "[lsp]") {
  LspClient client;
  client.open(kUri, "{\n  [knees -170]\n}\n");
  const json warned = client.diagnostics(kUri);
  REQUIRE(warned.size() == 2);  // leftKnee and rightKnee
  CHECK(warned[0]["severity"] == 2);
  CHECK(warned[0]["code"] == "target-range");
  client.change(kUri, 2, 1, 14, 1, 14, "  // allow: target-range");
  CHECK(client.diagnostics(kUri).empty());
}

TEST_CASE("lsp: initialize, shutdown and exit", "[lsp]") {
  LspClient client;
  const json& capabilities = client.initializeResult["result"]["capabilities"];
  CHECK(capabilities["positionEncoding"] == "utf-16");
  CHECK(capabilities["textDocumentSync"]["change"] == 2);
  CHECK(capabilities["hoverProvider"] == true);
  CHECK(capabilities["codeActionProvider"]["codeActionKinds"][0] == "quickfix");
  CHECK(capabilities["renameProvider"]["prepareProvider"] == true);
  CHECK(capabilities["semanticTokensProvider"]["legend"]["tokenTypes"].size() == 10);
  CHECK(client.initializeResult["result"]["serverInfo"]["name"] == "scl");
  // A second initialize is refused; shutdown answers null, then only exit is accepted.
  CHECK(client.request("initialize", json::object())["error"]["code"] == -32600);
  CHECK(client.result("shutdown", nullptr).is_null());
  CHECK(client.request("textDocument/hover", LspClient::at(kUri, 0, 0))["error"]["code"] == -32600);
  CHECK_FALSE(client.server.exited());
  client.notify("exit", nullptr);
  CHECK(client.server.exited());
  CHECK(client.server.exitCode() == 0);

  LspClient early(json::object(), false);
  CHECK(early.request("textDocument/hover", LspClient::at(kUri, 0, 0))["error"]["code"] == -32002);
  early.notify("exit", nullptr);
  CHECK(early.server.exitCode() == 1);  // exit without shutdown
}

TEST_CASE("lsp: diagnostics are scl check's, with UTF-16 ranges", "[lsp]") {
  LspClient client;
  const std::string text =
      "{\n  (lean)\n  [leftShoulderr 20, knees -170]\n  [vf (0, 1) on: trunk]\n}\n";
  client.open(kUri, text);
  const json diagnostics = client.diagnostics(kUri);
  const scl::CompileResult checked = scl::compile(text, "/home/user/test dir/motion.scl");
  size_t expected = 0;
  for (const auto& diagnostic : checked.diagnostics)
    expected += diagnostic.severity != scl::Severity::Note;
  REQUIRE(diagnostics.size() == expected);
  REQUIRE(expected >= 3);
  // The unknown joint: its name's range, an error, the suggestion.
  const json& unknown = diagnostics[0];
  CHECK(unknown["severity"] == 1);
  CHECK(unknown["source"] == "scl");
  CHECK(unknown["message"] == "unknown joint 'leftShoulderr'; did you mean 'leftShoulder'?");
  CHECK(unknown["range"]["start"] == position(2, 3));
  CHECK(unknown["range"]["end"] == position(2, 16));
  // The knee target outside its range: a warning on the number.
  bool warned = false;
  for (const json& diagnostic : diagnostics)
    if (diagnostic["severity"] == 2 && diagnostic["range"]["start"] == position(2, 27)) {
      warned = true;
      CHECK(diagnostic["range"]["end"] == position(2, 31));
    }
  CHECK(warned);
  // Fixing the errors clears them (the warning stays).
  client.change(kUri, 2, 2, 3, 2, 16, "leftShoulder");
  client.change(kUri, 3, 3, 22, 3, 22, ", by: waist");
  const json fixed = client.diagnostics(kUri);
  REQUIRE_FALSE(fixed.empty());
  for (const json& diagnostic : fixed) CHECK(diagnostic["severity"] == 2);

  SECTION("columns count UTF-16 code units, or bytes when the client asks for UTF-8") {
    // "😀" is 4 bytes and 2 UTF-16 units, "é" 2 bytes and 1 unit: the pose after them starts
    // at byte 32, UTF-16 unit 29.
    const std::string unicode = "scene character: \"😀é\" pose: lyingg\n{ [knees 0] }\n";
    client.open("file:///u.scl", unicode);
    const json utf16 = client.diagnostics("file:///u.scl");
    bool found = false;
    for (const json& diagnostic : utf16)
      if (diagnostic["message"].get<std::string>().find("lyingg") != std::string::npos) {
        found = true;
        CHECK(diagnostic["range"]["start"] == position(0, 29));
        CHECK(diagnostic["range"]["end"] == position(0, 35));
      }
    CHECK(found);
    LspClient utf8(json{{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}});
    CHECK(utf8.initializeResult["result"]["capabilities"]["positionEncoding"] == "utf-8");
    utf8.open("file:///u.scl", unicode);
    for (const json& diagnostic : utf8.diagnostics("file:///u.scl"))
      if (diagnostic["message"].get<std::string>().find("lyingg") != std::string::npos)
        CHECK(diagnostic["range"]["start"] == position(0, 32));
  }

  SECTION("a note goes with its diagnostic: related information, or the message") {
    const std::string unclosed = "{\n  [waist 20\n}\n";
    client.open("file:///n.scl", unclosed);
    const json related = client.diagnostics("file:///n.scl");
    REQUIRE(related.size() == 1);
    REQUIRE(related[0]["relatedInformation"].size() == 1);
    CHECK(related[0]["relatedInformation"][0]["location"]["range"]["start"] == position(1, 2));
    LspClient bare(json::object());
    bare.open("file:///n.scl", unclosed);
    const json inline_ = bare.diagnostics("file:///n.scl");
    REQUIRE(inline_.size() == 1);
    CHECK_FALSE(inline_[0].contains("relatedInformation"));
    CHECK_THAT(inline_[0]["message"].get<std::string>(), Catch::Contains("note:"));
  }
}

// Objective and problem files get scl check's diagnostics from their own parsers (not a
// script's syntax error), and nothing else: no completion, hover or formatting.
TEST_CASE("lsp: objective and problem files", "[lsp]") {
  LspClient client;
  client.open("file:///w/a.objective", "duration 2\nterm 1 heigth\n");
  const json objective = client.diagnostics("file:///w/a.objective");
  REQUIRE(objective.size() == 1);
  CHECK(objective[0]["message"] == "unknown term 'heigth'; did you mean 'height'?");
  CHECK(objective[0]["range"]["start"] == position(1, 7));
  client.open("file:///w/a.problem",
              "state height 0.15 0.75 scale 10 start 0.45\n"
              "action lean.pd.waist 0 90 scale 1/40\ncompatible standng at end\n");
  const json problem = client.diagnostics("file:///w/a.problem");
  REQUIRE(problem.size() == 1);
  CHECK_THAT(problem[0]["message"].get<std::string>(),
             Catch::StartsWith("expected 'standing at end' or 'no fall'"));
  CHECK(
      client.result("textDocument/hover", LspClient::at("file:///w/a.objective", 1, 8)).is_null());
  CHECK(client
            .request("textDocument/formatting",
                     {{"textDocument", {{"uri", "file:///w/a.objective"}}},
                      {"options", {{"tabSize", 2}, {"insertSpaces", true}}}})
            .contains("error"));
}

TEST_CASE("lsp: character files, and a script naming one with errors", "[lsp]") {
  scl::testing::TempDir dir;
  std::string bad = readFile(SCL_SOURCE_DIR "/characters/human.character");
  bad.replace(bad.find("mass: 29.27"), 11, "mass: 0");
  scl::testing::writeText(dir / "bad.character", bad);
  LspClient client;
  const std::string characterUri = scl::lsp::fileUri(dir / "bad.character");
  client.open(characterUri, bad);
  const json own = client.diagnostics(characterUri);
  REQUIRE(own.size() == 1);
  CHECK_THAT(own[0]["message"].get<std::string>(), Catch::Contains("'mass:' must be positive"));
  CHECK(own[0]["range"]["start"]["line"] == 9);
  CHECK(client.result("textDocument/hover", LspClient::at(characterUri, 9, 1)).is_null());
  // The script beside it: the error at its `character:`, the file's own as related
  // information in the character file.
  const std::string scriptUri = scl::lsp::fileUri(dir / "s.scl");
  client.open(scriptUri, "scene character: \"bad.character\"\n{ [knees 0] }\n");
  const json script = client.diagnostics(scriptUri);
  REQUIRE(script.size() == 1);
  CHECK(script[0]["range"]["start"] == position(0, 17));
  REQUIRE(script[0]["relatedInformation"].size() == 1);
  CHECK(script[0]["relatedInformation"][0]["location"]["uri"] == characterUri);
  CHECK(script[0]["relatedInformation"][0]["location"]["range"]["start"]["line"] == 9);
  // A character file is formatted as `scl fmt` does.
  std::string human = readFile(SCL_SOURCE_DIR "/characters/human.character");
  const std::string humanUri = scl::lsp::fileUri(dir / "human.character");
  client.open(humanUri, human + "link   \n");
  CHECK(client.request("textDocument/formatting", {{"textDocument", {{"uri", humanUri}}},
                                                   {"options", json::object()}})["error"]["code"] ==
        -32803);
  client.open(humanUri, human);
  CHECK(client
            .result("textDocument/formatting",
                    {{"textDocument", {{"uri", humanUri}}}, {"options", json::object()}})
            .empty());
}

TEST_CASE("lsp: every script of scripts/ gets scl check's diagnostics and a full outline",
          "[lsp]") {
  LspClient client;
  for (const fs::path& file : scriptFiles()) {
    INFO(file);
    const std::string text = readFile(file);
    const std::string uri = scl::lsp::fileUri(file.string());
    client.open(uri, text);
    scl::syntax::Script tree;
    scl::CompileOptions options;
    options.syntaxTree = &tree;
    const scl::CompileResult checked = scl::compile(text, file.string(), options);
    // The tree compile() keeps is the parser's.
    CHECK(tree == scl::parse(text, file.string()).script);
    size_t expected = 0;
    for (const auto& diagnostic : checked.diagnostics)
      expected += diagnostic.severity != scl::Severity::Note;
    CHECK(client.diagnostics(uri).size() == expected);
    if (!checked.program) continue;
    const json symbols =
        client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}});
    size_t phases = 0, bodies = 0;
    for (const json& symbol : symbols) {
      phases += symbol["kind"] == 24;
      bodies += symbol["kind"] == 19;
    }
    CHECK(phases == checked.program->phases.size());
    CHECK(bodies == tree.world.size());  // the world statements (scripts/ball-hit.scl, ...)
    // Formatting gives scl fmt's text.
    const json edits = client.result(
        "textDocument/formatting", {{"textDocument", {{"uri", uri}}}, {"options", json::object()}});
    const std::string canonical =
        scl::print(scl::parse(text, file.string()).script, scl::scanComments(text));
    if (canonical == text)
      CHECK(edits.empty());
    else
      CHECK(edits.at(0)["newText"] == canonical);
    CHECK(client.result("textDocument/semanticTokens/full",
                        {{"textDocument", {{"uri", uri}}}})["data"]
                  .size() %
              5 ==
          0);
  }
}

TEST_CASE("lsp: incremental changes edit the text as the client does", "[lsp]") {
  LspClient client;
  client.open(kUri, "ab😀c\nline two\n");
  client.change(kUri, 2, 0, 4, 0, 4, "X");  // after the emoji (2 UTF-16 units)
  CHECK(*client.server.documentText(kUri) == "ab😀Xc\nline two\n");
  client.change(kUri, 3, 0, 3, 1, 4, "");  // inside the emoji: from its start
  CHECK(*client.server.documentText(kUri) == "ab two\n");
  client.change(kUri, 4, 7, 0, 9, 99, "!");  // beyond the end: clamped
  CHECK(*client.server.documentText(kUri) == "ab two\n!");
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", 5}}},
                                           {"contentChanges", {{{"text", "whole"}}}}});
  CHECK(*client.server.documentText(kUri) == "whole");
  client.notify("textDocument/didClose", {{"textDocument", {{"uri", kUri}}}});
  CHECK(client.server.documentText(kUri) == nullptr);
  CHECK(client.diagnostics(kUri).empty());
}

TEST_CASE("lsp: completion offers what is valid at the cursor", "[lsp]") {
  LspClient client;
  client.open(kUri, kScript);
  const auto labelsAfter = [&](int line, const std::string& typed) {
    // Types `typed` at the start of an empty line `line` and completes at its end.
    client.change(kUri, 10, line, 0, line, 0, typed + "\n");
    auto labels = client.completionLabels(kUri, line, static_cast<int>(typed.size()));
    client.change(kUri, 11, line, 0, line + 1, 0, "");
    REQUIRE(*client.server.documentText(kUri) == kScript);
    return labels;
  };
  const auto primitive = labelsAfter(13, "  [");
  CHECK(has(primitive, "vf"));
  CHECK(has(primitive, "ik"));
  CHECK(has(primitive, "leftShoulder"));
  CHECK(has(primitive, "knees"));
  CHECK(has(primitive, "balance"));  // the block
  CHECK_FALSE(has(primitive, "trunk"));
  const auto on = labelsAfter(13, "  [vf (0, 100) on: ");
  CHECK(has(on, "trunk"));
  CHECK_FALSE(has(on, "feet"));  // one link, no group
  CHECK_FALSE(has(on, "waist"));
  const auto by = labelsAfter(13, "  [vf (0, 100) on: trunk by: ");
  CHECK(has(by, "leftAnkle"));
  CHECK_FALSE(has(by, "ankles"));
  const auto vfArgs = labelsAfter(13, "  [vf (0, 100) on: trunk ");
  CHECK(has(vfArgs, "by:"));
  CHECK_FALSE(has(vfArgs, "on:"));
  const auto ik = labelsAfter(13, "  [ik (0.1, 0.2) on: ");
  CHECK(has(ik, "rightAnkle"));
  CHECK(has(ik, "wrists"));
  CHECK_FALSE(has(ik, "waist"));
  const auto pd = labelsAfter(13, "  [waist 20 ");
  CHECK(has(pd, "child"));
  CHECK(has(pd, "time:"));
  const auto relax = labelsAfter(13, "  [relax knees ");
  CHECK(relax == std::vector<std::string>{"strength"});
  // `track LINK clip: NAME` and its playback's arguments.
  CHECK(has(labelsAfter(13, "  [track pelvis "), "clip:"));
  const auto clipTrack = labelsAfter(13, "  [track pelvis clip: squat ");
  CHECK(has(clipTrack, "speed:"));
  CHECK(has(clipTrack, "loop"));
  CHECK_FALSE(has(clipTrack, "time:"));
  const auto features = labelsAfter(13, "  [angmom 0 kd 10 ");
  CHECK(has(features, "weight"));
  CHECK_FALSE(has(features, "kd"));
  CHECK_FALSE(has(features, "kp"));
  // Transitions and phase names.
  const auto contact = labelsAfter(16, "when contact ");
  CHECK(has(contact, "lost"));
  CHECK(has(contact, "all"));
  CHECK(has(contact, "feet"));
  CHECK(has(contact, "leftFoot"));
  // `when com QUANTITY < NUM [legs]`, piece by piece.
  const auto hasAll = [](const std::vector<std::string>& labels,
                         std::initializer_list<const char*> words) {
    return std::all_of(words.begin(), words.end(), [&](const char* w) { return has(labels, w); });
  };
  CHECK(hasAll(labelsAfter(16, "when "), {"contact", "com", "holding", "released"}));
  const auto andWhen = labelsAfter(16, "and when ");
  CHECK(hasAll(andWhen, {"contact", "com"}));
  CHECK_FALSE(has(andWhen, "holding"));
  CHECK(labelsAfter(16, "when com ") == std::vector<std::string>{"x", "y", "vx", "vy", "capture"});
  CHECK(hasAll(labelsAfter(16, "when com vy < 0 "), {"legs", "or", "backto"}));
  CHECK(labelsAfter(16, "and when com x > 0.1 legs ") ==
        std::vector<std::string>{"after", "backto"});
  const auto backto = labelsAfter(20, "finally after 1 backto ");
  CHECK(has(backto, "lean"));
  CHECK(has(backto, "standup"));
  CHECK(has(backto, "hold"));
  const auto between = labelsAfter(9, "");
  CHECK(has(between, "after"));
  CHECK(has(between, "when"));
  // A mirrored phase names an earlier one.
  client.change(kUri, 12, 18, 12, 18, 19, "");
  CHECK(client.completionLabels(kUri, 18, 12) == std::vector<std::string>{"lean", "standup"});
  client.change(kUri, 13, 18, 12, 18, 12, "standup");
  // The scene header.
  client.change(kUri, 14, 0, 12, 0, 18, "");
  const auto poses = client.completionLabels(kUri, 0, 12);
  CHECK(has(poses, "supine"));
  CHECK(has(poses, "sitting"));
  client.change(kUri, 15, 0, 12, 0, 12, "supine");
  REQUIRE(*client.server.documentText(kUri) == kScript);
  // `@`: the script's parameters (of its last version that bound).
  client.change(kUri, 16, 6, 20, 6, 20, " @");
  const json afterAt = client.result("textDocument/completion", LspClient::at(kUri, 6, 22));
  REQUIRE(afterAt["items"].size() == 1);
  CHECK(afterAt["items"][0]["label"] == "lean.pd.waist");
  CHECK(afterAt["items"][0]["insertText"] == "20");
}

TEST_CASE("lsp: no completion in comments and strings", "[lsp]") {
  LspClient client;
  client.open(kUri, "scene character: \"hu\"\n{ [waist 10] // [\n}\n");
  CHECK(client.completionLabels(kUri, 0, 20).empty());
  CHECK(client.completionLabels(kUri, 1, 16).empty());
  CHECK_FALSE(client.completionLabels(kUri, 1, 3).empty());
}

TEST_CASE("lsp: quick fixes for 'did you mean'", "[lsp]") {
  LspClient client;
  client.open(kUri,
              "{ (lean)\n  [kness 0]\n  [rlax ankles strength 0.1]\n}\nafter 1\n{ }\n"
              "finally after 1 backto laen\n");
  json params = {{"textDocument", {{"uri", kUri}}},
                 {"range", {{"start", position(0, 0)}, {"end", position(7, 0)}}},
                 {"context", {{"diagnostics", json::array()}}}};
  const json actions = client.result("textDocument/codeAction", params);
  std::vector<std::string> titles;
  for (const json& action : actions) {
    titles.push_back(action["title"].get<std::string>());
    CHECK(action["kind"] == "quickfix");
    CHECK(action["diagnostics"].size() == 1);
  }
  CHECK(titles == std::vector<std::string>{"Change 'kness' to 'knees'", "Change 'rlax' to 'relax'",
                                           "Change 'laen' to 'lean'"});
  const json& edit = actions[0]["edit"]["changes"][kUri][0];
  CHECK(edit["range"]["start"] == position(1, 3));
  CHECK(edit["range"]["end"] == position(1, 8));
  CHECK(edit["newText"] == "knees");
  // Only the fixes in the range asked for.
  params["range"] = {{"start", position(6, 23)}, {"end", position(6, 23)}};
  CHECK(client.result("textDocument/codeAction", params).size() == 1);
}

TEST_CASE("lsp: hover on joints, links, primitives, phases and parameters", "[lsp]") {
  LspClient client;
  client.open(kUri, kScript);
  const auto hoverText = [&](int line, int character) -> std::string {
    const json result = client.result("textDocument/hover", LspClient::at(kUri, line, character));
    if (result.is_null()) return "";
    CHECK(result["contents"]["kind"] == "markdown");
    return result["contents"]["value"].get<std::string>();
  };
  const std::string ankle = hoverText(12, 40);  // leftAnkle
  CHECK_THAT(ankle, Catch::Contains("leftAnkle") && Catch::Contains("range") &&
                        Catch::Contains("kp") && Catch::Contains("torque limit"));
  CHECK_THAT(hoverText(12, 26), Catch::Contains("trunk") && Catch::Contains("length") &&
                                    Catch::Contains("mass") && Catch::Contains("kg"));
  CHECK_THAT(hoverText(12, 4), Catch::Contains("virtual force") && Catch::Contains(" N"));
  CHECK_THAT(hoverText(2, 11), Catch::Contains("leftAnkle") && Catch::Contains("rightAnkle"));
  const std::string phase = hoverText(5, 4);  // (lean)
  CHECK_THAT(phase, Catch::Contains("phase lean") && Catch::Contains("after 0.4 s → standup") &&
                        Catch::Contains("finally after 1 s"));
  CHECK_THAT(hoverText(18, 13), Catch::Contains("phase standup"));
  CHECK_THAT(hoverText(6, 10), Catch::Contains("lean.pd.waist"));
  CHECK_THAT(hoverText(0, 14), Catch::Contains("pose supine"));
  CHECK_THAT(hoverText(7, 5), Catch::Contains("block balance") && Catch::Contains("used 2 times"));
  CHECK(hoverText(3, 0).empty());
  CHECK(client.result("textDocument/hover", LspClient::at(kUri, 9999, 5)).is_null());
}

TEST_CASE("lsp: hover in a centre-of-mass transition", "[lsp]") {
  LspClient client;
  client.open(kUri, "{\n  (push)\n}\nwhen com vy < 0 or after 1\n{\n  (fall)\n  [com (0, 1)]\n}\n");
  const auto hoverText = [&](int line, int character) -> std::string {
    const json result = client.result("textDocument/hover", LspClient::at(kUri, line, character));
    return result.is_null() ? "" : result["contents"]["value"].get<std::string>();
  };
  CHECK_THAT(hoverText(3, 6), Catch::Contains("centre of mass") && Catch::Contains("frame"));
  CHECK_THAT(hoverText(3, 9), Catch::Contains("upward velocity") && Catch::Contains("m/s"));
  CHECK_THAT(hoverText(6, 4), Catch::Contains("feature"));  // `[com]` is the feature
  CHECK_THAT(hoverText(1, 4), Catch::Contains("when com vy < 0 or after 1 s → fall"));
}

TEST_CASE("lsp: a character of its own names: its limb ends complete, hovers tell roles", "[lsp]") {
  // tests/characters/robin.character: its own names, no hands.
  const std::string uri = "file://" SCL_SOURCE_DIR "/tests/lang/robin_in_editor.scl";
  const std::string script =
      "scene character: \"../characters/robin.character\"\n{\n  [kneeL -10]\n  [ik (0.1, 0.2) "
      "on: ]\n}\n";
  LspClient client;
  client.open(uri, script);
  const json hover = client.result("textDocument/hover", LspClient::at(uri, 2, 5));
  REQUIRE_FALSE(hover.is_null());
  CHECK_THAT(hover["contents"]["value"].get<std::string>(),
             Catch::Contains("kneeL") && Catch::Contains("the left knee"));
  const auto effectors = client.completionLabels(uri, 3, 21);
  CHECK(has(effectors, "ankleL"));
  CHECK(has(effectors, "ankleR"));
  CHECK_FALSE(has(effectors, "kneeL"));
  CHECK_FALSE(has(effectors, "leftWrist"));  // the human's; robin has no hands
}

TEST_CASE("lsp: definition, references and rename of phases and blocks", "[lsp]") {
  LspClient client;
  client.open(kUri, kScript);
  const json lean = client.result("textDocument/definition", LspClient::at(kUri, 20, 24));
  REQUIRE(lean.size() == 1);
  CHECK(lean[0]["uri"] == kUri);
  CHECK(lean[0]["range"]["start"] == position(5, 3));
  CHECK(lean[0]["range"]["end"] == position(5, 7));
  const json block = client.result("textDocument/definition", LspClient::at(kUri, 14, 4));
  REQUIRE(block.size() == 1);
  CHECK(block[0]["range"]["start"] == position(1, 7));
  CHECK(client.result("textDocument/definition", LspClient::at(kUri, 12, 26)).is_null());

  json params = LspClient::at(kUri, 11, 5);
  params["context"] = {{"includeDeclaration", true}};
  CHECK(client.result("textDocument/references", params).size() == 2);
  params["context"]["includeDeclaration"] = false;
  CHECK(client.result("textDocument/references", params).size() == 1);

  const json prepared = client.result("textDocument/prepareRename", LspClient::at(kUri, 18, 14));
  CHECK(prepared["placeholder"] == "standup");
  CHECK(client.result("textDocument/prepareRename", LspClient::at(kUri, 12, 26)).is_null());
  json rename = LspClient::at(kUri, 18, 14);
  rename["newName"] = "rise";
  const json edit = client.result("textDocument/rename", rename);
  const json& edits = edit["changes"][kUri];
  REQUIRE(edits.size() == 2);
  for (const json& change : edits) CHECK(change["newText"] == "rise");
  rename["newName"] = "lean";
  CHECK_THAT(client.request("textDocument/rename", rename)["error"]["message"].get<std::string>(),
             Catch::Contains("exists already"));
  rename["newName"] = "2fast";
  CHECK(client.request("textDocument/rename", rename)["error"]["code"] == -32803);
  json blockRename = LspClient::at(kUri, 1, 8);
  blockRename["newName"] = "knees";
  CHECK_THAT(
      client.request("textDocument/rename", blockRename)["error"]["message"].get<std::string>(),
      Catch::Contains("is a joint"));
}

TEST_CASE("lsp: the outline, formatting and semantic tokens", "[lsp]") {
  LspClient client;
  client.open(kUri, kScript);
  const json symbols =
      client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  REQUIRE(symbols.size() == 5);  // scene, balance, lean, standup, hold
  CHECK(symbols[0]["name"] == "scene");
  CHECK(symbols[1]["name"] == "balance");
  CHECK(symbols[2]["name"] == "lean");
  CHECK(symbols[2]["detail"] == "after 0.4 s → standup");
  CHECK(symbols[2]["range"]["start"] == position(4, 0));
  CHECK(symbols[2]["range"]["end"] == position(8, 1));
  CHECK(symbols[2]["selectionRange"]["start"] == position(5, 3));
  CHECK(symbols[4]["detail"] == "mirror of standup; finally after 1 s → lean");
  LspClient flat(json::object());
  flat.open(kUri, kScript);
  const json information =
      flat.result("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  REQUIRE(information.size() == 5);
  CHECK(information[2]["location"]["uri"] == kUri);

  const json formatParams = {{"textDocument", {{"uri", kUri}}}, {"options", json::object()}};
  const json edits = client.result("textDocument/formatting", formatParams);
  REQUIRE(edits.size() == 1);
  CHECK(edits[0]["newText"] == scl::print(scl::parse(kScript, "m.scl").script, {}));
  CHECK(edits[0]["range"]["end"] == position(21, 0));
  client.change(kUri, 2, 6, 2, 6, 3, "");  // `[waist` loses its `[`: a syntax error
  CHECK(client.request("textDocument/formatting", formatParams)["error"]["code"] == -32803);
  client.change(kUri, 3, 6, 2, 6, 2, "[");

  const json tokens =
      client.result("textDocument/semanticTokens/full", {{"textDocument", {{"uri", kUri}}}});
  const std::vector<int> data = tokens["data"].get<std::vector<int>>();
  REQUIRE(data.size() % 5 == 0);
  // Decode into (line, character, length, type) and look some up.
  const json legend =
      client.initializeResult["result"]["capabilities"]["semanticTokensProvider"]["legend"];
  std::map<std::pair<int, int>, std::string> types;
  int line = 0, character = 0;
  for (size_t i = 0; i < data.size(); i += 5) {
    line += data[i];
    character = data[i] == 0 ? character + data[i + 1] : data[i + 1];
    types[{line, character}] = legend["tokenTypes"][data[i + 3]].get<std::string>();
  }
  CHECK(types[{0, 0}] == "keyword");      // scene
  CHECK(types[{0, 12}] == "enumMember");  // supine
  CHECK(types[{1, 7}] == "function");     // balance
  CHECK(types[{5, 3}] == "event");        // lean
  CHECK(types[{6, 3}] == "variable");     // waist
  CHECK(types[{6, 9}] == "parameter");    // @20
  CHECK(types[{6, 23}] == "keyword");     // time
  CHECK(types[{12, 23}] == "property");   // trunk
  CHECK(types[{12, 34}] == "variable");   // leftAnkle
  CHECK(types[{16, 17}] == "property");   // feet
  CHECK(types[{20, 23}] == "event");      // lean after backto
}

TEST_CASE("lsp: world statements complete, hover and report as scl check does", "[lsp][world]") {
  scl::testing::TempDir dir;
  scl::testing::writeText(dir / "yard.world",
                          "world yard\nbox crate at: (1, 0.2) size: (0.4, 0.4) mass: 10\n");
  const std::string uri = scl::lsp::fileUri(dir / "world.scl");
  const std::string script =
      "scene pose: standing duration: 3\n"                                        // 0
      "platform step at: 0.3 size: (1, 0.15)\n"                                   // 1
      "ball b at: (2, 1.3) radius: 0.11 mass: 2 velocity: (-3, 0) launch: 0.5\n"  // 2
      "\n"                                                                        // 3
      "{ (stand) }\n";                                                            // 4
  LspClient client;
  client.open(uri, script);
  CHECK(client.diagnostics(uri).empty());
  // Kinds at the start of a line before the first phase.
  const auto start = client.completionLabels(uri, 3, 0);
  for (const char* kind : {"ground", "platform", "wall", "table", "stairs", "slope", "box", "ball",
                           "capsule", "chain"})
    CHECK(has(start, kind));
  CHECK(has(start, "define"));
  CHECK_FALSE(has(start, "pose:"));  // the header is over once a body is written
  const json items = client.result("textDocument/completion", LspClient::at(uri, 3, 0))["items"];
  for (const json& item : items)
    if (item["label"] == "box") CHECK(item["detail"] == "a movable box");
  // A kind's keys after its name, those not written yet, each with what it is.
  client.change(uri, 2, 3, 0, 3, 0, "box crate ");
  const auto keys = client.completionLabels(uri, 3, 10);
  CHECK(has(keys, "at:"));
  CHECK(has(keys, "size:"));
  CHECK(has(keys, "mass:"));
  CHECK(has(keys, "launch:"));
  CHECK_FALSE(has(keys, "radius:"));  // a ball's
  CHECK_FALSE(has(keys, "box"));
  client.change(uri, 3, 3, 10, 3, 10, "at: (1, 0.2) ");
  const auto more = client.completionLabels(uri, 3, 23);
  CHECK_FALSE(has(more, "at:"));
  CHECK(has(more, "size:"));
  CHECK(client.completionLabels(uri, 3, 17).empty());  // inside the pair: a number is due
  CHECK(client.completionLabels(uri, 3, 4).empty());   // the name: anything
  client.change(uri, 4, 3, 0, 3, 23, "chain rope fixed: ");
  CHECK(client.completionLabels(uri, 3, 18) == std::vector<std::string>{"yes", "no"});
  client.change(uri, 5, 3, 0, 3, 18, "");
  REQUIRE(*client.server.documentText(uri) == script);
  // Before any body, the line after the header takes kinds and the header's arguments,
  // `world:` among them; after `world:` the world files beside the script.
  client.change(uri, 6, 1, 0, 3, 0, "");
  const auto header = client.completionLabels(uri, 1, 0);
  CHECK(has(header, "box"));
  CHECK(has(header, "world:"));
  CHECK_FALSE(has(header, "duration:"));  // written already
  client.change(uri, 7, 0, 32, 0, 32, " world: ");
  CHECK(client.completionLabels(uri, 0, 40) == std::vector<std::string>{"yard.world"});
  client.change(uri, 8, 0, 40, 0, 40, "\"yard.world\"");

  // Hover: a kind with its keys, a key with what it is, the body's name, the world file.
  const auto hoverText = [&](int line, int character) -> std::string {
    const json result = client.result("textDocument/hover", LspClient::at(uri, line, character));
    return result.is_null() ? "" : result["contents"]["value"].get<std::string>();
  };
  CHECK_THAT(hoverText(0, 43), Catch::Contains("world file") && Catch::Contains("box crate"));
  client.change(uri, 9, 0, 32, 0, 52, "");
  client.open(uri, script, 10);
  const std::string ball = hoverText(2, 1);
  CHECK_THAT(ball, Catch::StartsWith("**ball**: a movable ball") &&
                       Catch::Contains("`radius:` the radius (m) (required)") &&
                       Catch::Contains("`launch:`"));
  CHECK_THAT(hoverText(2, 44), Catch::Contains("**velocity:** (ball)") && Catch::Contains("m/s"));
  CHECK_THAT(hoverText(1, 14), Catch::Contains("**at:** (platform) the left edge's x (m)"));
  CHECK_THAT(hoverText(1, 10), Catch::Contains("**platform step**"));
  CHECK_THAT(hoverText(2, 5), Catch::Contains("**ball b**"));
  CHECK_THAT(hoverText(0, 1), Catch::Contains("world:"));

  // Diagnostics: the compiler's, at the key they are about.
  client.change(uri, 11, 2, 33, 2, 40, "mss: 2");
  const json diagnostics = client.diagnostics(uri);
  REQUIRE_FALSE(diagnostics.empty());
  CHECK_THAT(diagnostics[0]["message"].get<std::string>(), Catch::Contains("mss"));
  CHECK(diagnostics[0]["range"]["start"]["line"] == 2);

  // The outline lists the bodies.
  client.open(uri, script, 12);
  const json symbols =
      client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}});
  REQUIRE(symbols.size() == 4);  // scene, step, b, stand
  CHECK(symbols[1]["name"] == "step");
  CHECK(symbols[1]["detail"] == "platform");
  CHECK(symbols[2]["name"] == "b");
  CHECK(symbols[2]["selectionRange"]["start"] == position(2, 5));

  // Colours: the kind words and the keys are keywords, the body's name is nothing known.
  const std::vector<int> data =
      client.result("textDocument/semanticTokens/full", {{"textDocument", {{"uri", uri}}}})["data"]
          .get<std::vector<int>>();
  const json legend =
      client.initializeResult["result"]["capabilities"]["semanticTokensProvider"]["legend"];
  std::map<std::pair<int, int>, std::string> types;
  int line = 0, character = 0;
  for (size_t i = 0; i + 4 < data.size(); i += 5) {
    line += data[i];
    character = data[i] == 0 ? character + data[i + 1] : data[i + 1];
    types[{line, character}] = legend["tokenTypes"][data[i + 3]].get<std::string>();
  }
  CHECK(types[{1, 0}] == "keyword");   // platform
  CHECK(types[{1, 14}] == "keyword");  // at
  CHECK(types[{2, 0}] == "keyword");   // ball
  CHECK(types.count({2, 5}) == 0);     // b
}

TEST_CASE("lsp: world files: diagnostics, completion, hover and formatting", "[lsp][world]") {
  const std::string uri = "file:///w/yard.world";
  LspClient client;
  const std::string text =
      "// a yard\n"
      "world   yard\n"
      "box crate   size: (0.4, 0.4) at: (1, 0.2) mass: 10\n"
      "ball b at: (2, 1) radius: 0.1 \n";
  client.open(uri, text);
  const json diagnostics = client.diagnostics(uri);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0]["message"] == "a ball needs 'mass:' (kg) or 'density:' (kg/m²)");
  CHECK(diagnostics[0]["range"]["start"] == position(3, 0));
  const auto kinds = client.completionLabels(uri, 4, 0);
  CHECK(has(kinds, "slope"));
  CHECK(has(client.completionLabels(uri, 3, 30), "mass:"));
  CHECK(client.completionLabels(uri, 0, 3).empty());  // a comment
  CHECK(client.completionLabels(uri, 0, 0) == std::vector<std::string>{"world"});
  CHECK_THAT(client.result("textDocument/hover", LspClient::at(uri, 2, 30))["contents"]["value"]
                 .get<std::string>(),
             Catch::Contains("the centre (x, y) (m)"));
  const json formatParams = {{"textDocument", {{"uri", uri}}}, {"options", json::object()}};
  const json edits = client.result("textDocument/formatting", formatParams);
  REQUIRE(edits.size() == 1);
  CHECK(edits[0]["newText"] ==
        "// a yard\n"
        "world yard\n"
        "\n"
        "box crate at: (1, 0.2) size: (0.4, 0.4) mass: 10\n"
        "ball b at: (2, 1) radius: 0.1\n");
  const json symbols =
      client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}});
  REQUIRE(symbols.size() == 2);
  CHECK(symbols[0]["name"] == "crate");
  client.change(uri, 2, 2, 0, 2, 3, "bx");  // an unknown kind: no formatting
  CHECK(client.request("textDocument/formatting", formatParams)["error"]["code"] == -32803);
}

TEST_CASE("lsp: malformed messages and positions are answered, never a crash", "[lsp]") {
  LspClient client;
  const auto errorCode = [&](const std::string& text) {
    const std::vector<json> answers = client.send(text);
    REQUIRE(answers.size() == 1);
    return answers[0]["error"]["code"].get<int>();
  };
  CHECK(errorCode("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ") == -32700);
  CHECK(errorCode("[1, 2]") == -32600);
  CHECK(errorCode("42") == -32600);
  CHECK(errorCode(std::string(200000, '[') + std::string(200000, ']')) == -32600);  // deep
  // Deep inside params, where copying the value would recurse a million levels deep.
  CHECK(errorCode(R"({"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":)" +
                  std::string(1000000, '[') + std::string(1000000, ']') + "}") == -32600);
  CHECK(errorCode(R"({"jsonrpc":"2.0","id":1,"method":"x","params":{"a":")" +
                  std::string(60000, '[') + "\"}}") == -32601);  // brackets in a string
  CHECK(errorCode(R"({"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"})") == -32600);
  CHECK(errorCode(R"({"jsonrpc":"2.0","id":7,"method":3})") == -32600);
  CHECK(errorCode(R"({"jsonrpc":"2.0","id":7,"method":"textDocument/unknown"})") == -32601);
  CHECK(client.send(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}})").empty());
  CHECK(client.send(R"({"jsonrpc":"2.0","method":"unknown/notification"})").empty());
  CHECK(client.send(R"({"jsonrpc":"2.0","id":99,"result":null})").empty());  // a response
  client.open(kUri, kScript);
  CHECK(client.request("textDocument/hover",
                       {{"textDocument", {{"uri", kUri}}},
                        {"position", {{"line", "x"}, {"character", 0}}}})["error"]["code"] ==
        -32602);
  CHECK(client.request("textDocument/hover",
                       {{"textDocument", {{"uri", kUri}}}})["error"]["code"] == -32602);
  CHECK(client.request("textDocument/hover",
                       LspClient::at("file:///none.scl", 0, 0))["error"]["code"] == -32602);
  // Notifications with bad parameters are logged, not answered.
  client.send(
      R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" +
      kUri + R"("},"contentChanges":[{"range":5,"text":3}]}})");
  CHECK_FALSE(client.logs.empty());
  CHECK(*client.server.documentText(kUri) == kScript);
  // A valid change then a malformed one: the first stays applied, and what the server
  // answers from then on is of that text (it once kept the old analysis, whose locations
  // a rename would have applied to the new text).
  const std::string symbolsBefore =
      client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}}).dump();
  client.send(
      R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" +
      kUri + R"("},"contentChanges":[{"text":"{ (alpha) [waist 10] }\n"},{"text":3}]}})");
  CHECK(*client.server.documentText(kUri) == "{ (alpha) [waist 10] }\n");
  const json symbolsAfter =
      client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  CHECK(symbolsAfter.dump() != symbolsBefore);
  REQUIRE(symbolsAfter.size() == 1);
  CHECK(symbolsAfter[0]["name"] == "alpha");
  client.send(
      R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" +
      kUri + R"("},"contentChanges":[{"text":)" + json(kScript).dump() + "}]}}");
  REQUIRE(*client.server.documentText(kUri) == kScript);
  // Positions anywhere: clamped.
  for (const auto& [line, character] : std::vector<std::pair<long long, long long>>{
           {-1, -1}, {0, 100000}, {1000000, 3}, {21, 0}, {4, 1LL << 40}, {-(1LL << 40), 0}}) {
    const json at = {{"textDocument", {{"uri", kUri}}},
                     {"position", {{"line", line}, {"character", character}}},
                     {"context", {{"includeDeclaration", true}}},
                     {"newName", "x"}};
    for (const char* method :
         {"textDocument/hover", "textDocument/completion", "textDocument/definition",
          "textDocument/references", "textDocument/prepareRename", "textDocument/rename"}) {
      const json answer = client.request(method, at);
      CHECK((answer.contains("result") || answer["error"]["code"] == -32803));
    }
  }
  // Random bytes and mutated messages: an answer to each request, no throw.
  std::mt19937 random(7);
  const std::string valid = json{{"jsonrpc", "2.0"},
                                 {"id", 1},
                                 {"method", "textDocument/completion"},
                                 {"params", LspClient::at(kUri, 12, 10)}}
                                .dump();
  for (int trial = 0; trial < 2000; ++trial) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % text.size();
      text[at] = static_cast<char>(random() % 256);
    }
    // Answered as a malformed message or as bad parameters, never as the server's own
    // failure (an exception it did not expect comes back as -32603).
    for (const json& answer : client.send(text))
      if (answer.contains("error")) CHECK(answer["error"]["code"] != -32603);
  }
  client.idle();
}

TEST_CASE("lsp: random edits and requests anywhere", "[lsp]") {
  // Edits of script pieces, non-ASCII characters and NULs at random ranges (some beyond the
  // text), each followed by a random request at a random place: every request answered.
  const std::vector<std::string> pieces = {"[",
                                           "]",
                                           "{",
                                           "}",
                                           "(",
                                           ")",
                                           ":",
                                           ",",
                                           "@",
                                           "@1",
                                           "-0.5",
                                           "vf",
                                           "on:",
                                           "by:",
                                           "backto",
                                           "lean",
                                           "knees",
                                           "\n",
                                           " ",
                                           "//",
                                           "\"",
                                           "after 0.1",
                                           "when contact",
                                           "define b {",
                                           "é",
                                           "😀",
                                           std::string(1, '\0'),
                                           "(x) : (lean)",
                                           "[symm]",
                                           "finally"};
  const std::vector<std::string> methods = {
      "textDocument/hover",      "textDocument/completion",     "textDocument/definition",
      "textDocument/references", "textDocument/prepareRename",  "textDocument/rename",
      "textDocument/formatting", "textDocument/documentSymbol", "textDocument/semanticTokens/full",
      "textDocument/codeAction"};
  std::mt19937 random(11);
  LspClient client;
  client.open(kUri, kScript);
  const auto any = [&](int limit) {
    return static_cast<int>(random() % static_cast<unsigned>(limit));
  };
  for (int step = 0; step < 3000; ++step) {
    const int line = any(30), character = any(50);
    client.change(kUri, step + 2, line, character, line + any(3), any(50),
                  pieces[static_cast<size_t>(any(static_cast<int>(pieces.size())))]);
    json params = LspClient::at(kUri, any(30), any(60));
    params["newName"] = "renamed";
    params["context"] = {{"includeDeclaration", true}, {"diagnostics", json::array()}};
    params["options"] = json::object();
    params["range"] = {{"start", position(any(30), any(50))}, {"end", position(any(30), any(50))}};
    const json answer =
        client.request(methods[static_cast<size_t>(any(static_cast<int>(methods.size())))], params);
    CHECK((answer.contains("result") || answer["error"]["code"] == -32803));
    if (step % 10 == 0) client.idle();
  }
  CHECK(client.logs.empty());
}

TEST_CASE("lsp: a 1 MB document edited keystroke by keystroke", "[lsp][big]") {
  int phases = 0;
  std::string text = scl::generateScript(1'000'000, phases);
  REQUIRE(text.size() >= 1'000'000);
  LspClient client;
  client.open(kUri, text);
  CHECK(client.diagnostics(kUri).empty());
  // Type a misspelt primitive in the middle, one key at a time, diagnostics published
  // now and then (as `scl lsp` does whenever the keys pause).
  const int line = 20000;
  const std::string typed = "  [gc strength 0.5]\n  [relaks knees strength 0.4]\n";
  int version = 2, character = 0, row = line;
  for (char key : typed) {
    client.change(kUri, version++, row, character, row, character, std::string(1, key));
    if (key == '\n') {
      ++row;
      character = 0;
    } else {
      ++character;
    }
    if (version % 20 == 0) client.idle();
  }
  // Then delete the new second line again with backspaces.
  const std::vector<size_t> starts = [&] {
    std::vector<size_t> out{0};
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') out.push_back(i + 1);
    return out;
  }();
  const std::string expected = text.substr(0, starts[line]) + typed + text.substr(starts[line]);
  CHECK(*client.server.documentText(kUri) == expected);
  const json diagnostics = client.diagnostics(kUri);
  REQUIRE(diagnostics.size() >= 1);
  CHECK_THAT(diagnostics[0]["message"].get<std::string>(),
             Catch::Contains("did you mean 'relax'?"));
  CHECK(diagnostics[0]["range"]["start"] == position(line + 1, 3));
  for (int i = 0; i < 29; ++i) {
    client.change(kUri, version++, line + 1, 28 - i, line + 1, 29 - i, "");
  }
  client.change(kUri, version++, line + 1, 0, line + 2, 0, "");
  CHECK(client.diagnostics(kUri).empty());
  // Requests on the big document.
  CHECK(has(client.completionLabels(kUri, line, 3), "vf"));
  CHECK_FALSE(client.result("textDocument/hover", LspClient::at(kUri, line, 4)).is_null());
  const json symbols =
      client.result("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  CHECK(symbols.size() == static_cast<size_t>(phases) + 1);  // and the scene
}

TEST_CASE("lsp: a 1 MB document on one line", "[lsp][big]") {
  // Every position lies on one line: converting columns must not cost the line's length
  // each time (that would take hours for the outline and the colours).
  int phases = 0;
  std::string text = scl::generateScript(1'000'000, phases);
  text.erase(0, text.find('\n') + 1);  // the `// generated` comment would swallow the line
  std::replace(text.begin(), text.end(), '\n', ' ');
  LspClient client;
  client.open(kUri, text);
  CHECK(client.diagnostics(kUri).empty());
  const json document = {{"textDocument", {{"uri", kUri}}}};
  CHECK(client.result("textDocument/documentSymbol", document).size() ==
        static_cast<size_t>(phases) + 1);
  CHECK(client.result("textDocument/semanticTokens/full", document)["data"].size() > 100000);
  const int middle = static_cast<int>(text.size() / 2);
  client.change(kUri, 2, 0, middle, 0, middle, " } {");  // an error in the middle
  CHECK_FALSE(client.diagnostics(kUri).empty());
  client.result("textDocument/hover", LspClient::at(kUri, 0, middle + 10));
  client.result("textDocument/completion", LspClient::at(kUri, 0, middle + 4));
  client.result("textDocument/codeAction",
                {{"textDocument", {{"uri", kUri}}},
                 {"range", {{"start", position(0, 0)}, {"end", position(0, 1 << 30)}}}});
}

TEST_CASE("lsp: Content-Length framing", "[lsp]") {
  scl::lsp::MessageReader reader;
  const std::string one = scl::lsp::frameMessage("{\"a\":1}");
  CHECK(one == "Content-Length: 7\r\n\r\n{\"a\":1}");
  // A message split anywhere, then two at once.
  for (size_t split = 0; split <= one.size(); ++split) {
    reader.feed(one.substr(0, split));
    if (split < one.size()) CHECK_FALSE(reader.next());
    reader.feed(one.substr(split));
    const auto frame = reader.next();
    REQUIRE(frame);
    CHECK(frame->body == "{\"a\":1}");
  }
  reader.feed(
      one +
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}");
  CHECK(reader.next()->body == "{\"a\":1}");
  CHECK(reader.next()->body == "{}");
  CHECK_FALSE(reader.next());
  // Lax "\n" line ends, then a header without Content-Length, then a bad number.
  reader.feed("Content-Length: 2\n\n[]X-Other: 1\r\n\r\nContent-Length: 1x\r\n\r\n");
  CHECK(reader.next()->body == "[]");
  CHECK_FALSE(reader.next()->ok());
  CHECK_FALSE(reader.next()->ok());
  CHECK_FALSE(reader.next());
  // A body over the limit is skipped, even across feeds; what follows still reads.
  scl::lsp::MessageReader small(10);
  small.feed("Content-Length: 20\r\n\r\n0123456789");
  CHECK_FALSE(small.next()->ok());
  small.feed("0123456789" + one);
  CHECK(small.next()->body == "{\"a\":1}");
  // A Content-Length a few bytes short: the rest of that body runs into the next header,
  // which is still found; one a few bytes long costs the message after it, no more.
  const std::string two = scl::lsp::frameMessage("{\"b\":2}");
  scl::lsp::MessageReader lax;
  lax.feed("Content-Length: 4\r\n\r\n{\"a\":1}" + two + two);
  CHECK(lax.next()->body == "{\"a\"");
  CHECK(lax.next()->body == "{\"b\":2}");
  CHECK(lax.next()->body == "{\"b\":2}");
  CHECK_FALSE(lax.next());
  lax.feed("Content-Length: 10\r\n\r\n{\"a\":1}" + two + two + one);
  CHECK(lax.next()->body == "{\"a\":1}Con");
  CHECK_FALSE(lax.next()->ok());  // "tent-Length: 7"
  CHECK(lax.next()->body == "{\"b\":2}");
  CHECK(lax.next()->body == "{\"a\":1}");
  CHECK_FALSE(lax.next());
  // Garbage without an empty line is dropped once longer than any header.
  small.feed(std::string(10000, 'x'));
  CHECK_FALSE(small.next()->ok());
  small.feed(one);
  CHECK(small.next()->body == "{\"a\":1}");
}

TEST_CASE("lsp: positions in UTF-16 and UTF-8", "[lsp]") {
  using scl::lsp::PositionEncoding;
  const scl::lsp::TextDocument document("a😀b\r\nçd\n\xff\xfe x");
  CHECK(document.lineCount() == 3);
  CHECK(document.line(0) == "a😀b");
  CHECK(document.offsetAt({0, 3}, PositionEncoding::Utf16) == 5);
  CHECK(document.offsetAt({0, 2}, PositionEncoding::Utf16) == 1);   // inside the pair
  CHECK(document.offsetAt({0, 99}, PositionEncoding::Utf16) == 6);  // before "\r\n"
  CHECK(document.offsetAt({1, 1}, PositionEncoding::Utf16) == 10);
  CHECK(document.offsetAt({1, 1}, PositionEncoding::Utf8) == 8);    // inside ç: its start
  CHECK(document.offsetAt({2, 3}, PositionEncoding::Utf16) == 15);  // invalid bytes: 1 each
  CHECK(document.positionAt(5, PositionEncoding::Utf16) == scl::lsp::Position{0, 3});
  CHECK(document.positionAt(5, PositionEncoding::Utf8) == scl::lsp::Position{0, 5});
  CHECK(document.positionAt(1000, PositionEncoding::Utf16) == scl::lsp::Position{2, 4});
  CHECK(document.positionOf({{}, 2, 2}, PositionEncoding::Utf16) == scl::lsp::Position{1, 1});
  CHECK(scl::lsp::pathOfUri("file:///a%20b/c%C3%A9.scl") == "/a b/cé.scl");
  CHECK(scl::lsp::fileUri("/a b/cé.scl") == "file:///a%20b/c%C3%A9.scl");
  CHECK(scl::lsp::pathOfUri("untitled:1").empty());
}

TEST_CASE("lsp: a world statement's @ number and a push: hover and completion", "[lsp][world]") {
  const std::string uri = "file:///w/lift.scl";
  const std::string script =
      "scene pose: standing duration: 3\n"                      // 0
      "platform step at: 2 size: (1, 0.15)\n"                   // 1
      "box crate at: (0.45, 0.5) size: (0.3, 0.25) mass: @2\n"  // 2
      "push trunk force: (120, 0) at: 1 for: 0.5\n"             // 3
      "\n"                                                      // 4
      "{ (stand) }\n";                                          // 5
  LspClient client;
  client.open(uri, script);
  CHECK(client.diagnostics(uri).empty());
  const auto hoverText = [&](int line, int character) -> std::string {
    const json result = client.result("textDocument/hover", LspClient::at(uri, line, character));
    return result.is_null() ? "" : result["contents"]["value"].get<std::string>();
  };
  CHECK_THAT(hoverText(2, 51), Catch::Contains("**@ parameter crate.mass**") &&
                                   Catch::Contains("scl run --set crate.mass=VALUE"));
  CHECK_THAT(hoverText(3, 1), Catch::StartsWith("**push**: a push the script carries") &&
                                  Catch::Contains("`force:` the force (fx, fy) (N) (required)"));
  CHECK_THAT(hoverText(3, 28), Catch::Contains("**at:** (push) when the push starts (s)"));
  // After `push `: the links and the movable objects, not terrain.
  client.change(uri, 2, 4, 0, 4, 0, "push ");
  const auto targets = client.completionLabels(uri, 4, 5);
  CHECK(has(targets, "trunk"));
  CHECK(has(targets, "crate"));
  CHECK_FALSE(has(targets, "step"));
  CHECK_FALSE(has(targets, "feet"));  // one link, no group
  // Then its keys; `push` among the kinds a line begins with.
  client.change(uri, 3, 4, 5, 4, 5, "crate ");
  const auto keys = client.completionLabels(uri, 4, 11);
  CHECK(has(keys, "force:"));
  CHECK(has(keys, "for:"));
  CHECK_FALSE(has(keys, "mass:"));
  client.change(uri, 4, 4, 0, 4, 11, "");
  CHECK(has(client.completionLabels(uri, 4, 0), "push"));
  // `with` offers the bodies, not what is pushed.
  client.change(uri, 5, 5, 11, 5, 11, "\nwhen contact leftFoot with ");
  const auto bodies = client.completionLabels(uri, 6, 27);
  CHECK(has(bodies, "crate"));
  CHECK_FALSE(has(bodies, "trunk"));
}
