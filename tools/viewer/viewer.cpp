#include "tools/viewer/viewer.h"

#include <SFML/Graphics.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "base/files.h"
#include "runtime/phase_standing.h"
#include "scl/names.h"
#include "tools/cli.h"
#include "tools/plot/plot_layout.h"
#include "tools/reload/hot_reload.h"
#include "tools/viewer/camera.h"
#include "tools/viewer/display_probe.h"
#include "tools/viewer/keys.h"
#include "tools/viewer/layout.h"
#include "tools/viewer/phase_optimizer.h"
#include "tools/viewer/plot_panel.h"
#include "tools/viewer/recorder.h"
#include "tools/viewer/renderer.h"
#include "tools/viewer/session.h"
#include "tools/viewer/slider_panel.h"
#include "tools/viewer/tuning.h"

namespace scl {

namespace {

using Clock = std::chrono::steady_clock;

/// Frames per second of the display loop and of the headless mode.
constexpr double kFrameRate = 60.0;
/// Wall time a single frame may account for, seconds: a slow frame (or a stop in a
/// debugger) must not make the simulation spiral trying to catch up.
constexpr double kMaxFrameWall = 0.1;
constexpr double kMinSpeed = 1.0 / 16.0;
constexpr double kMaxSpeed = 4.0;
/// How long a transient note stays on screen, seconds.
constexpr double kMessageSeconds = 3.0;
/// Mouse picking tolerance, pixels.
constexpr double kPickPixels = 8.0;
/// Room left around the window on the desktop, pixels (panels, title bar).
constexpr unsigned kDesktopMargin = 80;

// "standing since 2.31 s   rise 1.92 s   airborne 0.41 s (longest 0.30)   energy 1.2e+05"
std::string summaryFigures(const MotionSummary& summary) {
  char text[256];
  std::string state;
  if (summary.fell) {
    std::snprintf(text, sizeof text, "FELL at %.2f s", *summary.fell);
    state = text;
  } else if (summary.standing) {
    std::snprintf(text, sizeof text, "STANDING since %.2f s", summary.standingSince.value_or(0.0));
    state = text;
  } else {
    state = "not standing";
  }
  std::string rise = "-";
  if (summary.riseTime) {
    std::snprintf(text, sizeof text, "%.2f s", *summary.riseTime);
    rise = text;
  }
  std::snprintf(text, sizeof text,
                "%s   rise %s   airborne %.2f s (longest %.2f)   head %.2f m   energy %.3g",
                state.c_str(), rise.c_str(), summary.airborneTime, summary.longestAirborne,
                summary.headHeight, summary.energy);
  return text;
}

// The next free "<stem>_NNN.png" in `directory` ("": the current directory).
std::string nextScreenshotName(const std::string& script, const std::string& directory) {
  std::string stem = std::filesystem::path(script).stem().string();
  for (int i = 1;; ++i) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "_%03d.png", i);
    std::string name = (std::filesystem::path(directory) / (stem + suffix)).string();
    std::error_code error;
    if (!std::filesystem::exists(name, error)) return name;
  }
}

// " NAME x y width height", pixels to a tenth.
std::string rectText(const char* name, const PixelRect& rect) {
  char text[96];
  std::snprintf(text, sizeof text, " %s %.1f %.1f %.1f %.1f", name, rect.x, rect.y, rect.width,
                rect.height);
  return text;
}

// The sliders of the reloader's current program (its `@` numbers as written).
ParameterTuner makeTuner(const HotReloader& reloader, const ViewerDef& def) {
  if (!reloader.program()) return {};
  CompileOptions options;
  options.character = def.character;
  return {reloader.programSource(), reloader.path(), *reloader.program(), options};
}

// The `--set` options applied to `tuner`; "" when every name is a parameter, else the
// first error ("--set x=1: unknown parameter 'x'; did you mean ...").
std::string applySets(ParameterTuner& tuner, const ViewerDef& def) {
  for (const auto& [name, value] : def.sets)
    if (const std::string error = tuner.setByName(name, value); !error.empty()) {
      std::string message = "--set " + name;
      message.append(": ").append(error);
      return message;
    }
  return "";
}

// The objective text of `name` (built-in or a file) for `program`, and its file name;
// throws std::invalid_argument when the file cannot be read.
std::pair<std::string, std::string> objectiveFor(const std::string& name, const Program& program) {
  if (std::optional<std::string> text = builtInObjective(name, program))
    return {*text, "<" + name + " objective>"};
  FileRead read = readWholeFile(name);
  if (!read)
    throw std::invalid_argument("the objective " + read.error +
                                " (give a file, or 'standing' or 'airborne')");
  return {std::move(read.text), name};
}

// What the objective is called in the status band.
std::string objectiveLabel(const std::string& name) {
  if (name == kStandingObjective) return "standing at the end";
  if (name == kAirborneObjective) return "max airborne time";
  return std::filesystem::path(name).filename().string();
}

// The parameter-name prefix of phase `index`: its name, or phaseN (1-based) unnamed.
std::string phaseKey(const Program& program, int index) {
  if (index < 0 || static_cast<size_t>(index) >= program.phases.size()) return "";
  const std::string& name = program.phases[static_cast<size_t>(index)].name;
  return name.empty() ? "phase" + std::to_string(index + 1) : name;
}

