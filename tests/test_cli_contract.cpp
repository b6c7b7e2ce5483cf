// The contract every subcommand of `scl` keeps (docs/cli.md, "Exit codes" and "Nothing
// the user made is lost"), tested on the built program: every subcommand that reads input
// files against every kind of bad input file and an unknown option; no exception escaping
// main; outputs that would replace an input or another output refused; standard output
// and outputs that cannot be written are failures (3), with every pre-existing file kept;
// option values checked as written numbers are; the warnings cap.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.h"

using namespace scl::testing;

namespace {

// One parameter, 0.05 s: every command on it takes a moment.
const std::string kScript = R"(// a tiny script
scene pose: supine duration: 0.05
{
  (hold)
  [waist @10]
}
)";
const std::string kObjective = "term 1 energy\n";
const std::string kWorld = "world w\nground friction: 0.8\n";
const std::string kBom = "\xEF\xBB\xBF";
// Bytes no text editor writes: an ELF header, NULs, every high byte, control characters.
std::string garbage() {
  std::string bytes = "\x7f";
  bytes += "ELF";
  bytes += std::string(9, '\0');
  for (int byte = 0x80; byte <= 0xff; ++byte) bytes += static_cast<char>(byte);
  bytes += std::string(3, '\0');
  bytes += "\x01{[\x1b";
  return bytes;
}

// A kind of input file and what every command reading it must do (docs/cli.md).
struct InputKind {
  std::string name;
  // How the file is made: not at all, a directory, or these bytes.
  enum { kMissing, kDirectory, kFile } make = kFile;
  std::string script;     // the bytes of a script of this kind
  std::string objective;  // the bytes of an objective of this kind
  std::string world;      // the bytes of a world file (`scl run --world`) of this kind
  int exitCode = 0;
  std::string message;  // in stderr ("" for none)
};

std::vector<InputKind> inputKinds() {
  return {
      {"missing file", InputKind::kMissing, "", "", "", 2, "does not exist"},
      {"directory", InputKind::kDirectory, "", "", "", 2, "is a directory"},
      {"empty file", InputKind::kFile, "", "", "", 1, ": error: "},
      {"CR-only line endings", InputKind::kFile,
       "// classic Mac OS\rscene pose: supine duration: 0.05\r{\r  [waist @10]\r}\r",
       "// classic Mac OS\rterm 1 energy\r", "// classic Mac OS\rworld w\rground friction: 1\r", 1,
       "CR-only line endings"},
      {"UTF-8 byte-order mark", InputKind::kFile, kBom + kScript, kBom + kObjective, kBom + kWorld,
       0, ""},
      {"binary garbage", InputKind::kFile, garbage(), garbage(), garbage(), 1, ": error: "},
  };
}

// Makes the script or objective of `kind` in `dir`; returns its path.
std::string makeInput(const TempDir& dir, const InputKind& kind, const std::string& name,
                      const std::string& contents) {
  std::string path = dir / name;
  if (kind.make == InputKind::kDirectory) fs::create_directory(path);
  if (kind.make == InputKind::kFile) writeText(path, contents);
  return path;
}

// A command that reads a file: its arguments with {} for the file, and which kinds of
// input it is run with.
struct Reader {
  std::string command;
  bool readsObjective = false;  // {} is the objective, not the script
  bool fileCasesOnly = false;   // `scl view`: only what fails before any window opens
  bool readsWorld = false;      // {} is the world file of `--world`
};

// Replaces the {} of `pattern` with `path`.
std::string withFile(const std::string& pattern, const std::string& path) {
  std::string text = pattern;
  text.replace(text.find("{}"), 2, shellQuote(path));
  return text;
}

