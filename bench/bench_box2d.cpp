// Box2D's own cost (docs/stepping.md, Box2D's cost): the physics step with continuous
// collision on (Box2D's default) and off (SimulationDef's), and with 8/3 (default), 6/2 and
// 4/2 velocity / position iterations. Two tables:
//
// - cost: microseconds per step of the supine pose held by zero torques (as bench_physics)
//   and of the kip-up script's run at the default step, with Box2D's own profile of the
//   run (its step, the narrow phase, the solver, continuous collision) and the contacts
//   it tracks per step; the best of several rounds, the settings interleaved so that a
//   busy machine slows them alike;
// - motions: every motion's mark (docs/marks.md) with each setting at the default step,
//   nominal and from 20 seeded ±2° perturbed starts, how many of those 21 runs end with
//   the same summary figures, bit for bit, as with Box2D's defaults (CCD, 8/3), and
//   whether the nominal run's are within the golden tolerances of tests/test_motions.cpp
//   (tests/golden/motions.txt).
//
// Prints the tables; not a test.
//
//   bench_box2d [--rounds N] [--seeds N] [--threads N] [--cost-only]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "runtime/motion_trial.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/compile.h"

using namespace scl;

namespace {

struct Setting {
  const char* name;
  bool continuous;
  int velocityIterations;
  int positionIterations;
};

// The first is Box2D's defaults, the one the others are compared with.
const std::vector<Setting> kSettings = {
    {"CCD, 8/3 (Box2D)", true, 8, 3}, {"no CCD, 8/3 (scl)", false, 8, 3},
    {"CCD, 6/2", true, 6, 2},         {"CCD, 4/2", true, 4, 2},
    {"no CCD, 6/2", false, 6, 2},     {"no CCD, 4/2", false, 4, 2},
};

SimulationDef withSetting(SimulationDef def, const Setting& setting) {
  def.continuousPhysics = setting.continuous;
  def.velocityIterations = setting.velocityIterations;
  def.positionIterations = setting.positionIterations;
  return def;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Best-of-rounds figures of one setting, microseconds per step (contacts: per step).
struct Cost {
  double supine = std::numeric_limits<double>::infinity();
  double supineToi = 0.0, supineTouching = 0.0;
  double run = std::numeric_limits<double>::infinity();
  double box2d = std::numeric_limits<double>::infinity();
  double collide = 0.0, solve = 0.0, toi = 0.0;
  double contacts = 0.0, touching = 0.0, points = 0.0;
};

void timeSupine(const Setting& setting, Cost& cost) {
  SimulationDef def;
  def.scene.pose = "supine";
  Simulation simulation(withSetting(def, setting));
  const int steps = 20000;  // 5 simulated seconds
  double toi = 0.0;
  long touching = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) {
    simulation.step();
    const PhysicsStepStats stats = simulation.physicsStats();
    toi += stats.solveToiMs;
    touching += stats.touchingContacts;
  }
  const double wall = secondsSince(start) / steps * 1e6;
  if (wall < cost.supine) {
    cost.supine = wall;
    cost.supineToi = toi * 1e3 / steps;
  }
  cost.supineTouching = static_cast<double>(touching) / steps;
}

void timeRun(const Program& program, double duration, const Setting& setting, Cost& cost) {
  Runner runner(program, withSetting(simulationDefFor(program), setting));
  const long steps = std::lround(duration / runner.simulation().timeStep());
  double box2d = 0.0, collide = 0.0, solve = 0.0, toi = 0.0;
  long contacts = 0, touching = 0, points = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < steps; ++i) {
    runner.step();
    const PhysicsStepStats stats = runner.simulation().physicsStats();
    box2d += stats.stepMs;
    collide += stats.collideMs;
    solve += stats.solveMs;
    toi += stats.solveToiMs;
    contacts += stats.contacts;
    touching += stats.touchingContacts;
    points += stats.contactPoints;
  }
  const double run = secondsSince(start) / static_cast<double>(steps) * 1e6;
  const double perStep = 1e3 / static_cast<double>(steps);  // ms in total -> µs per step
  cost.run = std::min(cost.run, run);
  if (box2d * perStep < cost.box2d) {
    cost.box2d = box2d * perStep;
    cost.collide = collide * perStep;
    cost.solve = solve * perStep;
    cost.toi = toi * perStep;
  }
  cost.contacts = static_cast<double>(contacts) / static_cast<double>(steps);
  cost.touching = static_cast<double>(touching) / static_cast<double>(steps);
  cost.points = static_cast<double>(points) / static_cast<double>(steps);
}

// tests/golden/motions.txt: "name key=value ...".
// tests/test_motions.cpp's tolerances: the keys outside them, or "" when none is.
std::string outsideGolden(const std::map<std::string, double>& figures,
                          const std::map<std::string, double>& golden) {
  std::string outside;
  for (const auto& [key, expected] : golden) {
    if (!(std::abs(figures.at(key) - expected) <= goldenTolerance(key, expected)))
      outside += (outside.empty() ? "" : ",") + key;
  }
  return outside;
}