// "" when `phase` names a phase of `program`, else the error with the closest name.
std::string checkPhaseName(const Program& program, const std::string& phase) {
  std::vector<std::string> keys;
  for (int i = 0; i < static_cast<int>(program.phases.size()); ++i) {
    keys.push_back(phaseKey(program, i));
    if (keys.back() == phase) return "";
  }
  const std::vector<std::string_view> names(keys.begin(), keys.end());
  return unknownChoiceMessage("phase", phase, names);
}

// SFML's key as the key table names it (keys.h); kNone for a key that types a character.
NamedKey namedKeyOf(sf::Keyboard::Key key) {
  switch (key) {
    case sf::Keyboard::Escape:
      return NamedKey::kEscape;
    case sf::Keyboard::F1:
      return NamedKey::kF1;
    case sf::Keyboard::Left:
      return NamedKey::kLeft;
    case sf::Keyboard::Right:
      return NamedKey::kRight;
    case sf::Keyboard::Home:
      return NamedKey::kHome;
    case sf::Keyboard::End:
      return NamedKey::kEnd;
    case sf::Keyboard::Enter:
      return NamedKey::kEnter;
    default:
      return NamedKey::kNone;
  }
}

class ViewerApp {
 public:
  ViewerApp(const ViewerDef& def, HotReloader reloader, std::unique_ptr<ViewerSession> session)
      : def_(def),
        reloader_(std::move(reloader)),
        session_(std::move(session)),
        camera_(CameraDef{}, Vec2(def.width, def.height)),
        speed_(std::clamp(def.speed, kMinSpeed, kMaxSpeed)),
        paused_(def.paused),
        showPlots_(def.plots),
        tuner_(makeTuner(reloader_, def)),
        showSliders_(def.sliders || !def.sets.empty()) {
    if (!def.plotJoints.empty())
      plotJoints_ = parseJointList(def.plotJoints, session_->character());
    // runViewer() checked the names; the values are set as if the sliders were moved.
    tuningDirty_ = !def.sets.empty() && applySets(tuner_, def).empty();
    updateLayout();
    camera_.snapToBody(session_->state().com, bodyBox(session_->character(), session_->state()));
  }

  int runHeadless();
  int runInteractive();

 private:
  bool createCanvas(unsigned width, unsigned height);
  bool startRecording();
  void recordFrame();
  void pollReload();
  void render();
  HudInfo hud() const;
  void note(std::string message);
  void handleEvent(const sf::Event& event, sf::RenderWindow& window);
  /// What a key does (keys.h); `character` is the key's, U'\0' for a named key.
  void perform(ViewerAction action, char32_t character);
  void takeScreenshot();
  /// --print-layout: the regions and the visible sliders on stderr when they changed.
  void printLayout();
  void restart();
  void updateLayout();
  void followCamera(double wall);
  /// The state the scene shows: a snapshot while scrubbing, else the live one.
  const CharacterState& shownState() const;
  /// The world's moving parts in the state the scene shows.
  std::span<const WorldBodyState> shownWorldBodies() const;
  double shownTime() const;
  void scrubTo(double time);
  void scrubBy(double seconds);
  void resumeFromScrub();
  void cyclePlotJoint(int direction);
  bool handleMousePress(const Vec2& screen, sf::Mouse::Button button);
  bool handleSliderPress(const Vec2& screen);
  void moveSlider(double x);
  void scrollSliders(int rows);
  /// Re-runs from the start with the sliders' values, to the time shown before.
  void applyTuning();
  /// Writes the sliders' values into the script; false (and a note) when refused.
  bool writeBack();
  /// Key o: starts optimizing the shown phase, or stops the run in progress.
  void toggleOptimizer();
  /// Starts optimizing phase `phase` (its parameter prefix); false (and a note) when not.
  bool startOptimizer(const std::string& phase);
  /// Key v: the sliders at the optimizer's best, re-run.
  void previewBest();
  /// The optimizer's progress for the status band ("" without one).
  std::string optimizerLine() const;
  /// Headless --optimize-phase: runs it to its end, drawing frames meanwhile.
  bool optimizeHeadless();

  ViewerDef def_;
  HotReloader reloader_;
  std::unique_ptr<ViewerSession> session_;
  SceneRenderer renderer_;
  Camera camera_;
  sf::RenderTexture canvas_;
  std::unique_ptr<VideoRecorder> recorder_;
  double speed_;
  bool paused_;
  bool continueOnReload_ = false;
  bool showHelp_ = false;
  bool quit_ = false;
  /// Simulated time owed to the display, seconds (real-time accumulator).
  double owedSimulation_ = 0.0;
  /// Recording: the simulated time of the last recorded frame, seconds.
  double recordClock_ = 0.0;
  /// A program that compiled but cannot run (e.g. a bad scene), shown like diagnostics.
  std::optional<std::string> runtimeError_;
  std::string message_;
  Clock::time_point messageUntil_{};
  /// Right-button panning: the last mouse position.
  std::optional<Vec2> panFrom_;
  bool showPlots_ = false;
  /// The joints the plot panel shows.
  std::vector<int> plotJoints_;
  ViewerLayout layout_;
  /// While scrubbing: the time shown, seconds (the live run waits).
  std::optional<double> scrub_;
  /// The left button went down on the time bar.
  bool draggingTimeBar_ = false;
  /// The `@` sliders of the current program and their panel.
  ParameterTuner tuner_;
  bool showSliders_ = false;
  /// The topmost slider shown; the slider being dragged (-1: none).
  int sliderRow_ = 0;
  int draggingSlider_ = -1;
  /// A slider moved since the last re-run (re-run once per frame, not per mouse event).
  bool tuningDirty_ = false;
  /// The phase optimization (key o), running or ended; its destructor stops and joins it.
  std::unique_ptr<PhaseOptimizer> optimizer_;
  /// The reloader's generation (version of the script) the optimization is of.
  int optimizedVersion_ = 0;
  /// --print-layout: what was printed last.
  std::string printedLayout_;
};