// Whether this scl has the viewer (SFML was found); without it `scl view` only says so.
// The subcommands as `scl --help` lists them: the program's own table (tools/main.cpp),
// so a new subcommand is tested without being named here.
std::vector<std::string> subcommands() {
  const Outcome help = runScl("--help");
  REQUIRE(help.exitCode == 0);
  std::istringstream lines(help.out);
  std::string line;
  while (std::getline(lines, line) && line != "commands:") {
  }
  std::vector<std::string> names;
  while (std::getline(lines, line) && !line.empty()) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    names.push_back(name);
  }
  return names;
}

bool failsBeforeAnyWindow(const InputKind& kind) {
  return kind.make != InputKind::kFile || kind.exitCode == 2 ||
         kind.message == "CR-only line endings";
}

}  // namespace

TEST_CASE("every subcommand reading files: each kind of input file gives the documented code",
          "[cli][contract]") {
  TempDir dir;
  const std::string script = dir / "good.scl";
  const std::string objective = dir / "good.objective";
  writeText(script, kScript);
  writeText(objective, kObjective);
  const std::string optimizeOptions = " --generations 1 --popsize 2 --threads 1 --out ";
  std::vector<Reader> readers = {
      {"check {}"},
      {"fmt {}"},
      {"run {}"},
      {"optimize {} " + shellQuote(objective) + optimizeOptions},
      {"optimize " + shellQuote(script) + " {}" + optimizeOptions, true},
      {"run " + shellQuote(script) + " --world {}", false, false, true},
  };
  const bool viewer = viewerBuilt();
  if (viewer) readers.push_back({"view {}", false, true});
  RunOptions noDisplay;
  noDisplay.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};

  int runs = 0;
  for (const InputKind& kind : inputKinds()) {
    for (const Reader& reader : readers) {
      if (reader.fileCasesOnly && !failsBeforeAnyWindow(kind)) continue;
      const std::string name = "input" + std::to_string(runs);
      const std::string file =
          reader.readsObjective ? makeInput(dir, kind, name + ".objective", kind.objective)
          : reader.readsWorld   ? makeInput(dir, kind, name + ".world", kind.world)
                                : makeInput(dir, kind, name + ".scl", kind.script);
      std::string args = withFile(reader.command, file);
      if (reader.command.rfind("optimize", 0) == 0) args += shellQuote(dir / (name + ".opt"));
      ++runs;
      INFO("scl " << args << " (" << kind.name << ")");
      const Outcome outcome = runScl(args, noDisplay);
      INFO("stderr: " << outcome.err);
      CHECK(outcome.exitCode == kind.exitCode);
      CHECK(outcome.err.find(kind.message) != std::string::npos);
      CHECK(outcome.err.find("terminate called") == std::string::npos);
      if (kind.exitCode == 0) CHECK(outcome.err.find("error") == std::string::npos);
      if (kind.exitCode == 2) {
        // One line saying what is wrong, naming the file.
        CHECK(countOf(outcome.err, "\n") == 1);
        CHECK(outcome.err.find(file) != std::string::npos);
      }
      if (kind.make == InputKind::kFile && kind.exitCode == 0 && args.rfind("fmt", 0) == 0) {
        // The mark is no content: fmt prints what it prints for the script without it.
        CHECK(outcome.out.rfind(kBom, 0) == std::string::npos);
        CHECK(outcome.out == runScl("fmt " + shellQuote(script)).out);
      }
    }
  }
  CHECK(runs == 6 * 6 + (viewer ? 3 : 0));
}

TEST_CASE("scl bench --script: a missing file is a usage error", "[cli][contract]") {
  TempDir dir;
  const Outcome bench = runScl("bench --quick --script " + shellQuote(dir / "no_such.scl"));
  INFO(bench.err);
  CHECK(bench.exitCode == 2);
  CHECK(bench.err.find("script '" + (dir / "no_such.scl") + "' does not exist") !=
        std::string::npos);
}

