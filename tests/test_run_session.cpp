// RunSession: the run every caller shares (scl run, the optimizer's trials, the motion
// trials, the viewer): pushes, the rule that ends a run, early stops, the timeline and
// the summary, and the same physics as a bare Runner loop.
#include <catch2/catch.hpp>

#include "runtime/phase_standing.h"
#include "runtime/run_session.h"
#include "scl/compile.h"
#include "tests/test_support.h"

namespace {

using scl::testing::compileOk;

const char* kTwoPhases = R"(scene pose: supine
{ (bend) [knees -90, hips 60 time: 0.3] }
after 0.5
{ (rest) })";

scl::RunSessionDef definitionFor(const scl::Program& program) {
  scl::RunSessionDef def;
  def.simulation = scl::simulationDefFor(program);
  def.length = scl::defaultRunLength(program);
  return def;
}

}  // namespace

TEST_CASE("run session: the default length follows the script") {
  CHECK(scl::defaultRunLength(compileOk("scene duration: 2\n{ [knees 0] }")).duration == 2.0);
  CHECK(scl::defaultRunLength(compileOk("{ (a) } after 1 { (b) } finally after 1 backto a"))
            .duration == 10.0);
  const scl::RunLength open = scl::defaultRunLength(compileOk(kTwoPhases));
  CHECK_FALSE(open.duration);
  CHECK(open.reason == "the last phase had been active 3 s");

  const scl::Program program = compileOk(kTwoPhases);
  scl::RunSession session(program, definitionFor(program));
  session.run();
  CHECK(session.runner().time() == Approx(3.5).margin(1e-9));
  CHECK(session.steps() == 14000);
  REQUIRE(session.timeline().size() == 2);
  CHECK(session.timeline()[0].name == "bend");
  CHECK(session.timeline()[1].time == Approx(0.5));
  CHECK(session.timeline()[1].name == "rest");
  CHECK(session.summary().phaseChanges == 1);
}

TEST_CASE("run session: the same physics as a bare runner, bit for bit") {
  const scl::Program program = compileOk(kTwoPhases);
  scl::RunSessionDef def = definitionFor(program);
  def.length.duration = 1.0;
  scl::RunSession session(program, def);
  int observed = 0;
  session.run([&](const scl::StepView& step) {
    if (observed == 0) {
      CHECK(step.report == nullptr);  // the initial state comes first
      CHECK(step.state.time == 0.0);
    }
    ++observed;
  });
  scl::Runner runner(program, def.simulation);
  runner.runUntil(1.0);
  CHECK(observed == 4001);
  CHECK(session.steps() == 4000);
  CHECK(session.runner().simulation().stateHash() == runner.simulation().stateHash());
  CHECK(session.endReason() == "the last phase had been active 3 s");  // def's reason kept
}

TEST_CASE("run session: a push acts in its window only") {
  const scl::Program program = compileOk("scene pose: supine duration: 1\n{ (idle) }");
  scl::RunSessionDef calm = definitionFor(program);
  scl::RunSessionDef pushed = calm;
  pushed.pushes.push_back({scl::kPelvis, scl::Vec2(0.0, 2000.0), 0.2, 0.1});
  scl::RunSession a(program, calm), b(program, pushed);
  a.run();
  b.run();
  CHECK(b.summary().maxPelvisHeight > a.summary().maxPelvisHeight + 0.05);
  // Before the window the two runs are the same state.
  scl::RunSession c(program, calm), d(program, pushed);
  while (c.runner().time() < 0.19) {
    c.step();
    d.step();
  }
  CHECK(c.runner().simulation().stateHash() == d.runner().simulation().stateHash());
}

TEST_CASE("run session: a push on an object moves it, and only in its window") {
  // A 20 kg box on flat ground behind the character (docs/cli.md's crate.scl); friction
  // holds it against 118 N.
  const scl::Program program = compileOk(
      "scene pose: standing env: flat duration: 1\n"
      "box crate at: (-1, 0.25) size: (0.5, 0.5) mass: 20\n"
      "{ (stand) }");
  REQUIRE(program.scene.bodies.size() == 2);
  REQUIRE(program.scene.bodies[1].name == "crate");
  scl::RunSessionDef calm = definitionFor(program);
  scl::RunSessionDef pushed = calm;
  scl::Push push;
  push.force = scl::Vec2(-300.0, 0.0);  // away from the character
  push.start = 0.2;
  push.duration = 0.5;
  push.sceneBody = 1;
  pushed.pushes.push_back(push);
  scl::RunSession still(program, calm), moved(program, pushed);
  auto crateX = [](const scl::RunSession& session) {
    const auto& parts = session.runner().simulation().worldBodies();
    REQUIRE(parts.size() == 1);
    CHECK(parts[0].sceneBody == 1);
    return parts[0].position.x();
  };
  const double start = crateX(still);
  CHECK(start == Approx(-1.0).margin(1e-3));
  // Before the window nothing differs.
  while (still.runner().time() < 0.19) {
    still.step();
    moved.step();
  }
  CHECK(still.runner().simulation().stateHash() == moved.runner().simulation().stateHash());
  still.run();
  moved.run();
  CHECK(crateX(still) == Approx(start).margin(1e-3));  // without the push it stays
  // Pushed: it slid along -x, about 2 m (docs/cli.md, Examples: the same scene).
  CHECK(crateX(moved) < start - 2.0);
  CHECK(crateX(moved) > start - 2.5);
  // The character is not pushed.
  CHECK(moved.runner().state().com.x() == Approx(still.runner().state().com.x()).margin(0.01));

  // A push on a body that cannot move, or on a part it lacks, is refused.
  scl::RunSessionDef terrain = calm;
  terrain.pushes.push_back(push);
  terrain.pushes.back().sceneBody = 0;  // the ground
  CHECK_THROWS_AS(scl::RunSession(program, terrain), std::invalid_argument);
  scl::RunSessionDef part = pushed;
  part.pushes.back().part = 3;
  CHECK_THROWS_AS(scl::RunSession(program, part), std::invalid_argument);
}