void ViewerApp::updateLayout() {
  const sf::Vector2u size = canvas_.getSize();
  const double width = size.x ? size.x : def_.width, height = size.y ? size.y : def_.height;
  layout_ = viewerLayout(width, height, showPlots_, 15.0, showSliders_);
  camera_.setViewport(Vec2(layout_.scene.width, layout_.scene.height),
                      Vec2(layout_.scene.x, layout_.scene.y));
}

void ViewerApp::followCamera(double wall) {
  const CharacterState& state = shownState();
  camera_.followBody(state.com, bodyBox(session_->character(), state), wall);
}

const CharacterState& ViewerApp::shownState() const {
  if (scrub_)
    if (const Snapshot* snapshot = session_->snapshotAt(*scrub_)) return snapshot->state;
  return session_->state();
}

double ViewerApp::shownTime() const { return shownState().time; }

std::span<const WorldBodyState> ViewerApp::shownWorldBodies() const {
  if (scrub_)
    if (const Snapshot* snapshot = session_->snapshotAt(*scrub_)) return snapshot->world;
  return session_->worldBodies();
}

void ViewerApp::scrubTo(double time) {
  if (time >= session_->time() - 0.5 * session_->timeStep()) {
    scrub_.reset();  // at the live end: the live run
    return;
  }
  scrub_ = std::max(time, session_->historyStart());
}

void ViewerApp::scrubBy(double seconds) { scrubTo(shownTime() + seconds); }

void ViewerApp::resumeFromScrub() {
  if (!scrub_) return;
  const double time = shownTime();
  scrub_.reset();
  owedSimulation_ = 0.0;
  char text[96];
  std::snprintf(text, sizeof text,
                session_->resumeFrom(time) ? "resumed from t = %.3f s (replayed from the start)"
                                           : "cannot replay to t = %.3f s",
                time);
  note(text);
}

void ViewerApp::cyclePlotJoint(int direction) {
  showPlots_ = true;
  int current = plotJoints_.empty() ? (direction > 0 ? -1 : 0) : plotJoints_.front();
  const Character& character = session_->character();
  current = (current + direction + character.jointCount()) % character.jointCount();
  plotJoints_ = {current};
  updateLayout();
  note("plotting " + character.joints[static_cast<size_t>(current)].name);
}

bool ViewerApp::createCanvas(unsigned width, unsigned height) {
  if (!canvas_.create(width, height)) return false;
  canvas_.setSmooth(true);
  updateLayout();
  return true;
}

bool ViewerApp::startRecording() {
  if (def_.record.empty()) return true;
  try {
    recorder_ =
        std::make_unique<VideoRecorder>(def_.record, def_.width, def_.height, def_.recordFps);
  } catch (const std::exception& error) {
    std::cerr << "scl view: " << error.what() << "\n";
    return false;
  }
  std::cerr << "scl view: " << recorder_->description() << "\n";
  return true;
}

void ViewerApp::recordFrame() {
  if (!recorder_) return;
  try {
    recorder_->addFrame(canvas_.getTexture().copyToImage());
  } catch (const std::exception& error) {
    std::cerr << "scl view: " << error.what() << "; recording stopped\n";
    recorder_.reset();
  }
}

void ViewerApp::note(std::string message) {
  message_ = std::move(message);
  messageUntil_ =
      Clock::now() + std::chrono::milliseconds(static_cast<int>(kMessageSeconds * 1000));
}

void ViewerApp::pollReload() {
  ReloadEvent event = reloader_.poll(Clock::now());
  switch (event) {
    case ReloadEvent::None:
      return;
    case ReloadEvent::Loaded: {
      if (!reloader_.diagnostics().empty()) std::cerr << reloader_.renderedDiagnostics();
      const Program& program = *reloader_.program();
      try {
        if (continueOnReload_) {
          session_->continueWith(program);
          note("reloaded: continuing with the new controller");
        } else {
          session_->load(program);
          camera_.snapToBody(session_->state().com,
                             bodyBox(session_->character(), session_->state()));
          owedSimulation_ = 0.0;
          note("reloaded: restarted");
        }
        runtimeError_.reset();
        scrub_.reset();
      } catch (const std::exception& error) {
        runtimeError_ = reloader_.path() + ": " + error.what();
        std::cerr << "scl view: " << *runtimeError_ << "\n";
      }
      // The sliders start again from the new version's written values; an optimization
      // of the old version ends (its values no longer fit).
      tuner_ = makeTuner(reloader_, def_);
      if (optimizer_) optimizer_->stop();
      draggingSlider_ = -1;
      tuningDirty_ = false;
      return;
    }
    case ReloadEvent::Failed:
      std::cerr << (reloader_.status() == ReloadStatus::CompileError
                        ? reloader_.renderedDiagnostics()
                        : "scl view: " + reloader_.statusLine() + "\n");
      return;
    case ReloadEvent::Missing:
    case ReloadEvent::Resumed:
      std::cerr << "scl view: " << reloader_.statusLine() << "\n";
      return;
  }
}

