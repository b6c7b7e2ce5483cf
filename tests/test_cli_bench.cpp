// `scl bench --quick --json` runs every benchmark and reports figures that make sense.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace {

struct Outcome {
  int exitCode = -1;
  std::string out;
};

Outcome runScl(const std::string& args) {
  std::string capture = (std::filesystem::temp_directory_path() / "scl_cli_bench_XXXXXX").string();
  int fd = mkstemp(capture.data());
  REQUIRE(fd >= 0);
  int status =
      std::system((SCL_BINARY_DIR "/tools/scl " + args + " >" + capture + " 2>&1").c_str());
  std::ifstream in(capture);
  std::ostringstream text;
  text << in.rdbuf();
  std::remove(capture.c_str());
  REQUIRE(WIFEXITED(status));
  return {WEXITSTATUS(status), text.str()};
}

// The number after `"key": ` in a flat JSON text.
std::optional<double> number(const std::string& json, const std::string& key) {
  size_t at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return std::nullopt;
  return std::stod(json.substr(at + key.size() + 4));
}

}  // namespace

TEST_CASE("scl bench --quick --json measures physics, controller, a run and the checker") {
  Outcome bench = runScl("bench --quick --json --script " SCL_SOURCE_DIR "/scripts/kipup.scl");
  REQUIRE(bench.exitCode == 0);
  const std::string& json = bench.out;
  INFO(json);
  for (const char* key :
       {"simulated_per_wall", "us_per_step", "runner_us_per_step", "physics_us_per_step",
        "controller_us_per_step", "ratio", "real_time_factor", "mb_per_s"}) {
    REQUIRE(number(json, key));
    CHECK(*number(json, key) > 0.0);
  }
  // Replaying the runner's torques reproduces its trajectory bit for bit.
  CHECK(json.find("\"replay_identical\": true") != std::string::npos);
  CHECK(*number(json, "simulated") == Approx(1.0));
  CHECK(*number(json, "bytes") >= 1 << 20);
  CHECK(*number(json, "diagnostics") == 0);  // the generated script is clean
}

TEST_CASE("scl bench: help and usage errors") {
  CHECK(runScl("bench --help").exitCode == 0);
  CHECK(runScl("bench --bogus").exitCode == 2);
  CHECK(runScl("bench --quick --script /no/such/file.scl").exitCode == 2);
}
