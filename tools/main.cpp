// The `scl` program: one binary, one subcommand per task (check, fmt, run, ...).
#include <cstdio>
#include <cstring>
#include <string_view>

#include "tools/commands.h"

namespace {

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
  for (const Subcommand& command : kSubcommands)
    if (command.name == name) return command.main(argc - 1, argv + 1);
  std::fprintf(stderr, "scl: unknown command '%s' (run 'scl --help' for the list)\n", argv[1]);
  return 2;
}