HudInfo ViewerApp::hud() const {
  HudInfo info;
  const Controller& controller = session_->controller();
  info.script = reloader_.path();
  info.phase = controller.phaseIndex();
  info.phaseCount = controller.phaseCount();
  info.phaseName = controller.phaseName();
  info.phaseTimedOut = controller.phaseTimedOut();
  info.phaseTime = controller.phaseTime();
  info.time = session_->time();
  if (const Snapshot* snapshot = scrub_ ? session_->snapshotAt(*scrub_) : nullptr) {
    const auto& phases = controller.program().phases;
    info.phase = snapshot->phase;
    info.phaseName = static_cast<size_t>(snapshot->phase) < phases.size()
                         ? phases[static_cast<size_t>(snapshot->phase)].name
                         : std::string();
    info.phaseTimedOut = false;
    info.phaseTime = snapshot->phaseTime;
    info.time = snapshot->state.time;
  }
  const MotionSummary summary = session_->run().summary();
  info.figures = summaryFigures(summary) + (scrub_ ? "   (live run; Enter resumes here)" : "");
  info.standing = summary.standing;
  info.fell = summary.fell.has_value();
  info.speed = speed_;
  info.paused = paused_ || scrub_.has_value();
  info.continueOnReload = continueOnReload_;
  info.recording = recorder_ != nullptr;
  info.status = reloader_.statusLine();
  if (const std::string line = optimizerLine(); !line.empty())
    info.status = line + "   " + info.status;
  // A phase stuck on a contact that does not come, said as `scl run`'s summary says it.
  if (const std::string waiting = waitingMessage(phaseStanding(controller));
      !waiting.empty() && !scrub_)
    info.status = waiting + "   " + info.status;
  info.statusIsError = reloader_.status() != ReloadStatus::Running;
  if (reloader_.status() == ReloadStatus::CompileError)
    info.diagnostics = reloader_.renderedDiagnostics();
  else if (runtimeError_)
    info.diagnostics = *runtimeError_;
  else if (session_->failure())
    info.diagnostics = *session_->failure();
  if (Clock::now() < messageUntil_) info.message = message_;
  info.showHelp = showHelp_;
  return info;
}

void ViewerApp::render() {
  // While scrubbing the forces and the drag of the live run are not the shown state's.
  const bool live = !scrub_;
  renderer_.drawWorld(canvas_, camera_, session_->character(), shownState(),
                      session_->world().outlines(shownWorldBodies()),
                      live ? session_->appliedForces() : std::span<const AppliedForce>{},
                      live ? session_->featureOverlay() : FeatureOverlay{});
  if (auto point = session_->dragPoint(); point && live)
    renderer_.drawDrag(canvas_, camera_,
                       {*point, session_->drag()->target, session_->dragForce().norm()});
  if (showPlots_) {
    PlotSelection selection;
    selection.joints = plotJoints_;
    selection.com = selection.heights = selection.contacts = true;
    selection.contactLinks = static_cast<int>(session_->plots().linkNames.size());
    drawPlotPanel(canvas_, renderer_.font(), layout_.plots, session_->plots(),
                  plotWindow(selection, shownTime()));
  }
  if (showSliders_)
    drawSliderPanel(canvas_, renderer_.font(), sliderPanelLayout(layout_.sliders), tuner_,
                    {sliderRow_, draggingSlider_});
  drawTimeBar(canvas_, renderer_.font(), layout_.timeBar,
              {session_->historyStart(), session_->time(), shownTime(), !live}, session_->plots());
  renderer_.drawHud(canvas_, hud(), layout_);
  canvas_.display();
  if (def_.printLayout) printLayout();
}

void ViewerApp::printLayout() {
  const sf::Vector2u size = canvas_.getSize();
  std::string text = "scl view: layout " + std::to_string(size.x) + "x" + std::to_string(size.y);
  text += rectText("hud", layout_.hud) + rectText("scene", layout_.scene) +
          rectText("plots", layout_.plots) + rectText("sliders", layout_.sliders) +
          rectText("timebar", layout_.timeBar) + rectText("status", layout_.status) +
          (scrub_ ? " scrubbing 1" : " scrubbing 0");
  if (showSliders_ && layout_.sliders.width > 0.0) {
    const SliderPanelLayout panel = sliderPanelLayout(layout_.sliders);
    text += rectText("writeback", panel.writeBack);
    const auto& sliders = tuner_.sliders();
    for (int row = 0; row < panel.visibleRows; ++row) {
      const size_t index = static_cast<size_t>(sliderRow_) + static_cast<size_t>(row);
      if (index >= sliders.size()) break;
      const ParameterSlider& slider = sliders[index];
      const PixelRect track = panel.track(row);
      char line[96];
      std::snprintf(line, sizeof line, " value %.6g range %.6g %.6g", slider.value, slider.lower,
                    slider.upper);
      text += "\nscl view: slider " + slider.name + line + rectText("track", track);
      std::snprintf(line, sizeof line, " knob %.1f %.1f",
                    sliderPixel(track, slider.value, slider.lower, slider.upper),
                    track.y + 0.5 * track.height);
      text += line;
    }
  }
  if (text == printedLayout_) return;
  printedLayout_ = text;
  std::cerr << text << std::endl;  // flushed: a driving script waits for it
}