TEST_CASE("an unknown subcommand is a usage error with a suggestion", "[cli][contract]") {
  const Outcome typo = runScl("runn x.scl");
  CHECK(typo.exitCode == 2);
  CHECK(typo.out.empty());
  CHECK(typo.err ==
        "scl: unknown command 'runn'; did you mean 'run'? (run 'scl --help' for the list)\n");
  CHECK(runScl("chekc x.scl").err.find("did you mean 'check'?") != std::string::npos);
  const Outcome unknown = runScl("frobnicate");
  CHECK(unknown.exitCode == 2);
  CHECK(unknown.err == "scl: unknown command 'frobnicate' (run 'scl --help' for the list)\n");
}

TEST_CASE("every subcommand: an unknown option is a usage error", "[cli][contract]") {
  TempDir dir;
  const std::string script = dir / "good.scl";
  const std::string objective = dir / "good.objective";
  writeText(script, kScript);
  writeText(objective, kObjective);
  RunOptions noDisplay;
  noDisplay.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};
  // What a command is given before --bogus so that it gets as far as reading its options
  // with its files there (a command not named here is given nothing else).
  const std::map<std::string, std::vector<std::string>> invocations = {
      {"check", {joined({"check", script})}},
      {"fmt", {joined({"fmt", script})}},
      {"run", {joined({"run", script})}},
      {"optimize", {joined({"optimize", script, objective})}},
      {"bench", {"bench --quick"}},
      {"sam",
       {joined({"sam sample", script, objective}), joined({"sam train", script, objective}),
        joined({"sam query", script, objective})}},
      {"view", {joined({"view", script})}},
      {"clip", {"clip", joined({"clip import", script})}},
  };
  const std::vector<std::string> commands = subcommands();
  CHECK(std::find(commands.begin(), commands.end(), "run") != commands.end());
  for (const auto& [name, lines] : invocations) {
    INFO(name << " is no longer a subcommand of scl --help");
    CHECK(std::find(commands.begin(), commands.end(), name) != commands.end());
  }
  const bool viewer = viewerBuilt();
  for (const std::string& command : commands) {
    if (command == "view" && !viewer) continue;
    const auto given = invocations.find(command);
    for (const std::string& args :
         given == invocations.end() ? std::vector<std::string>{command} : given->second) {
      INFO("scl " << args << " --bogus");
      const Outcome outcome = runScl(args + " --bogus", noDisplay);
      INFO("stderr: " << outcome.err);
      CHECK(outcome.exitCode == 2);
      CHECK(outcome.err.find("bogus") != std::string::npos);
    }
  }
  CHECK(dir.entries() == std::vector<std::string>{"good.objective", "good.scl"});
}

TEST_CASE("scl view reads its script as every command does", "[cli][contract]") {
  if (!viewerBuilt()) {
    WARN("scl was built without the viewer");
    return;
  }
  // Without a display the viewer stops after reading and compiling the script: the
  // message says whether the script was accepted.
  TempDir dir;
  const std::string script = dir / "bom.scl";
  writeText(script, kBom + kScript);
  RunOptions noDisplay;
  noDisplay.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};
  const Outcome view = runScl("view " + script, noDisplay);
  INFO(view.err);
  CHECK(view.err.find("invalid byte") == std::string::npos);  // the mark is no content
  CHECK(view.err.find("no display available") != std::string::npos);
  CHECK(view.exitCode == 2);
}

TEST_CASE("one name, one meaning: scl view points its --frames to --headless-frames",
          "[cli][contract]") {
  if (!viewerBuilt()) {
    WARN("scl was built without the viewer");
    return;
  }
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);
  RunOptions noDisplay;
  noDisplay.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};
  const Outcome view = runScl("view " + script + " --frames 0.5,1", noDisplay);
  INFO(view.err);
  CHECK(view.exitCode == 2);
  CHECK(view.err.find("--headless-frames N") != std::string::npos);
  CHECK(view.err.find("failed to parse") == std::string::npos);
  const Outcome help = runScl("view --help");
  CHECK(help.out.find("--headless-frames") != std::string::npos);
  CHECK(help.out.find("--frames") == std::string::npos);  // the hidden pointer stays hidden
}

