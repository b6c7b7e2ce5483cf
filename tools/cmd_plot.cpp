// `scl plot SCRIPT|TRAJECTORY.csv`: the plots of a motion as SVG (docs/plot.md) — joint
// angle against its PD target, torque against its limit, the centre of mass against the
// support region, the heights, contacts per link and the phase boundaries — from a run
// of the script or from a trajectory CSV of `scl run --out`. The viewer's plot panel
// draws the same model (tools/plot/).
#include <cstdio>
#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "runtime/output_files.h"
#include "runtime/run_session.h"
#include "scl/compile.h"
#include "scl/diagnostics.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/plot/plot_data.h"
#include "tools/plot/svg_plot.h"

namespace scl {

namespace {

/// The command line of `scl plot`.
struct PlotRequest {
  std::string input;
  PlotSelection selection;
  /// `--joints`, resolved once the character is known.
  std::string joints;
  /// `--objects`, resolved once the scene (or the CSV's columns) is known.
  std::string objects;
  std::optional<std::string> out;
  std::optional<std::string> character;
  std::optional<double> duration;
  /// Samples per second, Hz.
  double rate = 200.0;
  /// SVG width, pixels.
  double width = 900.0;
};

bool isCsv(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
}

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "scl plot: %s\n", message.c_str());
  return code;
}

cxxopts::Options plotOptions() {
  cxxopts::Options options("scl plot",
                           "Plot a motion as SVG: run a script (or read a trajectory CSV of "
                           "'scl run --out') and draw the chosen series over time, with the "
                           "phase boundaries. Without a choice: --com --heights --contacts.");
  options.positional_help("SCRIPT|TRAJECTORY.csv");
  options.add_options()("input", "the script to run, or a trajectory CSV",
                        cxxopts::value<std::string>())(
      "joints", "joints (or groups such as hips) to plot: angle vs PD target, torque vs limit",
      cxxopts::value<std::string>(),
      "A,B")("com", "the centre of mass's x against the support region")(
      "heights", "centre-of-mass height and head height")(
      "feet", "heel and toe heights of both feet")("hands", "hand heights")("contacts",
                                                                            "contact per link")(
      "objects", "objects of the scene (movable objects, moving platforms): place and angle",
      cxxopts::value<std::string>(),
      "A,B")("out", "write the SVG here (default: standard output)", cxxopts::value<std::string>(),
             "FILE.svg")("character",
                         "a built-in character or a .character file (default: the script's; "
                         "for a CSV, human)",
                         cxxopts::value<std::string>(), "NAME|FILE")(
      "duration", "simulate this long, seconds (default: as 'scl run')", cxxopts::value<double>(),
      "S")("rate", "samples per second of a script run", cxxopts::value<double>(), "HZ")(
      "width", "SVG width, pixels", cxxopts::value<double>(), "PX")("h,help", "show this help");
  options.parse_positional({"input"});
  return options;
}

PlotRequest readRequest(const cxxopts::ParseResult& parsed) {
  if (!parsed.unmatched().empty())
    throw UsageError("unexpected argument '" + parsed.unmatched()[0] + "'");
  if (!parsed.count("input")) throw UsageError("missing SCRIPT or TRAJECTORY.csv");
  PlotRequest request;
  request.input = parsed["input"].as<std::string>();
  if (parsed.count("joints")) request.joints = parsed["joints"].as<std::string>();
  if (parsed.count("objects")) {
    request.objects = parsed["objects"].as<std::string>();
    if (request.objects.empty()) throw UsageError("--objects needs object names (e.g. crate,ball)");
  }
  request.selection.com = parsed.count("com") > 0;
  request.selection.heights = parsed.count("heights") > 0;
  request.selection.feet = parsed.count("feet") > 0;
  request.selection.hands = parsed.count("hands") > 0;
  request.selection.contacts = parsed.count("contacts") > 0;
  if (request.joints.empty() && request.objects.empty() && request.selection.empty())
    request.selection.com = request.selection.heights = request.selection.contacts = true;
  if (parsed.count("out")) request.out = parsed["out"].as<std::string>();
  if (parsed.count("character")) request.character = parsed["character"].as<std::string>();
  if (parsed.count("duration")) {
    request.duration = parsed["duration"].as<double>();
    if (!(*request.duration > 0.0 && *request.duration <= 600.0))
      throw UsageError("--duration must be more than 0 and at most 600 s");
    if (isCsv(request.input)) throw UsageError("--duration is for a script, not a trajectory CSV");
  }
  if (parsed.count("rate")) {
    request.rate = parsed["rate"].as<double>();
    if (!(request.rate >= 1.0 && request.rate <= 4000.0))
      throw UsageError("--rate must be 1 to 4000 samples per second");
  }
  if (parsed.count("width")) {
    request.width = parsed["width"].as<double>();
    if (!(request.width >= 300.0 && request.width <= 10000.0))
      throw UsageError("--width must be 300 to 10000 pixels");
  }
  return request;
}

