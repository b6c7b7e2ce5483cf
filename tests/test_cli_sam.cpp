// `scl sam sample` (docs/state-action.md): the samples file, determinism across thread
// counts, and the exit codes of bad input.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.h"

namespace {

namespace fs = std::filesystem;
using scl::testing::readText;
using scl::testing::runScl;
using scl::testing::shellQuote;
using scl::testing::TempDir;
using scl::testing::writeText;

const std::string kScript = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand-sam.scl";
const std::string kProblem = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand.problem";

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

// Rows whose height, waist and shoulders lie in the problem's ranges.
size_t rowsInRange(const std::string& csv) {
  size_t count = 0;
  std::istringstream rows(csv);
  std::string row;
  std::getline(rows, row);  // the header
  while (std::getline(rows, row)) {
    std::vector<double> values;
    std::istringstream fields(row);
    for (std::string field; std::getline(fields, field, ',');) values.push_back(std::stod(field));
    REQUIRE(values.size() == 7);
    count += values[2] >= 0.15 && values[2] <= 0.75 && values[3] >= 0 && values[3] <= 90 &&
                     values[4] >= 0 && values[4] <= 180
                 ? 1
                 : 0;
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
  const std::string samples = readText(dir.path() / "one" / "samples.csv");
  CHECK(samples.rfind("path,generation,height,lean.pd.waist,lean.pd.shoulders,compatible,"
                      "objective\n",
                      0) == 0);
  // 2 generations of 4 paths of 7 candidates; those outside the ranges are not samples.
  const size_t points = lines(samples) - 1;
  CHECK(points <= 56);  // 2 generations x 4 paths x 7 candidates
  CHECK(points > 28);
  CHECK_THAT(one.out, Catch::Contains(std::to_string(points) + " points"));
  CHECK(rowsInRange(samples) == points);
  // The starting point's neighbourhood is mostly compatible in the first generations.
  CHECK(compatibleRows(samples) > points * 3 / 4);
  // --points: whole generations until there are that many.
  const auto some = runScl(common.substr(0, common.find(" --generations")) + " --points 30 --out " +
                           shellQuote(dir / "some"));
  REQUIRE(some.exitCode == 0);
  const size_t somePoints = lines(readText(dir.path() / "some" / "samples.csv")) - 1;
  CHECK(somePoints >= 30);
  CHECK(somePoints < 30 + 28);
  const auto two = runScl(common + " --threads 2 --out " + shellQuote(dir / "two"));
  REQUIRE(two.exitCode == 0);
  CHECK(readText(dir.path() / "two" / "samples.csv") == samples);
  // --threads beyond 4 per core is capped with a warning, as scl optimize does.
  const auto many = runScl(common + " --threads 10000 --out " + shellQuote(dir / "many"));
  REQUIRE(many.exitCode == 0);
  CHECK_THAT(many.err, Catch::Contains("scl sam sample: warning: --threads 10000 is more than 4 "
                                       "per core"));
  CHECK(readText(dir.path() / "many" / "samples.csv") == samples);
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

TEST_CASE("scl sam sample: samples.csv without a checkpoint is kept unless --overwrite",
          "[cli][sam]") {
  TempDir dir;
  fs::create_directory(dir.path() / "out");
  const std::string mine = "path,generation,my,own,data\n";
  writeText(dir.path() / "out" / "samples.csv", mine);
  const std::string command = "sam sample " + shellQuote(kScript) + " " + shellQuote(kProblem) +
                              " --out " + shellQuote(dir / "out") + " --generations 1";
  const auto refused = runScl(command);
  CHECK(refused.exitCode == 2);
  CHECK_THAT(refused.err, Catch::Contains("already holds samples.csv and no checkpoint"));
  CHECK_THAT(refused.err, Catch::Contains("--overwrite"));
  CHECK(readText(dir.path() / "out" / "samples.csv") == mine);
  CHECK(!fs::exists(dir.path() / "out" / "checkpoint.json"));

  const auto replaced = runScl(command + " --overwrite");
  CHECK(replaced.exitCode == 0);
  CHECK(readText(dir.path() / "out" / "samples.csv") != mine);
  CHECK(fs::exists(dir.path() / "out" / "checkpoint.json"));
}

TEST_CASE("scl sam: the commands docs/state-action.md shows", "[cli][sam][docs]") {
  const std::string page = readText(SCL_SOURCE_DIR "/docs/state-action.md");
  const std::string files =
      "scripts/optimize/sit-to-stand-sam.scl scripts/optimize/sit-to-stand.problem";
  const std::vector<std::string> commands = {
      "scl sam sample " + files + " --generations 2", "scl sam train " + files,
      "scl sam query " + files + " --state height=0.16 --count 3"};
  TempDir tree;  // the page's paths, outside the source tree
  fs::create_directories(tree.path() / "scripts/optimize");
  fs::copy_file(kScript, tree.path() / "scripts/optimize/sit-to-stand-sam.scl");
  fs::copy_file(kProblem, tree.path() / "scripts/optimize/sit-to-stand.problem");
  scl::testing::RunOptions top;
  top.workingDirectory = tree.path().string();
  for (const std::string& command : commands) {
    INFO(command);
    CHECK_THAT(page, Catch::Contains("\n" + command + "\n"));
    const auto outcome = runScl(command.substr(4), top);
    INFO(outcome.err);
    CHECK(outcome.exitCode == 0);
  }
  const fs::path out = tree.path() / "scripts/optimize/sit-to-stand.sam";
  CHECK(lines(readText(out / "samples.csv")) > 29);
  CHECK(fs::exists(out / "model.svm"));
  CHECK(fs::exists(out / "query-height-0.16/action-3.scl"));
  // The thesis's experiment, as the page runs it, with fewer points.
  const std::string reproduction = "scl sam sample " + files + " --points 10052 --out thesis";
  CHECK_THAT(page, Catch::Contains("\n" + reproduction + "\n"));
  const auto few = runScl("sam sample " + files + " --points 40 --out thesis", top);
  INFO(few.err);
  CHECK(few.exitCode == 0);
  const std::string trainThesis = "scl sam train " + files + " --out thesis";
  const std::string queryThesis = "scl sam query " + files +
                                  " --out thesis --state height=0.45 --state height=0.16 "
                                  "--state height=0.65 --count 3 --simulate";
  for (const std::string& command : {trainThesis, queryThesis}) {
    INFO(command);
    CHECK_THAT(page, Catch::Contains("\n" + command + "\n"));
    const auto outcome = runScl(command.substr(4), top);
    INFO(outcome.err);
    CHECK(outcome.exitCode == 0);
  }
}

TEST_CASE("scl sam sample: an interrupted run resumes bit-identically", "[cli][sam]") {
  TempDir dir;
  const std::string common = "sam sample " + shellQuote(kScript) + " " + shellQuote(kProblem);
  const auto straight = runScl(common + " --generations 2 --out " + shellQuote(dir / "straight"));
  REQUIRE(straight.exitCode == 0);
  const auto first = runScl(common + " --generations 1 --out " + shellQuote(dir / "resumed"));
  REQUIRE(first.exitCode == 0);
  CHECK(lines(readText(dir.path() / "resumed" / "samples.csv")) <= 1 + 4 * 7);
  // A second run into the same directory must not overwrite it silently.
  const auto again = runScl(common + " --generations 2 --out " + shellQuote(dir / "resumed"));
  CHECK(again.exitCode == 2);
  CHECK_THAT(again.err, Catch::Contains("--resume"));
  const auto resumed =
      runScl(common + " --generations 2 --resume --out " + shellQuote(dir / "resumed"));
  INFO(resumed.err);
  REQUIRE(resumed.exitCode == 0);
  CHECK_THAT(resumed.err, Catch::Contains("resuming after generation 1"));
  CHECK(readText(dir.path() / "resumed" / "samples.csv") ==
        readText(dir.path() / "straight" / "samples.csv"));
  // Nothing to resume; a checkpoint of other files; a damaged checkpoint.
  CHECK(runScl(common + " --resume --out " + shellQuote(dir / "none")).exitCode == 2);
  const std::string other = dir / "other.problem";
  writeText(other, readText(kProblem) + "// changed\n");
  const auto mismatch = runScl("sam sample " + shellQuote(kScript) + " " + shellQuote(other) +
                               " --resume --out " + shellQuote(dir / "resumed"));
  CHECK(mismatch.exitCode == 2);
  CHECK_THAT(mismatch.err, Catch::Contains("different script or problem"));
  writeText(dir.path() / "resumed" / "checkpoint.json", "{\"format\": \"scl-sam-checkpoint\"");
  const auto damaged =
      runScl(common + " --generations 3 --resume --out " + shellQuote(dir / "resumed"));
  CHECK(damaged.exitCode == 3);
  CHECK_THAT(damaged.err, Catch::Contains("malformed checkpoint"));
}

namespace {

// Samples of the sit-to-stand problem labelled by a known rule instead of simulations (a
// disc of waist and shoulder targets that shrinks on low chairs), so that training and
// querying are tested in seconds.
std::string syntheticSamples(int count) {
  std::string csv = "path,generation,height,lean.pd.waist,lean.pd.shoulders,compatible,objective\n";
  uint64_t state = 12345;
  const auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < count; ++i) {
    const double h = 0.15 + 0.6 * uniform(), waist = 90 * uniform(), shoulders = 180 * uniform();
    const double radius = 60.0 * (h - 0.2) / 0.55;
    const bool ok = std::hypot(waist - 45.0, (shoulders - 90.0) / 2.0) < radius;
    csv += "0,1," + std::to_string(h) + "," + std::to_string(waist) + "," +
           std::to_string(shoulders) + "," + (ok ? "1" : "0") + ",0\n";
  }
  return csv;
}

}  // namespace

TEST_CASE("scl sam train and query: a model, its figures and the queried scripts", "[cli][sam]") {
  TempDir dir;
  const std::string files =
      shellQuote(kScript) + " " + shellQuote(kProblem) + " --out " + shellQuote(dir / "model");
  // Without samples (or a model) the message says which command writes them.
  const auto early = runScl("sam train " + files);
  CHECK(early.exitCode == 2);
  CHECK_THAT(early.err, Catch::Contains("scl sam sample writes it"));
  const auto noModel = runScl("sam query " + files + " --state height=0.5");
  CHECK(noModel.exitCode == 2);
  CHECK_THAT(noModel.err, Catch::Contains("scl sam train writes it"));

  fs::create_directories(dir.path() / "model");
  writeText(dir.path() / "model" / "samples.csv", syntheticSamples(1200));
  // --threads beyond 4 per core is capped with a warning, as scl optimize does.
  const auto trained = runScl("sam train " + files + " --threads 10000");
  CHECK_THAT(trained.err, Catch::Contains("scl sam train: warning: --threads 10000 is more than "
                                          "4 per core"));
  INFO(trained.err);
  REQUIRE(trained.exitCode == 0);
  CHECK_THAT(trained.out, Catch::Contains("1200 points"));
  CHECK_THAT(trained.out, Catch::Contains("5-fold cross-validation"));
  const auto description = nlohmann::json::parse(readText(dir.path() / "model" / "model.json"));
  CHECK(description["samples"] == 1200);
  CHECK(description["cross_validation"]["accuracy"].get<double>() > 0.9);
  CHECK(description["support_vectors"].get<int>() > 0);
  CHECK(readText(dir.path() / "model" / "model.svm").rfind("svm_type c_svc", 0) == 0);
  const std::string figure = readText(dir.path() / "model" / "model.svg");
  CHECK(figure.rfind("<svg", 0) == 0);
  CHECK_THAT(figure, Catch::Contains("lean.pd.shoulders"));

  // The samples and the model are inputs: no output replaces them, through a link either.
  const fs::path model = dir.path() / "model";
  const std::string samples = readText(model / "samples.csv");
  fs::remove(model / "model.svg");
  fs::create_symlink("samples.csv", model / "model.svg");
  const auto intoSamples = runScl("sam train " + files);
  CHECK(intoSamples.exitCode == 2);
  CHECK_THAT(intoSamples.err, Catch::Contains("is the samples '"));
  CHECK(readText(model / "samples.csv") == samples);
  fs::remove(model / "model.svg");
  writeText(model / "model.svg", figure);
  const std::string modelJson = readText(model / "model.json");
  fs::create_directory(model / "query-height-0.6");
  fs::create_symlink("../model.json", model / "query-height-0.6" / "action-1.scl");
  const auto intoModel = runScl("sam query " + files + " --state height=0.6 --count 1");
  CHECK(intoModel.exitCode == 2);
  CHECK_THAT(intoModel.err, Catch::Contains("is the model '"));
  CHECK(readText(model / "model.json") == modelJson);
  fs::remove_all(model / "query-height-0.6");

  const auto queried =
      runScl("sam query " + files +
             " --state height=0.6 --state height=0.16 --count 2 --simulate --threads 10000");
  INFO(queried.out);
  REQUIRE(queried.exitCode == 0);
  CHECK_THAT(queried.err, Catch::Contains("scl sam query: warning: --threads 10000"));
  CHECK_THAT(queried.out, Catch::Contains("2 queries in"));
  CHECK_THAT(queried.out, Catch::Contains("pairwise distances"));
  // No compatible sample below 0.2 m: the query says the model extrapolates there.
  CHECK_THAT(queried.out, Catch::Contains("the model extrapolates here (nearest: height 0."));
  CHECK_THAT(queried.out, Catch::Contains("of 4 actions meet the mark"));
  const fs::path query = dir.path() / "model" / "query-height-0.6";
  const std::string script = readText(query / "action-1.scl");
  CHECK_THAT(script, Catch::Contains("scene pose: sitting env: chair height: 0.6 duration: 2.5\n"));
  CHECK_THAT(script, Catch::Contains("[waist @"));
  CHECK_THAT(script, Catch::Contains("[shoulders @"));
  CHECK(script != readText(query / "action-2.scl"));
  CHECK_THAT(readText(query / "action-1.svg"), Catch::Contains("<svg"));
  CHECK(fs::exists(query / "actions.svg"));
  // The written script runs as it is, at its chair height.
  const auto run = runScl("run " + shellQuote((query / "action-1.scl").string()) + " --json");
  CHECK(run.exitCode == 0);
  CHECK_THAT(run.out, Catch::Contains("\"chair_height\":0.6}"));
  CHECK_THAT(run.out, Catch::Contains("\"duration\":2.5,"));

  // A script queried from a query's own output directory is never overwritten.
  const std::string queried1 = (query / "action-1.scl").string();
  const std::string before = readText(queried1);
  const auto overwrite = runScl("sam query " + shellQuote(queried1) + " " + shellQuote(kProblem) +
                                " --out " + shellQuote(dir / "model") + " --state height=0.6");
  CHECK(overwrite.exitCode == 2);
  CHECK_THAT(overwrite.err, Catch::Contains("is the script"));
  CHECK(readText(queried1) == before);

  // Bad requests and files.
  CHECK(runScl("sam query " + files + " --state hight=0.5").exitCode == 2);
  CHECK(runScl("sam query " + files + " --state height=0.9").exitCode == 2);
  CHECK(runScl("sam query " + files + " --state height=0.5 --count 0").exitCode == 2);
  writeText(dir.path() / "model" / "samples.csv", "path,generation,x\n");
  const auto badSamples = runScl("sam train " + files);
  CHECK(badSamples.exitCode == 1);
  CHECK_THAT(badSamples.err, Catch::Contains("samples.csv:1: expected the header"));
  writeText(dir.path() / "model" / "model.svm", "nonsense\n");
  CHECK(runScl("sam query " + files + " --state height=0.5").exitCode == 1);
}
