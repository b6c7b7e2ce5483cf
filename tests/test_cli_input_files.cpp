// Every file a command reads goes through one reader (base/files.h): a FIFO, a device or a
// directory given where a file belongs is refused at once with a usage error, never read
// (a FIFO blocked `scl optimize` and `scl plot` forever; `scl check /dev/zero` grew past
// 2 GB). Each command and each kind of input it reads is tried.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "tests/cli_support.h"

namespace {

using namespace scl::testing;

const std::string kSamScript = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand-sam.scl";
const std::string kProblem = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand.problem";
const std::string kScript = SCL_SOURCE_DIR "/tests/cli/two_phases.scl";

// Runs `scl ARGS` and checks that it refuses `path` as no file at once.
void refuses(const std::string& args, const std::string& path) {
  INFO("scl " << args);
  RunOptions options;
  options.timeout = std::chrono::seconds(120);  // a safety net: a blocked read would hang
  const Outcome outcome = runScl(args, options);
  INFO("stderr: " << outcome.err);
  CHECK(outcome.exitCode == 2);
  CHECK(outcome.err.find("'" + path + "'") != std::string::npos);
  const bool said = outcome.err.find("is not a regular file") != std::string::npos ||
                    outcome.err.find("is a directory") != std::string::npos;
  CHECK(said);
}

}  // namespace

TEST_CASE("every command refuses a FIFO or a device for each file it reads",
          "[cli][contract][devices]") {
  TempDir dir;
  const std::string fifo = dir / "input";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);

  refuses("check " + fifo, fifo);
  refuses("check /dev/zero", "/dev/zero");
  refuses("fmt /dev/zero", "/dev/zero");
  refuses("run " + fifo, fifo);
  refuses("run " + kScript + " --character " + fifo, fifo);
  refuses("optimize " + kScript + " " + fifo + " --out " + (dir / "opt"), fifo);
  refuses("plot " + fifo + " --out " + (dir / "p.svg"), fifo);
  refuses("sam sample " + kSamScript + " " + fifo + " --out " + (dir / "sam"), fifo);
  refuses("character " + fifo, fifo);
}

TEST_CASE("a checkpoint, samples or a model that is a FIFO is refused, not waited for",
          "[cli][contract][devices]") {
  TempDir dir;
  const std::string kipup = SCL_SOURCE_DIR "/scripts/optimize/kipup.scl";
  const std::string objective = SCL_SOURCE_DIR "/scripts/optimize/kipup.objective";
  fs::create_directories(dir / "opt");
  fs::create_directories(dir / "sam");
  for (const std::string& file : {dir / "opt/checkpoint.json", dir / "sam/samples.csv",
                                  dir / "sam/model.json", dir / "sam/checkpoint.json"})
    REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
  refuses("optimize " + kipup + " " + objective + " --out " + (dir / "opt") + " --resume",
          dir / "opt/checkpoint.json");
  refuses("sam train " + kSamScript + " " + kProblem + " --out " + (dir / "sam"),
          dir / "sam/samples.csv");
  refuses("sam query " + kSamScript + " " + kProblem + " --out " + (dir / "sam") +
              " --state height=0.4",
          dir / "sam/model.json");
  refuses("sam sample " + kSamScript + " " + kProblem + " --out " + (dir / "sam") + " --resume",
          dir / "sam/checkpoint.json");
}