TEST_CASE("no exception escapes main: an unusable output is a usage error", "[cli][contract]") {
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);
  SECTION("an empty --out next to a --filmstrip") {
    const Outcome run = runScl("run " + script + " --out '' --filmstrip " + (dir / "f.svg"));
    INFO(run.err);
    CHECK(run.exitCode == 2);  // not 134: an escaped std::filesystem_error aborts
    CHECK(run.err.find("--out needs a file name") != std::string::npos);
    CHECK(run.err.find("terminate called") == std::string::npos);
  }
  SECTION("an empty --filmstrip next to an --out") {
    const Outcome run = runScl("run " + script + " --out " + (dir / "t.csv") + " --filmstrip ''");
    INFO(run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("--filmstrip needs a file name") != std::string::npos);
  }
  SECTION("--out in a directory that does not exist") {
    const Outcome run = runScl("run " + script + " --out " + (dir / "no/such/dir/t.csv"));
    INFO(run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("does not exist") != std::string::npos);
  }
  SECTION("--out inside a file, as if it were a directory") {
    const Outcome run = runScl("run " + script + " --out " + script + "/t.csv");
    INFO(run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("'" + script + "' is a file, not a directory") != std::string::npos);
  }
  CHECK(dir.entries() == std::vector<std::string>{"s.scl"});
  CHECK(readText(script) == kScript);
}

TEST_CASE("an unreadable script and an unwritable output directory are usage errors",
          "[cli][contract]") {
  // Permissions do not stop root, so this is only tested as another user.
  if (::geteuid() == 0) {
    WARN("running as root: permissions cannot make a file unreadable");
    return;
  }
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);
  fs::permissions(script, fs::perms::none);
  const Outcome unreadable = runScl("run " + script);
  fs::permissions(script, fs::perms::owner_read | fs::perms::owner_write);
  INFO(unreadable.err);
  CHECK(unreadable.exitCode == 2);
  CHECK(unreadable.err.find("script '" + script + "' cannot be read") != std::string::npos);

  fs::create_directory(dir.path() / "locked");
  fs::permissions(dir.path() / "locked", fs::perms::owner_read | fs::perms::owner_exec);
  const Outcome locked = runScl("run " + script + " --out " + (dir / "locked/t.csv"));
  fs::permissions(dir.path() / "locked", fs::perms::owner_all);
  INFO(locked.err);
  CHECK(locked.exitCode == 2);
  CHECK(locked.err.find("is not writable") != std::string::npos);
  CHECK(locked.out.empty());
}

TEST_CASE("scl run: an output never replaces the script or the other output", "[cli][contract]") {
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);
  fs::create_directory(dir.path() / "sub");
  fs::create_symlink("s.scl", dir.path() / "link.csv");
  fs::create_hard_link(script, dir.path() / "hard.csv");
  RunOptions inDir;
  inDir.workingDirectory = dir.path().string();

  struct Case {
    std::string options;
    std::vector<std::string> named;  // both paths, as given, in the message
  };
  const std::vector<Case> cases = {
      {"--out s.scl", {"--out 's.scl'", "script 's.scl'"}},
      {"--filmstrip s.scl", {"--filmstrip 's.scl'", "script 's.scl'"}},
      {"--out link.csv", {"--out 'link.csv'", "script 's.scl'"}},
      {"--out hard.csv", {"--out 'hard.csv'", "script 's.scl'"}},
      {"--out ./sub/../s.scl", {"--out './sub/../s.scl'", "script 's.scl'"}},
      {"--out a.csv --filmstrip ./a.csv", {"--out 'a.csv'", "--filmstrip './a.csv'"}},
  };
  for (const Case& c : cases) {
    INFO("scl run s.scl " << c.options);
    const Outcome run = runScl("run s.scl " + c.options, inDir);
    INFO("stderr: " << run.err);
    CHECK(run.exitCode == 2);
    for (const std::string& name : c.named) CHECK(run.err.find(name) != std::string::npos);
    CHECK(run.out.empty());  // refused before the run
    CHECK(readText(script) == kScript);
    CHECK(fs::is_symlink(fs::symlink_status(dir.path() / "link.csv")));
    CHECK(dir.entries() == std::vector<std::string>{"hard.csv", "link.csv", "s.scl", "sub"});
  }
}

