#include "tools/viewer/keys.h"

#include <algorithm>

namespace scl {

namespace {

// One line of help each: the on-screen panel is about 90 characters wide.
constexpr ViewerKeyBinding kKeyBindings[] = {
    {U" ", NamedKey::kNone, ViewerAction::kPauseResume,
     "pause / resume; while scrubbing: resume from the moment shown"},
    {U".", NamedKey::kRight, ViewerAction::kStepForward,
     "one frame (1/60 s) forward: scrubbing, or the live run while paused"},
    {U",", NamedKey::kLeft, ViewerAction::kStepBack,
     "scrub back one frame (1/60 s): the scene shows the recorded state"},
    {U"", NamedKey::kHome, ViewerAction::kScrubToOldest, "scrub to the oldest state kept"},
    {U"", NamedKey::kEnd, ViewerAction::kBackToLive, "back to the live run"},
    {U"", NamedKey::kEnter, ViewerAction::kResumeFromScrub,
     "resume simulating from the moment shown (the run after it is dropped)"},
    {U"p", NamedKey::kNone, ViewerAction::kTogglePlots, "plot panel on / off"},
    {U"j", NamedKey::kNone, ViewerAction::kNextPlotJoint, "plot the next joint"},
    {U"J", NamedKey::kNone, ViewerAction::kPreviousPlotJoint, "plot the previous joint"},
    {U"-_", NamedKey::kNone, ViewerAction::kSlower, "slow motion: half the speed (down to 1/16)"},
    {U"+=", NamedKey::kNone, ViewerAction::kFaster, "fast-forward: twice the speed (up to 4)"},
    {U"r", NamedKey::kNone, ViewerAction::kRestart, "restart from the initial state"},
    {U"c", NamedKey::kNone, ViewerAction::kToggleContinueOnSave,
     "what a save does: restart (default) or continue with the new controller"},
    {U"123456789", NamedKey::kNone, ViewerAction::kJumpToPhase,
     "jump to phase N (while scrubbing: from the moment shown)"},
    {U"t", NamedKey::kNone, ViewerAction::kToggleSliders, "@ slider panel on / off"},
    {U"w", NamedKey::kNone, ViewerAction::kWriteBack,
     "write the sliders' values into the script (also the panel's button)"},
    {U"o", NamedKey::kNone, ViewerAction::kToggleOptimizer,
     "optimize the @ numbers of the phase shown, in the background; again: stop"},
    {U"v", NamedKey::kNone, ViewerAction::kShowBest,
     "show the optimization's best: sliders set to it, run restarted"},
    {U"s", NamedKey::kNone, ViewerAction::kScreenshot, "screenshot (PNG)"},
    {U"0", NamedKey::kNone, ViewerAction::kResetView, "reset zoom and pan"},
    {U"?h", NamedKey::kF1, ViewerAction::kToggleHelp, "this help on / off"},
    {U"q", NamedKey::kEscape, ViewerAction::kQuit, "quit"},
};

constexpr ViewerMouseGesture kMouseGestures[] = {
    {"wheel", "zoom about the mouse; over the slider panel: scroll it"},
    {"right drag", "pan"},
    {"left drag", "push the link or object under the mouse with a spring (500 N/m)"},
    {"bar drag", "scrub through time (the time bar under the scene)"},
    {"slider drag", "set that @ number: the run restarts with it at once"},
    {"link click", "with the plot panel open: plot the joint that moves the link"},
};

std::string_view namedKeyName(NamedKey key) {
  switch (key) {
    case NamedKey::kNone:
      return "";
    case NamedKey::kEscape:
      return "Esc";
    case NamedKey::kF1:
      return "F1";
    case NamedKey::kLeft:
      return "←";
    case NamedKey::kRight:
      return "→";
    case NamedKey::kHome:
      return "Home";
    case NamedKey::kEnd:
      return "End";
    case NamedKey::kEnter:
      return "Enter";
  }
  return "";
}

// How a label writes keys: on screen plainly, in Markdown the characters as code.
struct LabelStyle {
  std::string_view quote;
  std::string_view range;
  std::string_view separator;
};
constexpr LabelStyle kScreenStyle{"", "-", "  "};
constexpr LabelStyle kMarkdownStyle{"`", "–", ", "};

// The characters are printable ASCII (tests/test_viewer_keys.cpp), space named.
std::string characterName(char32_t character, const LabelStyle& style) {
  if (character == U' ') return "space";
  return std::string(style.quote) + static_cast<char>(character) + std::string(style.quote);
}

// The keys of `binding`: three or more consecutive characters as a range ("1-9"), then
// the named key.
std::string label(const ViewerKeyBinding& binding, const LabelStyle& style) {
  std::vector<std::string> names;
  const std::u32string_view typed = binding.characters;
  for (size_t first = 0; first < typed.size();) {
    size_t last = first;
    while (last + 1 < typed.size() && typed[last + 1] == typed[last] + 1) ++last;
    if (last - first < 2) last = first;
    names.push_back(characterName(typed[first], style));
    if (last > first) names.back() += std::string(style.range) + characterName(typed[last], style);
    first = last + 1;
  }
  if (binding.namedKey != NamedKey::kNone) names.emplace_back(namedKeyName(binding.namedKey));
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : std::string(style.separator)) + name;
  return text;
}

// The columns `text` takes on screen: its UTF-8 characters (an arrow is three bytes).
size_t columns(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char byte) {
    return (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
  }));
}

}  // namespace

std::span<const ViewerKeyBinding> viewerKeyBindings() { return kKeyBindings; }

std::span<const ViewerMouseGesture> viewerMouseGestures() { return kMouseGestures; }

const ViewerKeyBinding* keyBindingOf(char32_t character) {
  for (const ViewerKeyBinding& binding : kKeyBindings)
    if (binding.characters.find(character) != std::u32string_view::npos) return &binding;
  return nullptr;
}

const ViewerKeyBinding* keyBindingOf(NamedKey key) {
  if (key == NamedKey::kNone) return nullptr;
  for (const ViewerKeyBinding& binding : kKeyBindings)
    if (binding.namedKey == key) return &binding;
  return nullptr;
}

std::string keyLabel(const ViewerKeyBinding& binding) { return label(binding, kScreenStyle); }

std::vector<std::string> keyHelp() {
  std::vector<std::pair<std::string, std::string_view>> rows;
  for (const ViewerKeyBinding& binding : kKeyBindings)
    rows.emplace_back(keyLabel(binding), binding.help);
  for (const ViewerMouseGesture& gesture : kMouseGestures)
    rows.emplace_back(gesture.gesture, gesture.help);
  size_t width = 0;
  for (const auto& [keys, help] : rows) width = std::max(width, columns(keys));
  std::vector<std::string> lines;
  lines.reserve(rows.size());
  for (const auto& [keys, help] : rows)
    lines.push_back(keys + std::string(width + 2 - columns(keys), ' ') + std::string(help));
  return lines;
}

std::vector<std::string> keyTableMarkdown() {
  std::vector<std::string> lines = {"| key | action |", "|---|---|"};
  auto row = [&](const std::string& keys, std::string_view help) {
    lines.push_back("| " + keys + " | " + std::string(help) + " |");
  };
  for (const ViewerKeyBinding& binding : kKeyBindings)
    row(label(binding, kMarkdownStyle), binding.help);
  for (const ViewerMouseGesture& gesture : kMouseGestures)
    row(std::string(gesture.gesture), gesture.help);
  return lines;
}

}  // namespace scl
