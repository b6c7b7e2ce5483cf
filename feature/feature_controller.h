// The whole-body feature controller (docs/features.md): one quadratic program per control
// step over the joint-space accelerations q̈ (the floating root's three included) and the
// contact forces f, subject to the equations of motion
//
//   M q̈ + h = Sᵀτ + Σ J_cᵀ f,
//
// unilateral contact with a friction cone and the joints' torque limits, minimizing the
// weighted squared errors of a phase's features: the centre of mass, the centroidal
// angular momentum, tracked points and link angles, and the posture (the phase's PD
// targets), plus a torque regularization. The torques τ follow from the actuated rows of
// the equations of motion. Features of different `priority` are solved in strict levels,
// each level's optimum held (within a tolerance) by the levels after it (de Lasa et al.
// 2010); features of one level are a weighted sum (Abe et al. 2007).
//
// scl_feature knows the bound program's feature primitives (scl/program.h) and the
// dynamics (scl_dynamics); no Box2D, no strings. A FeatureController is made once per
// phase; solve() allocates nothing once its problem sizes have been seen (the sizes change
// only with the number of contact points).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "dynamics/planar_dynamics.h"
#include "dynamics/qp_solver.h"
#include "feature/support.h"
#include "kinematics/character_state.h"
#include "scl/program.h"

