// Subcommands of the `scl` program. Each takes the arguments after `scl` (argv[0] is the
// subcommand's name) and returns the process exit code.
#pragma once

namespace scl {

/// `scl check FILE...`: diagnostics of scripts and character files (by extension) to
/// stderr; exit 0 (warnings at most), 1 (an error), 2 (usage error).
int sclCheckMain(int argc, char** argv);

/// `scl fmt FILE`: the canonical form of a script or a character file to stdout; exit 1
/// with diagnostics if it does not parse, 2 on a usage error.
int sclFmtMain(int argc, char** argv);

/// `scl run [SCRIPT] [options]`: simulate headless and print a summary; exit 0, 1 (script
/// error), 2 (usage error) or 3 (simulation failure).
int sclRunMain(int argc, char** argv);

/// `scl bench [--quick] [--json]`: the benchmarks in one table; exit 0, 1 (the kip-up
/// script has errors), 2 (usage error) or 3 (simulation failure).
int sclBenchMain(int argc, char** argv);

/// `scl optimize SCRIPT OBJECTIVE [options]`: CMA-ES over the script's `@` numbers; exit 0,
/// 1 (script or objective error), 2 (usage error) or 3 (failure, e.g. unwritable output).
int sclOptimizeMain(int argc, char** argv);

/// `scl sam sample SCRIPT PROBLEM [options]`: sample a state-action compatibility model;
/// exit 0, 1 (script or problem error), 2 (usage error), 3 (failure) or 130/143.
int sclSamMain(int argc, char** argv);

/// `scl character [NAME|FILE] [--markdown | --svg | --file]`: a character's tables, its
/// reference page, its joint-sign figure or its file in canonical form; exit 0, 1 (the
/// character file has errors), 2 (usage error) or 3 (the output could not be written).
int sclCharacterMain(int argc, char** argv);

/// `scl lsp`: the language server on standard input and output (docs/editors.md); exit 0
/// after the client's shutdown and exit, 1 when the input ends first, 2 on a usage error.
int sclLspMain(int argc, char** argv);

/// `scl plot SCRIPT|TRAJECTORY.csv [options]`: the plots of a motion as SVG (docs/plot.md);
/// exit 0, 1 (script or CSV error), 2 (usage error) or 3 (simulation or write failure).
int sclPlotMain(int argc, char** argv);

/// `scl clip import FILE.bvh --map MAP --out OUT.clip`: a BVH file as a motion clip
/// (docs/clips.md); exit 0, 1 (BVH or mapping errors), 2 (usage error) or 3 (not written).
int sclClipMain(int argc, char** argv);

/// `scl view SCRIPT [options]`: the SFML viewer with hot reload; exit 0, 1 (script
/// error), 2 (usage error, no display).
int sclViewMain(int argc, char** argv);

}  // namespace scl
