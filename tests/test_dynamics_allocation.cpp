// The per-step path of the dynamics, of the QP solver and of the feature controller
// allocates nothing (they run once per 0.25 ms step). This executable counts every heap allocation
// by standing in for glibc's malloc family (ELF interposition, forwarding to glibc's own entry
// points); Eigen allocates through malloc and operator new through it too. The counter is this test
// program's alone.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>

#include "dynamics/character_coordinates.h"
#include "dynamics/planar_dynamics.h"
#include "dynamics/qp_solver.h"
#include "feature/feature_controller.h"
#include "kinematics/character_state.h"

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define SCL_COUNTS_ALLOCATIONS 1

namespace {
std::atomic<long> allocationCount{0};
}

// NOLINTBEGIN(bugprone-reserved-identifier): glibc's allocator, under its exported names.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);

void* malloc(std::size_t size) noexcept {
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) noexcept {
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(pointer, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(alignment, size);
}
void* memalign(std::size_t alignment, std::size_t size) noexcept {
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** pointer, std::size_t alignment, std::size_t size) noexcept {
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  *pointer = __libc_memalign(alignment, size);
  return *pointer ? 0 : 12;  // ENOMEM
}
void free(void* pointer) noexcept { __libc_free(pointer); }
}
// NOLINTEND(bugprone-reserved-identifier)
#endif

namespace {

using namespace scl;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// Allocations made by `work`.
template <typename Work>
long allocationsIn(Work&& work) {
#ifdef SCL_COUNTS_ALLOCATIONS
  long before = allocationCount.load();
  work();
  return allocationCount.load() - before;
#else
  work();
  return 0;
#endif
}

}  // namespace

TEST_CASE("The allocation counter counts", "[dynamics][allocation]") {
#ifdef SCL_COUNTS_ALLOCATIONS
  CHECK(allocationsIn([] { VectorXd v = VectorXd::Ones(100); }) == 1);
  CHECK(allocationsIn([] {
          int* volatile p = new int(1);  // volatile: the pair is not optimized away
          delete p;
        }) == 1);
#else
  WARN("no glibc (or a sanitizer build): allocations are not counted");
#endif
}

TEST_CASE("Dynamics queries allocate nothing once sized", "[dynamics][allocation]") {
  PlanarModel model = planarModelFromCharacter(*humanCharacter());
  PlanarDynamics dynamics(model);
  const int n = model.dofCount();
  VectorXd q = VectorXd::Zero(n), qd = VectorXd::Constant(n, 0.5), torques(n - 3);
  torques.setConstant(1.0);
  q[kRootY] = 1.0;
  MatrixXd m(n, n);
  VectorXd h(n), qdd(n), qBack(n), qdBack(n);
  Eigen::Matrix2Xd jacobian(2, n);
  Eigen::RowVectorXd momentumJacobian(n);
  MatrixXd taskRows = MatrixXd::Zero(10, n);  // Jacobians straight into a QP's rows
  double sink = 0.0;

  long count = allocationsIn([&] {
    for (int step = 0; step < 3; ++step) {
      q[kRootAngle] += 0.1;
      dynamics.setState(q, qd);
      dynamics.massMatrix(m);
      dynamics.biasForces(h);
      dynamics.pointJacobian(kLeftFoot, Vec2(-0.2, 0.0), jacobian);
      dynamics.pointJacobian(kRightFoot, Vec2(-0.2, 0.0), taskRows.middleRows<2>(4));
      dynamics.comJacobian(taskRows.topRows<2>());
      dynamics.centroidalMomentumJacobian(momentumJacobian);
      dynamics.forwardDynamics(torques, qdd);
      CharacterState state = stateFromCoordinates(model, q, qd);
      coordinatesFromState(model, state, qBack, qdBack);
      sink += dynamics.pointBiasAcceleration(kLeftHand, Vec2::Zero()).x() +
              dynamics.comBiasAcceleration().y() + dynamics.centroidalAngularMomentum() +
              dynamics.centroidalMomentumBias() + dynamics.comVelocity().x();
    }
  });
  CHECK(count == 0);
  CHECK(std::isfinite(sink));
  CHECK(qdd.allFinite());
}

