// `scl run`: simulate a script headless, print a summary of the motion (docs/marks.md's
// measures), and optionally write the trajectory (CSV) and a filmstrip of poses (SVG).
//
// The command line becomes a RunRequest (run_request.h), the run is a RunSession
// (runtime/run_session.h) observed by the recorders, and run_report.h prints it.
// Exit codes (docs/cli.md): 0 ok, 1 script error, 2 usage error, 3 simulation failure.
// Every user error is detected before the simulation starts where possible (options,
// names, output directories), so a bad invocation fails fast; output files are written
// atomically only after a successful run.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "base/threads.h"
#include "runtime/outcomes.h"
#include "runtime/output_files.h"
#include "runtime/run_session.h"
#include "scl/bvh.h"
#include "scl/clip_file.h"
#include "scl/compile.h"
#include "scl/names.h"
#include "scl/printer.h"
#include "scl/world.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/filmstrip.h"
#include "tools/interrupt.h"
#include "tools/run_report.h"
#include "tools/run_request.h"
#include "tools/run_sweep.h"
#include "tools/trajectory_csv.h"

namespace scl {

namespace {

// --set NAME=VALUE for each named `@` parameter. The values go through the checks of
// written numbers: a scene body's through sceneBodyIssues() (worldParameterIssues()), the
// others substituted at their `@` in the script's text, which is compiled again; what the
// checks say of a set parameter is said of its --set (an error is a usage error, a warning
// is printed).
void applySets(Program& program, const std::string& source, const RunRequest& request,
               const CompileOptions& options) {
  if (request.sets.empty()) return;
  std::vector<double> values = program.parameterValues();
  std::vector<std::string> setBy(values.size());  // the --set of each set slot
  for (const auto& [name, value] : request.sets) {
    const NameLookup parameter = lookupParameter(program.parameters, name);
    if (!parameter.ok()) throw UsageError("--set: " + parameter.error);
    const auto slot = static_cast<size_t>(parameter.index());
    values[slot] = value;
    setBy[slot] = "--set " + name + "=" + formatNumber(value);
  }
  program.setParameters(values);
  for (const WorldParameterIssue& issue : worldParameterIssues(program))
    for (int slot : issue.slots)
      if (!setBy[static_cast<size_t>(slot)].empty())
        throw UsageError(setBy[static_cast<size_t>(slot)] + ": " + issue.message);
  std::vector<SourceLocation> locations;
  const std::string text = substituteParameters(source, program, &locations);
  const CompileResult again = compile(text, request.script, options);
  for (const Diagnostic& diagnostic : again.diagnostics) {
    for (size_t slot = 0; slot < locations.size(); ++slot) {
      const SourceLocation& at = locations[slot];
      if (setBy[slot].empty() || diagnostic.location.line != at.line ||
          diagnostic.location.column != at.column)
        continue;
      if (diagnostic.severity == Severity::Error)
        throw UsageError(setBy[slot] + ": " + diagnostic.message);
      if (diagnostic.severity == Severity::Warning)
        std::fprintf(stderr, "scl run: warning: %s: %s\n", setBy[slot].c_str(),
                     diagnostic.message.c_str());
    }
  }
}

// The simulation the request asks for: the script's scene with the options' overrides
// (the one scene rule, scl/scene.h), the step and the perturbation.
SimulationDef simulationDef(const Program& program, const RunRequest& request) {
  const SceneResolution scene =
      resolveScene(request.scene, program.scene, *program.character, SceneSpelling::options());
  for (const SceneIssue& issue : scene.issues)
    if (issue.severity == Severity::Error) throw UsageError(issue.message);
  SimulationDef def = simulationDefFor(program);
  def.scene = scene.scene;
  def.timeStep = request.timeStep;
  if (request.perturbDeg) def.jointOffsets = perturbationOffsets(*request.perturbDeg, request.seed);
  try {
    validate(def);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  return def;
}

// When the run ends: --duration, else the script's rule; never before the last frame.
RunLength runLength(const Program& program, const RunRequest& request) {
  RunLength length = defaultRunLength(program);
  if (request.scene.duration) {
    length.duration = request.scene.duration;
    length.reason = "--duration";
  }
  const double lastFrame = request.frames.empty() ? 0.0 : request.frames.back();
  const double end = length.duration.value_or(length.longest);
  if (lastFrame > end + 1e-9) {
    std::ostringstream out;
    out << "--frames asks for t = " << lastFrame << " s, after the end of the run (" << end
        << " s): give an earlier time or a longer --duration";
    throw UsageError(out.str());
  }
  length.notBefore = lastFrame;
  return length;
}

struct Recorded {
  RunOutcome outcome;
  std::optional<TrajectoryRecorder> trajectory;
  std::optional<ClipRecorder> clip;
  std::vector<FilmstripFrame> frames;
  FilmstripWorld world;
  std::shared_ptr<const Character> character;
};

// Runs `program` (moved into the run: a long script is held once).
// A run of more than a few seconds shows how far it is on a terminal.
class RunProgress {
 public:
  explicit RunProgress(std::optional<double> end) : end_(end), shown_(::isatty(STDERR_FILENO)) {}
  ~RunProgress() {
    if (drawn_) std::fprintf(stderr, "\r\x1b[K");
  }
  void update(double simulated) {
    if (!shown_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(2) || now - last_ < std::chrono::milliseconds(200))
      return;
    last_ = now;
    drawn_ = true;
    const double wall = std::chrono::duration<double>(now - start_).count();
    if (end_)
      std::fprintf(stderr, "\r  simulating %.1f / %.1f s (%.1fx real time; Ctrl-C stops)\x1b[K",
                   simulated, *end_, simulated / wall);
    else
      std::fprintf(stderr, "\r  simulating %.1f s (%.1fx real time; Ctrl-C stops)\x1b[K", simulated,
                   simulated / wall);
  }

 private:
  std::optional<double> end_;
  bool shown_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
};

// The pushes the request asks for, on the links and objects of the simulation `def`.
std::vector<Push> resolvePushes(const RunRequest& request, const SimulationDef& def) {
  std::vector<Push> pushes;
  for (const PushRequest& push : request.pushes)
    pushes.push_back(resolvePush(push, *def.character, def.scene.bodies));
  return pushes;
}

// The run the request asks for, from the simulation `def`.
RunSessionDef sessionDef(const Program& program, const SimulationDef& def,
                         const RunRequest& request) {
  RunSessionDef run;
  run.simulation = def;
  run.pushes = resolvePushes(request, def);
  if (request.featureRate) run.controller.featureRate = *request.featureRate;
  run.controller.stablePd = request.stablePd;
  run.length = runLength(program, request);
  // The thresholds of docs/marks.md, scaled to the character's body.
  run.metrics = metricsFor(*program.character, def.scene);
  return run;
}

Recorded simulate(Program program, const SimulationDef& def, const RunRequest& request,
                  const std::atomic<bool>& interrupt) {
  using Clock = std::chrono::steady_clock;
  const RunSessionDef run = sessionDef(program, def, request);
  Recorded recorded;
  const auto setupStart = Clock::now();
  RunSession session(std::move(program), run);
  const auto runStart = Clock::now();
  recorded.character = session.program().character;
  const Simulation& simulation = session.runner().simulation();
  std::optional<FilmstripSampler> filmstrip;
  if (request.svgPath) {
    filmstrip.emplace(request.frames, run.length.duration, def.timeStep);
    recorded.world = filmstripWorld(simulation);
  }
  if (request.csvPath)
    recorded.trajectory.emplace(*recorded.character, request.rate, def.timeStep,
                                simulation.definition().scene.bodies, simulation.worldBodies());
  if (request.clipPath || request.bvhPath)
    recorded.clip.emplace(*recorded.character, request.clipRate, def.timeStep,
                          clipNameOf(request.script));
  RunProgress progress(run.length.duration);
  session.run([&](const StepView& step) {
    if (recorded.trajectory) recorded.trajectory->observe(step);
    if (recorded.clip) recorded.clip->observe(step);
    if (filmstrip) filmstrip->observe(step);
    if (session.steps() % 256 != 0) return;
    progress.update(step.state.time);
    if (interrupt.load()) session.stop("interrupted");
  });
  RunOutcome& outcome = recorded.outcome;
  outcome.runWall = std::chrono::duration<double>(Clock::now() - runStart).count();
  outcome.setupWall = std::chrono::duration<double>(runStart - setupStart).count();
  outcome.def = def;
  outcome.pushes = session.pushes();
  outcome.summary = session.summary();
  outcome.objects = session.objects();
  outcome.timeline = session.timeline();
  outcome.simulatedTime = session.runner().time();
  outcome.steps = session.steps();
  outcome.endReason = session.endReason();
  outcome.ended = phaseStanding(session.runner().controller());
  outcome.parameters = session.program().parameters;
  // What the controller met (e.g. the feature QP failed and PD stood in), once per phase.
  for (const ControlWarning& warning : session.runner().controller().warnings())
    std::fprintf(stderr, "scl run: warning: t = %.3f s, phase '%s': %s\n", warning.time,
                 session.program().phases[static_cast<size_t>(warning.phase)].name.c_str(),
                 warning.message.c_str());
  if (filmstrip) {
    const int phase = session.runner().report().phase;
    recorded.frames = filmstrip->finish({session.runner().time(),
                                         session.program().phases[static_cast<size_t>(phase)].name,
                                         session.runner().state(), simulation.worldBodies()});
  }
  if (recorded.trajectory) outcome.trajectoryRows = recorded.trajectory->csv().rowCount();
  outcome.filmstripFrames = static_cast<int>(recorded.frames.size());
  if (recorded.clip) {
    outcome.clipFrames = static_cast<int>(recorded.clip->clip().frames.size());
    outcome.bvhFrames = bvhFrameCount(recorded.clip->clip(), request.clipRate);
  }
  return recorded;
}

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "scl run: %s\n", message.c_str());
  return code;
}

// `--use-clip NAME=FILE` for a NAME the script does not declare: a usage error, before
// the script's diagnostics (the compile reports it too, at the script's first line).
void checkClipFileNames(const RunRequest& request, const syntax::Script& tree) {
  std::vector<std::string_view> declared;
  for (const syntax::ClipDecl& clip : tree.clips) declared.push_back(clip.name.text);
  for (const auto& [name, file] : request.clipFiles) {
    if (std::find(declared.begin(), declared.end(), name) != declared.end()) continue;
    std::string message = "--use-clip '" + name;
    message += "=";
    message += file;
    message += "': the script declares no clip '";
    message += name;
    message += "'";
    const std::string suggestion = didYouMean(name, declared);
    if (!suggestion.empty())
      message += suggestion;
    else if (declared.empty())
      message += " (it declares none)";
    else
      message += " (its clips: " + CharacterNames::joined(declared) + ")";
    throw UsageError(message);
  }
}

// Neither output replaces the script, the character file or the other output.
void checkRunOutputs(const RunRequest& request, const Character& character) {
  std::vector<NamedPath> inputs = {{"script", request.script}};
  addCharacterInput(inputs, character);
  if (request.world) inputs.push_back({"world file", *request.world});
  for (const auto& [name, file] : request.clipFiles) inputs.push_back({"clip file", file});
  std::vector<NamedPath> outputs;
  if (request.csvPath) outputs.push_back({"--out", *request.csvPath});
  if (request.svgPath) outputs.push_back({"--filmstrip", *request.svgPath});
  if (request.clipPath) outputs.push_back({"--clip", *request.clipPath});
  if (request.bvhPath) outputs.push_back({"--bvh", *request.bvhPath});
  checkOutputsAgainstInputs(inputs, outputs);
}

// `--seeds`: the script from every seed's perturbed start, checked against its outcome
// lines.
int sweepCommand(const RunRequest& request, const std::string& source, const Program& program,
                 const SimulationDef& def) {
  const OutcomeLines outcomes = readOutcomeLines(source, request.script, program);
  if (!outcomes.errors.empty()) {
    std::fputs(renderDiagnostics(outcomes.errors, source).c_str(), stderr);
    return fail(kExitInputError,
                "'" + request.script + "' has outcome lines a sweep cannot check (see above)");
  }
  const ThreadCount threads =
      chooseThreadCount({.requested = request.threads, .maxPerCore = kMaxThreadsPerCore});
  if (!threads.warning.empty()) std::fprintf(stderr, "scl run: %s\n", threads.warning.c_str());
  InterruptGuard interrupt;
  SweepDef sweep;
  sweep.session = sessionDef(program, def, request);
  sweep.seeds = request.seeds;
  sweep.perturbDeg = request.perturbDeg.value_or(2.0);
  sweep.threads = threads.threads;
  sweep.interrupt = &interrupt.requested();
  SweepResult result;
  try {
    result = runSweep(program, outcomes, sweep);
  } catch (const std::invalid_argument& error) {
    return fail(kExitInputError, request.script + ": " + error.what());
  }
  if (request.json)
    std::printf("%s\n", sweepJson(request.script, sweep, outcomes, result).dump().c_str());
  else
    std::fputs(sweepText(request.script, sweep, outcomes, result).c_str(), stdout);
  if (result.interrupted) return interrupt.exitCode();
  return result.claimsHold(outcomes) ? kExitOk : kExitClaimsFailed;
}

int runCommand(const RunRequest& request) {
  const std::optional<std::string> source = readInputFile(request.script, "script");
  if (request.csvPath) checkOutputWritable("--out", *request.csvPath);
  if (request.svgPath) checkOutputWritable("--filmstrip", *request.svgPath);
  if (request.clipPath) checkOutputWritable("--clip", *request.clipPath);
  if (request.bvhPath) checkOutputWritable("--bvh", *request.bvhPath);

  CompileOptions options;
  if (request.character) options.character = loadCharacterOption(*request.character);
  if (request.world) options.world = loadWorldOption(*request.world);
  for (const auto& [name, file] : request.clipFiles) {
    readInputFile(file, "clip file");  // a missing or unreadable file is a usage error
    options.clipFiles.emplace(name, file);
  }
  syntax::Script tree;
  if (!request.clipFiles.empty()) options.syntaxTree = &tree;
  CompileResult compiled = compile(*source, request.script, options);
  options.syntaxTree = nullptr;
  checkClipFileNames(request, tree);
  if (!compiled.diagnostics.empty())
    std::fputs(renderDiagnostics(compiled.diagnostics, *source).c_str(), stderr);
  if (!compiled.ok())
    return fail(kExitInputError, "'" + request.script + "' has errors (see above)");
  Program& program = *compiled.program;
  checkRunOutputs(request, *program.character);
  applySets(program, *source, request, options);
  const SimulationDef def = simulationDef(program, request);
  resolvePushes(request, def);  // an unknown name is a usage error before any work
  if (!request.seeds.empty()) return sweepCommand(request, *source, program, def);

  InterruptGuard interrupt;
  Recorded run;
  try {
    run = simulate(std::move(program), def, request, interrupt.requested());
  } catch (const SimulationDiverged& error) {
    return fail(kExitFailure, std::string(error.what()) +
                                  " (no output written; try a smaller --dt or gentler forces)");
  } catch (const std::invalid_argument& error) {
    return fail(kExitInputError, request.script + ": " + error.what());
  }

  if (interrupt.requested().load()) {
    std::fprintf(stderr, "scl run: interrupted at t = %.3f s; nothing written\n",
                 run.outcome.simulatedTime);
    return interrupt.exitCode();
  }
  // Every file or none; a file that was there stays as it was when writing fails.
  OutputFiles outputs;
  if (run.trajectory) outputs.add(*request.csvPath, run.trajectory->csv().text());
  if (request.svgPath)
    outputs.add(*request.svgPath, renderFilmstrip(*run.character, run.frames, run.world));
  if (request.clipPath) outputs.add(*request.clipPath, printClip(run.clip->clip()));
  if (request.bvhPath)
    outputs.add(*request.bvhPath, writeBvh(run.clip->clip(), *run.character, request.clipRate));
  try {
    outputs.write();
  } catch (const OutputError& error) {
    return fail(kExitFailure, std::string(error.what()) + " (no output written)");
  }
  if (request.json)
    std::printf("%s\n", runSummaryJson(request, run.outcome).dump().c_str());
  else
    std::fputs(runSummaryText(request, run.outcome).c_str(), stdout);
  return kExitOk;
}

}  // namespace

int sclRunMain(int argc, char** argv) {
  cxxopts::Options options = runOptions();
  CommandLineDef def;
  def.helpGroups = runHelpGroups();
  RunRequest request;
  if (!parseCommandLine(options, argc, argv, def, [&](const cxxopts::ParseResult& parsed) {
        request = readRunRequest(parsed);
      }))
    return kExitOk;
  return runCommand(request);
}

}  // namespace scl
