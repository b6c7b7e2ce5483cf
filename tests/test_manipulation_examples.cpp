// The manipulation examples of docs/manipulation.md run as their headers say, beyond the
// nominal start that tests/test_examples.cpp checks: scripts/push-cabinet.scl on the floor
// of friction 0.4 and with a 120 N push at the trunk while it pushes, and
// scripts/chain-tug.scl's hand yielding to the tug less the stiffer its task.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.h"

using namespace scl::testing;

namespace {

// `scl run SCRIPT ARGS --json` from the top of the source tree, parsed.
nlohmann::json runJson(const std::string& script, const std::string& args) {
  RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  const Outcome run = runScl("run " + script + " " + args + " --json", top);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  nlohmann::json json = nlohmann::json::parse(run.out, nullptr, false);
  REQUIRE(json.is_object());
  return json;
}

struct CabinetRun {
  bool standing = false;
  bool fell = true;
  double moved = 0.0;  // metres, along x
};

CabinetRun pushCabinet(const std::string& args) {
  const nlohmann::json json = runJson("scripts/push-cabinet.scl", args);
  CabinetRun run;
  run.standing = json["standing"].get<bool>();
  run.fell = !json["fell"].is_null();
  for (const nlohmann::json& object : json["objects"])
    if (object["name"] == "cabinet")
      run.moved = object["final_x"].get<double>() - object["start_x"].get<double>();
  return run;
}

// A CSV line's comma-separated fields (the trajectory's have no quotes).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream text(line);
  for (std::string field; std::getline(text, field, ',');) out.push_back(field);
  return out;
}

// The hand's mean displacement, metres, over the last half second of the 1 s tug at 5 s
// from its mean place over the half second before, with the hand's task at gain `kp`.
double handYield(double kp) {
  TempDir dir;
  const std::string csv = dir / "tug.csv";
  const std::string gains = "--set hold.track.kp=" + std::to_string(kp) +
                            " --set hold.track.kd=" + std::to_string(2.0 * std::sqrt(kp));
  RunOptions top;
  top.workingDirectory = SCL_SOURCE_DIR;
  const Outcome run =
      runScl("run scripts/chain-tug.scl " + gains + " --out " + shellQuote(csv), top);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  std::istringstream lines(readText(csv));
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> names = fields(line);
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    FAIL("no column " << name);
    return size_t{0};
  };
  const size_t time = column("time"), x = column("rightHand_x"), y = column("rightHand_y");
  double before[2] = {0, 0}, during[2] = {0, 0};
  int beforeCount = 0, duringCount = 0;
  while (std::getline(lines, line)) {
    const std::vector<std::string> row = fields(line);
    const double t = std::stod(row[time]);
    if (t >= 4.5 && t < 5.0) {
      before[0] += std::stod(row[x]);
      before[1] += std::stod(row[y]);
      ++beforeCount;
    } else if (t >= 5.5 && t < 6.0) {
      during[0] += std::stod(row[x]);
      during[1] += std::stod(row[y]);
      ++duringCount;
    }
  }
  REQUIRE(beforeCount > 0);
  REQUIRE(duringCount > 0);
  return std::hypot(during[0] / duringCount - before[0] / beforeCount,
                    during[1] / duringCount - before[1] / beforeCount);
}

}  // namespace

// Measured (nominal start): 0.72 m on friction 0.2; 0.48 m on 0.4; pushed forward on 0.2
// 0.73 m, back on 0.4 0.50 m.
TEST_CASE("push-cabinet: the cabinet goes 0.4 m on both floors, pushed or not", "[examples]") {
  for (const char* args : {"--set cabinet.friction=0.4", "--push trunk:120,0@6+0.5",
                           "--set cabinet.friction=0.4 --push trunk:-120,0@6+0.5"}) {
    INFO(args);
    const CabinetRun run = pushCabinet(args);
    CAPTURE(run.moved);
    CHECK(run.standing);
    CHECK_FALSE(run.fell);
    CHECK(run.moved >= 0.4);
  }
}

// Abe's one-gain resistance: the stiffer the hand's task, the less the hand yields to the
// tug (measured: 0.16 m at kp 200, 0.10 m at 400, 0.06 m at 1600).
TEST_CASE("chain-tug: the hand yields less to the tug the stiffer its task", "[examples]") {
  const double soft = handYield(200), nominal = handYield(400), stiff = handYield(1600);
  CAPTURE(soft, nominal, stiff);
  CHECK(soft > 1.3 * nominal);
  CHECK(nominal > 1.3 * stiff);
  CHECK(soft < 0.3);
  CHECK(stiff > 0.01);
}
