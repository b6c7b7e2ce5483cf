// `scl --version` and `scl version`: "scl 0.1 (git COMMIT)", or "scl 0.1" outside git.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

struct Outcome {
  int exitCode = -1;
  std::string out;
};

Outcome runScl(const std::string& args) {
  std::string capture =
      (std::filesystem::temp_directory_path() / "scl_cli_version_XXXXXX").string();
  int fd = mkstemp(capture.data());
  REQUIRE(fd >= 0);
  close(fd);
  int status =
      std::system((SCL_BINARY_DIR "/tools/scl " + args + " >" + capture + " 2>&1").c_str());
  std::ifstream in(capture);
  std::ostringstream text;
  text << in.rdbuf();
  std::remove(capture.c_str());
  REQUIRE(WIFEXITED(status));
  return {WEXITSTATUS(status), text.str()};
}

}  // namespace

TEST_CASE("scl --version prints the CMake project version and the git commit") {
  Outcome version = runScl("--version");
  CHECK(version.exitCode == 0);
  CHECK(version.out.starts_with("scl 0.1"));
  // One line: the version, then the short commit (and -dirty) when built from git.
  CHECK(
      std::regex_match(version.out, std::regex(R"(scl 0\.1( \(git [0-9a-f]{4,}(-dirty)?\))?\n)")));
  CHECK(runScl("version").out == version.out);
}

TEST_CASE("scl version takes no arguments") {
  Outcome extra = runScl("version --bogus");
  CHECK(extra.exitCode == 2);
  CHECK(extra.out.find("bogus") != std::string::npos);
  CHECK(runScl("version --help").exitCode == 0);
}