int ViewerApp::runHeadless() {
  if (!createCanvas(def_.width, def_.height)) {
    std::cerr << "scl view: no display available (set DISPLAY or run under xvfb-run)\n";
    return 2;
  }
  if (!startRecording()) return kExitFailure;
  // Each frame is a fixed slice of simulated time: 1/60 s, or 1/fps when recording.
  double frameTime = recorder_ ? 1.0 / def_.recordFps : 1.0 / kFrameRate;
  if (tuningDirty_) applyTuning();
  double start = session_->time();
  for (int frame = 1; frame <= def_.frames; ++frame) {
    pollReload();
    if (!paused_) session_->advanceTo(start + frame * frameTime * (recorder_ ? 1.0 : speed_));
    followCamera(frameTime);
    render();
    recordFrame();
  }
  if (def_.scrubTo) {  // what the time bar shows when dragged back there
    scrubTo(*def_.scrubTo);
    camera_.snapToBody(shownState().com, bodyBox(session_->character(), shownState()));
    render();
  }
  if (recorder_ && !recorder_->finish()) std::cerr << "scl view: ffmpeg reported an error\n";
  if (!def_.optimizePhase.empty() && !optimizeHeadless()) return kExitInputError;
  // What the HUD shows (the figures of `scl run`'s summary), for scripts and tests.
  std::cerr << "scl view: t = " << session_->time()
            << " s: " << summaryFigures(session_->run().summary()) << "\n";
  if (def_.writeBack) {
    const bool written = writeBack();
    std::cerr << "scl view: " << message_ << "\n";
    if (!written) return kExitFailure;  // an output (the script) not written
  }
  if (!def_.screenshot.empty()) {
    if (!canvas_.getTexture().copyToImage().saveToFile(def_.screenshot)) {
      std::cerr << "scl view: cannot write " << def_.screenshot << "\n";
      return kExitFailure;
    }
    std::cerr << "scl view: wrote " << def_.screenshot << " (" << def_.width << "x" << def_.height
              << ", " << def_.frames << " frames, t = " << session_->time() << " s)\n";
  }
  if (session_->failure()) std::cerr << "scl view: " << *session_->failure() << "\n";
  return 0;
}

int ViewerApp::runInteractive() {
  // Recording needs a fixed frame size, so the window cannot be resized then.
  auto style = !def_.record.empty() ? sf::Style::Titlebar | sf::Style::Close : sf::Style::Default;
  // The window opens inside the screen: no larger than the desktop (less a margin for
  // panels and the title bar), centred on it.
  const sf::VideoMode desktop = sf::VideoMode::getDesktopMode();
  if (desktop.width > 2 * kDesktopMargin && desktop.height > 2 * kDesktopMargin &&
      def_.record.empty()) {
    const unsigned width = std::min(def_.width, desktop.width - kDesktopMargin);
    const unsigned height = std::min(def_.height, desktop.height - kDesktopMargin);
    if (width != def_.width || height != def_.height)
      std::cerr << "scl view: " << def_.width << "x" << def_.height << " does not fit the "
                << desktop.width << "x" << desktop.height << " screen; opening " << width << "x"
                << height << "\n";
    def_.width = width;
    def_.height = height;
  }
  sf::RenderWindow window(sf::VideoMode(def_.width, def_.height), "scl view - " + def_.script,
                          style);
  if (window.isOpen() && desktop.width >= def_.width && desktop.height >= def_.height)
    window.setPosition({static_cast<int>(desktop.width - def_.width) / 2,
                        static_cast<int>(desktop.height - def_.height) / 2});
  if (!window.isOpen() || !createCanvas(def_.width, def_.height)) {
    std::cerr << "scl view: no display available (set DISPLAY or run under xvfb-run)\n";
    return 2;
  }
  // Recording paces frames itself on a fixed schedule (below): SFML's limiter sleeps
  // per frame in whole milliseconds, and its overshoot added up to a video slower than
  // real time.
  if (def_.record.empty()) window.setFramerateLimit(static_cast<unsigned>(kFrameRate));
  Clock::time_point nextFrame = Clock::now();
  if (!startRecording()) return kExitFailure;

  sf::Sprite frame(canvas_.getTexture());
  Clock::time_point last = Clock::now();
  while (window.isOpen() && !quit_) {
    sf::Event event;
    while (window.pollEvent(event)) {
      handleEvent(event, window);
      if (event.type == sf::Event::Resized) frame.setTexture(canvas_.getTexture(), true);
    }
    Clock::time_point now = Clock::now();
    double wall = std::min(kMaxFrameWall, std::chrono::duration<double>(now - last).count());
    last = now;

    pollReload();
    if (tuningDirty_) applyTuning();
    if (scrub_) {
      // Scrubbing: the live run waits where it was.
    } else if (recorder_) {
      // Recording: frame k shows simulated time start + k/fps, whatever the wall clock
      // does. Resynchronise after a restart, a reload or a hand step.
      if (std::abs(recordClock_ - session_->time()) > session_->timeStep())
        recordClock_ = session_->time();
      if (!paused_) {
        recordClock_ += 1.0 / def_.recordFps;
        session_->advanceTo(recordClock_);
      }
    } else if (!paused_) {
      owedSimulation_ += wall * speed_;
      int steps = static_cast<int>(owedSimulation_ / session_->timeStep());
      owedSimulation_ -= steps * session_->timeStep();
      session_->advance(steps);
    }
    followCamera(wall);
    render();
    if (!paused_ && !scrub_) recordFrame();

    window.clear();
    window.draw(frame);
    window.display();
    if (recorder_) {
      // Frame k is due at start + k/fps of wall time; a late frame is not waited for, and
      // after a stall (a reload, a resume) the schedule starts again.
      nextFrame += std::chrono::microseconds(1000000 / def_.recordFps);
      const Clock::time_point now = Clock::now();
      if (now < nextFrame)
        std::this_thread::sleep_until(nextFrame);
      else if (now - nextFrame > std::chrono::milliseconds(100))
        nextFrame = now;
    }
  }
  if (recorder_) {
    std::cerr << "scl view: recorded " << recorder_->frameCount() << " frames\n";
    if (!recorder_->finish()) std::cerr << "scl view: ffmpeg reported an error\n";
  }
  return 0;
}