TEST_CASE("scl optimize: no output of --out replaces the script or the objective",
          "[cli][contract]") {
  TempDir dir;
  fs::create_directory(dir.path() / "run");
  const std::string script = dir / "run/best.scl";  // where the best script would go
  const std::string objective = dir / "o.objective";
  writeText(script, kScript);
  writeText(objective, kObjective);
  const Outcome optimize = runScl("optimize " + script + " " + objective + " --out " +
                                  (dir / "run") + " --generations 1 --popsize 2 --threads 1");
  INFO(optimize.err);
  CHECK(optimize.exitCode == 2);
  CHECK(optimize.err.find("best.scl of --out") != std::string::npos);
  CHECK(optimize.err.find("script '" + script + "'") != std::string::npos);
  CHECK(readText(script) == kScript);
  std::vector<std::string> written;
  for (const auto& entry : fs::directory_iterator(dir.path() / "run"))
    written.push_back(entry.path().filename().string());
  CHECK(written == std::vector<std::string>{"best.scl"});  // no log, no checkpoint

  // The objective as an output (report.txt) is refused too.
  const std::string report = dir / "run/report.txt";
  writeText(report, kObjective);
  writeText(dir.path() / "s.scl", kScript);
  const Outcome objectiveOut = runScl("optimize " + (dir / "s.scl") + " " + report + " --out " +
                                      (dir / "run") + " --generations 1 --popsize 2 --threads 1");
  INFO(objectiveOut.err);
  CHECK(objectiveOut.exitCode == 2);
  CHECK(objectiveOut.err.find("objective '" + report + "'") != std::string::npos);
  CHECK(readText(report) == kObjective);
}

TEST_CASE("standard output that cannot be written is a failure", "[cli][contract][devices]") {
  if (!isCharacterDevice("/dev/full")) {
    WARN("/dev/full is not a character device here");
    return;
  }
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);
  RunOptions full;
  full.stdoutPath = "/dev/full";
  for (const std::string& args :
       {"fmt " + script, "run " + script + " --json", std::string("character human"),
        std::string("--help"), std::string("check --help")}) {
    INFO("scl " << args << " > /dev/full");
    const Outcome outcome = runScl(args, full);
    INFO("stderr: " << outcome.err);
    CHECK(outcome.exitCode == 3);
    // Said once, with the reason (scl character said it twice; scl --help exited 0).
    const size_t first = outcome.err.find("cannot write the output: ");
    CHECK(first != std::string::npos);
    CHECK(outcome.err.find("cannot write", first + 1) == std::string::npos);
  }
  CHECK(isCharacterDevice("/dev/full"));
}

TEST_CASE("scl run: outputs on devices", "[cli][contract][devices]") {
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);

  SECTION("--out /dev/full: 3, and the other output that was there stays as it was") {
    if (!isCharacterDevice("/dev/full")) {
      WARN("/dev/full is not a character device here");
      return;
    }
    const std::string film = dir / "old.svg";
    const std::string before = "<svg><!-- the user's filmstrip --></svg>\n";
    writeText(film, before);
    const Outcome run = runScl("run " + script + " --out /dev/full --filmstrip " + film);
    INFO(run.err);
    CHECK(run.exitCode == 3);
    CHECK(run.err.find("cannot write '/dev/full'") != std::string::npos);
    CHECK(readText(film) == before);
    CHECK(dir.entries() == std::vector<std::string>{"old.svg", "s.scl"});  // no temporary
    CHECK(isCharacterDevice("/dev/full"));
  }
  SECTION("--out /dev/null: written, and /dev/null stays a device") {
    const bool device = isCharacterDevice("/dev/null");
    const Outcome run = runScl("run " + script + " --out /dev/null --json");
    INFO(run.err);
    CHECK(run.exitCode == 0);
    if (device) CHECK(isCharacterDevice("/dev/null"));
    CHECK(dir.entries() == std::vector<std::string>{"s.scl"});
  }
}

