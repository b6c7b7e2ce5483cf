// `scl sam sample` (docs/state-action.md): the samples file, determinism across thread
// counts, and the exit codes of bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>

#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::shellQuote;
using scl::testing::TempDir;
using scl::testing::writeText;

const std::string kScript = SCL_SOURCE_DIR "/optimize/sit-to-stand-sam.scl";
const std::string kProblem = SCL_SOURCE_DIR "/optimize/sit-to-stand.problem";

size_t lines(const std::string& text) {
  size_t count = 0;
  for (char c : text) count += c == '\n' ? 1 : 0;
  return count;
}

// Rows whose `compatible` column (the second to last) is 1.
size_t compatibleRows(const std::string& csv) {
  size_t count = 0;
  std::istringstream rows(csv);
  std::string row;
  std::getline(rows, row);  // the header
  while (std::getline(rows, row)) {
    const size_t last = row.rfind(',');
    REQUIRE(last != std::string::npos);
    REQUIRE(last >= 2);
    count += row.compare(last - 2, 3, ",1,") == 0 ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_CASE("scl sam sample: labelled points, the same for any thread count", "[cli][sam]") {
  TempDir dir;
  const std::string common =
      "sam sample " + shellQuote(kScript) + " " + shellQuote(kProblem) + " --generations 2";
  const auto one = runScl(common + " --threads 1 --out " + shellQuote(dir / "one"));
  INFO(one.err);
  REQUIRE(one.exitCode == 0);
  CHECK_THAT(one.out, Catch::Contains("56 points"));
  const std::string samples = readText(dir.path() / "one" / "samples.csv");
  CHECK(samples.rfind("path,generation,height,lean.pd.waist,lean.pd.shoulders,compatible,"
                      "objective\n",
                      0) == 0);
  CHECK(lines(samples) == 1 + 2 * 4 * 7);
  // The starting point's neighbourhood is mostly compatible in the first generations.
  CHECK(compatibleRows(samples) > 28);
  const auto two = runScl(common + " --threads 2 --out " + shellQuote(dir / "two"));
  REQUIRE(two.exitCode == 0);
  CHECK(readText(dir.path() / "two" / "samples.csv") == samples);
  // Another seed samples other points.
  const auto other = runScl(common + " --seed 2 --threads 2 --out " + shellQuote(dir / "other"));
  REQUIRE(other.exitCode == 0);
  CHECK(readText(dir.path() / "other" / "samples.csv") != samples);
}

TEST_CASE("scl sam sample: bad input gets the documented exit codes", "[cli][sam]") {
  TempDir dir;
  const std::string bad = dir / "bad.problem";
  writeText(bad, "state hight 0.15 0.75 scale 10 start 0.45\n");
  const auto parsed = runScl("sam sample " + shellQuote(kScript) + " " + shellQuote(bad) +
                             " --out " + shellQuote(dir / "out"));
  CHECK(parsed.exitCode == 1);
  CHECK_THAT(parsed.err, Catch::Contains("bad.problem:1:7: error: unknown state quantity 'hight'"));
  const std::string unbound = dir / "unbound.problem";
  writeText(unbound,
            "scene pose: sitting env: chair\nduration 1\n"
            "state height 0.15 0.75 scale 10 start 0.45\n"
            "action lean.pd.waste 0 90 scale 1/40\ncompatible standing at end\n");
  const auto binding = runScl("sam sample " + shellQuote(kScript) + " " + shellQuote(unbound) +
                              " --out " + shellQuote(dir / "out"));
  CHECK(binding.exitCode == 1);
  CHECK_THAT(binding.err, Catch::Contains("did you mean 'lean.pd.waist'?"));
  CHECK(runScl("sam sample " + shellQuote(kScript) + " " + shellQuote(dir / "none.problem"))
            .exitCode == 2);
  CHECK(
      runScl("sam sample " + shellQuote(kScript) + " " + shellQuote(kProblem) + " --generations 0")
          .exitCode == 2);
  CHECK(runScl("sam").exitCode == 2);
  CHECK(runScl("sam learn").exitCode == 2);
  CHECK(runScl("sam --help").exitCode == 0);
}

TEST_CASE("scl sam sample: the command docs/state-action.md shows", "[cli][sam][docs]") {
  const std::string command =
      "scl sam sample optimize/sit-to-stand-sam.scl optimize/sit-to-stand.problem "
      "--generations 2";
  CHECK_THAT(readText(SCL_SOURCE_DIR "/docs/state-action.md"),
             Catch::Contains("\n" + command + "\n"));
  TempDir tree;  // the page's paths, outside the source tree
  fs::create_directories(tree.path() / "optimize");
  fs::copy_file(kScript, tree.path() / "optimize/sit-to-stand-sam.scl");
  fs::copy_file(kProblem, tree.path() / "optimize/sit-to-stand.problem");
  scl::testing::RunOptions top;
  top.workingDirectory = tree.path().string();
  const auto outcome = runScl(command.substr(4), top);
  INFO(outcome.err);
  CHECK(outcome.exitCode == 0);
  CHECK(lines(readText(tree.path() / "optimize/sit-to-stand.sam/samples.csv")) == 57);
}