namespace scl {

/// Constants of the controller that scripts do not set (docs/features.md, Constants).
struct FeatureSettings {
  /// Friction coefficient μ of every contact (the simulation's).
  double friction = 0.9;
  /// μ of the contacts with each scene body, by its index (bit i of LinkState::touching):
  /// the smaller of the body's and the character's, as the simulation mixes them (the
  /// runner sets it). A link touching several bodies uses the least; a body past the end
  /// (or none given): `friction`.
  std::vector<double> bodyFriction;
  /// The scene's bodies (the runner sets them): a `[swing]` lands on the terrain's top
  /// under its landing point and clears the terrain on the way (scl/scene_body.h,
  /// terrainHeight). Empty: the flat ground.
  std::vector<SceneBodyDef> sceneBodies;
  /// The plan uses this fraction of μ, so that the forces it plans stay clear of slipping.
  double frictionMargin = 0.6;
  /// Each touching link of the support carries at least this fraction of the body's
  /// weight, so that a foot meant to stand is not unloaded (and then lifted) by the plan.
  double minimumLoad = 0.05;
  /// Weight of the tangential contact forces' squared size, N⁻²: of the forces that do
  /// the same work, the plan prefers those that do not push the feet apart.
  double tangentialWeight = 1e-4;
  /// Contacts as equalities (a contact point does not accelerate) rather than rows of the
  /// first level's objective with `contactWeight`.
  bool hardContacts = false;
  /// Weight of a contact point's acceleration error, (m/s²)⁻²: contacts are kept far above
  /// every feature of their level.
  double contactWeight = 1e4;
  /// Desired contact-point acceleration −k·v, 1/s: a sliding or lifting point is braked.
  double contactDamping = 20.0;
  /// Weight of the torque regularization, (N·m)⁻² (present in every level).
  double torqueWeight = 1e-5;
  /// Weight of the joints' accelerations' and the forces' own regularization, which keeps
  /// the QP strictly convex (the root's accelerations follow from them).
  double accelerationRegularization = 1e-6;
  double forceRegularization = 1e-8;
  /// Strict levels: each row of an earlier level's features stays within this of the
  /// value that level's optimum gave it (its units: m/s², rad/s², kg·m²/s²).
  double levelTolerance = 0.01;
  /// Of a link touching along a line (two points), each end carries at least this
  /// fraction of the link's normal force: the centre of pressure stays off the ends, so
  /// that a foot is not planned onto its toe or heel edge, where it would roll.
  double pressureMargin = 0.1;
  /// A touching link's cap whose lowest point (along the contact normal) lies within this
  /// of the contact surface counts as touching, metres: a flat foot whose heel has lifted
  /// a few millimetres keeps heel and toe in the plan, and its torques flatten it again.
  double capTolerance = 0.02;
  /// A link `[support]` names that does not touch is brought down: its caps' lowest
  /// points move toward the ground at this speed, m/s (weighted as contacts), so that a
  /// foot meant to stand is set down rather than swung to move the body.
  double landingSpeed = 0.1;
  /// A `[swing]` foot reaches its landing point descending at this speed, m/s, and goes on
  /// down at it until it lands: ground a few centimetres lower than the landing point (a
  /// stance foot tilted when the phase began lifts the frame origin) is met in a tenth
  /// of a second, not in a third while the body falls on past the step (the feature
  /// walk: 19 of 20 perturbed starts at 0.1 m/s, 20 of 20 at 0.3).
  double swingLandingSpeed = 0.3;
  /// Two contact points of one link closer than this are one point, metres.
  double mergeDistance = 0.01;
};

/// What the phase's other primitives decided this step, for the QP.
struct FeatureStepInput {
  /// Posture targets: the local PD target of each joint, radians.
  std::array<double, kMaxJoints> postureTargets{};
  /// Whether the posture task holds each joint (false for a relaxed joint).
  std::array<bool, kMaxJoints> postureHeld{};
  /// The torques virtual forces, stance balance and gravity compensation add, N·m: part
  /// of Sᵀτ, and where the torque regularization pulls the torques.
  std::array<double, kMaxJoints> addedTorques{};
  /// The scene's movable objects this step, by scene index (object targets; empty when
  /// the caller has no world).
  std::span<const SceneObjectState> objects;
};

/// How a solve ended.
enum class FeatureStatus : std::uint8_t {
  /// Every level solved.
  Solved,
  /// A level after the first failed: the torques are the last solved level's.
  LowerLevelFailed,
  /// The first level failed (or produced a non-finite torque): no torques; the caller
  /// falls back to the phase's PD torques.
  Failed,
};

/// A contact force the QP planned, for drawing.
struct PlannedContactForce {
  int link = 0;
  /// World point, metres, and force on the link, newtons.
  Vec2 point = Vec2::Zero();
  Vec2 force = Vec2::Zero();
};

struct FeatureStepResult {
  FeatureStatus status = FeatureStatus::Failed;
  /// The failed level's solver status (Optimal when none failed), and the level (1-based;
  /// 0 when none failed).
  QpStatus qpStatus = QpStatus::Optimal;
  int failedLevel = 0;
  /// Net joint torques, N·m: the added torques included (unclamped).
  std::array<double, kMaxJoints> torques{};
  /// The origin of the targets' frame, world metres: the middle of the supporting feet's
  /// soles when the phase began (docs/features.md, The frame).
  Vec2 frameOrigin = Vec2::Zero();
  /// The centre-of-mass target this step, world metres (when the phase has `[com]`).
  bool hasComTarget = false;
  Vec2 comTarget = Vec2::Zero();
  /// The planned contact forces (valid until the next solve).
  std::span<const PlannedContactForce> contactForces;
  /// Solver iterations summed over the levels.
  int iterations = 0;
  /// Levels solved.
  int levels = 0;
};

class FeatureController {
 public:
  /// For one phase: its primitives (the features among them are used), the program's
  /// character (which must outlive the controller) and the settings.
  FeatureController(std::span<const Primitive> phasePrimitives, const Character& character,
                    const FeatureSettings& settings = {});
  ~FeatureController();
  FeatureController(const FeatureController&) = delete;
  FeatureController& operator=(const FeatureController&) = delete;

  /// The phase starts in `state` (records where interpolated targets start).
  void begin(const CharacterState& state);
  /// Solves one control step. `phaseTime`: seconds since the phase began.
  const FeatureStepResult& solve(const CharacterState& state, double phaseTime,
                                 const FeatureStepInput& input);
  const FeatureStepResult& result() const { return result_; }
  /// Number of strict priority levels of the phase.
  int levelCount() const;
  /// The targets' frame (docs/features.md, The frame), as the last solve (or begin()) left it.
  const SupportFrame& frame() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  FeatureStepResult result_;
};

}  // namespace scl