int usage() {
  std::fprintf(stderr, "usage: bench_box2d [--rounds N] [--seeds N] [--threads N] [--cost-only]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5, seeds = 20, threads = 0;
  bool costOnly = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--rounds" || arg == "--seeds" || arg == "--threads") && i + 1 < argc) {
      const int value = std::atoi(argv[++i]);
      if (value < (arg == "--threads" ? 0 : 1)) return usage();
      (arg == "--rounds" ? rounds : arg == "--seeds" ? seeds : threads) = value;
    } else if (arg == "--cost-only") {
      costOnly = true;
    } else {
      return usage();
    }
  }

  const std::string source = SCL_SOURCE_DIR;
  std::vector<const MotionMark*> marks;
  std::vector<Program> programs;
  for (const MotionMark& mark : motionMarks()) {
    std::ifstream in(source + "/" + mark.script);
    std::stringstream text;
    text << in.rdbuf();
    CompileResult result = compile(text.str(), mark.script);
    if (!in || !result.ok()) {
      std::fprintf(stderr, "bench_box2d: cannot compile %s\n", mark.script.c_str());
      return 1;
    }
    marks.push_back(&mark);
    programs.push_back(std::move(*result.program));
  }
  const MotionMark& kipup = *findMotionMark("kipup");
  const Program& kipupProgram = programs[static_cast<size_t>(&kipup - motionMarks().data())];

  // Cost: one thread, the settings interleaved round by round.
  std::vector<Cost> costs(kSettings.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t s = 0; s < kSettings.size(); ++s) {
      timeSupine(kSettings[s], costs[s]);
      timeRun(kipupProgram, kipup.duration, kSettings[s], costs[s]);
    }
  std::printf("cost at dt %.2f ms, best of %d rounds, us per step\n", kDefaultTimeStep * 1e3,
              rounds);
  std::printf("%-20s %7s %7s %8s | %9s %7s %8s %6s %6s %9s %9s %7s\n", "setting", "supine", "TOI",
              "touching", "kipup run", "Box2D", "collide", "solve", "TOI", "contacts", "touching",
              "points");
  for (size_t s = 0; s < kSettings.size(); ++s) {
    const Cost& c = costs[s];
    std::printf("%-20s %7.2f %7.2f %8.1f | %9.2f %7.2f %8.2f %6.2f %6.2f %9.1f %9.1f %7.1f\n",
                kSettings[s].name, c.supine, c.supineToi, c.supineTouching, c.run, c.box2d,
                c.collide, c.solve, c.toi, c.contacts, c.touching, c.points);
  }
  std::printf(
      "(supine: bare physics with zero torques, its continuous collision and touching "
      "contacts; kipup run: the whole runner step, and b2World's profile of it; "
      "contacts: fixture pairs whose boxes overlap, per step; touching ones and their "
      "manifold points)\n");
  if (costOnly) return 0;

  // Motions: one task per (setting, motion, seed); seed 0 is the nominal start.
  const size_t perMotion = static_cast<size_t>(seeds) + 1;
  const size_t perSetting = marks.size() * perMotion;
  std::vector<MotionTrialResult> results(kSettings.size() * perSetting);
  const auto start = std::chrono::steady_clock::now();
  ThreadPool pool(threads);
  pool.parallelFor(results.size(), [&](size_t task) {
    const Setting& setting = kSettings[task / perSetting];
    const size_t motion = task % perSetting / perMotion;
    MotionTrial trial;
    trial.seed = task % perMotion;
    trial.perturbDeg = trial.seed == 0 ? 0.0 : 2.0;
    trial.continuousPhysics = setting.continuous;
    trial.velocityIterations = setting.velocityIterations;
    trial.positionIterations = setting.positionIterations;
    MotionTrialResult result = runMotionTrial(*marks[motion], programs[motion], trial);
    results[task] = std::move(result);
  });
  const double wall = secondsSince(start);

  const auto golden = readGoldenFigures(source + "/tests/golden/motions.txt");
  std::printf("\nmotions at dt %.2f ms (nominal; perturbed: the mark from %d starts ±2°)\n",
              kDefaultTimeStep * 1e3, seeds);
  std::printf("%-20s %-15s %-7s %8s %8s %9s %5s %-10s %-12s %s\n", "setting", "motion", "nominal",
              "rise s", "pelvis m", "distance", "steps", "perturbed", "as Box2D's", "golden");
  for (size_t s = 0; s < kSettings.size(); ++s)
    for (size_t m = 0; m < marks.size(); ++m) {
      const size_t first = s * perSetting + m * perMotion;
      const MotionTrialResult& nominal = results[first];
      int met = 0, sameAsDefault = 0;
      for (size_t k = 1; k < perMotion; ++k) met += results[first + k].met ? 1 : 0;
      // Bit-identical summaries (every figure) of the setting's starts and the first's.
      for (size_t k = 0; k < perMotion; ++k)
        sameAsDefault +=
            motionFigures(results[first + k]) == motionFigures(results[m * perMotion + k]);
      const auto figures = motionFigures(nominal);
      const auto entry = golden.find(marks[m]->name);
      const std::string outside =
          entry == golden.end() ? "no golden" : outsideGolden(figures, entry->second);
      char same[32], perturbed[32];
      std::snprintf(same, sizeof same, "%d/%zu", sameAsDefault, perMotion);
      std::snprintf(perturbed, sizeof perturbed, "%d/%d", met, seeds);
      std::printf("%-20s %-15s %-7s %8.3f %8.3f %9.3f %5d %-10s %-12s %s\n", kSettings[s].name,
                  marks[m]->name.c_str(), nominal.met ? "met" : "MISSED", figures.at("rise_time"),
                  figures.at("max_pelvis_height"), figures.at("distance"),
                  static_cast<int>(figures.at("steps")), perturbed, same,
                  outside.empty() ? "within" : ("OUTSIDE: " + outside).c_str());
    }
  std::printf(
      "(as Box2D's: starts, of nominal + %d, whose summary figures equal those with "
      "Box2D's defaults exactly; %d threads, %.1f s wall)\n",
      seeds, pool.threadCount(), wall);
  return 0;
}