TEST_CASE("run session: stop() ends a run early with its reason") {
  const scl::Program program = compileOk(kTwoPhases);
  scl::RunSession session(program, definitionFor(program));
  session.run([&](const scl::StepView& step) {
    if (step.state.time >= 0.25) session.stop("enough");
  });
  CHECK(session.finished());
  CHECK(session.endReason() == "enough");
  CHECK(session.steps() == 1000);
}

TEST_CASE("run session: no metrics when none are asked for") {
  const scl::Program program = compileOk(kTwoPhases);
  scl::RunSessionDef def = definitionFor(program);
  def.metrics.reset();
  def.length.duration = 0.1;
  scl::RunSession session(program, def);
  session.run();
  CHECK(session.summary().duration == 0.0);
  CHECK(session.summary().energy == 0.0);
}

TEST_CASE("run session: the timeline says which phase began by a fallback") {
  // The stance never loses both feet: the fallback ends the first phase at 0.2 s; the
  // second's own condition, a time, ends it at 0.3 s after that.
  const scl::Program program = compileOk(R"(scene pose: standing duration: 1
{ (wait) [knees 0] }
when contact lost all feet or after 0.2
{ (fallback) [knees -5] }
after 0.3
{ (last) })");
  scl::RunSession session(program, definitionFor(program));
  session.run();
  const auto& timeline = session.timeline();
  REQUIRE(timeline.size() == 3);
  CHECK(timeline[1].name == "fallback");
  CHECK(timeline[1].time == Approx(0.2).margin(1e-3));
  CHECK(timeline[1].timedOut);
  CHECK(timeline[2].time == Approx(0.5).margin(1e-3));
  CHECK_FALSE(timeline[2].timedOut);
}

TEST_CASE("run session: a counted finally cycle ends, and the run with it") {
  // a, b, a, b: the cycle ran twice and b stays; the run ends when b has been active 3 s.
  const scl::Program program = compileOk(R"(scene pose: supine
{ (a) [knees -10] }
after 0.1
{ (b) [knees -20] }
finally after 0.1 backto a 2 times)");
  const scl::RunLength length = scl::defaultRunLength(program);
  CHECK_FALSE(length.duration);  // not the 10 s of an endless cycle
  scl::RunSession session(program, definitionFor(program));
  session.run();
  REQUIRE(session.timeline().size() == 4);
  CHECK(session.timeline()[3].name == "b");
  CHECK(session.runner().time() == Approx(3.3).margin(1e-6));
}

TEST_CASE("run session: where the run stands, and a contact that never came") {
  // Lying still, the feet never leave the ground: the second phase waits for them.
  const scl::Program program = compileOk(R"(scene pose: supine duration: 3
{ (settle) }
after 0.5
{ [knees -10] }
when contact lost all feet
{ (rest) })");
  scl::RunSession session(program, definitionFor(program));
  session.run();
  const scl::PhaseStanding end = scl::phaseStanding(session.runner().controller());
  CHECK(end.phase == 1);
  CHECK(end.phaseCount == 3);
  CHECK(end.name.empty());
  CHECK(end.active == Approx(2.5).margin(1e-6));
  CHECK(end.exit == "when contact lost all feet");
  CHECK(end.exitOverdue);
  CHECK(scl::phaseStandingLabel(end) == "phase #1 (2 of 3)");
  // What `scl run`'s summary and the viewer's status line say.
  CHECK(scl::waitingMessage(end) ==
        "phase #1 (2 of 3) waited 2.5 s for 'when contact lost all feet'; it never fired");

  // Not yet long enough to say so; a timer is never overdue; a last phase waits for nothing.
  CHECK(scl::waitingMessage(scl::phaseStanding(program, 1, 1.5, false)).empty());
  const scl::Program timed = compileOk("{ (a) } and when contact any hands after 4 { (b) }");
  CHECK_FALSE(scl::phaseStanding(timed, 0, 3.0, false).exitOverdue);
  const scl::PhaseStanding overdue = scl::phaseStanding(timed, 0, 5.0, false);
  CHECK(scl::waitingMessage(overdue) ==
        "phase 'a' (1 of 2) waited 5.0 s for 'and when contact any hands after 4'; it never fired");
  CHECK_FALSE(scl::phaseStanding(compileOk("{ (a) } after 9 { (b) }"), 0, 5.0, false).exitOverdue);
  const scl::PhaseStanding last = scl::phaseStanding(timed, 1, 30.0, true);
  CHECK(last.exit.empty());
  CHECK(scl::waitingMessage(last).empty());
}
