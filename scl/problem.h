// State–action problem files (`*.problem`, docs/state-action.md): the situations a script
// should work in (the state), the script's `@` numbers that make up its action, and what
// "it works" (compatible) means — the input of `scl sam` (thesis §6). Parsed by the same
// front end as objective files (one statement per line; scl/problem_parser.cpp on the
// statement base the two share, scl/statement_parser.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "scl/scene.h"
#include "scl/source_location.h"

namespace scl {

/// A scene quantity a problem's state varies.
enum class StateQuantity {
  ChairHeight,  ///< `height`: the chair's seat height, m (the scene needs the chair)
};

/// `state NAME LO HI scale S start X`
struct ProblemState {
  StateQuantity quantity = StateQuantity::ChairHeight;
  /// As written (`height`), for columns and messages.
  std::string name;
  /// Its range, in its unit; every sampled state lies inside.
  double lower = 0.0, upper = 0.0;
  /// Distance scale: one unit of distance is 1/scale of the quantity.
  double scale = 1.0;
  /// The starting point's value (compatible with the script's own action).
  double start = 0.0;
  SourceLocation location;
};

/// `action PARAMETER LO HI scale S`: an `@` number of the script (its name as
/// `scl optimize` prints it), in script units; its start is the script's value.
struct ProblemAction {
  std::string parameter;
  double lower = 0.0, upper = 0.0;
  double scale = 1.0;
  SourceLocation location;
};

/// One line of `compatible ...`: what a run must show (all lines must hold).
enum class CompatibleWhen {
  StandingAtEnd,  ///< `compatible standing at end`
  NoFall,         ///< `compatible no fall`
};

struct ProblemDef {
  /// The scene; nullopt: the script's own scene header.
  std::optional<Scene> scene;
  /// Simulated time per point, seconds; nullopt: the script's `duration:`.
  std::optional<double> duration;
  std::vector<ProblemState> states;
  std::vector<ProblemAction> actions;
  std::vector<CompatibleWhen> compatible;
  /// Sampling paths; 0: the number of dimensions + 1 (thesis §6.1).
  int paths = 0;
  /// Points per generation of each path.
  int population = 7;
  /// Initial standard deviation of each coordinate in scaled units (SamSamplerDef).
  double step = 0.5;
  /// The file the problem came from, for messages.
  std::string fileName;
};

struct ProblemParseResult {
  /// Present exactly when `diagnostics` has no error.
  std::optional<ProblemDef> problem;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return problem.has_value(); }
};

/// Parses a problem file. Never throws on any input.
ProblemParseResult parseProblem(std::string_view source, std::string_view fileName);

}  // namespace scl
