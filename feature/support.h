// `[support]` (docs/features.md, Contacts): which links' contacts the feature QP may push
// on, and the frame of the targets it gives. Its landing rows (a named link that does not
// touch is set down) are a feature kind (support_feature.cpp).
#pragma once

#include <array>
#include <span>

#include "dynamics/planar_dynamics.h"
#include "kinematics/character_state.h"
#include "scl/program.h"

namespace scl {

/// The support links of a phase.
struct SupportSet {
  /// Whether each link's contacts may carry the body: the links `[support]` names (all of
  /// its lines together), or every link when the phase has none.
  std::array<bool, kMaxLinks> links{};
  /// `[support]` was written: its links that do not touch are set down.
  bool named = false;
  /// The links of the phase's force tasks (`[force]`): their contacts are the QP's too,
  /// whether they carry the body or not, and never press harder than `pushLimit`, newtons
  /// (their normal forces summed; infinity: no limit).
  std::array<bool, kMaxLinks> pushing{};
  std::array<double, kMaxLinks> pushLimit{};
};

/// The support links of a phase's primitives.
SupportSet supportSetOf(std::span<const Primitive> phasePrimitives);

/// The origin of the targets' frame, world metres: the middle of the soles (each halfway
/// between its foot's cap centres) of the supporting feet: the feet `[support]` names,
/// touching or not (those that do not touch are set down); without `[support]`, the feet
/// that touch, or both if none does; if the support has no foot, both feet.
/// `dynamics` is at `state`.
Vec2 supportFeetMiddle(const Character& character, const PlanarDynamics& dynamics,
                       const SupportSet& support, const CharacterState& state);

/// The velocity of what the supporting feet stand on, m/s: the mean of
/// LinkState::supportVelocity over the feet `[support]` allows that touch (zero when none
/// does, and on still terrain). The targets' frame moves with it.
Vec2 supportFeetVelocity(const Character& character, const SupportSet& support,
                         const CharacterState& state);

}  // namespace scl
