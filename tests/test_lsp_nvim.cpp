// `scl lsp` end to end with a real client: Debian's Neovim (0.7.2) headless, set up as
// docs/editors.md says (editors/vim on the runtimepath, editors/vim/lsp.lua), opens a
// script with an error; tests/lsp/nvim_e2e.lua records the diagnostics its LSP client
// received and a hover and a definition asked through it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using scl::testing::readText;
using scl::testing::shellQuote;
using scl::testing::TempDir;
using scl::testing::writeText;

const std::string kNvim = "/usr/bin/nvim";

// Runs a shell command line; its exit code (128 + N after signal N).
int runShell(const std::string& command) {
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  REQUIRE(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
  const int status = scl::testing::waitWithTimeout(pid, std::chrono::seconds(120));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("scl lsp in Neovim: the client receives the diagnostics", "[lsp][nvim]") {
  if (!fs::exists(kNvim)) {
    WARN("no " << kNvim << ": the Neovim end-to-end test is skipped (apt-get install neovim)");
    return;
  }
  TempDir dir;
  const std::string script = dir / "motion.scl";
  writeText(script,
            "{ (lean)\n"
            "  [kness 0, waist 20]\n"
            "}\n"
            "after 0.4\n"
            "{ (rest) }\n"
            "finally after 1 backto lean\n");
  const std::string result = dir / "result.json";
  const std::string editors = SCL_SOURCE_DIR "/editors/vim";
  // Neovim's own state (logs, shada) stays in the test's directory.
  std::string environment;
  for (const char* name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"})
    environment += std::string(name) + "=" + shellQuote(dir / "nvim") + " ";
  const std::string command =
      "cd " + shellQuote(dir.path().string()) + " && " + environment +
      "SCL_LSP_RESULT=" + shellQuote(result) + " SCL_BINARY=" + shellQuote(scl::testing::kScl) +
      " timeout 100 " + kNvim + " --headless -u NONE -i NONE -n" + " --cmd " +
      shellQuote("set runtimepath^=" + editors) + " --cmd 'filetype plugin on' --cmd 'syntax on'" +
      " --cmd " + shellQuote("lua vim.g.scl_lsp_cmd = { os.getenv('SCL_BINARY'), 'lsp' }") +
      " --cmd " + shellQuote("luafile " + editors + "/lsp.lua") + " -c " +
      shellQuote("luafile " SCL_SOURCE_DIR "/tests/lsp/nvim_e2e.lua") + " motion.scl" +
      " </dev/null >" + shellQuote(dir / "nvim.out") + " 2>&1";
  const int code = runShell(command);
  INFO(readText(dir.path() / "nvim.out"));
  CHECK(code == 0);
  REQUIRE(fs::exists(result));
  const json got = json::parse(readText(result));
  INFO(got.dump(2));
  CHECK(got["filetype"] == "scl");
  CHECK(got["received"] == true);
  REQUIRE(got["diagnostics"].size() == 1);
  const json& diagnostic = got["diagnostics"][0];
  CHECK(diagnostic["message"] == "unknown joint 'kness'; did you mean 'knees'?");
  CHECK(diagnostic["severity"] == 1);  // vim.diagnostic.severity.ERROR
  CHECK(diagnostic["lnum"] == 1);
  CHECK(diagnostic["col"] == 3);
  CHECK(diagnostic["end_col"] == 8);
  CHECK_THAT(got["hover"]["contents"]["value"].get<std::string>(), Catch::Contains("waist"));
  REQUIRE(got["definition"].is_array());
  REQUIRE(got["definition"].size() == 1);
  CHECK(got["definition"][0]["range"]["start"]["line"] == 0);
  CHECK(got["definition"][0]["range"]["start"]["character"] == 3);
}
