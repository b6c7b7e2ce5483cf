// Cost of the joint-space dynamics (dynamics/planar_dynamics.h) for the 18-DoF character
// and of the QP solver (dynamics/qp_solver.h) at whole-body-controller sizes, beside the
// bare physics step they would run next to (docs/dynamics.md, Costs). Prints the best of
// several rounds, microseconds per call.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "dynamics/articulated_body.h"
#include "dynamics/planar_dynamics.h"
#include "dynamics/qp_solver.h"
#include "runtime/simulation.h"

namespace {

using namespace scl;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int kRounds = 7;

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform(double low, double high) {
    return low + (high - low) * static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  }
  MatrixXd matrix(int rows, int cols) {
    MatrixXd m(rows, cols);
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < rows; ++r) m(r, c) = uniform(-1.0, 1.0);
    return m;
  }

 private:
  std::mt19937_64 engine_;
};

// Best of kRounds of `calls` calls of `work(i)`, microseconds per call.
template <typename Work>
double microsecondsPerCall(int calls, Work&& work) {
  double best = 1e300;
  for (int round = 0; round < kRounds; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) work(i);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, seconds / calls * 1e6);
  }
  return best;
}

struct State {
  VectorXd q, qd;
};

std::vector<State> randomStates(const PlanarModel& model, int count) {
  Random random(1);
  std::vector<State> states;
  states.reserve(count);
  for (int s = 0; s < count; ++s) {
    State state{VectorXd(model.dofCount()), VectorXd(model.dofCount())};
    state.q[kRootX] = random.uniform(-1.0, 1.0);
    state.q[kRootY] = random.uniform(0.5, 1.5);
    state.q[kRootAngle] = random.uniform(-kPi, kPi);
    for (int b = 1; b < model.bodyCount(); ++b)
      state.q[jointCoordinate(b)] =
          random.uniform(model.bodies[b].jointLowerLimit, model.bodies[b].jointUpperLimit);
    for (int k = 0; k < model.dofCount(); ++k) state.qd[k] = random.uniform(-2.0, 2.0);
    states.push_back(state);
  }
  return states;
}

void benchDynamics() {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  const int n = model.dofCount();
  std::vector<State> states = randomStates(model, 64);
  auto stateFor = [&](int i) -> const State& { return states[i % states.size()]; };
  MatrixXd m(n, n);
  VectorXd h(n), qdd(n), torques = VectorXd::Constant(n - 3, 5.0);
  Eigen::Matrix2Xd jacobian(2, n);
  Eigen::RowVectorXd momentumJacobian(n);
  double sink = 0.0;
  const int calls = 20000;

  std::printf("dynamics, %d DoF (%d bodies), us per call:\n", n, model.bodyCount());
  auto report = [](const char* name, double microseconds) {
    std::printf("  %-48s %7.3f\n", name, microseconds);
  };
  report("setState (forward pass, subtree sums)", microsecondsPerCall(calls, [&](int i) {
           dynamics.setState(stateFor(i).q, stateFor(i).qd);
           sink += dynamics.bodies()[5].com.x();
         }));
  // The queries read the state setState() left; one state serves them all.
  dynamics.setState(states[0].q, states[0].qd);
  report("mass matrix M", microsecondsPerCall(calls, [&](int) {
           dynamics.massMatrix(m);
           sink += m(4, 3);
         }));
  report("bias forces h", microsecondsPerCall(calls, [&](int) {
           dynamics.biasForces(h);
           sink += h[7];
         }));
  report("point Jacobian + Jdot*qd (a toe)", microsecondsPerCall(calls, [&](int) {
           dynamics.pointJacobian(kLeftFoot, Vec2(-0.2, 0.0), jacobian);
           sink += jacobian(0, 5) + dynamics.pointBiasAcceleration(kLeftFoot, Vec2(-0.2, 0.0)).y();
         }));
  report("COM Jacobian + Jdot*qd", microsecondsPerCall(calls, [&](int) {
           dynamics.comJacobian(jacobian);
           sink += jacobian(1, 6) + dynamics.comBiasAcceleration().x();
         }));
  report("centroidal momentum Jacobian + Adot*qd", microsecondsPerCall(calls, [&](int) {
           dynamics.centroidalMomentumJacobian(momentumJacobian);
           sink += momentumJacobian[8] + dynamics.centroidalMomentumBias();
         }));
  report("forward dynamics (M, h, Cholesky, solve)", microsecondsPerCall(calls, [&](int) {
           dynamics.forwardDynamics(torques, qdd);
           sink += qdd[9];
         }));
  // Stable PD's solve: the same system with an armature per joint, in O(n) from (q, q̇).
  ArticulatedBodySolver articulated(model);
  const std::vector<double> jointTorques(n - 3, 5.0), armature(n - 3, 0.02);
  report("forward dynamics, articulated-body (from q, qd)", microsecondsPerCall(calls, [&](int i) {
           articulated.solve(stateFor(i).q, stateFor(i).qd, jointTorques, armature, qdd);
           sink += qdd[9];
         }));
  // What a whole-body controller step would ask for: the state, M, h, four contact points
  // (two per foot), the COM and the centroidal momentum.
  report("controller step: all of that, 4 contact points", microsecondsPerCall(calls, [&](int i) {
           dynamics.setState(stateFor(i).q, stateFor(i).qd);
           dynamics.massMatrix(m);
           dynamics.biasForces(h);
           for (int foot : {kLeftFoot, kRightFoot})
             for (double along : {-0.2, 0.0}) {
               dynamics.pointJacobian(foot, Vec2(along, -0.04), jacobian);
               sink +=
                   jacobian(0, 4) + dynamics.pointBiasAcceleration(foot, Vec2(along, -0.04)).x();
             }
           dynamics.comJacobian(jacobian);
           dynamics.centroidalMomentumJacobian(momentumJacobian);
           sink += m(3, 3) + h[3] + jacobian(0, 3) + momentumJacobian[3] +
                   dynamics.comBiasAcceleration().x() + dynamics.centroidalMomentumBias();
         }));
  if (!std::isfinite(sink)) std::printf("(non-finite)\n");
}

