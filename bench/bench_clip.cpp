// A clip's lookup and interpolation per step beside a step's cost (docs/clips.md, Cost).
//
// 1. The kip-up (scripts/kipup.scl) for 5 s, Controller::step + Simulation::step, recorded
//    as a clip at 120 Hz (every joint, the pelvis, the feet and hands): the step's cost.
// 2. Sampling that clip at every step's time (sampleClip into a sized pose) and reading
//    every joint's angle through its binding, linear and spline, and the same clip made
//    a minute long (looping its frames: 7,200 of them) to show the lookup's log n.
// Best of 5 rounds each. Goal: the clip costs at most 5 % of a step.
//
//   bench_clip [--rounds N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/files.h"
#include "runtime/clip_recorder.h"
#include "runtime/controller.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"
#include "scl/clip_file.h"
#include "scl/compile.h"

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Seconds per step of sampling `clip` at each of `steps` step times and reading every
// joint of the character through `binding`; best of `rounds`. `checksum` keeps the work.
double sampleCost(const scl::Clip& clip, const scl::ClipBinding& binding, int joints, int steps,
                  double timeStep, int rounds, double& checksum) {
  scl::ClipPose pose = scl::makeClipPose(clip);
  double best = 1e9;
  for (int round = 0; round < rounds; ++round) {
    const auto start = Clock::now();
    for (int i = 0; i < steps; ++i) {
      scl::sampleClip(clip, i * timeStep, pose);
      for (int j = 0; j < joints; ++j) checksum += binding.angle(pose, j).value_or(0.0);
      checksum += pose.root.angle;
    }
    best = std::min(best, seconds(start) / steps);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5;
  if (argc == 3 && std::strcmp(argv[1], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[2]));
  const std::string path = SCL_SOURCE_DIR "/scripts/kipup.scl";
  const scl::FileRead read = scl::readWholeFile(path);
  scl::CompileResult compiled = scl::compile(read.text, path);
  if (!read || !compiled.ok()) {
    std::fprintf(stderr, "bench_clip: cannot compile %s\n", path.c_str());
    return 1;
  }
  const scl::Program& program = *compiled.program;
  const scl::SimulationDef def = scl::simulationDefFor(program);
  const scl::Character& character = *program.character;
  const int steps = static_cast<int>(5.0 / def.timeStep);

  // 1. The controlled run, recorded.
  double step = 1e9;
  scl::Clip clip;
  for (int round = 0; round < rounds; ++round) {
    scl::Simulation simulation(def);
    scl::Controller controller(program, simulation.initialJointAngles());
    clip = scl::recordingClip(character, "kipup");
    long next = 0;  // the next frame, at next / 120 s (as ClipRecorder takes them)
    const auto start = Clock::now();
    for (int i = 0; i < steps; ++i) {
      const scl::ControlOutput& output = controller.step(simulation.state(), def.timeStep);
      simulation.setJointTorques(output.torques);
      simulation.step();
      const double frameTime = static_cast<double>(next) / scl::kDefaultClipRate;
      if (simulation.state().time + 0.5 * def.timeStep < frameTime) continue;
      clip.frames.push_back(scl::clipFrameOf(character, clip, simulation.state(), frameTime));
      ++next;
    }
    step = std::min(step, seconds(start) / steps);
  }
  scl::DiagnosticSink sink;
  const std::optional<scl::ClipBinding> binding = scl::bindClip(clip, character, sink);
  if (!binding || !scl::clipIssues(clip).empty()) {
    std::fprintf(stderr, "bench_clip: the recorded clip does not bind\n");
    return 1;
  }

  // 2. Sampling it.
  double checksum = 0.0;
  const int joints = character.jointCount();
  const double linear = sampleCost(clip, *binding, joints, steps, def.timeStep, rounds, checksum);
  scl::Clip spline = clip;
  spline.interpolation = scl::ClipInterpolation::Spline;
  const double splined =
      sampleCost(spline, *binding, joints, steps, def.timeStep, rounds, checksum);
  scl::Clip minute = spline;
  const double period = clip.frames.back().time;
  while (minute.frames.back().time < 60.0) {
    scl::ClipFrame frame = minute.frames[minute.frames.size() - clip.frames.size()];
    frame.time += period;
    minute.frames.push_back(std::move(frame));
  }
  const double longest = sampleCost(minute, *binding, joints, static_cast<int>(60.0 / def.timeStep),
                                    def.timeStep, rounds, checksum);

  std::printf("kip-up (scripts/kipup.scl), dt %.2f ms, %d steps, clip of %zu frames at 120 Hz\n",
              def.timeStep * 1e3, steps, clip.frames.size());
  std::printf("  controlled step (control + physics):   %8.3f us\n", step * 1e6);
  std::printf("  clip sample, linear, %2d joints + root: %8.3f us  %5.2f %% of a step\n", joints,
              linear * 1e6, 100 * linear / step);
  std::printf("  clip sample, spline:                   %8.3f us  %5.2f %% of a step\n",
              splined * 1e6, 100 * splined / step);
  std::printf("  clip sample, spline, %zu frames:     %8.3f us  %5.2f %% of a step\n",
              minute.frames.size(), longest * 1e6, 100 * longest / step);
  std::printf("  goal: at most 5 %% of a step: %s   (checksum %.3f)\n",
              std::max({linear, splined, longest}) <= 0.05 * step ? "met" : "NOT met", checksum);
  return 0;
}
