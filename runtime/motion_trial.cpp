#include "runtime/motion_trial.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sstream>

#include "base/files.h"
#include "runtime/run_session.h"

namespace scl {

const std::vector<MotionMark>& motionMarks() {
  // docs/marks.md: kip-up standing at 5 s, sit-to-stand at 3 s, prone-to-stand at 6 s,
  // walk 20 steps without falling and >= 3 m in 10 s; quiet stance holds 10 s.
  static const std::vector<MotionMark> marks = {
      {"kipup", "scripts/kipup.scl", 5.0, 5.0, 0, std::nullopt, 0.0, false},
      {"sit-to-stand", "scripts/sit-to-stand.scl", 3.0, 3.0, 0, std::nullopt, 0.0, false},
      {"walk", "scripts/walk.scl", 16.0, std::nullopt, 20, 3.0, 10.0, true},
      {"prone-to-stand", "scripts/prone-to-stand.scl", 6.0, 6.0, 0, std::nullopt, 0.0, false},
      {"stand", "scripts/stand.scl", 10.0, 10.0, 0, std::nullopt, 0.0, true},
  };
  return marks;
}

const MotionMark* findMotionMark(const std::string& name) {
  for (const MotionMark& mark : motionMarks())
    if (mark.name == name) return &mark;
  return nullptr;
}

MotionMark markFor(const MotionMark& mark, const Character& character) {
  MotionMark scaled = mark;
  const double legRatio = referenceHeights(character).hip / referenceHeights(*humanCharacter()).hip;
  if (legRatio != 1.0 && scaled.minDistance) *scaled.minDistance *= std::sqrt(legRatio);
  return scaled;
}

MotionTrialResult runMotionTrial(const MotionMark& humanMark, const Program& program,
                                 const MotionTrial& trial) {
  const Character& character = program.character ? *program.character : *humanCharacter();
  const MotionMark mark = markFor(humanMark, character);
  MotionTrialResult result;
  auto start = std::chrono::steady_clock::now();
  SimulationDef def = simulationDefFor(program);
  def.timeStep = trial.timeStep;
  def.velocityIterations = trial.velocityIterations;
  def.positionIterations = trial.positionIterations;
  def.continuousPhysics = trial.continuousPhysics;
  if (trial.perturbDeg > 0.0) def.jointOffsets = perturbationOffsets(trial.perturbDeg, trial.seed);
  RunSessionDef run;
  run.simulation = def;
  run.controller.stablePd = trial.stablePd;
  run.length.duration = mark.duration;
  run.metrics = metricsFor(character);
  run.metrics->uprightFromStart = mark.uprightFromStart;
  run.metricsSeeInitialState = false;
  auto fail = [&](const std::string& why) {
    if (result.failure.empty()) result.failure = why;
  };
  std::optional<RunSession> session;
  try {
    session.emplace(program, run);
    result.setupSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long distanceStep = std::lround(mark.distanceBy / def.timeStep);
    session->run([&](const StepView& step) {
      if (!step.report) return;
      const MotionSummary summary = session->summary();
      if (session->steps() == distanceStep) result.distanceAtMark = summary.distance;
      // Standing at time T is decided by the state at T.
      if (mark.standingAt && std::abs(step.report->time - *mark.standingAt) < def.timeStep / 2 &&
          !summary.standing)
        fail("not standing at t = " + std::to_string(*mark.standingAt) + " s");
    });
  } catch (const std::exception& error) {
    fail(error.what());
  }
  if (session) result.summary = session->summary();
  const MotionSummary& s = result.summary;
  if (mark.uprightFromStart && s.fell) fail("fell at t = " + std::to_string(*s.fell) + " s");
  if (s.phaseChanges < mark.minSteps)
    fail(std::to_string(s.phaseChanges) + " steps, fewer than " + std::to_string(mark.minSteps));
  if (mark.minDistance && result.distanceAtMark < *mark.minDistance)
    fail("advanced " + std::to_string(result.distanceAtMark) +
         " m by t = " + std::to_string(mark.distanceBy) + " s");
  result.met = result.failure.empty();
  result.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

MotionFigures motionFigures(const MotionTrialResult& result) {
  const MotionSummary& s = result.summary;
  return {{"rise_time", s.riseTime.value_or(-1)},
          {"first_standing", s.firstStanding.value_or(-1)},
          {"max_pelvis_height", s.maxPelvisHeight},
          {"distance", s.distance},
          {"steps", static_cast<double>(s.phaseChanges)}};
}

std::map<std::string, MotionFigures> readGoldenFigures(const std::string& path) {
  std::map<std::string, MotionFigures> golden;
  // A missing file reads as empty (see the header).
  const FileRead read = readWholeFile(path);
  std::istringstream in(read.text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, pair;
    fields >> name;
    while (fields >> pair) {
      const auto equals = pair.find('=');
      golden[name][pair.substr(0, equals)] = std::stod(pair.substr(equals + 1));
    }
  }
  return golden;
}

double goldenTolerance(const std::string& key, double expected) {
  if (key == "distance") return std::max(0.05, 0.02 * std::abs(expected));
  if (key == "steps") return 0.0;
  if (key == "max_pelvis_height") return 0.02;
  return 0.05;
}

}  // namespace scl