// Feasible by construction around x₀, a third of the inequalities tight there and the
// unconstrained minimum elsewhere, so that the active set is far from empty.
QpProblem randomProblem(Random& random, int n, int equalities, int inequalities) {
  QpProblem problem;
  MatrixXd b = random.matrix(n, n);
  problem.objectiveMatrix = b * b.transpose() + 0.1 * n * MatrixXd::Identity(n, n);
  problem.objectiveVector = 3.0 * random.matrix(n, 1);
  VectorXd x0 = random.matrix(n, 1);
  problem.equalityMatrix = random.matrix(equalities, n);
  problem.equalityVector = problem.equalityMatrix * x0;
  problem.inequalityMatrix = random.matrix(inequalities, n);
  problem.inequalityVector = problem.inequalityMatrix * x0;
  for (int i = 0; i < inequalities; ++i)
    if (i % 3) problem.inequalityVector[i] -= random.uniform(0.0, 1.0);
  return problem;
}

void benchQp() {
  std::printf("QP solves (reused solver), us per solve:\n");
  struct Size {
    int variables, equalities, inequalities;
    const char* note;
  };
  for (Size size :
       {Size{23, 0, 0, "no constraint: the factorization and two triangular solves"},
        Size{23, 0, 48, "the feature stance: 15 joint qdd + 8 contact forces"},
        Size{18, 6, 20, "small task QP"}, Size{41, 20, 40, "18 qdd + 15 tau + 8 contact forces"},
        Size{60, 20, 100, "largest tested"}}) {
    Random random(2);
    std::vector<QpProblem> problems;
    problems.reserve(16);
    for (int p = 0; p < 16; ++p)
      problems.push_back(randomProblem(random, size.variables, size.equalities, size.inequalities));
    QpSolver solver;
    QpResult result;
    double iterations = 0.0, active = 0.0;
    for (const QpProblem& problem : problems) {
      solver.solve(problem, result);
      iterations += result.iterations;
      active += static_cast<double>(result.activeSet.size());
    }
    double time = microsecondsPerCall(
        400, [&](int i) { solver.solve(problems[i % problems.size()], result); });
    std::printf(
        "  n=%2d, %2d equalities, %3d inequalities  %8.1f  (%.0f iterations, %.0f active; %s)\n",
        size.variables, size.equalities, size.inequalities, time,
        iterations / static_cast<double>(problems.size()),
        active / static_cast<double>(problems.size()), size.note);
  }
}

void benchPhysicsStep() {
  SimulationDef def;
  def.scene.pose = "supine";
  Simulation simulation(def);
  double time = microsecondsPerCall(4000, [&](int) { simulation.step(); });
  std::printf("bare physics step (supine, dt=%.2f ms): %.1f us\n", def.timeStep * 1e3, time);
}

}  // namespace

int main() {
  benchDynamics();
  benchQp();
  benchPhysicsStep();
  return 0;
}
