// `// outcome:` lines: what a script says in its header that it does, in words a program
// can check (docs/motions.md, What each example shows). The test suite checks them on every
// shipped script and `scl run --seeds` on the starts it sweeps.
//
//   // outcome: mark NAME                  meets motion NAME's mark (docs/marks.md)
//   // outcome: standing at end            | not standing at end
//   // outcome: fell by T                  | no fall
//   // outcome: phase changes at least N
//   // outcome: airborne at least T        the longest single flight, seconds
//   // outcome: travels at least D         the farthest forward pelvis travel, metres
//   // outcome: touches LINK               LINK touched the environment at some time
//   // outcome: touches only L1, L2, ...   no other link ever touched it
//   // outcome: ends on BODY               both feet touch the scene body BODY at the end
//   // outcome: BODY hits LINK             the scene body BODY touched LINK at some time
//                                          (a movable object too: a ball at the trunk)
//   // outcome: holding BODY at end        a link holds the movable body BODY at the end
//   // outcome: BODY moves at least D      the movable body's centre ends D metres or more
//                                          from where it started, along x
//   // outcome: BODY ends above H          the movable body's centre ends H m high or more
//   // outcome: BODY ends on BODY2         the movable body touches BODY2 at the end
//   // outcome: N of 20 perturbed starts   the other lines (but `mark`) hold from at least
//                                          N of the ±2° starts with seeds 1–20
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/metrics.h"
#include "scl/character.h"
#include "scl/diagnostics.h"
#include "scl/program.h"

namespace scl {

/// What one outcome line claims.
enum class OutcomeKind {
  Mark,              ///< `mark NAME`: a motion's mark, checked by its own trials
  StandingAtEnd,     ///< `standing at end`
  NotStandingAtEnd,  ///< `not standing at end`
  NoFall,            ///< `no fall`
  FellBy,            ///< `fell by T`
  PhaseChanges,      ///< `phase changes at least N`
  Airborne,          ///< `airborne at least T`
  Travels,           ///< `travels at least D`
  Touches,           ///< `touches LINK`
  TouchesOnly,       ///< `touches only L1, L2, ...`
  EndsOn,            ///< `ends on BODY`
  Hits,              ///< `BODY hits LINK`
  HoldingAtEnd,      ///< `holding BODY at end`
  ObjectMoves,       ///< `BODY moves at least D`
  ObjectEndsAbove,   ///< `BODY ends above H`
  ObjectEndsOn,      ///< `BODY ends on BODY2`
  PerturbedQuota,    ///< `N of 20 perturbed starts`
};

/// One `// outcome:` line.
struct OutcomeClaim {
  OutcomeKind kind = OutcomeKind::NoFall;
  /// The words after `// outcome: `, as written.
  std::string text;
  /// 1-based line of the script.
  int line = 0;
  /// T (seconds), N (count) or D (metres) where the line has one.
  double value = 0.0;
  /// The mark's name (Mark).
  std::string mark;
  /// Link indices (Touches, TouchesOnly, Hits; EndsOn: the character's two feet).
  std::vector<int> links;
  /// The scene body, index into Scene::bodies (EndsOn, Hits, and the object lines' BODY).
  int body = -1;
  /// The object line `BODY ends on BODY2`'s BODY2, index into Scene::bodies.
  int other = -1;
};

/// The outcome lines of a script, and what was wrong with the ones that could not be read:
/// errors located at the line's words ("unknown outcome 'standing'", "unknown link
/// 'leftFot'; did you mean 'leftFoot'?", "unknown scene body 'stpe'; did you mean
/// 'step'?"), rendered as every diagnostic is.
struct OutcomeLines {
  std::vector<OutcomeClaim> claims;
  std::vector<Diagnostic> errors;
  /// The `N of 20 perturbed starts` line, if any.
  const OutcomeClaim* quota() const;
};

/// Reads every line of `source` (the file `fileName`, for locations) that starts with
/// `// outcome: `; link names are the program's character's, body names its scene's.
OutcomeLines readOutcomeLines(std::string_view source, std::string_view fileName,
                              const Program& program);
/// The same for the program `source` compiles to against `character`: the source is
/// compiled (its world file read) only when a line names a scene body, to learn the
/// scene's bodies.
OutcomeLines readOutcomeLines(std::string_view source, std::string_view fileName,
                              const Character& character);

/// Whether a run's summary meets a claim. Mark and PerturbedQuota are not claims about one
/// run: nullopt.
std::optional<bool> outcomeHolds(const OutcomeClaim& claim, const MotionSummary& summary);

/// The starts a quota asks for out of `starts`: N of 20 scaled to `starts`, rounded up.
int quotaFor(const OutcomeClaim& quota, int starts);

}  // namespace scl
