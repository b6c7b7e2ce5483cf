// `scl view SCRIPT`: the SFML viewer with hot reload (tools/viewer), or its headless mode
// for screenshots and recordings.
#include <cstdio>
#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "scl/compile.h"
#include "tools/cli.h"
#include "tools/commands.h"

#ifdef SCL_HAVE_VIEWER
#include "tools/plot/plot_layout.h"
#include "tools/viewer/viewer.h"
#endif

namespace scl {

#ifdef SCL_HAVE_VIEWER

namespace {

// "800x600" -> width, height; throws std::invalid_argument.
void parseSize(const std::string& text, ViewerDef& def) {
  unsigned width = 0, height = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%ux%u%c", &width, &height, &extra) != 2 || width < 64 ||
      height < 64 || width > 8192 || height > 8192)
    throw std::invalid_argument("--size must be WIDTHxHEIGHT in pixels, 64 to 8192 each (got '" +
                                text + "')");
  def.width = width;
  def.height = height;
}

// `NAME=VALUE` of `--set`, VALUE a number in script units; throws std::invalid_argument.
std::pair<std::string, double> parseSet(const std::string& text) {
  const size_t equals = text.find('=');
  std::optional<double> value;
  if (equals != std::string::npos && equals > 0)
    value = parseNumberOption(std::string_view(text).substr(equals + 1));
  if (!value)
    throw std::invalid_argument("--set '" + text +
                                "' is malformed: expected NAME=VALUE with VALUE a number in "
                                "script units, e.g. lean.pd.waist=25");
  return {text.substr(0, equals), *value};
}

// --screenshot and --record replace neither the script, the objective, nor the character
// file (--character's, else the scene character: of the script as it is now), nor each other.
void checkViewOutputs(const ViewerDef& def, const std::string& source) {
  std::vector<NamedPath> outputs;
  if (!def.screenshot.empty()) outputs.push_back({"--screenshot", def.screenshot});
  if (!def.record.empty()) outputs.push_back({"--record", def.record});
  if (outputs.empty()) return;
  std::vector<NamedPath> inputs = {{"script", def.script}};
  if (def.objective != "standing" && def.objective != "airborne")
    inputs.push_back({"objective", def.objective});
  if (def.character) {
    addCharacterInput(inputs, *def.character);
  } else if (const CompileResult compiled = compile(source, def.script); compiled.ok()) {
    addCharacterInput(inputs, *compiled.program->character);
  }
  checkOutputsAgainstInputs(inputs, outputs);
}

}  // namespace