TEST_CASE("scl run --set: values go through the checks of written numbers", "[cli][contract]") {
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, R"(scene pose: supine duration: 0.2
{
  (a)
  [waist @10 time: @0.1]
  [relax hips strength @0.5]
}
after @0.1
{
  (b)
}
)");
  for (const std::string set : {"a.after=-1", "a.pd.time=-1"}) {
    const Outcome run = runScl(joined({"run", script, "--set", set}));
    INFO("--set " << set << ": " << run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find("--set " + set) != std::string::npos);
    CHECK(run.err.find("time must not be negative") != std::string::npos);
    CHECK(run.out.empty());
  }
  const Outcome strength = runScl("run " + script + " --set a.relax.strength=2 --json");
  INFO(strength.err);
  CHECK(strength.exitCode == 0);
  CHECK(strength.err.find("warning") != std::string::npos);
  CHECK(strength.err.find("--set a.relax.strength=2") != std::string::npos);
  CHECK(strength.err.find("outside [0, 1]") != std::string::npos);
  CHECK(strength.out.find("\"a.relax.strength\":2") != std::string::npos);
}

TEST_CASE("scl run: time step and duration outside their ranges", "[cli][contract]") {
  TempDir dir;
  const std::string script = dir / "s.scl";
  writeText(script, kScript);
  // A step that is accepted runs; these must be refused before any simulation, so a
  // short safety net is plenty (1e-9 s steps would take days).
  RunOptions quick;
  quick.timeout = std::chrono::seconds(120);
  for (const std::string dt : {"1e-9", "0.5", "0.02", "0"}) {
    const Outcome run = runScl(joined({"run", script, "--dt", dt}), quick);
    INFO("--dt " << dt << ": " << run.err);
    CHECK(run.exitCode == 2);
    // "time step 1e-09 s is not usable: give a step from 1e-05 to 0.01 s"; 0 is no step.
    CHECK((run.err.find("time step") != std::string::npos ||
           run.err.find("--dt must be a positive number") != std::string::npos));
  }
  for (const std::string dt : {"0.01", "0.00001"}) {
    const Outcome run = runScl(joined({"run", script, "--dt", dt}), quick);
    INFO("--dt " << dt << ": " << run.err);
    CHECK(run.exitCode == 0);
  }
  const Outcome duration = runScl("run " + script + " --duration 4000", quick);
  INFO(duration.err);
  CHECK(duration.exitCode == 2);
  CHECK(duration.err.find("3600") != std::string::npos);
}

TEST_CASE("scl optimize: a trial's time step out of range is an objective error",
          "[cli][contract]") {
  TempDir dir;
  writeText(dir.path() / "s.scl", kScript);
  writeText(dir.path() / "dt.objective", "term 1 energy\ntrial dt: 1e-9\n");
  RunOptions quick;
  quick.timeout = std::chrono::seconds(120);
  const Outcome optimize = runScl("optimize " + (dir / "s.scl") + " " + (dir / "dt.objective") +
                                      " --out " + (dir / "out") + " --generations 1",
                                  quick);
  INFO(optimize.err);
  CHECK(optimize.exitCode == 1);
  CHECK(optimize.err.find("dt.objective:2:11: error: the time step must be from") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "out"));
}