TEST_CASE("A reused QP solver allocates nothing for problems of the same size",
          "[qp][allocation]") {
  // The whole-body controller's shape: 41 variables, 20 equalities, 40 inequalities.
  const int n = 41, me = 20, mi = 40;
  // Feasible by construction: every constraint holds at x₀, a third of them tightly.
  auto makeProblem = [&](double shift) {
    QpProblem problem = QpProblem::zero(n, me, mi);
    VectorXd x0(n);
    for (int i = 0; i < n; ++i) {
      problem.objectiveMatrix(i, i) = 2.0 + 0.01 * i;
      problem.objectiveVector[i] = 3.0 * std::sin(i + shift);
      x0[i] = std::cos(1.7 * i);
    }
    for (int e = 0; e < me; ++e)
      for (int i = 0; i < n; ++i) problem.equalityMatrix(e, i) = std::sin(3.1 * e + 0.7 * i);
    for (int c = 0; c < mi; ++c)
      for (int i = 0; i < n; ++i) problem.inequalityMatrix(c, i) = std::cos(2.3 * c + 1.3 * i);
    problem.equalityVector = problem.equalityMatrix * x0;
    problem.inequalityVector = problem.inequalityMatrix * x0;
    for (int c = 0; c < mi; c += 3) problem.inequalityVector[c] -= 0.5;
    return problem;
  };
  QpProblem first = makeProblem(0.0), second = makeProblem(0.5);
  QpSolver solver;
  QpResult result;
  [[maybe_unused]] long sizing = allocationsIn([&] { solver.solve(first, result); });
#ifdef SCL_COUNTS_ALLOCATIONS
  CHECK(sizing > 0);  // the first solve sizes the workspace and the result
#endif
  REQUIRE(result.status == QpStatus::Optimal);
  REQUIRE(!result.activeSet.empty());
  long count = allocationsIn([&] {
    solver.solve(second, result);
    solver.solve(first, result);
  });
  CHECK(count == 0);
  CHECK(result.status == QpStatus::Optimal);
}

namespace {

// The standing zero pose with each foot touching along its sole: its caps' lowest points.
CharacterState standingOnFeet(const Character& character) {
  CharacterState state =
      forwardKinematics(character, Vec2(0.0, 1.8), 0.0, std::array<double, kMaxJoints>{});
  for (int foot : {kLeftFoot, kRightFoot}) {
    LinkState& link = state.links[foot];
    const LinkDef& def = character.links[foot];
    const Vec2 distal = link.origin + def.length * linkAxis(character, foot, link.angle);
    link.contact = true;
    link.contactPointCount = 2;
    link.contactPoints[0] = link.origin - 0.5 * def.proximalThickness * Vec2::UnitY();
    link.contactPoints[1] = distal - 0.5 * def.distalThickness * Vec2::UnitY();
    link.contactNormals[0] = link.contactNormals[1] = Vec2::UnitY();
    link.contactPoint = 0.5 * (link.contactPoints[0] + link.contactPoints[1]);
  }
  return state;
}

}  // namespace

TEST_CASE("A feature controller's step allocates nothing once its sizes have been seen",
          "[feature][allocation]") {
  const Character& character = *humanCharacter();
  // Every feature kind, in two levels; both feet touch along a line and a named hand does
  // not (its landing rows).
  ComPrimitive com;
  com.y = Number{0.9};
  com.duration = Number{0.5};
  AngularMomentumPrimitive angmom;
  TrackPrimitive wrist;
  wrist.target = TrackPrimitive::Target::JointPosition;
  wrist.index = kLeftWrist;
  wrist.x = Number{0.3};
  wrist.y = Number{1.2};
  wrist.task.priority = 2;
  TrackPrimitive trunk;
  trunk.target = TrackPrimitive::Target::LinkAngle;
  trunk.index = kTrunk;
  trunk.task.priority = 2;
  const std::vector<Primitive> phase = {com,
                                        angmom,
                                        wrist,
                                        trunk,
                                        PosturePrimitive{},
                                        SupportPrimitive{{kLeftFoot, kRightFoot, kLeftHand}, {}}};
  FeatureController controller(phase, character);
  REQUIRE(controller.levelCount() == 2);
  const CharacterState state = standingOnFeet(character);
  FeatureStepInput input;
  input.postureHeld.fill(true);
  controller.begin(state);
  controller.solve(state, 0.0, input);  // sizes the problems of this contact configuration
  long count = allocationsIn([&] {
    for (int step = 1; step <= 3; ++step) controller.solve(state, 0.1 * step, input);
  });
  CHECK(count == 0);
  const FeatureStepResult& result = controller.result();
  CHECK(result.status == FeatureStatus::Solved);
  CHECK(result.levels == 2);
  CHECK(result.contactForces.size() == 4);  // heel and toe of each foot
}