void ViewerApp::handleEvent(const sf::Event& event, sf::RenderWindow& window) {
  switch (event.type) {
    case sf::Event::Closed:
      quit_ = true;
      break;
    case sf::Event::Resized:
      window.setView(sf::View(sf::FloatRect(0.0f, 0.0f, static_cast<float>(event.size.width),
                                            static_cast<float>(event.size.height))));
      createCanvas(event.size.width, event.size.height);
      break;
    case sf::Event::KeyPressed:
      if (const ViewerKeyBinding* binding = keyBindingOf(namedKeyOf(event.key.code)))
        perform(binding->action, U'\0');
      break;
    case sf::Event::TextEntered: {
      const auto character = static_cast<char32_t>(event.text.unicode);
      if (const ViewerKeyBinding* binding = keyBindingOf(character))
        perform(binding->action, character);
      break;
    }
    case sf::Event::MouseWheelScrolled:
      if (showSliders_ &&
          layout_.sliders.contains(event.mouseWheelScroll.x, event.mouseWheelScroll.y)) {
        scrollSliders(event.mouseWheelScroll.delta > 0 ? -1 : 1);
        break;
      }
      camera_.zoomAt(Vec2(event.mouseWheelScroll.x, event.mouseWheelScroll.y),
                     std::pow(1.15, static_cast<double>(event.mouseWheelScroll.delta)));
      break;
    case sf::Event::MouseButtonPressed:
      handleMousePress(Vec2(event.mouseButton.x, event.mouseButton.y), event.mouseButton.button);
      break;
    case sf::Event::MouseButtonReleased:
      if (event.mouseButton.button == sf::Mouse::Right) panFrom_.reset();
      if (event.mouseButton.button == sf::Mouse::Left) {
        session_->setDrag(std::nullopt);
        draggingTimeBar_ = false;
        draggingSlider_ = -1;
      }
      break;
    case sf::Event::MouseMoved: {
      Vec2 screen(event.mouseMove.x, event.mouseMove.y);
      if (draggingTimeBar_)
        scrubTo(
            timeBarTime(layout_.timeBar, {session_->historyStart(), session_->time()}, screen.x()));
      if (draggingSlider_ >= 0) moveSlider(screen.x());
      if (panFrom_) {
        camera_.panBy(screen - *panFrom_);
        panFrom_ = screen;
      }
      if (auto drag = session_->drag()) {
        drag->target = camera_.screenToWorld(screen);
        session_->setDrag(drag);
      }
      break;
    }
    default:
      break;
  }
}

bool ViewerApp::handleMousePress(const Vec2& screen, sf::Mouse::Button button) {
  if (button == sf::Mouse::Right) {
    panFrom_ = screen;
    return true;
  }
  if (button != sf::Mouse::Left) return false;
  if (handleSliderPress(screen)) return true;
  if (layout_.timeBar.contains(screen.x(), screen.y())) {
    draggingTimeBar_ = true;
    scrubTo(timeBarTime(layout_.timeBar, {session_->historyStart(), session_->time()}, screen.x()));
    return true;
  }
  if (!layout_.scene.contains(screen.x(), screen.y())) return false;
  const Vec2 world = camera_.screenToWorld(screen);
  const CharacterState& state = shownState();
  const Character& character = session_->character();
  const double tolerance = kPickPixels / camera_.pixelsPerMetre();
  auto link = pickLink(character, state, world, tolerance);
  if (!link) {
    // The character is drawn over the objects: an object is grabbed where no link is.
    const std::optional<ObjectPoint> object =
        session_->world().pick(shownWorldBodies(), world, tolerance);
    if (!object) return false;
    if (!scrub_) session_->setDrag(DragState{{}, world, object});
    return true;
  }
  // With the plot panel open a click on a link plots the joint that moves it.
  if (showPlots_ && *link > 0) {
    plotJoints_ = {character.links[*link].parentJoint};
    note("plotting " + character.joints[static_cast<size_t>(plotJoints_.front())].name);
  }
  if (!scrub_)
    session_->setDrag(
        DragState{toLinkPoint(character, *link, state.links[*link], world), world, std::nullopt});
  return true;
}

