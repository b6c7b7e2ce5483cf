// Clip files (`*.clip`, docs/clips.md): a motion clip as text, read by the shared lexer
// and token cursor with located diagnostics, printed in canonical form, and bound to a
// character. One statement per line, then one frame per line:
//
//   // a squat, keyframed by hand
//   clip squat
//   character human
//   interpolation spline
//   loop yes
//   timescale 1
//   root pelvis                        (optional: 3 columns, x y (m) and angle (deg))
//   joints leftHip rightHip leftKnee rightKnee
//   effectors leftFoot                 (optional: 2 columns each, x y (m))
//   0    0.02 0.95 90   10 10 -20 -20   0.1 0.05
//   0.5  0.02 0.70 90   70 70 -110 -110 0.1 0.05
//   1    0.02 0.95 90   10 10 -20 -20   0.1 0.05
//
// A frame's line is its time (s), then its root's x, y, angle, then one angle per joint,
// then each effector's x and y. Angles in degrees, as all SCL text; radians inside.
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scl/character.h"
#include "scl/clip.h"
#include "scl/diagnostics.h"
#include "scl/lexer.h"

namespace scl {

/// The statements of a clip file, in canonical order (for messages and completion).
inline constexpr std::array<std::string_view, 8> kClipStatements = {
    "clip", "character", "interpolation", "loop", "timescale", "root", "joints", "effectors"};

struct ClipParse {
  /// The clip read; meaningful when there are no errors.
  Clip clip;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return !hasErrors(diagnostics); }
};

/// clip-file := "clip" NAME { statement } { frame }   (see the file comment)
/// Reads a clip file's text, reporting every error where it is (an unknown statement with
/// "did you mean", a frame with too few or too many values, times not increasing, a value
/// out of its bounds: clipIssues()). Does not look at any character (bindClip does).
ClipParse parseClip(std::string_view source, std::string_view fileName);

/// The clip's canonical text: every statement (defaults written out) in kClipStatements'
/// order, a blank line, one frame a line, angles in degrees; `comments` (scanComments() of
/// the text it was read from) kept. Reads back as the same clip: times exactly, angles and
/// positions to 1e-6 (degrees, metres).
std::string printClip(const Clip& clip, const std::vector<Comment>& comments = {});

/// A clip bound to a character: its columns as the character's indices.
struct ClipBinding {
  /// The character's joint of each of the clip's joint columns.
  std::vector<int> jointOf;
  /// The clip's column of each of the character's joints, -1 when the clip lacks it.
  std::vector<int> columnOf;
  /// The root link (index into the character's links), -1 when the clip has no root.
  int rootLink = -1;
  /// The character's link of each effector column.
  std::vector<int> effectorOf;
  /// The clip's angle of the character's joint `joint` in `pose`, radians, when it has one.
  std::optional<double> angle(const ClipPose& pose, int joint) const {
    const int column = columnOf[static_cast<size_t>(joint)];
    if (column < 0) return std::nullopt;
    return pose.jointAngles[static_cast<size_t>(column)];
  }
};

/// What bindClip() requires of a clip beyond naming the character's joints and links.
struct ClipNeeds {
  /// Joints (indices into the character's) whose angles the caller needs: each the clip
  /// lacks is an error naming it.
  std::vector<int> joints;
  /// Every joint of the character.
  bool allJoints = false;
  /// The root's pose.
  bool root = false;
  /// Where the need was written (a script's reference to the clip), for the message; line
  /// 0: the clip's `clip` line.
  SourceLocation usedAt;
};

/// Binds `clip` to `character`, reporting into `sink` each error where the clip file wrote
/// it: a clip made for another character (`character` names another body), a joint or link
/// the character has not (with "did you mean"), and what `needs` asks of it that the clip
/// lacks (`clip 'squat' has no angles of joint 'waist'`). nullopt after an error.
std::optional<ClipBinding> bindClip(const Clip& clip, const Character& character,
                                    DiagnosticSink& sink, const ClipNeeds& needs = {});

/// A clip file read from disk.
struct ClipLoad {
  /// The path read.
  std::string path;
  Clip clip;
  /// Its diagnostics (each carries the file's text, Diagnostic::fileText).
  std::vector<Diagnostic> diagnostics;
  /// The file's text (for diagnostics about its lines found later: bindClip's); null when
  /// it was not read.
  std::shared_ptr<const std::string> text;
  /// No readable file at that path (one diagnostic without a location says why).
  bool notFound = false;
  bool ok() const { return !notFound && !hasErrors(diagnostics); }
};

/// Clip files by the name a script declares them under, read instead of the script's own
/// (CompileOptions::clipFiles; `scl run --use-clip NAME=FILE`).
using ClipFiles = std::map<std::string, std::filesystem::path, std::less<>>;

/// Reads and parses the clip file at `path` (relative paths from `baseDirectory`). Never
/// throws.
ClipLoad loadClipFile(std::string_view path, const std::filesystem::path& baseDirectory = {});

}  // namespace scl
