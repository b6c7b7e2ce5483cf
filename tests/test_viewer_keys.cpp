// The viewer's key table (tools/viewer/keys.h): one binding per action and per key, the
// on-screen help listing every row, and docs/viewer.md's table of keys being the table's.
// That every action is handled is the compiler's check: ViewerApp::perform switches over
// ViewerAction without a default, and -Wall -Werror makes a missing case an error.
#include <catch2/catch.hpp>

#ifdef SCL_HAVE_VIEWER

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tools/viewer/keys.h"

using namespace scl;

namespace {

// The lines of the Markdown table that follows `heading` in `path` (blank lines skipped).
std::vector<std::string> tableAfter(const std::string& path, const std::string& heading) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && line != heading) {
  }
  std::vector<std::string> table;
  while (std::getline(in, line)) {
    if (line.empty() && table.empty()) continue;
    if (line.rfind('|', 0) != 0) break;
    table.push_back(line);
  }
  return table;
}

}  // namespace

TEST_CASE("viewer keys: every key does one thing, every action has one row", "[viewer]") {
  std::set<char32_t> characters;
  std::set<NamedKey> namedKeys;
  std::vector<int> rowsOfAction(kViewerActionCount, 0);
  for (const ViewerKeyBinding& binding : viewerKeyBindings()) {
    INFO("keys " << keyLabel(binding));
    CHECK((!binding.characters.empty() || binding.namedKey != NamedKey::kNone));
    for (const char32_t character : binding.characters) {
      // Printable ASCII, and nothing that would break the docs' Markdown table.
      CHECK((character >= U' ' && character <= U'~'));
      CHECK((character != U'|' && character != U'`'));
      CHECK(characters.insert(character).second);
      CHECK(keyBindingOf(character) == &binding);
    }
    if (binding.namedKey != NamedKey::kNone) {
      CHECK(namedKeys.insert(binding.namedKey).second);
      CHECK(keyBindingOf(binding.namedKey) == &binding);
    }
    ++rowsOfAction.at(static_cast<size_t>(binding.action));
    CHECK(binding.help.find('|') == std::string_view::npos);
  }
  for (int action = 0; action < kViewerActionCount; ++action) {
    INFO("action " << action);
    CHECK(rowsOfAction[static_cast<size_t>(action)] == 1);
  }
  CHECK(keyBindingOf(U'x') == nullptr);
  CHECK(keyBindingOf(U'\x1b') == nullptr);  // Esc also types this: the named key acts
  CHECK(keyBindingOf(U'\0') == nullptr);
  CHECK(keyBindingOf(NamedKey::kNone) == nullptr);
}

TEST_CASE("viewer keys: labels name every key", "[viewer]") {
  auto labelOf = [](ViewerAction action) {
    for (const ViewerKeyBinding& binding : viewerKeyBindings())
      if (binding.action == action) return keyLabel(binding);
    return std::string("(none)");
  };
  CHECK(labelOf(ViewerAction::kPauseResume) == "space");
  CHECK(labelOf(ViewerAction::kJumpToPhase) == "1-9");
  CHECK(labelOf(ViewerAction::kToggleHelp) == "?  h  F1");
  CHECK(labelOf(ViewerAction::kStepBack) == ",  ←");
  CHECK(labelOf(ViewerAction::kSlower) == "-  _");
}

TEST_CASE("viewer keys: the on-screen help lists every key and mouse gesture", "[viewer]") {
  const std::vector<std::string> help = keyHelp();
  const auto keys = viewerKeyBindings();
  const auto gestures = viewerMouseGestures();
  REQUIRE(help.size() == keys.size() + gestures.size());
  for (size_t i = 0; i < help.size(); ++i) {
    const std::string& line = help[i];
    INFO(line);
    const std::string label =
        i < keys.size() ? keyLabel(keys[i]) : std::string(gestures[i - keys.size()].gesture);
    const std::string_view what = i < keys.size() ? keys[i].help : gestures[i - keys.size()].help;
    CHECK(line.rfind(label + "  ", 0) == 0);
    CHECK(line.size() >= what.size());
    CHECK(line.compare(line.size() - what.size(), what.size(), what) == 0);
    CHECK(line.size() <= 90);  // the panel's width at 1280 pixels
  }
}

TEST_CASE("viewer keys: docs/viewer.md's table is the key table", "[viewer]") {
  const std::vector<std::string> documented =
      tableAfter(SCL_SOURCE_DIR "/docs/viewer.md", "## Keys and mouse");
  const std::vector<std::string> expected = keyTableMarkdown();
  CHECK(documented.size() == expected.size());
  for (size_t i = 0; i < std::min(documented.size(), expected.size()); ++i) {
    INFO("row " << i);
    CHECK(documented[i] == expected[i]);
  }
}

#endif  // SCL_HAVE_VIEWER