void ViewerApp::perform(ViewerAction action, char32_t character) {
  switch (action) {
    case ViewerAction::kPauseResume:
      if (scrub_) {  // resume from the moment shown
        resumeFromScrub();
        paused_ = false;
        break;
      }
      paused_ = !paused_;
      break;
    case ViewerAction::kStepForward:
      if (scrub_)
        scrubBy(1.0 / kFrameRate);
      else if (paused_)
        session_->advanceTo(session_->time() + 1.0 / kFrameRate);
      break;
    case ViewerAction::kStepBack:
      scrubBy(-1.0 / kFrameRate);
      break;
    case ViewerAction::kScrubToOldest:
      scrubTo(session_->historyStart());
      break;
    case ViewerAction::kBackToLive:
      scrub_.reset();
      break;
    case ViewerAction::kResumeFromScrub:
      resumeFromScrub();
      break;
    case ViewerAction::kTogglePlots:
      showPlots_ = !showPlots_;
      updateLayout();
      break;
    case ViewerAction::kNextPlotJoint:
      cyclePlotJoint(1);
      break;
    case ViewerAction::kPreviousPlotJoint:
      cyclePlotJoint(-1);
      break;
    case ViewerAction::kSlower:
      speed_ = std::max(kMinSpeed, speed_ / 2.0);
      break;
    case ViewerAction::kFaster:
      speed_ = std::min(kMaxSpeed, speed_ * 2.0);
      break;
    case ViewerAction::kRestart:
      restart();
      break;
    case ViewerAction::kToggleContinueOnSave:
      continueOnReload_ = !continueOnReload_;
      note(continueOnReload_ ? "on save: continue from the current state with the new controller"
                             : "on save: restart from the initial state");
      break;
    case ViewerAction::kJumpToPhase: {
      const int phase = static_cast<int>(character - U'1');  // keys 1-9
      resumeFromScrub();                                     // a jump from the moment shown
      note(session_->jumpToPhase(phase) ? "jumped to phase " + std::to_string(phase + 1)
                                        : "no phase " + std::to_string(phase + 1));
      break;
    }
    case ViewerAction::kToggleSliders:
      showSliders_ = !showSliders_;
      updateLayout();
      if (showSliders_ && tuner_.sliders().empty()) note("the script has no @ numbers to tune");
      break;
    case ViewerAction::kWriteBack:
      writeBack();
      break;
    case ViewerAction::kToggleOptimizer:
      toggleOptimizer();
      break;
    case ViewerAction::kShowBest:
      previewBest();
      break;
    case ViewerAction::kScreenshot:
      takeScreenshot();
      break;
    case ViewerAction::kResetView:
      camera_.resetView();
      break;
    case ViewerAction::kToggleHelp:
      showHelp_ = !showHelp_;
      break;
    case ViewerAction::kQuit:
      quit_ = true;
      break;
  }
}

bool ViewerApp::handleSliderPress(const Vec2& screen) {
  if (!showSliders_ || !layout_.sliders.contains(screen.x(), screen.y())) return false;
  const SliderPanelLayout panel = sliderPanelLayout(layout_.sliders);
  if (panel.writeBack.contains(screen.x(), screen.y())) {
    writeBack();
    return true;
  }
  for (int row = 0; row < panel.visibleRows; ++row) {
    const int index = sliderRow_ + row;
    if (index >= static_cast<int>(tuner_.sliders().size())) break;
    const PixelRect track = panel.track(row);
    if (!panel.label(row).contains(screen.x(), screen.y()) &&
        !track.contains(screen.x(), screen.y()))
      continue;
    draggingSlider_ = index;
    moveSlider(screen.x());
    break;
  }
  return true;  // a click elsewhere on the panel does nothing
}

void ViewerApp::moveSlider(double x) {
  const auto& sliders = tuner_.sliders();
  if (draggingSlider_ < 0 || draggingSlider_ >= static_cast<int>(sliders.size())) return;
  const ParameterSlider& slider = sliders[static_cast<size_t>(draggingSlider_)];
  const PixelRect track = sliderPanelLayout(layout_.sliders).track(draggingSlider_ - sliderRow_);
  if (tuner_.set(static_cast<size_t>(draggingSlider_),
                 sliderValueAt(track, x, slider.lower, slider.upper)))
    tuningDirty_ = true;
}

void ViewerApp::scrollSliders(int rows) {
  const int hidden =
      static_cast<int>(tuner_.sliders().size()) - sliderPanelLayout(layout_.sliders).visibleRows;
  sliderRow_ = std::clamp(sliderRow_ + rows, 0, std::max(0, hidden));
}

void ViewerApp::applyTuning() {
  tuningDirty_ = false;
  const Program* base = reloader_.program();
  if (!base) return;
  const double time = shownTime();
  try {
    session_->load(tuner_.apply(*base));
    session_->advanceTo(time);  // the same moment, with the new values
    runtimeError_.reset();
  } catch (const std::exception& error) {
    runtimeError_ = reloader_.path() + ": " + error.what();
  }
  scrub_.reset();
  owedSimulation_ = 0.0;
}

bool ViewerApp::writeBack() {
  const Program* base = reloader_.program();
  if (!base || tuner_.sliders().empty()) {
    note("not written: the script has no @ numbers");
    return false;
  }
  const WriteBackResult result =
      writeBackParameters(reloader_.path(), reloader_.programSource(), *base, tuner_.values());
  note(result.message);
  return result.written;
}

void ViewerApp::toggleOptimizer() {
  if (optimizer_ && optimizer_->status().running) {
    optimizer_->stop();  // it ends after the evaluations in progress; nothing waits here
    note("stopping the optimization (v shows its best so far)");
    return;
  }
  const Program* program = reloader_.program();
  if (!program) return;
  int phase = session_->controller().phaseIndex();
  if (const Snapshot* snapshot = scrub_ ? session_->snapshotAt(*scrub_) : nullptr)
    phase = snapshot->phase;
  startOptimizer(phaseKey(*program, phase));
}

