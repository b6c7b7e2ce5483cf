// The viewer's frame cost with the plot panel on (docs/viewer.md): each frame simulates
// 1/60 s of the kip-up (real time) and draws what the window shows — the scene, the plot
// panel with two joints, the time bar and the HUD — into an off-screen canvas, as
// runViewer() does; then the cost of resuming at 4 s (a replay from the start), and of
// reading a frame back for recording. Prints per-frame figures; needs an X server (run it
// under xvfb-run).
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
#include <vector>

#include "scl/compile.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/plot_panel.h"
#include "tools/viewer/renderer.h"
#include "tools/viewer/session.h"

namespace {

using Clock = std::chrono::steady_clock;

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

}  // namespace

int main(int argc, char** argv) {
  unsigned width = 1280, height = 720;
  int frames = 600;
  if (argc > 1 && std::sscanf(argv[1], "%ux%u", &width, &height) != 2) {
    std::fprintf(stderr, "usage: bench_viewer [WIDTHxHEIGHT] [FRAMES]\n");
    return 2;
  }
  if (argc > 2) frames = std::max(10, std::atoi(argv[2]));
  std::ifstream file(SCL_SOURCE_DIR "/scripts/kipup.scl");
  std::stringstream source;
  source << file.rdbuf();
  const scl::CompileResult compiled = scl::compile(source.str(), "kipup.scl");
  if (!compiled.ok()) return 1;
  scl::ViewerSession session(*compiled.program);
  sf::RenderTexture canvas;
  if (!canvas.create(width, height)) {
    std::fprintf(stderr, "bench_viewer: no OpenGL context (run under xvfb-run)\n");
    return 2;
  }
  const scl::SceneRenderer renderer;
  const scl::ViewerLayout layout = scl::viewerLayout(width, height, true);
  scl::Camera camera(scl::CameraDef{}, scl::Vec2(layout.scene.width, layout.scene.height),
                     scl::Vec2(layout.scene.x, layout.scene.y));
  scl::PlotSelection selection;
  selection.joints = {scl::kLeftHip, scl::kLeftKnee};
  selection.com = selection.heights = selection.contacts = true;

  std::vector<double> simulate, draw, total, readBack;
  for (int frame = 1; frame <= frames; ++frame) {
    const auto start = Clock::now();
    if (frame % 300 == 0) session.restart();  // the kip-up is 5 s: keep it moving
    session.advanceTo(session.time() + 1.0 / 60.0);
    const double simulated = millisecondsSince(start);
    const auto drawStart = Clock::now();
    const scl::CharacterState& state = session.state();
    camera.followBody(state.com, scl::bodyBox(session.character(), state), 1.0 / 60.0);
    renderer.drawWorld(canvas, camera, session.character(), state, session.environmentBoxes(),
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
    draw.push_back(millisecondsSince(drawStart));
    simulate.push_back(simulated);
    total.push_back(millisecondsSince(start));
    if (frame % 10 == 0) {
      const auto readStart = Clock::now();
      const sf::Image image = canvas.getTexture().copyToImage();
      readBack.push_back(millisecondsSince(readStart));
    }
  }
  std::printf("viewer frame, %ux%u, kip-up, plot panel with 2 joints, %d frames\n", width, height,
              frames);
  printFigures("simulate 1/60 s", simulate);
  printFigures("draw scene + plots + time bar + HUD", draw);
  printFigures("frame (simulate + draw)", total);
  printFigures("read a frame back (recording)", readBack);

  session.restart();
  session.advanceTo(4.0);
  const auto resume = Clock::now();
  session.resumeFrom(3.9);
  std::printf("resume at 3.9 s from a run at 4 s (replay from the start): %.1f ms\n",
              millisecondsSince(resume));
  return 0;
}
