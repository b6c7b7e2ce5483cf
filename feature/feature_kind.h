// The interface of a feature kind (docs/features.md): the rows one kind of the bound
// program's features (scl/program.h: com, angmom, track, posture, support) adds to its
// levels' least-squares objectives each step. One kind per file (`<kind>_feature.cpp`),
// each registered in feature_kinds.cpp, whose table also fixes the order of the rows.
//
// A FeatureController makes one instance of every kind per phase, from all the phase's
// primitives; the instance keeps its own features (in script order) and prepares what it
// needs: addRows() must not allocate.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <span>
#include <vector>

#include "dynamics/planar_dynamics.h"
#include "feature/contacts.h"
#include "feature/feature_controller.h"
#include "feature/objective_rows.h"
#include "feature/priority_levels.h"
#include "feature/support.h"
#include "kinematics/character_state.h"
#include "scl/program.h"

namespace scl {

/// What a kind is made with, for one phase. Everything outlives the instance.
struct FeatureContext {
  /// The program's character (links, joints, limits).
  const Character& character;
  /// The character's dynamics (its model: bodies, coordinates).
  const PlanarDynamics& dynamics;
  /// The controller's constants.
  const FeatureSettings& settings;
  /// The phase's support links.
  const SupportSet& support;
};

/// One control step, as the kinds see it.
struct FeatureStep {
  /// The dynamics at this step's state.
  const PlanarDynamics& dynamics;
  /// This step's state (contacts, as the physics reports them).
  const CharacterState& state;
  /// The state's generalized coordinates q (metres, radians) and velocities q̇.
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& qd;
  /// The origin of the targets' frame, world metres.
  Vec2 frameOrigin = Vec2::Zero();
  /// The frame's velocity, m/s: that of what the supporting feet stand on (zero on still
  /// terrain). A target's desired velocity is its rate in the frame plus this.
  Vec2 frameVelocity = Vec2::Zero();
  /// Time since the phase began, seconds.
  double phaseTime = 0.0;
  /// What the phase's other primitives decided this step.
  const FeatureStepInput& input;
  /// This step's contacts (their force unknowns: the columns after the accelerations).
  const ContactSet* contacts = nullptr;
};

class FeatureKind {
 public:
  virtual ~FeatureKind() = default;
  /// Notes its features' priorities, so that the phase's levels can be numbered.
  virtual void notePriorities(PriorityLevels& levels) const = 0;
  /// Takes its features' levels from the numbered levels.
  virtual void assignLevels(const PriorityLevels& levels) = 0;
  /// The phase starts (`dynamics` at its state): records where interpolated targets start.
  virtual void begin(const PlanarDynamics& dynamics, const Vec2& frameOrigin) = 0;
  /// Most rows addRows() appends in a step.
  virtual int rowCapacity() const = 0;
  /// Appends this step's rows; reports in `result` what is drawn (a target, say).
  virtual void addRows(const FeatureStep& step, ObjectiveRows& rows, FeatureStepResult& result) = 0;
};

/// Every registered kind, made for a phase, in the order their rows are stacked.
std::vector<std::unique_ptr<FeatureKind>> makeFeatureKinds(std::span<const Primitive> phase,
                                                           const FeatureContext& context);

/// Calls `visit` with each of the phase's features of type `Definition`, in script order.
template <typename Definition, typename Visit>
void forEachFeature(std::span<const Primitive> phase, Visit&& visit) {
  for (const Primitive& primitive : phase)
    if (const auto* feature = std::get_if<Definition>(&primitive)) visit(*feature);
}

/// A kind whose features are tasks, each at its own priority (`Task::priority`, setting
/// `Task::level`): the levels' bookkeeping, and no phase-start record unless overridden.
template <typename Task>
class TaskFeatureKind : public FeatureKind {
 public:
  void notePriorities(PriorityLevels& levels) const override {
    for (const Task& task : tasks_) levels.note(task.priority);
  }
  void assignLevels(const PriorityLevels& levels) override {
    for (Task& task : tasks_) task.level = levels.levelOf(task.priority);
  }
  void begin(const PlanarDynamics& /*dynamics*/, const Vec2& /*frameOrigin*/) override {}

 protected:
  std::vector<Task> tasks_;
};

}  // namespace scl