bool ViewerApp::startOptimizer(const std::string& phase) {
  const Program* program = reloader_.program();
  if (!program) return false;
  PhaseOptimizerDef def;
  def.scriptSource = reloader_.programSource();
  def.scriptFile = reloader_.path();
  def.options.character = def_.character;
  def.phase = phase;
  def.start = tuner_.values();
  def.generations = def_.generations;
  try {
    std::tie(def.objectiveSource, def.objectiveFile) = objectiveFor(def_.objective, *program);
    optimizer_.reset();  // a previous run has ended (toggleOptimizer): joins at once
    optimizer_ = std::make_unique<PhaseOptimizer>(std::move(def));
    optimizedVersion_ = reloader_.generation();
  } catch (const std::exception& error) {
    std::cerr << "scl view: cannot optimize phase '" << phase << "': " << error.what() << "\n";
    const std::string what = error.what();
    note("cannot optimize phase '" + phase + "': " + what.substr(0, what.find('\n')));
    return false;
  }
  note("optimizing phase '" + phase + "' for " + objectiveLabel(def_.objective) + "; o stops");
  return true;
}

void ViewerApp::previewBest() {
  if (!optimizer_) {
    note("no optimization: o optimizes the phase shown");
    return;
  }
  const std::optional<std::vector<double>> best = optimizer_->tryBest();
  if (!best) {
    note("no result yet (or busy: press v again)");
    return;
  }
  if (optimizedVersion_ != reloader_.generation() || !tuner_.assign(*best)) {
    note("the optimization was of an older version of the script");
    return;
  }
  applyTuning();
  note("showing the optimization's best (w writes it into the script)");
}

std::string ViewerApp::optimizerLine() const {
  if (!optimizer_) return "";
  const PhaseOptimizerStatus status = optimizer_->status();
  char text[160];
  std::snprintf(text, sizeof text, "%s '%s' %d/%d: best J %.4g (start %.4g)",
                status.running ? "optimizing" : "optimized", optimizer_->phase().c_str(),
                status.generation, status.generations, status.bestJ, status.startJ);
  return text;
}

bool ViewerApp::optimizeHeadless() {
  if (!startOptimizer(def_.optimizePhase)) return false;
  // The frame loop goes on while it runs: frames drawn (the live run paused), one per
  // 1/60 s of wall time, never waiting on the optimizer.
  int frames = 0;
  while (optimizer_->status().running) {
    render();
    ++frames;
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int>(1e6 / kFrameRate)));
  }
  optimizer_->wait();
  const PhaseOptimizerStatus status = optimizer_->status();
  std::cerr << "scl view: " << optimizerLine() << ", " << status.evaluations
            << " evaluations; frames drawn meanwhile: " << frames << "\n";
  if (const std::string reason = optimizer_->endReason(); !reason.empty())
    std::cerr << "scl view: the optimization ended early: " << reason << "\n";
  previewBest();
  render();
  return true;
}

void ViewerApp::takeScreenshot() {
  const std::string name = nextScreenshotName(def_.script, def_.screenshotDir);
  if (canvas_.getTexture().copyToImage().saveToFile(name)) {
    note("screenshot saved to " + name);
    std::cerr << "scl view: screenshot saved to " << name << std::endl;
  } else {
    note("cannot write " + name);
    std::cerr << "scl view: cannot write " << name << std::endl;
  }
}

void ViewerApp::restart() {
  session_->restart();
  scrub_.reset();
  camera_.snapToBody(session_->state().com, bodyBox(session_->character(), session_->state()));
  owedSimulation_ = 0.0;
  note("restarted");
}

}  // namespace

int runViewer(const ViewerDef& def) {
  HotReloader reloader({def.script, HotReloadDef{}.debounce, def.character});
  switch (reloader.loadNow()) {
    case ReloadEvent::Loaded:
      break;
    case ReloadEvent::Missing:
      std::cerr << "scl view: " << def.script << ": no such file\n";
      return kExitUsageError;  // a missing input file, as for every command
    default:
      if (reloader.status() == ReloadStatus::CompileError)
        std::cerr << reloader.renderedDiagnostics();
      else
        std::cerr << "scl view: " << reloader.statusLine() << "\n";
      return 1;
  }
  if (!reloader.diagnostics().empty()) std::cerr << reloader.renderedDiagnostics();

  std::unique_ptr<ViewerSession> session;
  try {
    session = std::make_unique<ViewerSession>(*reloader.program());
  } catch (const std::exception& error) {
    std::cerr << "scl view: " << def.script << ": " << error.what() << "\n";
    return 1;
  }
  if (!def.sets.empty()) {  // a misspelt name is a usage error, before any window
    ParameterTuner probe = makeTuner(reloader, def);
    if (std::string error = applySets(probe, def); !error.empty()) {
      std::cerr << "scl view: " << error << " (see 'scl view --help')\n";
      return 2;
    }
  }
  if (!def.optimizePhase.empty()) {
    if (std::string error = checkPhaseName(*reloader.program(), def.optimizePhase);
        !error.empty()) {
      std::cerr << "scl view: --optimize-phase: " << error << " (see 'scl view --help')\n";
      return 2;
    }
  }
  const DisplayConnection display;  // held until the viewer ends (see display_probe.h)
  if (!display.available()) {
    std::cerr << "scl view: no display available (set DISPLAY or run under xvfb-run)\n";
    return 2;
  }
  ViewerApp app(def, std::move(reloader), std::move(session));
  return def.frames > 0 ? app.runHeadless() : app.runInteractive();
}

}  // namespace scl