TEST_CASE("scl optimize: --threads is capped with a warning", "[cli][contract]") {
  TempDir dir;
  writeText(dir.path() / "s.scl", kScript);
  writeText(dir.path() / "o.objective", kObjective);
  const Outcome optimize =
      runScl("optimize " + (dir / "s.scl") + " " + (dir / "o.objective") + " --out " +
             (dir / "out") + " --threads 10000 --generations 1 --popsize 2");
  INFO(optimize.err);
  CHECK(optimize.exitCode == 0);
  CHECK(optimize.err.find("warning: --threads 10000 is more than 4 per core") != std::string::npos);
  CHECK(optimize.err.find("10000 threads") == std::string::npos);
}

TEST_CASE("at most 100 warnings are shown, with a count of the rest", "[cli][contract]") {
  TempDir dir;
  // 150 phases, each with a target outside the waist's range: 150 warnings.
  std::string text = "scene pose: supine duration: 0.1\n";
  for (int phase = 0; phase < 150; ++phase)
    text += (phase ? "after 1\n" : "") + std::string("{ [waist 300] }\n");
  const std::string script = dir / "many.scl";
  writeText(script, text);
  for (const std::string command : {"check", "run"}) {
    const Outcome outcome = runScl(joined({command, script}));
    INFO("scl " << command);
    CHECK(outcome.exitCode == 0);
    CHECK(countOf(outcome.err, ": warning: ") == 100);
    CHECK(countOf(outcome.err, "outside the joint range") == 100);
    CHECK(outcome.err.find("50 more warnings not shown") != std::string::npos);
  }
}

namespace {

// The rows of the first table after `heading` in a page: each row's cells, trimmed.
std::vector<std::vector<std::string>> tableAfter(const std::string& page,
                                                 const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  const size_t at = page.find("\n" + heading + "\n");
  REQUIRE(at != std::string::npos);
  std::istringstream lines(page.substr(at + heading.size() + 2));
  bool inTable = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '|') {
      if (inTable) break;
      continue;
    }
    inTable = true;
    if (line.rfind("|---", 0) == 0) continue;
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
    rows.push_back(cells);
  }
  if (!rows.empty()) rows.erase(rows.begin());  // the header
  return rows;
}

}  // namespace

TEST_CASE("docs/viewer.md's exit codes are docs/cli.md's, and scl view exits by them",
          "[cli][contract][docs]") {
  const auto cli = tableAfter(readText(SCL_SOURCE_DIR "/docs/cli.md"), "## Exit codes");
  const auto viewer =
      tableAfter(readText(SCL_SOURCE_DIR "/docs/viewer.md"), "## Exit codes and errors");
  REQUIRE(cli.size() >= 5);
  // Every code of every command, with the same meaning word for word.
  REQUIRE(viewer.size() == cli.size());
  for (size_t i = 0; i < cli.size(); ++i) {
    INFO("cli.md: " << cli[i][0] << " " << cli[i][1]);
    REQUIRE(viewer[i].size() >= 3);
    CHECK(viewer[i][0] == cli[i][0]);
    CHECK(viewer[i][1] == cli[i][1]);
  }
  // What the viewer's table says of its inputs, checked where no display is needed: a
  // missing script is a usage error (2), one that does not compile an input error (1).
  TempDir dir;
  RunOptions noDisplay;
  noDisplay.unsetEnvironment = {"DISPLAY", "WAYLAND_DISPLAY"};
  CHECK(runScl("view " + std::string(dir / "missing.scl"), noDisplay).exitCode == 2);
  if (!viewerBuilt()) {
    WARN("scl was built without the viewer");
    return;
  }
  const std::string bad = dir / "bad.scl";
  writeText(bad, "{ [kness 0] }\n");
  const Outcome compiled = runScl("view " + bad, noDisplay);
  CHECK(compiled.exitCode == 1);
  CHECK(compiled.err.find("unknown joint 'kness'") != std::string::npos);
}
