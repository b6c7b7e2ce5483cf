// docs/tutorial.md, run as a reader would: every `scl` command the page shows (in a
// ```sh block or inline) is one this test runs from the top of a copy of the source tree
// (the viewer's, `scl view`, runs headless in tests/viewer_smoke.sh), every line of a
// ```text block after a command is a line that command prints, the files the commands
// write all go into the scratch directory `out/` (the page's `mkdir -p out`), and the
// scripts and the objective the page shows are the files in docs/tutorial/, verbatim.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using scl::testing::Outcome;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::TempDir;

const fs::path kSource = SCL_SOURCE_DIR;

// A line without its trailing spaces.
std::string trimmed(std::string line) {
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(trimmed(line));
  return lines;
}

// What the page shows: each command in order, and the ```text lines after each.
struct PageCommand {
  std::string command;
  std::vector<std::string> shownOutput;
};

std::vector<PageCommand> commandsOf(const std::string& page) {
  std::vector<PageCommand> commands;
  std::string fence;  // the open block's fence line ("" outside a block)
  // Inline: `scl COMMAND ARGUMENTS` (a bare `scl run` names the command, it is not one).
  const std::regex inlineCommand("`(scl [a-z]+ [^`]+)`");
  for (const std::string& line : linesOf(page)) {
    if (line.rfind("```", 0) == 0) {
      fence = fence.empty() ? line : "";
      continue;
    }
    if (fence == "```sh") {
      if (!line.empty()) commands.push_back({line, {}});
    } else if (fence == "```text") {
      REQUIRE_FALSE(commands.empty());
      if (!line.empty()) commands.back().shownOutput.push_back(line);
    } else if (fence.empty()) {
      for (std::sregex_iterator it(line.begin(), line.end(), inlineCommand), end; it != end; ++it)
        commands.push_back({(*it)[1], {}});
    }
  }
  return commands;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// Every file under `top`, as paths relative to it.
std::vector<std::string> filesUnder(const fs::path& top) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(top))
    if (!entry.is_directory()) files.push_back(fs::relative(entry.path(), top).string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("docs/tutorial.md: every command runs and prints what the page shows",
          "[docs][tutorial]") {
  const std::string page = readText(kSource / "docs/tutorial.md");
  REQUIRE_FALSE(page.empty());
  // The files the page shows are the files the commands read.
  for (const char* file : {"docs/tutorial/1-stand.scl", "docs/tutorial/2-balance.scl",
                           "docs/tutorial/jump.objective"}) {
    INFO(file);
    const std::string text = readText(kSource / file);
    REQUIRE_FALSE(text.empty());
    CHECK(contains(page, "```\n" + text + "```\n"));
  }

  TempDir tree;  // a copy of what the commands read, so that outputs land outside the source
  fs::create_directories(tree.path() / "docs");
  fs::create_directories(tree.path() / "scripts");
  fs::copy(kSource / "docs/tutorial", tree.path() / "docs/tutorial");
  fs::copy_file(kSource / "scripts/jump.scl", tree.path() / "scripts/jump.scl");
  scl::testing::RunOptions top;
  top.workingDirectory = tree.path().string();
  const std::vector<std::string> treeBefore = filesUnder(tree.path());

  // What each command must also do beyond the lines the page shows.
  std::map<std::string, int> runs;
  for (const PageCommand& shown : commandsOf(page)) {
    const std::string& command = shown.command;
    INFO(command);
    if (command == "mkdir -p out") {  // the scratch directory every output goes into
      fs::create_directories(tree.path() / "out");
      continue;
    }
    REQUIRE(command.rfind("scl ", 0) == 0);
    if (command.rfind("scl view ", 0) == 0) {
      // Run headless by tests/viewer_smoke.sh; the page must show the command it runs.
      CHECK(command == "scl view docs/tutorial/2-balance.scl");
      CHECK(contains(readText(kSource / "tests/viewer_smoke.sh"),
                     "docs/tutorial/2-balance.scl --headless-frames"));
      continue;
    }
    const bool repeat = runs[command]++ > 0;
    if (repeat && shown.shownOutput.empty()) continue;  // already run and checked
    const Outcome outcome = runScl(command.substr(4), top);
    INFO(outcome.out << outcome.err);
    CHECK(outcome.exitCode == 0);
    const std::vector<std::string> printed = linesOf(outcome.out + outcome.err);
    for (const std::string& line : shown.shownOutput) {
      INFO("shown: " << line);
      CHECK(std::find(printed.begin(), printed.end(), line) != printed.end());
    }
    // The claims the prose makes about it.
    if (command == "scl check docs/tutorial/1-stand.scl") CHECK(outcome.out + outcome.err == "");
    if (command ==
        "scl run docs/tutorial/2-balance.scl --filmstrip out/stand.svg --out out/stand.csv") {
      CHECK(contains(outcome.out, "standing at end    yes, standing since 1.000 s"));
      CHECK(contains(readText(tree.path() / "out/stand.svg"), "<svg"));
      CHECK(contains(readText(tree.path() / "out/stand.csv"), ",leftFoot_contact,"));
    }
    if (command == "scl run docs/tutorial/4-limp-ankles.scl") {
      CHECK(contains(outcome.out, "fell               yes, at 2.793 s"));
      CHECK(contains(outcome.out, "distance           -0.708 m"));
    }
    if (command == "scl run out/jump.opt/best.scl") {
      CHECK(contains(outcome.out, "standing at end    yes"));
      CHECK(contains(outcome.out, "longest 0.474 s at once"));
      CHECK(contains(outcome.out, "1.376 m in the air"));
      CHECK(contains(readText(tree.path() / "out/jump.opt/best.scl"), "@"));  // `@` kept
    }
  }
  // Everything the commands wrote is in out/: the reader's tree stays as it was.
  std::vector<std::string> written;
  for (const std::string& file : filesUnder(tree.path()))
    if (!std::binary_search(treeBefore.begin(), treeBefore.end(), file)) written.push_back(file);
  REQUIRE_FALSE(written.empty());
  for (const std::string& file : written) {
    INFO(file);
    CHECK(file.rfind("out/", 0) == 0);
  }
  // The page states the optimization's cost in evaluations, which every machine
  // agrees on, not in seconds.
  CHECK(contains(page, "\nstopped after generation 4 (generations), 32 evaluations\n"));
  CHECK_FALSE(std::regex_search(page, std::regex("take[s]? about [0-9.]+ s")));
  // Every command the page shows was run (a command dropped from the page is noticed by
  // the claims above, one added to it runs here).
  CHECK(runs.size() >= 9);
  CHECK(runs.count("scl run out/jump.opt/best.scl") == 1);
  CHECK(runs.count("scl run docs/tutorial/4-limp-ankles.scl") == 1);
}
