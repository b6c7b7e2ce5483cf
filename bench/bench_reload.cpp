// Hot reload's save-to-running latency with the real clock (tools/reload), as the viewer
// sees it: a script is saved, the reloader is polled every millisecond (the viewer polls
// once a frame), and the time from the save to the poll that runs the new program is
// measured. The debounce (30 ms) is most of it; the rest is the poll period, reading the
// file and compiling it. tests/test_reload.cpp checks the logic with an injected clock;
// this prints what a machine actually does (the goal: well under 100 ms).
//
//   bench_reload [SAVES]        (default 20)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/reload/hot_reload.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// A script of `phases` phases whose first target angle is `angle` (a new version each save).
std::string script(int phases, int angle) {
  std::string text;
  for (int p = 0; p < phases; ++p) {
    if (p > 0) text += "after 0.5\n";
    text += "{ (p" + std::to_string(p) + ") [waist " + std::to_string(angle + p) +
            ", knees -20 time: 0.3] [vf (0, 200) on: trunk, by: leftAnkle] [symm] }\n";
  }
  return text;
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const auto index = static_cast<size_t>(std::lround(q * static_cast<double>(values.size() - 1)));
  return values[index];
}

}  // namespace

int main(int argc, char** argv) {
  const int saves = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  const fs::path dir =
      fs::temp_directory_path() / ("scl_bench_reload_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / "motion.scl";

  std::printf("hot reload save-to-running latency (debounce 30 ms, polled every 1 ms), %d saves\n",
              saves);
  std::printf("%8s %8s %10s %10s %10s\n", "phases", "bytes", "min ms", "median ms", "max ms");
  int status = 0;
  for (int phases : {1, 10, 100}) {
    writeFile(path, script(phases, 0));
    scl::HotReloader reloader({path.string()});
    if (reloader.loadNow() != scl::ReloadEvent::Loaded) {
      std::fprintf(stderr, "bench_reload: the script does not compile\n%s",
                   reloader.renderedDiagnostics().c_str());
      status = 1;
      break;
    }
    std::vector<double> latencies;
    size_t bytes = 0;
    for (int save = 1; save <= saves; ++save) {
      const std::string text = script(phases, save);
      bytes = text.size();
      const auto saved = scl::WatchClock::now();
      writeFile(path, text);
      scl::ReloadEvent event = scl::ReloadEvent::None;
      auto now = saved;
      while (event == scl::ReloadEvent::None && now - saved < 2s) {
        std::this_thread::sleep_for(1ms);
        now = scl::WatchClock::now();
        event = reloader.poll(now);
      }
      if (event != scl::ReloadEvent::Loaded) {
        std::fprintf(stderr, "bench_reload: save %d was not loaded within 2 s\n", save);
        status = 1;
        break;
      }
      latencies.push_back(std::chrono::duration<double, std::milli>(now - saved).count());
    }
    if (status != 0) break;
    std::printf("%8d %8zu %10.1f %10.1f %10.1f\n", phases, bytes, percentile(latencies, 0.0),
                percentile(latencies, 0.5), percentile(latencies, 1.0));
  }
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return status;
}
