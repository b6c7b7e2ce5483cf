// `scl bench --quick --json` runs every benchmark and reports figures that make sense.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

struct Outcome {
  int exitCode = -1;
  std::string out;
  std::string err;
};

std::string takeCapture(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

std::string newCapture() {
  std::string path = (std::filesystem::temp_directory_path() / "scl_cli_bench_XXXXXX").string();
  const int fd = mkstemp(path.data());
  REQUIRE(fd >= 0);
  close(fd);
  return path;
}

// stdout and stderr apart: the JSON is stdout alone.
Outcome runScl(const std::string& args) {
  const std::string out = newCapture(), err = newCapture();
  const int status =
      std::system((SCL_BINARY_DIR "/tools/scl " + args + " >" + out + " 2>" + err).c_str());
  Outcome outcome{-1, takeCapture(out), takeCapture(err)};
  REQUIRE(WIFEXITED(status));
  outcome.exitCode = WEXITSTATUS(status);
  return outcome;
}

}  // namespace

TEST_CASE("scl bench --quick --json measures physics, controller, a run and the checker") {
  Outcome bench = runScl("bench --quick --json --script " SCL_SOURCE_DIR "/scripts/kipup.scl");
  REQUIRE(bench.exitCode == 0);
  INFO(bench.out);
  INFO(bench.err);
  // One JSON object on one line.
  REQUIRE(std::count(bench.out.begin(), bench.out.end(), '\n') == 1);
  nlohmann::json json;
  REQUIRE_NOTHROW(json = nlohmann::json::parse(bench.out));
  REQUIRE(json.is_object());
  CHECK(json.at("repetitions") == 1);
  CHECK(json.at("kipup_script") == SCL_SOURCE_DIR "/scripts/kipup.scl");
  for (const char* path :
       {"/physics/simulated_per_wall", "/physics/us_per_step", "/controller/runner_us_per_step",
        "/controller/physics_us_per_step", "/controller/controller_us_per_step",
        "/controller/ratio", "/kipup_run/real_time_factor", "/check/mb_per_s"}) {
    INFO(path);
    const nlohmann::json& figure = json.at(nlohmann::json::json_pointer(path));
    REQUIRE(figure.is_number());
    CHECK(figure.get<double>() > 0.0);
  }
  // Replaying the runner's torques reproduces its trajectory bit for bit.
  CHECK(json.at("controller").at("replay_identical") == true);
  REQUIRE(json.at("kipup_run").at("simulated").is_number());
  CHECK(json.at("kipup_run").at("simulated").get<double>() == Approx(1.0));
  REQUIRE(json.at("check").at("bytes").is_number_unsigned());
  CHECK(json.at("check").at("bytes").get<uint64_t>() >= 1 << 20);
  REQUIRE(json.at("check").at("diagnostics").is_number_unsigned());
  CHECK(json.at("check").at("diagnostics") == 0);  // the generated script is clean
}

TEST_CASE("scl bench: help and usage errors") {
  CHECK(runScl("bench --help").exitCode == 0);
  CHECK(runScl("bench --bogus").exitCode == 2);
  CHECK(runScl("bench --quick --script /no/such/file.scl").exitCode == 2);
}
