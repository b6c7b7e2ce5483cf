#include "tools/run_request.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "scl/character_file.h"
#include "scl/names.h"
#include "scl/push.h"
#include "tools/cli.h"
#include "tools/run_sweep.h"

namespace scl {

namespace {

// `NAME=VALUE` with VALUE in script units.
std::pair<std::string, double> parseSet(const std::string& text) {
  size_t equals = text.find('=');
  std::optional<double> value;
  if (equals != std::string::npos && equals > 0)
    value = parseNumberOption(std::string_view(text).substr(equals + 1));
  if (!value)
    throw UsageError("--set '" + text +
                     "' is malformed: expected NAME=VALUE with VALUE a number in script units, "
                     "e.g. lean.pd.waist=25");
  return {text.substr(0, equals), *value};
}

// `T1,T2,...`, seconds >= 0; sorted.
std::vector<double> parseFrames(const std::string& text) {
  std::vector<double> times;
  std::string_view rest(text);
  while (true) {
    size_t comma = rest.find(',');
    std::optional<double> time = parseNumberOption(rest.substr(0, comma));
    if (!time || *time < 0.0)
      throw UsageError("--frames '" + text +
                       "' is malformed: expected times in seconds >= 0 separated by commas, e.g. "
                       "0,0.5,1.5");
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

// The values of a repeatable option, in command-line order.
std::vector<std::string> allValues(const cxxopts::ParseResult& parsed, const std::string& name) {
  std::vector<std::string> values;
  for (const cxxopts::KeyValue& argument : parsed.arguments())
    if (argument.key() == name) values.push_back(argument.value());
  return values;
}

// --seeds and --threads: a sweep runs many starts and records none.
void readSweep(const cxxopts::ParseResult& parsed, RunRequest& request) {
  if (parsed.count("threads")) {
    if (!parsed.count("seeds")) throw UsageError("--threads only applies with --seeds LIST");
    request.threads = parsed["threads"].as<int>();
    if (request.threads < 1)
      throw UsageError("--threads must be at least 1 (got " + std::to_string(request.threads) +
                       ")");
  }
  if (!parsed.count("seeds")) return;
  const std::string text = parsed["seeds"].as<std::string>();
  std::optional<std::vector<std::uint64_t>> seeds = parseSeedList(text);
  if (!seeds)
    throw UsageError("--seeds '" + text +
                     "' is malformed: expected N (seeds 1 to N), a range 1-20 or a list 3,5,8-10 "
                     "of distinct seeds, at most 10000 starts");
  if (parsed.count("seed"))
    throw UsageError("--seeds runs one start per seed; give --seed K without --seeds to run one");
  for (const char* output : {"out", "filmstrip", "clip", "bvh"})
    if (parsed.count(output))
      throw UsageError(std::string("--") + output +
                       " records one run, --seeds runs many: run the start you want to record "
                       "with --perturb DEG --seed K");
  request.seeds = std::move(*seeds);
  if (!request.perturbDeg) request.perturbDeg = 2.0;
}

// A sampling rate no faster than the steps it samples.
void checkRateFitsStep(std::string_view option, double rate, double timeStep) {
  if (rate * timeStep <= 1.0 + 1e-9) return;
  std::ostringstream out;
  out << option << " " << rate << " Hz is faster than the time step: at most " << 1.0 / timeStep
      << " Hz with --dt " << timeStep;
  throw UsageError(out.str());
}

}  // namespace

PushRequest parsePushOption(const std::string& text) {
  const std::string form = "--push '" + text +
                           "' is malformed: expected LINK:FX,FY@T+DUR (or OBJECT:...), e.g. "
                           "trunk:200,0@1.5+0.2";
  size_t colon = text.find(':');
  size_t at = text.find('@');
  if (colon == std::string::npos || at == std::string::npos || at < colon || colon == 0)
    throw UsageError(form);
  std::string_view all(text);
  std::string_view target = all.substr(0, colon);
  std::string_view force = all.substr(colon + 1, at - colon - 1);
  std::string_view timing = all.substr(at + 1);
  size_t comma = force.find(',');
  size_t plus = timing.find('+', 1);  // past a leading sign of T
  if (comma == std::string_view::npos || plus == std::string_view::npos) throw UsageError(form);
  auto fx = parseNumberOption(force.substr(0, comma));
  auto fy = parseNumberOption(force.substr(comma + 1));
  auto start = parseNumberOption(timing.substr(0, plus));
  auto duration = parseNumberOption(timing.substr(plus + 1));
  if (!fx || !fy || !start || !duration) throw UsageError(form);
  if (*start < 0.0 || !(*duration > 0.0))
    throw UsageError("--push '" + text + "': the start time must be >= 0 s and the duration > 0 s");
  return PushRequest{text, std::string(target), Vec2(*fx, *fy), *start, *duration};
}

Push resolvePush(const PushRequest& request, const Character& character,
                 std::span<const SceneBodyDef> bodies) {
  const PushTargetLookup found = findPushTarget(request.target, character, bodies, "--push");
  if (!found.target) throw UsageError("--push '" + request.text + "': " + found.error);
  Push push;
  push.force = request.force;
  push.start = request.start;
  push.duration = request.duration;
  push.link = found.target->link;
  push.part = found.target->part;
  if (const SceneBodyDef* body = findSceneBody(bodies, found.target->body))
    push.sceneBody = static_cast<int>(body - bodies.data());
  return push;
}

std::string pushTargetName(const Push& push, const Character& character,
                           std::span<const SceneBodyDef> bodies) {
  if (push.sceneBody < 0) return character.links[static_cast<size_t>(push.link)].name;
  const SceneBodyDef& body = bodies[static_cast<size_t>(push.sceneBody)];
  if (body.kind != SceneBodyKind::Chain) return body.name;
  return body.name + "." + std::to_string(push.part + 1);
}

cxxopts::Options runOptions() {
  cxxopts::Options options(
      "scl run",
      "Simulate an SCL script headless and print a summary of the motion.\n"
      "Exit codes: 0 ok, 1 script error, 2 usage error, 3 simulation failure.");
  options.positional_help("SCRIPT");
  const std::string poses = CharacterNames::joined(CharacterNames(*humanCharacter()).poseNames());
  options.add_options("Scene (overrides the script's `scene` header)")(
      "character",
      "the character: a built-in name (" + CharacterNames::joined(builtinCharacterNames()) +
          ") or a .character file",
      cxxopts::value<std::string>(), "NAME|FILE")(
      "world",
      "a world file (world NAME and world statements) in place of the script's scene world:; "
      "its bodies come first, then the script's own",
      cxxopts::value<std::string>(), "FILE")(
      "use-clip",
      "read the script's clip NAME (its `clip NAME: \"FILE\"`) from FILE instead; repeatable",
      cxxopts::value<std::string>(), "NAME=FILE")(
      "pose", "initial pose: " + poses + " (the human's; a sitting pose brings the chair)",
      cxxopts::value<std::string>(),
      "NAME")("env", "environment: flat or chair", cxxopts::value<std::string>(), "NAME")(
      "chair-height", "chair seat height, m (0.05 to 1.5)", cxxopts::value<double>(), "M");
  options.add_options("Simulation")(
      "duration",
      "simulated time, s (default: the script's, else until the last phase has been active 3 "
      "s, at most 60 s; 10 s for a cyclic script)",
      cxxopts::value<double>(), "S")("dt", "time step, s (0.00001 to 0.01)",
                                     cxxopts::value<double>()->default_value("0.00025"), "S")(
      "set", "set the @ parameter NAME to VALUE (script units); repeatable",
      cxxopts::value<std::string>(), "NAME=VALUE")(
      "push",
      "push LINK's centre of mass (or a movable object's: OBJECT, a chain's CHAIN.N) with (FX, "
      "FY) N from T s for DUR s; repeatable",
      cxxopts::value<std::string>(), "LINK:FX,FY@T+DUR")(
      "perturb", "add uniform random offsets in ±DEG degrees to every initial joint angle",
      cxxopts::value<double>(),
      "DEG")("seed", "seed of --perturb (default 0)", cxxopts::value<std::uint64_t>(), "N")(
      "feature-rate",
      "solve the feature QP this often, Hz, holding its torques between solves (default: "
      "every step)",
      cxxopts::value<double>(),
      "HZ")("pd",
            "PD control: explicit (torques from today's state) or stable (from the state one step "
            "ahead; stable at large --dt)",
            cxxopts::value<std::string>()->default_value("explicit"), "explicit|stable");
  options.add_options("Sweep (docs/cli.md, Sweeping perturbed starts)")(
      "seeds",
      "run from one perturbed start per seed (1-20, 20 meaning 1-20, 3,5,8-10), on every core: "
      "a line per start, totals, and the script's // outcome: lines checked (exit 4 when they "
      "fail); --perturb defaults to 2",
      cxxopts::value<std::string>(), "LIST")(
      "threads", "threads running the starts (default: every core)", cxxopts::value<int>(), "N");
  options.add_options("Output")("json", "print the summary as one JSON object")(
      "out", "write the trajectory as CSV", cxxopts::value<std::string>(), "FILE.csv")(
      "rate", "trajectory samples per second", cxxopts::value<double>()->default_value("100"),
      "HZ")("filmstrip", "write a strip of poses as SVG", cxxopts::value<std::string>(),
            "FILE.svg")("clip", "record the run as a motion clip (docs/clips.md)",
                        cxxopts::value<std::string>(), "FILE.clip")(
      "bvh", "write the run as BVH, for Blender and other animation tools (docs/clips.md)",
      cxxopts::value<std::string>(),
      "FILE.bvh")("clip-rate", "frames per second of --clip and --bvh",
                  cxxopts::value<double>()->default_value("120"), "HZ")(
      "frames", "filmstrip times, s (default: 8 evenly spaced, start and end included)",
      cxxopts::value<std::string>(), "T1,T2,...")("h,help", "show this help");
  options.add_options("positional")("script", "the script", cxxopts::value<std::string>());
  options.parse_positional({"script"});
  return options;
}

std::vector<std::string> runHelpGroups() {
  return {"", "Scene (overrides the script's `scene` header)", "Simulation",
          "Sweep (docs/cli.md, Sweeping perturbed starts)", "Output"};
}

RunRequest readRunRequest(const cxxopts::ParseResult& parsed) {
  if (!parsed.unmatched().empty())
    throw UsageError("unexpected argument '" + parsed.unmatched()[0] + "': give one script");
  if (!parsed.count("script")) throw UsageError("no script given: scl run SCRIPT [options]");
  RunRequest request;
  request.script = parsed["script"].as<std::string>();
  if (parsed.count("character")) request.character = parsed["character"].as<std::string>();
  if (parsed.count("world")) request.world = parsed["world"].as<std::string>();
  for (const std::string& text : allValues(parsed, "use-clip")) {
    const size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
      throw UsageError("--use-clip '" + text + "': expected NAME=FILE, e.g. " +
                       "--use-clip style=scripts/clips/lift-back.clip");
    std::string name = text.substr(0, equals);
    for (const auto& [given, file] : request.clipFiles)
      if (given == name) throw UsageError("--use-clip gives clip '" + name + "' twice");
    request.clipFiles.emplace_back(std::move(name), text.substr(equals + 1));
  }
  if (parsed.count("pose")) request.scene.pose = parsed["pose"].as<std::string>();
  if (parsed.count("env")) request.scene.environment = parsed["env"].as<std::string>();
  if (parsed.count("chair-height")) request.scene.chairHeight = parsed["chair-height"].as<double>();
  if (parsed.count("duration")) request.scene.duration = parsed["duration"].as<double>();
  request.timeStep = positiveOption(parsed, "dt");
  for (const std::string& text : allValues(parsed, "set")) request.sets.push_back(parseSet(text));
  for (const std::string& text : allValues(parsed, "push"))
    request.pushes.push_back(parsePushOption(text));
  if (parsed.count("perturb")) {
    double degrees = parsed["perturb"].as<double>();
    if (!(degrees >= 0.0) || degrees > 180.0)
      throw UsageError("--perturb must be between 0 and 180 degrees (got " +
                       formatFixed(degrees, 3) + ")");
    request.perturbDeg = degrees;
  }
  if (parsed.count("seed")) {
    if (!request.perturbDeg) throw UsageError("--seed only applies with --perturb DEG");
    request.seed = parsed["seed"].as<std::uint64_t>();
  }
  if (parsed.count("feature-rate")) {
    const double rate = parsed["feature-rate"].as<double>();
    if (!(rate > 0.0) || !std::isfinite(rate))
      throw UsageError("--feature-rate must be a positive number of Hz (got " +
                       formatFixed(rate, 3) + ")");
    checkRateFitsStep("--feature-rate", rate, request.timeStep);
    request.featureRate = rate;
  }
  const std::string pd = parsed["pd"].as<std::string>();
  if (pd != "explicit" && pd != "stable")
    throw UsageError("--pd must be 'explicit' or 'stable' (got '" + pd + "')");
  request.stablePd = pd == "stable";
  request.json = parsed.count("json") > 0;
  if (parsed.count("out")) request.csvPath = parsed["out"].as<std::string>();
  if (parsed.count("filmstrip")) request.svgPath = parsed["filmstrip"].as<std::string>();
  request.rate = positiveOption(parsed, "rate");
  if (request.csvPath) checkRateFitsStep("--rate", request.rate, request.timeStep);
  if (parsed.count("clip")) request.clipPath = parsed["clip"].as<std::string>();
  if (parsed.count("bvh")) request.bvhPath = parsed["bvh"].as<std::string>();
  request.clipRate = positiveOption(parsed, "clip-rate");
  if (request.clipPath || request.bvhPath)
    checkRateFitsStep("--clip-rate", request.clipRate, request.timeStep);
  if (parsed.count("frames")) {
    if (!request.svgPath) throw UsageError("--frames only applies with --filmstrip FILE.svg");
    request.frames = parseFrames(parsed["frames"].as<std::string>());
  }
  readSweep(parsed, request);
  return request;
}

}  // namespace scl
