// The viewer's frame cost with the plot panel on (docs/viewer.md): each frame simulates
// 1/60 s of the kip-up (real time) and draws what the window shows — the scene, the plot
// panel with two joints, the time bar and the HUD — into an off-screen canvas, as
// runViewer() does; then the cost of resuming at 4 s (a replay from the start), and of
// reading a frame back for recording; then the same frames again while a phase of the
// kip-up is optimized in the background (key o: tools/viewer/phase_optimizer.h, the
// optimizer's threads sharing the cores with the frame loop). Prints per-frame figures;
// needs an X server (run it under xvfb-run).
//
//   bench_viewer [WIDTHxHEIGHT] [FRAMES]        (default 1280x720, 600)
#include <SFML/Graphics.hpp>
#include <SFML/OpenGL.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "scl/compile.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/phase_optimizer.h"
#include "tools/viewer/plot_panel.h"
#include "tools/viewer/renderer.h"
#include "tools/viewer/session.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string readSource(const std::string& path) {
  std::ifstream file(path);
  std::stringstream source;
  source << file.rdbuf();
  return source.str();
}

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void printFigures(const char* what, std::vector<double> times) {
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  const double p95 = times[times.size() * 95 / 100];
  std::printf("%-44s median %6.2f ms  p95 %6.2f ms  max %6.2f ms  (%.0f fps at the median)\n", what,
              median, p95, times.back(), 1000.0 / median);
}

/// Per-frame times, milliseconds.
struct FrameTimes {
  std::vector<double> simulate, draw, total, readBack;
};

/// `frames` frames of the kip-up as the window draws them with the plot panel on: each
/// simulates 1/60 s and draws scene, plots, time bar and HUD, waiting for the GL queue.
FrameTimes measureFrames(scl::ViewerSession& session, sf::RenderTexture& canvas,
                         scl::Camera& camera, const scl::ViewerLayout& layout, int frames) {
  const scl::SceneRenderer renderer;
  scl::PlotSelection selection;
  selection.joints = {scl::kLeftHip, scl::kLeftKnee};
  selection.com = selection.heights = selection.contacts = true;
  FrameTimes times;
  for (int frame = 1; frame <= frames; ++frame) {
    const auto start = Clock::now();
    if (frame % 300 == 0) session.restart();  // the kip-up is 5 s: keep it moving
    session.advanceTo(session.time() + 1.0 / 60.0);
    const double simulated = millisecondsSince(start);
    const auto drawStart = Clock::now();
    const scl::CharacterState& state = session.state();
    camera.followBody(state.com, scl::bodyBox(session.character(), state), 1.0 / 60.0);
    renderer.drawWorld(canvas, camera, session.character(), state, session.worldOutlines(),
                       session.appliedForces(), session.featureOverlay());
    scl::drawPlotPanel(canvas, renderer.font(), layout.plots, session.plots(),
                       scl::plotWindow(selection, session.time()));
    scl::drawTimeBar(canvas, renderer.font(), layout.timeBar,
                     {session.historyStart(), session.time(), session.time(), false},
                     session.plots());
    scl::HudInfo hud;
    hud.figures = "STANDING since 2.33 s   rise 2.55 s   airborne 0.38 s";
    renderer.drawHud(canvas, hud, layout);
    canvas.display();
    // Drawing is done when the GL queue is (Mesa rasterizes lazily): wait for it, so the
    // figure is the whole cost of the frame, not just of queueing it.
    glFinish();
    times.draw.push_back(millisecondsSince(drawStart));
    times.simulate.push_back(simulated);
    times.total.push_back(millisecondsSince(start));
    if (frame % 10 == 0) {
      const auto readStart = Clock::now();
      const sf::Image image = canvas.getTexture().copyToImage();
      times.readBack.push_back(millisecondsSince(readStart));
    }
  }
  return times;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned width = 1280, height = 720;
  int frames = 600;
  if (argc > 1 && std::sscanf(argv[1], "%ux%u", &width, &height) != 2) {
    std::fprintf(stderr, "usage: bench_viewer [WIDTHxHEIGHT] [FRAMES]\n");
    return 2;
  }
  if (argc > 2) frames = std::max(10, std::atoi(argv[2]));
  const scl::CompileResult compiled =
      scl::compile(readSource(SCL_SOURCE_DIR "/scripts/kipup.scl"), "kipup.scl");
  if (!compiled.ok()) return 1;
  scl::ViewerSession session(*compiled.program);
  sf::RenderTexture canvas;
  if (!canvas.create(width, height)) {
    std::fprintf(stderr, "bench_viewer: no OpenGL context (run under xvfb-run)\n");
    return 2;
  }
  const scl::ViewerLayout layout = scl::viewerLayout(width, height, true);
  scl::Camera camera(scl::CameraDef{}, scl::Vec2(layout.scene.width, layout.scene.height),
                     scl::Vec2(layout.scene.x, layout.scene.y));
  FrameTimes times = measureFrames(session, canvas, camera, layout, frames);
  std::printf("viewer frame, %ux%u, kip-up, plot panel with 2 joints, %d frames\n", width, height,
              frames);
  printFigures("simulate 1/60 s", times.simulate);
  printFigures("draw scene + plots + time bar + HUD", times.draw);
  printFigures("frame (simulate + draw)", times.total);
  printFigures("read a frame back (recording)", times.readBack);

  session.restart();
  session.advanceTo(4.0);
  const auto resume = Clock::now();
  session.resumeFrom(3.9);
  std::printf("resume at 3.9 s from a run at 4 s (replay from the start): %.1f ms\n",
              millisecondsSince(resume));

  // The same frames while phase 'propel' of the kip-up with its numbers marked @
  // (scripts/optimize/kipup.scl) is optimized for "standing at the end" as key o does it: a
  // driver thread and a pool of every core but one, each candidate 5 s of simulation.
  scl::PhaseOptimizerDef optimized;
  optimized.scriptFile = SCL_SOURCE_DIR "/scripts/optimize/kipup.scl";
  optimized.scriptSource = readSource(optimized.scriptFile);
  const scl::CompileResult marked = scl::compile(optimized.scriptSource, optimized.scriptFile);
  if (!marked.ok()) return 1;
  optimized.objectiveSource = *scl::builtInObjective(scl::kStandingObjective, *marked.program);
  optimized.objectiveFile = "<standing objective>";
  optimized.phase = "propel";
  optimized.generations = 100000;  // stopped after the frames
  session.restart();
  scl::PhaseOptimizer optimizer(std::move(optimized));
  const auto optimizing = Clock::now();
  times = measureFrames(session, canvas, camera, layout, frames);
  const double seconds = millisecondsSince(optimizing) / 1000.0;
  const scl::PhaseOptimizerStatus status = optimizer.status();
  optimizer.stop();
  optimizer.wait();
  std::printf(
      "\nwhile optimizing phase 'propel' of scripts/optimize/kipup.scl (%zu @ numbers, standing "
      "at the end, %d evaluating %s): %lld evaluations, %d generations in %.1f s\n",
      optimizer.parameterNames().size(), optimizer.threads(),
      optimizer.threads() == 1 ? "thread" : "threads", static_cast<long long>(status.evaluations),
      status.generation, seconds);
  printFigures("simulate 1/60 s", times.simulate);
  printFigures("draw scene + plots + time bar + HUD", times.draw);
  printFigures("frame (simulate + draw)", times.total);
  return 0;
}
