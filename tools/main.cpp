// The `scl` program: one binary, one subcommand per task (check, fmt, run, ...).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string_view>
#include <vector>

#include "scl/diagnostics.h"
#include "tools/cli.h"
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
    {"check", "check scripts, character, objective and problem files: print their diagnostics",
     scl::sclCheckMain},
    {"fmt", "print a script, a character, world or clip file in canonical form", scl::sclFmtMain},
    {"run", "simulate a script headless: summary, trajectory CSV, filmstrip SVG", scl::sclRunMain},
    {"view", "show a script in a window and reload it on every save", scl::sclViewMain},
    {"plot", "plot a run (or a trajectory CSV) as SVG: joints, centre of mass, contacts",
     scl::sclPlotMain},
    {"bench", "measure physics, controller and checker speed", scl::sclBenchMain},
    {"optimize", "tune a script's @ numbers with CMA-ES against an objective file",
     scl::sclOptimizeMain},
    {"sam", "sample a state-action compatibility model (which actions work where)",
     scl::sclSamMain},
    {"clip", "import a BVH file as a motion clip of a character (through a mapping file)",
     scl::sclClipMain},
    {"character", "print a character's links, joints and joint signs, or its file",
     scl::sclCharacterMain},
    {"lsp", "the language server for editors (Language Server Protocol on stdio)", scl::sclLspMain},
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
  std::fprintf(out,
               "\nexit codes: 0 ok, 1 an input file has errors, 2 usage error (options, missing "
               "files), 3 failure (simulation diverged, output not written), 130/143 "
               "interrupted (Ctrl-C / SIGTERM)\n");
}

// Standard output must reach its file: `scl fmt a.scl > b.scl` on a full disk is a
// failure, not an empty b.scl with exit 0. Returns false (with a message) when it did not.
bool flushStandardStreams(std::string_view command) {
  std::cout.flush();
  const bool outOk = !std::cout.fail() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  const int outError = errno;
  const bool closed = std::fclose(stdout) == 0;
  if (outOk && closed) return std::fflush(stderr) == 0;
  std::fprintf(stderr, "scl %.*s: cannot write the output: %s\n", static_cast<int>(command.size()),
               command.data(), std::strerror(outOk ? errno : outError));
  return false;
}

// Runs a subcommand: every error ends as a message and an exit code (docs/cli.md), never
// as an exception escaping main.
int runCommand(const Subcommand& command, int argc, char** argv) {
  const std::string_view name = command.name;
  auto fail = [&](int code, const char* message) {
    std::fprintf(stderr, "scl %.*s: %s\n", static_cast<int>(name.size()), name.data(), message);
    return code;
  };
  int code = scl::kExitFailure;
  try {
    code = command.main(argc, argv);
  } catch (const scl::UsageError& error) {
    code = fail(scl::kExitUsageError, error.what());
  } catch (const scl::InputFileError& error) {
    code = fail(error.exitCode(), error.what());
  } catch (const std::bad_alloc&) {
    code = fail(scl::kExitFailure, "out of memory");
  } catch (const std::exception& error) {
    code = fail(scl::kExitFailure, error.what());
  } catch (...) {
    code = fail(scl::kExitFailure, "an unknown error");
  }
  if (!flushStandardStreams(name) && code == scl::kExitOk) code = scl::kExitFailure;
  return code;
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
    return flushStandardStreams("--help") ? 0 : scl::kExitFailure;
  }
  if (name == "--version") name = "version";
  std::vector<std::string_view> names;
  for (const Subcommand& command : kSubcommands) {
    if (command.name == name) return runCommand(command, argc - 1, argv + 1);
    names.push_back(command.name);
  }
  std::fprintf(stderr, "scl: unknown command '%s'%s (run 'scl --help' for the list)\n",
               scl::quoteToken(name).c_str(), scl::didYouMean(name, names).c_str());
  return 2;
}
