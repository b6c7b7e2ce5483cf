// `scl run`: simulate a script headless, print a summary of the motion (acceptance.md's
// measures), and optionally write the trajectory (CSV) and a filmstrip of poses (SVG).
//
// Exit codes (docs/cli.md): 0 ok, 1 script error, 2 usage error, 3 simulation failure.
// Every user error is detected before the simulation starts where possible (options,
// names, output directories), so a bad invocation fails fast; output files are written
// atomically only after a successful run.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cxxopts.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/atomic_file.h"
#include "runtime/metrics.h"
#include "runtime/runner.h"
#include "scl/compile.h"
#include "scl/poses.h"
#include "tools/commands.h"
#include "tools/filmstrip.h"
#include "tools/trajectory_csv.h"

namespace scl {

namespace {

enum ExitCode { kOk = 0, kScriptError = 1, kUsageError = 2, kSimulationFailure = 3 };

/// A mistake in the invocation; what() is the one-line message (without "scl run: ").
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A constant force on one link's centre of mass over a time window (`--push`).
struct Push {
  int link = 0;
  /// Force, newtons.
  Vec2 force = Vec2::Zero();
  /// Start time and length of the window, seconds.
  double start = 0.0;
  double duration = 0.0;
  /// As given on the command line, for the summary.
  std::string text;
};

/// Everything the command line asks for, checked for form but not yet against the script.
struct RunRequest {
  std::string script;
  std::optional<std::string> pose, environment;
  std::optional<double> chairHeight, duration;
  double timeStep = SimulationDef{}.timeStep;
  /// `--set NAME=VALUE`, in order.
  std::vector<std::pair<std::string, double>> sets;
  std::vector<Push> pushes;
  /// `--perturb`, degrees, and its seed.
  std::optional<double> perturbDeg;
  std::uint64_t seed = 0;
  bool json = false;
  std::optional<std::string> csvPath, svgPath;
  /// Trajectory sampling rate, Hz.
  double rate = 100.0;
  /// `--frames`, seconds; empty: evenly spaced over the run.
  std::vector<double> frames;
};

// Without a duration, the run stops this long after the last phase began ...
constexpr double kLastPhaseHold = 3.0;
// ... or at this time, whichever is first.
constexpr double kLongestRun = 60.0;
// A cyclic script (finally ... backto) without a duration runs this long.
constexpr double kCyclicRun = 10.0;
// Default number of filmstrip frames, start and end included.
constexpr int kDefaultFrames = 8;

// ---------------------------------------------------------------------------------------
// Small parsers for option values

std::string fixed(double value, int decimals) {
  if (std::abs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;  // no "-0.000"
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::optional<double> parseNumber(std::string_view text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string linkNames() {
  std::string names;
  for (const LinkDef& link : kLinks) names += (names.empty() ? "" : ", ") + std::string(link.name);
  return names;
}

// `LINK:FX,FY@T+DUR`, e.g. `trunk:200,0@1.5+0.2`.
Push parsePush(const std::string& text) {
  const std::string form =
      "--push '" + text + "' is malformed: expected LINK:FX,FY@T+DUR, e.g. trunk:200,0@1.5+0.2";
  size_t colon = text.find(':');
  size_t at = text.find('@');
  if (colon == std::string::npos || at == std::string::npos || at < colon) throw UsageError(form);
  std::string_view all(text);
  std::string_view linkName = all.substr(0, colon);
  std::string_view force = all.substr(colon + 1, at - colon - 1);
  std::string_view timing = all.substr(at + 1);
  size_t comma = force.find(',');
  size_t plus = timing.find('+', 1);  // past a leading sign of T
  if (comma == std::string_view::npos || plus == std::string_view::npos) throw UsageError(form);
  auto fx = parseNumber(force.substr(0, comma)), fy = parseNumber(force.substr(comma + 1));
  auto start = parseNumber(timing.substr(0, plus)), duration = parseNumber(timing.substr(plus + 1));
  if (!fx || !fy || !start || !duration) throw UsageError(form);
  if (*start < 0.0 || !(*duration > 0.0))
    throw UsageError("--push '" + text + "': the start time must be >= 0 s and the duration > 0 s");
  std::optional<int> link = findLink(linkName);
  if (!link) {
    std::vector<std::string_view> names;
    for (const LinkDef& def : kLinks) names.push_back(def.name);
    throw UsageError("--push '" + text + "': unknown link '" + quoteToken(linkName) + "'" +
                     didYouMean(linkName, names) + " (links: " + linkNames() + ")");
  }
  return Push{*link, Vec2(*fx, *fy), *start, *duration, text};
}

// `NAME=VALUE` with VALUE in script units.
std::pair<std::string, double> parseSet(const std::string& text) {
  size_t equals = text.find('=');
  std::optional<double> value;
  if (equals != std::string::npos && equals > 0)
    value = parseNumber(std::string_view(text).substr(equals + 1));
  if (!value)
    throw UsageError("--set '" + text +
                     "' is malformed: expected NAME=VALUE with VALUE a number in script units, "
                     "e.g. lean.pd.waist=25");
  return {text.substr(0, equals), *value};
}

std::vector<double> parseFrames(const std::string& text) {
  std::vector<double> times;
  std::string_view rest(text);
  while (true) {
    size_t comma = rest.find(',');
    std::optional<double> time = parseNumber(rest.substr(0, comma));
    if (!time || *time < 0.0)
      throw UsageError(
          "--frames '" + text +
          "' is malformed: expected times in seconds >= 0 separated by commas, e.g. 0,0.5,1.5");
    times.push_back(*time);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  std::sort(times.begin(), times.end());
  return times;
}

double positiveOption(const cxxopts::ParseResult& parsed, const std::string& name) {
  double value = parsed[name].as<double>();
  if (!(value > 0.0) || !std::isfinite(value)) {
    std::ostringstream out;
    out << "--" << name << " must be a positive number (got " << value << ")";
    throw UsageError(out.str());
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// Command line

cxxopts::Options makeOptions() {
  cxxopts::Options options(
      "scl run",
      "Simulate an SCL script headless and print a summary of the motion.\n"
      "Exit codes: 0 ok, 1 script error, 2 usage error, 3 simulation failure.");
  options.positional_help("SCRIPT");
  options.add_options("Scene (overrides the script's `scene` header)")(
      "pose", "initial pose: standing, supine, prone, sitting, crouching",
      cxxopts::value<std::string>(), "NAME")(
      "env", "environment: flat or chair (sitting implies chair)", cxxopts::value<std::string>(),
      "NAME")("chair-height", "chair seat height, m", cxxopts::value<double>(), "M");
  options.add_options("Simulation")(
      "duration",
      "simulated time, s (default: the script's, else until the last phase has been active 3 s, at "
      "most 60 s; 10 s for a cyclic script)",
      cxxopts::value<double>(),
      "S")("dt", "time step, s", cxxopts::value<double>()->default_value("0.00025"), "S")(
      "set", "set the @ parameter NAME to VALUE (script units); repeatable",
      cxxopts::value<std::string>(), "NAME=VALUE")(
      "push", "push LINK's centre of mass with (FX, FY) N from T s for DUR s; repeatable",
      cxxopts::value<std::string>(), "LINK:FX,FY@T+DUR")(
      "perturb", "add uniform random offsets in ±DEG degrees to every initial joint angle",
      cxxopts::value<double>(),
      "DEG")("seed", "seed of --perturb (default 0)", cxxopts::value<std::uint64_t>(), "N");
  options.add_options("Output")("json", "print the summary as one JSON object")(
      "out", "write the trajectory as CSV", cxxopts::value<std::string>(), "FILE.csv")(
      "rate", "trajectory samples per second", cxxopts::value<double>()->default_value("100"),
      "HZ")("filmstrip", "write a strip of poses as SVG", cxxopts::value<std::string>(),
            "FILE.svg")("frames",
                        "filmstrip times, s (default: 8 evenly spaced, start and end included)",
                        cxxopts::value<std::string>(), "T1,T2,...")("h,help", "show this help");
  options.add_options("positional")("script", "the script", cxxopts::value<std::string>());
  options.parse_positional({"script"});
  return options;
}

// The values of a repeatable option, in command-line order.
std::vector<std::string> allValues(const cxxopts::ParseResult& parsed, const std::string& name) {
  std::vector<std::string> values;
  for (const cxxopts::KeyValue& argument : parsed.arguments())
    if (argument.key() == name) values.push_back(argument.value());
  return values;
}

RunRequest readRequest(const cxxopts::ParseResult& parsed) {
  if (!parsed.unmatched().empty())
    throw UsageError("unexpected argument '" + parsed.unmatched()[0] + "': give one script");
  if (!parsed.count("script")) throw UsageError("no script given: scl run SCRIPT [options]");
  RunRequest request;
  request.script = parsed["script"].as<std::string>();
  if (parsed.count("pose")) request.pose = parsed["pose"].as<std::string>();
  if (parsed.count("env")) request.environment = parsed["env"].as<std::string>();
  if (parsed.count("chair-height")) request.chairHeight = positiveOption(parsed, "chair-height");
  if (parsed.count("duration")) request.duration = positiveOption(parsed, "duration");
  request.timeStep = positiveOption(parsed, "dt");
  for (const std::string& text : allValues(parsed, "set")) request.sets.push_back(parseSet(text));
  for (const std::string& text : allValues(parsed, "push"))
    request.pushes.push_back(parsePush(text));
  if (parsed.count("perturb")) {
    double degrees = parsed["perturb"].as<double>();
    if (!(degrees >= 0.0) || degrees > 180.0)
      throw UsageError("--perturb must be between 0 and 180 degrees (got " + fixed(degrees, 3) +
                       ")");
    request.perturbDeg = degrees;
  }
  if (parsed.count("seed")) {
    if (!request.perturbDeg) throw UsageError("--seed only applies with --perturb DEG");
    request.seed = parsed["seed"].as<std::uint64_t>();
  }
  request.json = parsed.count("json") > 0;
  if (parsed.count("out")) request.csvPath = parsed["out"].as<std::string>();
  if (parsed.count("filmstrip")) request.svgPath = parsed["filmstrip"].as<std::string>();
  request.rate = positiveOption(parsed, "rate");
  if (request.csvPath && request.rate * request.timeStep > 1.0 + 1e-9) {
    std::ostringstream out;
    out << "--rate " << request.rate << " Hz is faster than the time step: at most "
        << 1.0 / request.timeStep << " Hz with --dt " << request.timeStep;
    throw UsageError(out.str());
  }
  if (parsed.count("frames")) {
    if (!request.svgPath) throw UsageError("--frames only applies with --filmstrip FILE.svg");
    request.frames = parseFrames(parsed["frames"].as<std::string>());
  }
  if (request.csvPath && request.svgPath &&
      std::filesystem::absolute(*request.csvPath) == std::filesystem::absolute(*request.svgPath))
    throw UsageError("--out and --filmstrip name the same file '" + *request.csvPath + "'");
  return request;
}

// Fails fast on an output path that cannot be written, before any simulation.
void checkOutputPath(const std::string& option, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty()) throw UsageError("--" + option + " needs a file name");
  if (fs::is_directory(path, error))
    throw UsageError("--" + option + " '" + path + "' is a directory: give a file name");
  fs::path directory = fs::path(path).parent_path();
  if (directory.empty()) directory = ".";
  if (!fs::is_directory(directory, error))
    throw UsageError("--" + option + " '" + path + "': directory '" + directory.string() +
                     "' does not exist (create it first)");
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw UsageError("--" + option + " '" + path + "': directory '" + directory.string() +
                     "' is not writable");
}

std::optional<std::string> readFile(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

// ---------------------------------------------------------------------------------------
// Setting up the run

void applySets(Program& program, const std::vector<std::pair<std::string, double>>& sets) {
  std::vector<double> values = program.parameterValues();
  std::vector<std::string_view> names;
  for (const Parameter& parameter : program.parameters) names.push_back(parameter.name);
  for (const auto& [name, value] : sets) {
    auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) {
      if (names.empty())
        throw UsageError("--set " + name +
                         ": the script has no @ parameters (write @ before a number to make one)");
      std::string list;
      for (std::string_view candidate : names)
        list += (list.empty() ? "" : ", ") + std::string(candidate);
      throw UsageError("--set: unknown parameter '" + quoteToken(name) + "'" +
                       didYouMean(name, names) + " (parameters: " + list + ")");
    }
    values[found - names.begin()] = value;
  }
  program.setParameters(values);
}

SimulationDef simulationDef(const Program& program, const RunRequest& request) {
  SimulationDef def = simulationDefFor(program);
  def.timeStep = request.timeStep;
  if (request.pose) {
    def.scene.pose = *request.pose;
    const PoseDef* pose = findPose(*request.pose);
    if (pose && pose->support == PoseSupport::Seat && !request.environment)
      def.scene.environment = "chair";
  }
  if (request.environment) def.scene.environment = *request.environment;
  if (request.chairHeight) def.scene.chairHeight = *request.chairHeight;
  if (request.perturbDeg) def.jointOffsets = perturbationOffsets(*request.perturbDeg, request.seed);
  return def;
}

bool isCyclic(const Program& program) { return program.phases.back().exit.has_value(); }

/// When the run ends: a fixed time, or when the last phase has been active 3 s.
struct StopRule {
  /// Fixed end, seconds; nullopt: the last-phase rule, capped at kLongestRun.
  std::optional<double> duration;
  /// Never stop before this time (the last requested filmstrip frame), seconds.
  double notBefore = 0.0;
  /// How the end was chosen, for the summary.
  std::string reason;
};

StopRule stopRule(const Program& program, const RunRequest& request) {
  StopRule rule;
  if (request.duration) {
    rule.duration = request.duration;
    rule.reason = "--duration";
  } else if (program.scene.duration) {
    rule.duration = program.scene.duration;
    rule.reason = "the script's scene duration";
  } else if (isCyclic(program)) {
    rule.duration = kCyclicRun;
    rule.reason = "default for a cyclic script";
  } else {
    rule.reason = "the last phase had been active 3 s";
  }
  double lastFrame = request.frames.empty() ? 0.0 : request.frames.back();
  double end = rule.duration.value_or(kLongestRun);
  if (lastFrame > end + 1e-9) {
    std::ostringstream out;
    out << "--frames asks for t = " << lastFrame << " s, after the end of the run (" << end
        << " s): give an earlier time or a longer --duration";
    throw UsageError(out.str());
  }
  rule.notBefore = lastFrame;
  return rule;
}

// ---------------------------------------------------------------------------------------
// The run

struct PhaseStart {
  double time = 0.0;
  int index = 0;
  std::string name;
};

struct RunResult {
  SimulationDef def;
  MotionSummary summary;
  std::vector<PhaseStart> timeline;
  double simulatedTime = 0.0;
  long steps = 0;
  /// Wall time of building the simulation (incl. settling), and of stepping, seconds.
  double setupWall = 0.0, runWall = 0.0;
  std::string stopReason;
  std::optional<TrajectoryCsv> csv;
  std::vector<FilmstripFrame> frames;
  std::vector<EnvironmentBox> environment;
};

// Collects filmstrip frames: at requested times when they are known before the run, or
// on a fine grid from which evenly spaced frames are picked once the end is known.
class FrameRecorder {
 public:
  FrameRecorder(std::vector<double> times, std::optional<double> duration, double timeStep) {
    if (!times.empty()) {
      times_ = std::move(times);
    } else if (duration) {
      for (int i = 0; i < kDefaultFrames; ++i)
        times_.push_back(*duration * i / (kDefaultFrames - 1));
    } else {
      gridStep_ = std::max(timeStep, 0.005);  // at most 12,000 states for a 60 s run
    }
  }

  void observe(const CharacterState& state, std::string_view phaseName, double timeStep) {
    double now = state.time + 0.5 * timeStep;
    if (gridStep_ > 0.0) {
      if (now >= nextGrid_ * gridStep_) {
        grid_.push_back({state.time, std::string(phaseName), state});
        ++nextGrid_;
      }
      return;
    }
    while (next_ < times_.size() && now >= times_[next_]) {
      frames_.push_back({state.time, std::string(phaseName), state});
      ++next_;
    }
  }

  // The frames; `last` is the final state (the grid may not hold it).
  std::vector<FilmstripFrame> finish(const FilmstripFrame& last) {
    if (gridStep_ == 0.0) {
      while (frames_.size() < times_.size()) frames_.push_back(last);  // times at the very end
      return std::move(frames_);
    }
    std::vector<FilmstripFrame> picked;
    for (int i = 0; i < kDefaultFrames - 1; ++i) {
      double time = last.time * i / (kDefaultFrames - 1);
      auto index = static_cast<size_t>(std::lround(time / gridStep_));
      picked.push_back(grid_[std::min(index, grid_.size() - 1)]);
    }
    picked.push_back(last);
    return picked;
  }

 private:
  std::vector<double> times_;
  size_t next_ = 0;
  double gridStep_ = 0.0;
  long nextGrid_ = 0;
  std::vector<FilmstripFrame> grid_;
  std::vector<FilmstripFrame> frames_;
};

void applyPushes(Runner& runner, const std::vector<Push>& pushes) {
  double now = runner.time() + 0.5 * runner.simulation().timeStep();
  for (const Push& push : pushes)
    if (now >= push.start && now < push.start + push.duration)
      runner.simulation().addExternalForce(
          {push.link, push.force, runner.state().links[push.link].com});
}

RunResult simulate(const Program& program, const SimulationDef& def, const RunRequest& request,
                   const StopRule& rule) {
  using Clock = std::chrono::steady_clock;
  RunResult result;
  result.def = def;
  result.stopReason = rule.reason;
  auto setupStart = Clock::now();
  Runner runner(program, def);
  auto runStart = Clock::now();
  result.setupWall = std::chrono::duration<double>(runStart - setupStart).count();
  result.environment = runner.simulation().environmentBoxes();

  MetricsDef metricsDef;
  metricsDef.uprightFromStart = def.scene.pose == "standing";
  MotionMetrics metrics(metricsDef);
  const std::array<double, kJointCount> noTorques{};
  const double dt = runner.simulation().timeStep();
  const int lastPhase = static_cast<int>(program.phases.size()) - 1;
  auto phaseName = [&](int index) -> std::string_view { return program.phases[index].name; };

  std::optional<FrameRecorder> frames;
  if (request.svgPath) frames.emplace(request.frames, rule.duration, dt);
  if (request.csvPath) result.csv.emplace();
  long nextSample = 0;
  auto record = [&](const CharacterState& state, int phase,
                    const std::array<double, kJointCount>& torques) {
    if (result.csv && state.time + 0.5 * dt >= static_cast<double>(nextSample) / request.rate) {
      result.csv->addRow(state, phase, phaseName(phase), torques);
      ++nextSample;
    }
    if (frames) frames->observe(state, phaseName(phase), dt);
  };

  // t = 0: the settled initial state, before any control.
  metrics.observe(runner.state(), noTorques, 0.0, 0);
  record(runner.state(), 0, noTorques);
  result.timeline.push_back({0.0, 0, std::string(phaseName(0))});

  while (true) {
    double now = runner.time();
    if (rule.duration && now + 0.5 * dt >= *rule.duration) break;
    if (!rule.duration && now + 0.5 * dt >= kLongestRun) break;
    applyPushes(runner, request.pushes);
    const StepReport& report = runner.step();
    ++result.steps;
    if (report.phaseStarted && result.steps > 1)
      result.timeline.push_back(
          {report.time - report.timeStep, report.phase, std::string(report.phaseName)});
    metrics.observe(runner.state(), report.torques, report.timeStep, report.phase);
    record(runner.state(), report.phase, report.torques);
    if (!rule.duration && report.phase == lastPhase &&
        report.phaseTime + report.timeStep >= kLastPhaseHold - 0.5 * dt &&
        report.time + 0.5 * dt >= rule.notBefore)
      break;
  }
  result.runWall = std::chrono::duration<double>(Clock::now() - runStart).count();
  result.simulatedTime = runner.time();
  result.summary = metrics.summary();
  if (!rule.duration && result.simulatedTime + 0.5 * dt >= kLongestRun)
    result.stopReason = "the 60 s limit";
  if (frames) {
    int phase = runner.report().phase;
    result.frames = frames->finish({runner.time(), std::string(phaseName(phase)), runner.state()});
  }
  return result;
}

// ---------------------------------------------------------------------------------------
// Reporting

std::string phaseLabel(const PhaseStart& phase) {
  return phase.name.empty() ? "#" + std::to_string(phase.index) : phase.name;
}

std::string sceneText(const Scene& scene) {
  std::string text =
      scene.pose + " on " + (scene.environment == "chair" ? "a chair" : "flat ground");
  if (scene.environment == "chair") text += " of height " + fixed(scene.chairHeight, 2) + " m";
  return text;
}

void printHuman(const RunRequest& request, const Program& program, const RunResult& run) {
  const MotionSummary& s = run.summary;
  auto line = [](const char* label, const std::string& value) {
    std::printf("%-18s %s\n", label, value.c_str());
  };
  auto seconds = [](const std::optional<double>& t) {
    return t ? fixed(*t, 3) + " s" : std::string();
  };
  line("script", request.script);
  line("scene", sceneText(run.def.scene));
  line("simulated", fixed(run.simulatedTime, 3) + " s in " + std::to_string(run.steps) +
                        " steps of " + fixed(run.def.timeStep * 1e3, 3) +
                        " ms (end: " + run.stopReason + ")");
  if (!program.parameters.empty()) {
    std::string values;
    for (const Parameter& parameter : program.parameters) {
      char buffer[128];
      std::snprintf(buffer, sizeof buffer, "%s%s=%g", values.empty() ? "" : ", ",
                    parameter.name.c_str(), parameter.value);
      values += buffer;
    }
    line("parameters", values);
  }
  for (const Push& push : request.pushes)
    line("push", std::string(kLinks[push.link].name) + " (" + fixed(push.force.x(), 1) + ", " +
                     fixed(push.force.y(), 1) + ") N from " + fixed(push.start, 3) + " s for " +
                     fixed(push.duration, 3) + " s");
  if (request.perturbDeg)
    line("perturbation",
         "±" + fixed(*request.perturbDeg, 2) + "° per joint, seed " + std::to_string(request.seed));
  constexpr size_t kShownPhases = 40;
  for (size_t i = 0; i < run.timeline.size() && i < kShownPhases; ++i)
    line(i == 0 ? "phases" : "",
         fixed(run.timeline[i].time, 3) + " s  " + phaseLabel(run.timeline[i]));
  if (run.timeline.size() > kShownPhases)
    line("", "... " + std::to_string(run.timeline.size() - kShownPhases) + " more (see --json)");
  std::string standing = s.standing ? "yes, since " + seconds(s.firstStanding) : "no";
  if (!s.standing)
    standing +=
        s.firstStanding ? " (was standing at " + seconds(s.firstStanding) + ")" : " (never)";
  line("standing at end", standing);
  line("fell", s.fell ? "yes, at " + seconds(s.fell) : "no");
  line("rise time", s.riseTime ? seconds(s.riseTime) : "never (head height stayed below 1.75 m)");
  line("max pelvis height",
       fixed(s.maxPelvisHeight, 3) + " m overall, " +
           (s.maxAirbornePelvisHeight ? fixed(*s.maxAirbornePelvisHeight, 3) + " m in the air"
                                      : std::string("never in the air")));
  line("airborne time", fixed(s.airborneTime, 3) + " s");
  line("head height", fixed(s.headHeight, 3) + " m at the end");
  line("energy", fixed(s.energy, 0) + " (N·m)²·s");
  line("distance", fixed(s.distance, 3) + " m (pelvis, +x forward)");
  line("phase changes", std::to_string(s.phaseChanges));
  double factor = run.runWall > 0.0 ? run.simulatedTime / run.runWall : 0.0;
  line("wall time", fixed(run.runWall, 3) + " s (" + fixed(factor, 2) + "x real time), setup " +
                        fixed(run.setupWall, 3) + " s");
  if (run.csv)
    line("trajectory", *request.csvPath + " (" + std::to_string(run.csv->rowCount()) + " rows)");
  if (request.svgPath)
    line("filmstrip", *request.svgPath + " (" + std::to_string(run.frames.size()) + " frames)");
}

// A minimal JSON writer: keys in the order written, null for absent or non-finite numbers.
class JsonObject {
 public:
  JsonObject& key(std::string_view name) {
    text_ += first_ ? "{" : ", ";
    first_ = false;
    text_ += quote(name) + ": ";
    return *this;
  }
  JsonObject& raw(std::string_view name, std::string_view json) {
    key(name);
    text_ += json;
    return *this;
  }
  JsonObject& number(std::string_view name, std::optional<double> value) {
    return raw(name, numberText(value));
  }
  JsonObject& integer(std::string_view name, long value) {
    return raw(name, std::to_string(value));
  }
  JsonObject& boolean(std::string_view name, bool value) {
    return raw(name, value ? "true" : "false");
  }
  JsonObject& string(std::string_view name, std::string_view value) {
    return raw(name, quote(value));
  }
  std::string text() const { return first_ ? "{}" : text_ + "}"; }

  static std::string numberText(std::optional<double> value) {
    if (!value || !std::isfinite(*value)) return "null";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", *value);
    return buffer;
  }
  static std::string quote(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else {
        out += c;
      }
    }
    return out + "\"";
  }

 private:
  std::string text_;
  bool first_ = true;
};

void printJson(const RunRequest& request, const Program& program, const RunResult& run) {
  const MotionSummary& s = run.summary;
  JsonObject scene;
  scene.string("pose", run.def.scene.pose)
      .string("environment", run.def.scene.environment)
      .number("chair_height", run.def.scene.chairHeight);
  std::string phases = "[";
  for (size_t i = 0; i < run.timeline.size(); ++i) {
    JsonObject phase;
    phase.number("time", run.timeline[i].time)
        .integer("index", run.timeline[i].index)
        .string("name", run.timeline[i].name);
    phases += (i ? ", " : "") + phase.text();
  }
  phases += "]";
  JsonObject parameters;
  for (const Parameter& parameter : program.parameters)
    parameters.number(parameter.name, parameter.value);
  std::string pushes = "[";
  for (size_t i = 0; i < request.pushes.size(); ++i) {
    const Push& push = request.pushes[i];
    JsonObject object;
    object.string("link", kLinks[push.link].name)
        .number("fx", push.force.x())
        .number("fy", push.force.y())
        .number("start", push.start)
        .number("duration", push.duration);
    pushes += (i ? ", " : "") + object.text();
  }
  pushes += "]";

  JsonObject out;
  out.string("script", request.script)
      .raw("scene", scene.text())
      .number("time_step", run.def.timeStep)
      .number("duration", run.simulatedTime)
      .integer("steps", run.steps)
      .string("end", run.stopReason)
      .raw("parameters", parameters.text())
      .raw("pushes", pushes)
      .number("perturb_deg", request.perturbDeg)
      .raw("seed", request.perturbDeg ? std::to_string(request.seed) : "null")
      .raw("phases", phases)
      .boolean("standing", s.standing)
      .number("first_standing", s.firstStanding)
      .number("fell", s.fell)
      .number("rise_time", s.riseTime)
      .number("max_pelvis_height", s.maxPelvisHeight)
      .number("max_airborne_pelvis_height", s.maxAirbornePelvisHeight)
      .number("airborne_time", s.airborneTime)
      .number("head_height", s.headHeight)
      .number("energy", s.energy)
      .number("distance", s.distance)
      .integer("phase_changes", s.phaseChanges)
      .number("wall_time", run.runWall)
      .number("setup_wall_time", run.setupWall)
      .number("real_time_factor",
              run.runWall > 0.0 ? std::optional(run.simulatedTime / run.runWall) : std::nullopt)
      .raw("trajectory", request.csvPath ? JsonObject::quote(*request.csvPath) : "null")
      .raw("filmstrip", request.svgPath ? JsonObject::quote(*request.svgPath) : "null");
  std::printf("%s\n", out.text().c_str());
}

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "scl run: %s\n", message.c_str());
  return code;
}

int runCommand(const RunRequest& request) {
  std::optional<std::string> source = readFile(request.script);
  if (!source)
    return fail(kUsageError, "cannot read script '" + request.script + "' (check the path)");
  if (request.csvPath) checkOutputPath("out", *request.csvPath);
  if (request.svgPath) checkOutputPath("filmstrip", *request.svgPath);

  CompileResult compiled = compile(*source, request.script);
  if (!compiled.diagnostics.empty())
    std::fputs(renderDiagnostics(compiled.diagnostics, *source).c_str(), stderr);
  if (!compiled.ok()) return fail(kScriptError, "'" + request.script + "' has errors (see above)");
  Program& program = *compiled.program;
  applySets(program, request.sets);

  SimulationDef def = simulationDef(program, request);
  try {
    validate(def);
  } catch (const std::invalid_argument& error) {
    // The script's own scene at the default step may be at fault, or an option.
    try {
      validate(simulationDefFor(program));
    } catch (const std::invalid_argument& scriptError) {
      if (std::string_view(scriptError.what()) == error.what())
        return fail(kScriptError, request.script + ": scene: " + error.what());
    }
    throw UsageError(error.what());
  }
  StopRule rule = stopRule(program, request);

  RunResult run;
  try {
    run = simulate(program, def, request, rule);
  } catch (const SimulationDiverged& error) {
    return fail(
        kSimulationFailure,
        std::string(error.what()) + " (no output written; try a smaller --dt or gentler forces)");
  } catch (const std::invalid_argument& error) {
    return fail(kScriptError, request.script + ": " + error.what());
  }

  try {
    if (run.csv) writeFileAtomically(*request.csvPath, run.csv->text());
    if (request.svgPath)
      writeFileAtomically(*request.svgPath, renderFilmstrip(run.frames, run.environment));
  } catch (const std::runtime_error& error) {
    if (run.csv) std::filesystem::remove(*request.csvPath);  // both files or neither
    return fail(kUsageError, error.what());
  }
  if (request.json)
    printJson(request, program, run);
  else
    printHuman(request, program, run);
  return kOk;
}

}  // namespace

int sclRunMain(int argc, char** argv) {
  cxxopts::Options options = makeOptions();
  try {
    cxxopts::ParseResult parsed = options.parse(argc, argv);
    if (parsed.count("help")) {
      std::printf("%s\n", options
                              .help({"", "Scene (overrides the script's `scene` header)",
                                     "Simulation", "Output"})
                              .c_str());
      return kOk;
    }
    return runCommand(readRequest(parsed));
  } catch (const cxxopts::exceptions::exception& error) {
    return fail(kUsageError, std::string(error.what()) + " (see 'scl run --help')");
  } catch (const UsageError& error) {
    return fail(kUsageError, error.what());
  }
}

}  // namespace scl
