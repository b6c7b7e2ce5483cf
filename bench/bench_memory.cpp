// Memory of the front end and the run on big scripts: the peak resident set of `scl check`
// and `scl run` (each in its own process, read from wait4's rusage) on generated scripts
// of 1 and 5 MB, and the growth per phase between them. The goal: `scl run` grows by at
// most 2 KB per phase (a generated phase is about 256 bytes of source), so that memory stays
// within a small constant of the source size; it once grew by 18.5 KB per phase.
//
//   bench_memory [SCL_BINARY]     (default: the scl built beside this benchmark)
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tools/generated_script.h"

extern char** environ;

namespace fs = std::filesystem;

namespace {

/// Peak resident set of `scl COMMAND SCRIPT`, kilobytes; -1 when it did not exit 0.
long peakKilobytes(const std::string& scl, const std::string& command, const fs::path& script) {
  const std::string path = script.string();
  std::vector<char*> argv = {const_cast<char*>(scl.c_str()), const_cast<char*>(command.c_str()),
                             const_cast<char*>(path.c_str()), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, scl.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) != child) return -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return usage.ru_maxrss;
}

struct Row {
  size_t bytes = 0;
  int phases = 0;
  long checkKb = 0;
  long runKb = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string scl = argc > 1 ? argv[1] : SCL_BINARY;
  if (!fs::exists(scl)) {
    std::fprintf(stderr, "bench_memory: no scl at '%s' (give its path)\n", scl.c_str());
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("scl-bench-memory-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::vector<Row> rows;
  for (size_t megabytes : {1, 5}) {
    Row row;
    const std::string text = scl::generateScript(megabytes * 1'000'000, row.phases, 0.01);
    row.bytes = text.size();
    const fs::path script = dir / ("generated-" + std::to_string(megabytes) + "MB.scl");
    std::ofstream(script, std::ios::binary) << text;
    row.checkKb = peakKilobytes(scl, "check", script);
    row.runKb = peakKilobytes(scl, "run", script);
    if (row.checkKb < 0 || row.runKb < 0) {
      std::fprintf(stderr, "bench_memory: scl failed on %s\n", script.c_str());
      fs::remove_all(dir);
      return 1;
    }
    rows.push_back(row);
  }
  fs::remove_all(dir);

  std::printf("peak resident memory of scl on generated scripts (wait4 ru_maxrss)\n");
  std::printf("%10s %8s %14s %14s\n", "script", "phases", "scl check", "scl run");
  for (const Row& row : rows)
    std::printf("%7.2f MB %8d %11.1f MB %11.1f MB\n", static_cast<double>(row.bytes) / 1e6,
                row.phases, static_cast<double>(row.checkKb) / 1024,
                static_cast<double>(row.runKb) / 1024);
  const double phases = rows[1].phases - rows[0].phases;
  const double checkSlope = static_cast<double>(rows[1].checkKb - rows[0].checkKb) / phases;
  const double runSlope = static_cast<double>(rows[1].runKb - rows[0].runKb) / phases;
  std::printf("growth per phase: scl run %.2f KB (goal <= 2 KB: %s), scl check %.2f KB\n", runSlope,
              runSlope <= 2.0 ? "met" : "NOT met", checkSlope);
  return 0;
}
