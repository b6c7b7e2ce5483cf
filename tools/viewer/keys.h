// The viewer's keys in one table: which keys do what, and the help that says so. The
// window's event handler (viewer.cpp), the on-screen help (F1) and the table of keys in
// docs/viewer.md all come from it (tests/test_viewer_keys.cpp checks the page). No SFML
// here: the handler maps SFML's keys to NamedKey.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scl {

/// What a key does in the viewer.
enum class ViewerAction {
  kPauseResume,
  kStepForward,
  kStepBack,
  kScrubToOldest,
  kBackToLive,
  kResumeFromScrub,
  kTogglePlots,
  kNextPlotJoint,
  kPreviousPlotJoint,
  kSlower,
  kFaster,
  kRestart,
  kToggleContinueOnSave,
  kJumpToPhase,
  kToggleSliders,
  kWriteBack,
  kToggleOptimizer,
  kShowBest,
  kScreenshot,
  kResetView,
  kToggleHelp,
  kQuit,
};

/// How many ViewerActions there are (kQuit is the last).
inline constexpr int kViewerActionCount = static_cast<int>(ViewerAction::kQuit) + 1;

/// A key that types no character.
enum class NamedKey { kNone, kEscape, kF1, kLeft, kRight, kHome, kEnd, kEnter };

/// One row of the table: the keys, what they do, the help that says so.
struct ViewerKeyBinding {
  /// The characters that trigger it, as typed (`J` is shift+j).
  std::u32string_view characters;
  /// A key that types no character and triggers it too; kNone: none.
  NamedKey namedKey = NamedKey::kNone;
  ViewerAction action = ViewerAction::kQuit;
  /// What it does, one line, for the on-screen help and docs/viewer.md.
  std::string_view help;
};

/// A mouse gesture and what it does (the window's mouse events handle it).
struct ViewerMouseGesture {
  std::string_view gesture;
  std::string_view help;
};

/// Every key binding, in the order the help lists them.
std::span<const ViewerKeyBinding> viewerKeyBindings();

/// Every mouse gesture, in the order the help lists them (after the keys).
std::span<const ViewerMouseGesture> viewerMouseGestures();

/// The binding of a typed character, nullptr for none.
const ViewerKeyBinding* keyBindingOf(char32_t character);

/// The binding of a key that types no character, nullptr for none (and for kNone).
const ViewerKeyBinding* keyBindingOf(NamedKey key);

/// A binding's keys as the on-screen help writes them: "space", "1-9", "F1  ?  h".
std::string keyLabel(const ViewerKeyBinding& binding);

/// The help F1 shows: a line per key binding, then per mouse gesture, "KEYS  what".
std::vector<std::string> keyHelp();

/// The table of keys and mouse gestures of docs/viewer.md, its Markdown lines: the
/// header, the rule, a row per key binding, then per mouse gesture.
std::vector<std::string> keyTableMarkdown();

}  // namespace scl
