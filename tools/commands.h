// Subcommands of the `scl` program. Each takes the arguments after `scl` (argv[0] is the
// subcommand's name) and returns the process exit code.
#pragma once

namespace scl {

/// `scl check FILE...`: diagnostics to stderr; exit 0 (warnings at most), 1 (an error),
/// 2 (usage error).
int sclCheckMain(int argc, char** argv);

/// `scl fmt FILE`: the canonical form to stdout; exit 1 with diagnostics if it does not
/// parse, 2 on a usage error.
int sclFmtMain(int argc, char** argv);

/// `scl run [SCRIPT] [options]`: simulate headless and print a summary; exit 0, 1 (script
/// error), 2 (usage error) or 3 (simulation failure).
int sclRunMain(int argc, char** argv);

}  // namespace scl
