// The inputs of every `scl sam` step (docs/state-action.md): a script and a problem file,
// read by the caller, compiled, parsed and bound here; and what each step derives from
// them (the query's space, a plot's axes, a queried action's script).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "optimize/sam/sam_model.h"
#include "optimize/sam/sam_plot.h"
#include "optimize/sam/sam_problem.h"
#include "optimize/sam/sam_query.h"

namespace scl {

/// The two input files as read: names for messages, texts exactly as on disk (a
/// checkpoint's hash and an MPI job carry them).
struct SamSources {
  /// The script's path as the user named it.
  std::string scriptFile;
  /// The script's text.
  std::string scriptSource;
  /// The problem's path as the user named it.
  std::string problemFile;
  /// The problem's text.
  std::string problemSource;
};

/// The sources and the problem bound to the script.
struct SamInputs {
  SamSources sources;
  SamProblem problem;
};

struct SamInputsResult {
  /// Present when the script compiles, the problem parses and the two bind.
  std::optional<SamInputs> inputs;
  /// What to show the user, in order: the script's diagnostics and the problem's
  /// (warnings too, rendered against their sources), then the binding's error on a line of
  /// its own. Empty when there is nothing to say.
  std::string messages;
};

/// Compiles the script, parses the problem and binds them (bindSamProblem). Never throws
/// for a user error: it is in `messages`.
SamInputsResult makeSamInputs(SamSources sources);

/// The space a query searches: the problem's state dimensions, ranges and scales.
SamSpace samSpace(const SamProblem& problem);

/// A plot of `model` on the problem's axes (the caller adds points, focus and title);
/// `model` must outlive the plot.
SamPlotData samPlotData(const SamProblem& problem, const SamModel& model);

/// The script of one queried action at `point`: its `@` numbers substituted (the `@`
/// kept, every other byte as written), the state (a chair height) and the problem's
/// duration written into the scene header, so that `scl run` judges it as the query did.
std::string samActionScript(const SamInputs& inputs, const std::vector<double>& point);

}  // namespace scl
