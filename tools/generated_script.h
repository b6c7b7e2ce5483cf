// A valid script of any size, for the benchmarks that measure the front end on big input
// (`scl bench`'s check row, bench/bench_memory.cpp): distinct phases with every kind of
// primitive, alternating time and contact transitions.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace scl {

/// A script of at least `bytes` bytes whose scene lasts `duration` seconds; `phases`
/// receives its number of phases.
inline std::string generateScript(size_t bytes, int& phases, double duration = 5) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "// generated\nscene pose: supine duration: %g\n", duration);
  std::string script = buffer;
  phases = 0;
  while (script.size() < bytes) {
    std::snprintf(buffer, sizeof buffer,
                  "{\n  (p%d)\n  [shoulders %d, elbows 130, wrists 50 time: 0.3]\n"
                  "  [leftHip 80, waist @%d, leftKnee -150 time: 0.5]\n  [vf (0, 200) on: "
                  "leftFoot, by: waist]\n  [symm]\n"
                  "  [relax ankles strength 0.4]\n  [ik (0.2, -0.5) on: rightAnkle time: 0.3]\n}\n",
                  phases, 100 + phases % 60, phases % 80);
    script += buffer;
    ++phases;
    script += phases % 2 ? "after 0.6\n" : "when contact all feet\n";
  }
  script += "{\n  (last)\n  [knees 0]\n}\n";
  ++phases;
  return script;
}

}  // namespace scl