int sclViewMain(int argc, char** argv) {
  cxxopts::Options options("scl view",
                           "Show a script's motion in a window and reload it on every save.\n"
                           "Keys: F1 or ? in the window; see docs/viewer.md.");
  options.positional_help("SCRIPT");
  options.add_options()("script", "the script to show and watch", cxxopts::value<std::string>())(
      "character",
      "the character: a built-in name or a .character file (overrides the script's scene "
      "character:, at every reload)",
      cxxopts::value<std::string>(),
      "NAME|FILE")("headless-frames",
                   "headless: render N frames (1/60 s of simulation each) without a window "
                   "and exit",
                   cxxopts::value<int>(), "N")(
      "screenshot", "headless: write the last frame to this PNG", cxxopts::value<std::string>())(
      "size", "window or image size, WIDTHxHEIGHT",
      cxxopts::value<std::string>()->default_value("1280x720"))(
      "record", "record to FILE (ffmpeg when on PATH, else PNG frames in FILE-stem_frames/)",
      cxxopts::value<std::string>())("fps", "recording frame rate in simulation time",
                                     cxxopts::value<int>()->default_value("60"))(
      "speed", "initial playback speed (1 = real time)",
      cxxopts::value<double>()->default_value("1"))("paused", "start paused")(
      "plots", "start with the plot panel shown (key p)")(
      "plot-joints", "the joints the plot panel shows first", cxxopts::value<std::string>(), "A,B")(
      "scrub", "headless: after the frames, show time T from the time bar's history",
      cxxopts::value<double>(), "T")("sliders", "start with the @ slider panel shown (key t)")(
      "set", "set the @ slider NAME to VALUE (script units) as if moved; repeatable",
      cxxopts::value<std::string>(), "NAME=VALUE")(
      "write-back",
      "headless: after the frames, write the sliders' values into the script (key w)")(
      "objective",
      "what key o optimizes a phase for: standing (at the end), airborne (max airborne "
      "time) or an objective FILE",
      cxxopts::value<std::string>()->default_value("standing"),
      "standing|airborne|FILE")("generations", "generations of a phase optimization (key o)",
                                cxxopts::value<int>()->default_value("30"), "N")(
      "optimize-phase",
      "headless: after the frames, optimize phase NAME's @ numbers (key o), then show its "
      "best (key v)",
      cxxopts::value<std::string>(), "NAME")(
      "screenshot-dir", "where key s writes its screenshots (default: the current directory)",
      cxxopts::value<std::string>(),
      "DIR")("print-layout",
             "print the window's regions and the sliders' tracks and knobs (pixels) on stderr "
             "whenever they change, for scripts that drive the window")("h,help", "show this help");
  // `--frames` means the filmstrip's times in `scl run`; here it only says where to go.
  options.add_options("hidden")("frames", "", cxxopts::value<std::string>());
  options.parse_positional({"script"});
  ViewerDef def;
  std::optional<std::string> character;
  auto read = [&](const cxxopts::ParseResult& parsed) {
    if (parsed.count("frames"))
      throw std::invalid_argument(
          "'scl view' has no --frames: --headless-frames N renders N frames without a window "
          "('--frames T1,T2,...' is 'scl run''s, the filmstrip's times)");
    if (!parsed.count("script")) throw std::invalid_argument("missing SCRIPT");
    def.script = parsed["script"].as<std::string>();
    if (parsed.count("character")) character = parsed["character"].as<std::string>();
    parseSize(parsed["size"].as<std::string>(), def);
    if (parsed.count("screenshot")) def.screenshot = parsed["screenshot"].as<std::string>();
    if (parsed.count("headless-frames")) {
      def.frames = parsed["headless-frames"].as<int>();
      if (def.frames < 1) throw std::invalid_argument("--headless-frames must be at least 1");
    } else if (!def.screenshot.empty()) {
      def.frames = 1;  // a screenshot alone: the initial state
    }
    if (parsed.count("record")) def.record = parsed["record"].as<std::string>();
    def.recordFps = parsed["fps"].as<int>();
    if (def.recordFps < 1 || def.recordFps > 240)
      throw std::invalid_argument("--fps must be 1 to 240");
    def.speed = parsed["speed"].as<double>();
    if (!(def.speed >= 1.0 / 16.0 && def.speed <= 4.0))
      throw std::invalid_argument("--speed must be 1/16 to 4");
    def.paused = parsed.count("paused") > 0;
    def.plots = parsed.count("plots") > 0;
    if (parsed.count("plot-joints")) {
      def.plotJoints = parsed["plot-joints"].as<std::string>();
      parseJointList(def.plotJoints, *loadCharacterOption("human"));  // throws on a bad name
      def.plots = true;
    }
    if (parsed.count("scrub")) {
      if (def.frames == 0) throw std::invalid_argument("--scrub is for --headless-frames");
      def.scrubTo = parsed["scrub"].as<double>();
      if (!(*def.scrubTo >= 0.0)) throw std::invalid_argument("--scrub must be a time >= 0");
    }
    def.sliders = parsed.count("sliders") > 0;
    for (const cxxopts::KeyValue& argument : parsed.arguments())
      if (argument.key() == "set") def.sets.push_back(parseSet(argument.value()));
    def.writeBack = parsed.count("write-back") > 0;
    def.objective = parsed["objective"].as<std::string>();
    def.generations = parsed["generations"].as<int>();
    if (def.generations < 1 || def.generations > 100000)
      throw std::invalid_argument("--generations must be 1 to 100000");
    if (parsed.count("optimize-phase")) {
      if (def.frames == 0)
        throw std::invalid_argument(
            "--optimize-phase is for --headless-frames (in the window: "
            "key o)");
      def.optimizePhase = parsed["optimize-phase"].as<std::string>();
    }
    if (parsed.count("screenshot-dir")) {
      def.screenshotDir = parsed["screenshot-dir"].as<std::string>();
      std::error_code error;
      if (!std::filesystem::is_directory(def.screenshotDir, error))
        throw std::invalid_argument("--screenshot-dir '" + def.screenshotDir +
                                    "' is not a directory");
    }
    def.printLayout = parsed.count("print-layout") > 0;
    if (def.writeBack && def.frames == 0)
      throw std::invalid_argument("--write-back is for --headless-frames (in the window: key w)");
  };
  CommandLineDef commandLine;
  commandLine.helpGroups = {""};
  if (!parseCommandLine(options, argc, argv, commandLine, read)) return kExitOk;
  // A missing file is a usage error before any window.
  const std::string source = readInputFile(def.script, "script");
  if (def.objective != "standing" && def.objective != "airborne")
    readInputFile(def.objective, "objective");
  if (character) def.character = loadCharacterOption(*character);
  checkViewOutputs(def, source);
  return runViewer(def);
}

#else

int sclViewMain(int, char**) {
  std::cerr << "scl was built without the viewer (SFML 2.5 not found)\n";
  return 2;
}

#endif

}  // namespace scl