// --out replaces neither the script or trajectory nor the character file (--character's or
// the script's `scene character:`).
void checkPlotOutput(const PlotRequest& request, const Character& character) {
  if (!request.out) return;
  std::vector<NamedPath> inputs = {{isCsv(request.input) ? "trajectory" : "script", request.input}};
  addCharacterInput(inputs, character);
  checkOutputsAgainstInputs(inputs, {{"--out", *request.out}});
}

// Runs the script as `scl run` would (its scene, run length and metrics) and records it.
std::vector<int> jointsOf(const PlotRequest& request, const Character& character) {
  if (request.joints.empty()) return {};
  try {
    return parseJointList(request.joints, character);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--joints: ") + error.what());
  }
}

// The objects of `--objects`, as indices into data's objects.
std::vector<int> objectsOf(const PlotRequest& request, const PlotData& data) {
  if (request.objects.empty()) return {};
  try {
    return parseObjectList(request.objects, data);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--objects: ") + error.what());
  }
}

PlotData plotOfScript(PlotRequest& request, const std::string& source) {
  CompileOptions options;
  if (request.character) options.character = loadCharacterOption(*request.character);
  CompileResult compiled = compile(source, request.input, options);
  if (!compiled.diagnostics.empty())
    std::fputs(renderDiagnostics(compiled.diagnostics, source).c_str(), stderr);
  if (!compiled.ok())
    throw InputFileError(kExitInputError, "'" + request.input + "' has errors (see above)");
  Program& program = *compiled.program;
  checkPlotOutput(request, *program.character);
  // The joints are checked against the script's character before the (long) run.
  request.selection.joints = jointsOf(request, *program.character);
  request.selection.contactLinks = program.character->linkCount();
  RunSessionDef def;
  def.simulation = simulationDefFor(program);
  def.length = defaultRunLength(program);
  if (request.duration) def.length.duration = request.duration;
  def.metrics = metricsFor(*program.character, def.simulation.scene);
  const std::shared_ptr<const Character> character = program.character;
  RunSession session(std::move(program), def);
  const Simulation& simulation = session.runner().simulation();
  PlotRecorder recorder(*character, request.rate, def.simulation.timeStep);
  recorder.trackObjects(simulation.definition().scene.bodies, simulation.worldBodies());
  // The objects are checked against the scene before the run too.
  request.selection.objects = objectsOf(request, recorder.data());
  session.run([&](const StepView& step) { recorder.observe(step); });
  // The last state always: the plots end where the run's summary is measured.
  const StepReport& last = session.runner().report();
  recorder.observe({session.runner().state(), last.phase, last.phaseName, false, false,
                    &last.targets, last.torques},
                   true, simulation.worldBodies());
  return recorder.data();
}

PlotData plotOfCsv(PlotRequest& request, const std::string& text) {
  const std::shared_ptr<const Character> character =
      loadCharacterOption(request.character.value_or("human"));
  checkPlotOutput(request, *character);
  request.selection.joints = jointsOf(request, *character);
  request.selection.contactLinks = character->linkCount();
  PlotData data;
  try {
    data = readTrajectoryCsv(text, *character);
  } catch (const std::invalid_argument& error) {
    throw InputFileError(kExitInputError, request.input + ": " + error.what());
  }
  request.selection.objects = objectsOf(request, data);
  return data;
}

int plotCommand(PlotRequest request) {
  const bool csv = isCsv(request.input);
  const std::string text = readInputFile(request.input, csv ? "trajectory" : "script");
  if (request.out) checkOutputWritable("--out", *request.out);
  PlotData data;
  try {
    data = csv ? plotOfCsv(request, text) : plotOfScript(request, text);
  } catch (const SimulationDiverged& error) {
    return fail(kExitFailure, std::string(error.what()) + " (nothing written)");
  } catch (const std::invalid_argument& error) {
    return fail(kExitInputError, request.input + ": " + error.what());
  }
  SvgPlotDef def;
  def.width = request.width;
  def.title = request.input;
  const std::string svg = renderPlotSvg(data, request.selection, def);
  if (!request.out) {
    std::fwrite(svg.data(), 1, svg.size(), stdout);
    return kExitOk;
  }
  try {
    writeFileAtomically(*request.out, svg);
  } catch (const OutputError& error) {
    return fail(kExitFailure, error.what());
  }
  std::printf("wrote %s: %zu samples, %.3f to %.3f s%s\n", request.out->c_str(), data.size(),
              data.time.front(), data.time.back(),
              data.hasTargets ? "" : " (a trajectory CSV holds no PD targets: angles only)");
  return kExitOk;
}

}  // namespace

int sclPlotMain(int argc, char** argv) {
  cxxopts::Options options = plotOptions();
  PlotRequest request;
  if (!parseCommandLine(options, argc, argv, {},
                        [&](const cxxopts::ParseResult& parsed) { request = readRequest(parsed); }))
    return kExitOk;
  return plotCommand(request);
}

}  // namespace scl
