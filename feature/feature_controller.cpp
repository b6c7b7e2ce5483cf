#include "feature/feature_controller.h"

#include <cmath>

#include "dynamics/character_coordinates.h"
#include "feature/contacts.h"
#include "feature/feature_kind.h"
#include "feature/feature_math.h"
#include "feature/level_cascade.h"
#include "feature/objective_rows.h"
#include "feature/priority_levels.h"
#include "feature/reduced_problem.h"
#include "feature/support.h"

namespace scl {

namespace {

// The phase's levels, numbered from every kind's priorities, each kind's levels set.
PriorityLevels numberLevels(std::span<const std::unique_ptr<FeatureKind>> kinds) {
  PriorityLevels levels;
  for (const auto& kind : kinds) kind->notePriorities(levels);
  levels.number();
  for (const auto& kind : kinds) kind->assignLevels(levels);
  return levels;
}

}  // namespace

// One step: the state into the dynamics, the contacts, every row (the contacts', then each
// kind's), the equations of motion without the root, then the levels' QPs in turn.
struct FeatureController::Impl {
  const Character& character;
  FeatureSettings settings;
  PlanarDynamics dynamics;
  SupportSet support;
  std::vector<std::unique_ptr<FeatureKind>> kinds;
  PriorityLevels levels;
  ContactSet contacts;
  ObjectiveRows objective;
  ReducedProblem reduced;
  LevelCascade cascade;
  SupportFrame frame;
  Eigen::VectorXd q, qd;
  std::vector<PlannedContactForce> planned;
  // Each body as the character has it, and whether it now carries a held object.
  std::vector<PlanarBody> ownBodies;
  std::vector<bool> carrying;

  Impl(std::span<const Primitive> primitives, const Character& character,
       const FeatureSettings& settings)
      : character(character),
        settings(settings),
        dynamics(planarModelFromCharacter(character)),
        support(supportSetOf(primitives)),
        kinds(makeFeatureKinds(primitives, {character, dynamics, this->settings, support})),
        levels(numberLevels(kinds)),
        contacts(character, dynamics, support, this->settings),
        objective(dynamics),
        reduced(dynamics),
        cascade(levels.count(), character, this->settings),
        q(dynamics.dofCount()),
        qd(dynamics.dofCount()) {
    planned.reserve(2 * static_cast<size_t>(character.linkCount()));
    ownBodies = dynamics.model().bodies;
    carrying.assign(ownBodies.size(), false);
  }

  void setState(const CharacterState& state) {
    coordinatesFromState(dynamics.model(), state, q, qd);
    dynamics.setState(q, qd);
    // The bodies' frames are known now; a change of what they carry needs a second pass.
    if (carryHeldObjects(state)) dynamics.setState(q, qd);
  }

  // A link holding objects (a grasp, docs/manipulation.md) is planned as one body with
  // them: masses add, the centre of mass moves, the inertias move to it (parallel axes).
  // `dynamics` is at the state's pose. Returns whether any body's mass changed.
  bool carryHeldObjects(const CharacterState& state) {
    bool changed = false;
    for (int link = 0; link < character.linkCount(); ++link) {
      const auto index = static_cast<size_t>(link);
      const LinkState& held = state.links[index];
      const PlanarBody& own = ownBodies[index];
      if (held.heldMass <= 0.0) {
        if (carrying[index]) {
          dynamics.setBodyMass(link, own.mass, own.inertia, own.comOffset);
          carrying[index] = false;
          changed = true;
        }
        continue;
      }
      const BodyMotion& frame = dynamics.bodies()[index];
      const Vec2 ownCom = frame.origin + toWorldFrame(frame, own.comOffset);
      const double mass = own.mass + held.heldMass;
      const Vec2 centre = (own.mass * ownCom + held.heldMass * held.heldCom) / mass;
      const double inertia = own.inertia + own.mass * (ownCom - centre).squaredNorm() +
                             held.heldInertia +
                             held.heldMass * (held.heldCom - centre).squaredNorm();
      dynamics.setBodyMass(link, mass, inertia, toBodyFrame(frame, centre - frame.origin));
      carrying[index] = true;
      changed = true;
    }
    return changed;
  }

  // The frame of the targets is placed when the phase begins (docs/features.md, The
  // frame), then carried by what the supporting feet stand on.
  void begin(const CharacterState& state) {
    setState(state);
    frame.begin(supportFeetMiddle(character, dynamics, support, state));
    for (const auto& kind : kinds) kind->begin(dynamics, frame.origin());
  }

  int rowCapacity() const {
    int capacity = ContactSet::rowCapacity();
    for (const auto& kind : kinds) capacity += kind->rowCapacity();
    return capacity;
  }

  void buildRows(const FeatureStep& step, FeatureStepResult& result) {
    objective.clear(rowCapacity(), dynamics.dofCount() + contacts.forceCount());
    contacts.addRows(objective);
    for (const auto& kind : kinds) kind->addRows(step, objective, result);
  }

  void solve(const CharacterState& state, double phaseTime, const FeatureStepInput& input,
             FeatureStepResult& result) {
    result.status = FeatureStatus::Failed;
    result.qpStatus = QpStatus::Optimal;
    result.failedLevel = 0;
    result.hasComTarget = false;
    result.iterations = 0;
    result.levels = 0;
    frame.carry(character, support, state, phaseTime);
    result.frameOrigin = frame.origin();
    planned.clear();
    setState(state);
    contacts.gather(state);
    buildRows(
        {dynamics, state, q, qd, frame.origin(), frame.velocity(), phaseTime, input, &contacts},
        result);
    reduced.build(dynamics, contacts.jacobian(), objective);
    const int solved = cascade.solve(objective, reduced, contacts, input, result);
    if (solved < 0) return;
    const Eigen::VectorXd& y = cascade.solution(solved);
    Eigen::Map<Eigen::VectorXd> torques(result.torques.data(), character.jointCount());
    torques = reduced.torqueOffset();
    torques.noalias() += reduced.torqueRows() * y;
    bool finite = true;
    for (int j = 0; j < character.jointCount(); ++j)
      finite = finite && std::isfinite(result.torques[j]);
    if (!finite) {
      result.qpStatus = QpStatus::InvalidInput;
      result.failedLevel = solved + 1;
      return;
    }
    contacts.plan(y, reduced.forceStart(), planned);
    result.contactForces = planned;
    result.status =
        solved == levels.count() - 1 ? FeatureStatus::Solved : FeatureStatus::LowerLevelFailed;
  }
};

FeatureController::FeatureController(std::span<const Primitive> phasePrimitives,
                                     const Character& character, const FeatureSettings& settings)
    : impl_(std::make_unique<Impl>(phasePrimitives, character, settings)) {}

FeatureController::~FeatureController() = default;

void FeatureController::begin(const CharacterState& state) { impl_->begin(state); }

const FeatureStepResult& FeatureController::solve(const CharacterState& state, double phaseTime,
                                                  const FeatureStepInput& input) {
  impl_->solve(state, phaseTime, input, result_);
  return result_;
}

int FeatureController::levelCount() const { return impl_->levels.count(); }

const SupportFrame& FeatureController::frame() const { return impl_->frame; }

}  // namespace scl
