// Nearest-posture selection's cost per control step (docs/clips.md, Control by clips).
//
// The recorded walk (scripts/clips/walk.clip: 10 s at 120 Hz, every joint of the human) as
// a `[posture clip: walk nearest]` library; each step the follower chooses the frame
// nearest a state:
//   - on the way: the walk's own state at every 0.25 ms step of its 10 s, each joint off
//     by up to ±3° and ±30°/s (deterministic noise), as a tracking controller meets it;
//   - far: the standing pose at rest, nearest to no frame in particular (fewer frames are
//     cut short by the running sum).
// Also the timed playback (`[posture clip: walk]`), a sample and a rate. Best of 5 rounds.
// Goal: nearest-posture selection over a 10 s clip at 120 Hz costs at most 10 us a step.
//
//   bench_clip_control [--rounds N]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "scl/clip_follower.h"
#include "scl/compile.h"

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

int run(int argc, char** argv) {
  int rounds = 5;
  if (argc == 3 && std::strcmp(argv[1], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[2]));
  const std::string source = R"(clip walk: "clips/walk.clip"
{
  [posture clip: walk nearest]
}
after 1
{
  [posture clip: walk]
}
)";
  scl::CompileResult compiled = scl::compile(source, SCL_SOURCE_DIR "/scripts/bench.scl");
  if (!compiled.ok()) {
    std::fprintf(stderr, "bench_clip_control: cannot compile the bench's script\n");
    for (const auto& diagnostic : compiled.diagnostics)
      std::fprintf(stderr, "  %s\n", diagnostic.message.c_str());
    return 1;
  }
  const scl::Program& program = *compiled.program;
  const scl::Character& character = *program.character;
  const auto& nearestPosture = std::get<scl::PosturePrimitive>(program.phases[0].primitives[0]);
  const auto& timedPosture = std::get<scl::PosturePrimitive>(program.phases[1].primitives[0]);
  const scl::Clip& clip = *nearestPosture.clip.clips.front()->clip;
  const double timeStep = 0.00025;
  const int steps = static_cast<int>(clip.duration() / timeStep);

  // The states met on the way: the clip's own, with deterministic noise.
  const size_t joints = character.joints.size();
  std::vector<double> angles(static_cast<size_t>(steps) * joints), velocities(angles.size());
  {
    scl::ClipFollower timed(timedPosture.clip, character);
    std::vector<double> none(joints, 0.0);
    unsigned state = 12345;
    auto noise = [&] {
      state = state * 1664525u + 1013904223u;
      return static_cast<double>(state >> 8) / static_cast<double>(1u << 24) * 2.0 - 1.0;
    };
    for (int i = 0; i < steps; ++i) {
      timed.update(i * timeStep, none, none);
      for (size_t j = 0; j < joints; ++j) {
        angles[i * joints + j] = timed.angle(static_cast<int>(j)) + noise() * 3.0 * M_PI / 180;
        velocities[i * joints + j] =
            timed.velocity(static_cast<int>(j)) + noise() * 30.0 * M_PI / 180;
      }
    }
  }
  double checksum = 0.0;
  auto cost = [&](const scl::ClipPlayback& playback, bool far) {
    scl::ClipFollower follower(playback, character);
    std::vector<double> rest(joints, 0.0), still(joints, 0.0);
    double best = 1e9;
    for (int round = 0; round < rounds; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < steps; ++i) {
        if (far)
          follower.update(i * timeStep, rest, still);
        else
          follower.update(i * timeStep, std::span(angles).subspan(i * joints, joints),
                          std::span(velocities).subspan(i * joints, joints));
        checksum += follower.chosenTime();
      }
      best = std::min(best, seconds(start) / steps);
    }
    return best;
  };
  const double onTheWay = cost(nearestPosture.clip, false);
  const double far = cost(nearestPosture.clip, true);
  const double timed = cost(timedPosture.clip, false);
  std::printf("walk clip (scripts/clips/walk.clip): %zu frames at 120 Hz, %zu joints, %d steps\n",
              clip.frames.size(), clip.joints.size(), steps);
  std::printf("  nearest posture, on the way (±3 deg, ±30 deg/s):  %8.3f us a step\n",
              onTheWay * 1e6);
  std::printf("  nearest posture, far (standing still):           %8.3f us a step\n", far * 1e6);
  std::printf("  timed playback (sample and rate):                 %8.3f us a step\n", timed * 1e6);
  std::printf("  goal: nearest posture at most 10 us a step: %s   (checksum %.3f)\n",
              std::max(onTheWay, far) <= 10e-6 ? "met" : "NOT met", checksum);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_clip_control: %s\n", error.what());
    return 1;
  }
}
