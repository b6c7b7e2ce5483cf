// The `scl` program: one binary, one subcommand per task (check, fmt, run, ...).
#include <cstdio>
#include <cstring>
#include <string_view>

#include "tools/commands.h"
#include "tools/version.h"

namespace {

// `scl version` and `scl --version`: "scl 0.1 (git abc1234)", the commit the build was
// configured at (marked -dirty when it had uncommitted changes).
int versionMain(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf("usage: scl version (or scl --version): print the version and git commit\n");
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "scl version: unexpected argument '%s' (it takes none)\n", argv[1]);
    return 2;
  }
  std::printf("scl %.*s", static_cast<int>(scl::kVersion.size()), scl::kVersion.data());
  if (!scl::kGitCommit.empty())
    std::printf(" (git %.*s)", static_cast<int>(scl::kGitCommit.size()), scl::kGitCommit.data());
  std::printf("\n");
  return 0;
}

struct Subcommand {
  std::string_view name;
  std::string_view summary;
  int (*main)(int argc, char** argv);
};

constexpr Subcommand kSubcommands[] = {
    {"check", "check scripts and print their diagnostics", scl::sclCheckMain},
    {"fmt", "print a script in canonical form", scl::sclFmtMain},
    {"run", "simulate a script headless: summary, trajectory CSV, filmstrip SVG", scl::sclRunMain},
    {"view", "show a script in a window and reload it on every save", scl::sclViewMain},
    {"bench", "measure physics, controller and checker speed", scl::sclBenchMain},
    {"optimize", "tune a script's @ numbers with CMA-ES against an objective file",
     scl::sclOptimizeMain},
    {"character", "print the character's links, joints and joint signs", scl::sclCharacterMain},
    {"version", "print the version and the git commit it was built from", versionMain},
};

void printUsage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: scl <command> [options]   (scl <command> --help for its options)\n\ncommands:\n");
  for (const Subcommand& command : kSubcommands)
    std::fprintf(out, "  %-10.*s %.*s\n", static_cast<int>(command.name.size()),
                 command.name.data(), static_cast<int>(command.summary.size()),
                 command.summary.data());
  std::fprintf(out, "\nexit codes: 0 ok, 1 script error, 2 usage error, 3 simulation failure\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    printUsage(stderr);
    return 2;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(stdout);
    return 0;
  }
  if (name == "--version") return versionMain(argc - 1, argv + 1);
  for (const Subcommand& command : kSubcommands)
    if (command.name == name) return command.main(argc - 1, argv + 1);
  std::fprintf(stderr, "scl: unknown command '%s' (run 'scl --help' for the list)\n", argv[1]);
  return 2;
}
