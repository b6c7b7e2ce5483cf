// `[support]` (docs/features.md, Contacts): which links' contacts the feature QP may push
// on, and the frame of the targets it gives. Its landing rows (a named link that does not
// touch is set down) are a feature kind (support_feature.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "dynamics/planar_dynamics.h"
#include "kinematics/character_state.h"
#include "scl/program.h"

namespace scl {

/// SupportSet::ends' bits.
inline constexpr std::uint8_t kHeelEnd = 1, kToeEnd = 2;

/// The support links of a phase.
struct SupportSet {
  /// Whether each link's contacts may carry the body: the links `[support]` names (all of
  /// its lines together), or every link when the phase has none.
  std::array<bool, kMaxLinks> links{};
  /// Which ends of each support link may carry: bit 1 its rear end (`heel`), bit 2 its
  /// front end (`toe`); both for a whole link (a link named whole and by an end is whole).
  std::array<std::uint8_t, kMaxLinks> ends{};
  /// `[support]` was written: its links that do not touch are set down.
  bool named = false;
  /// The links of the phase's force tasks (`[force]`): their contacts are the QP's too,
  /// whether they carry the body or not, and never press harder than `pushLimit`, newtons
  /// (their normal forces summed; infinity: no limit).
  std::array<bool, kMaxLinks> pushing{};
  std::array<double, kMaxLinks> pushLimit{};
};

/// Whether a point of `link` at world x `pointX` may carry: a link's rear end (`heel`) is
/// the half behind its middle (`middleX`, the middle of its cap centres), its front end
/// (`toe`) the half ahead; a link not named by an end (or not named at all: a force
/// task's) is whole.
inline bool endMayCarry(const SupportSet& support, int link, double pointX, double middleX) {
  const std::uint8_t ends = support.ends[static_cast<size_t>(link)];
  return ends == 0 || (ends & (pointX < middleX ? kHeelEnd : kToeEnd)) != 0;
}

/// The support links of a phase's primitives.
SupportSet supportSetOf(std::span<const Primitive> phasePrimitives);

/// The origin of the targets' frame, world metres: the middle of the soles (each halfway
/// between its foot's cap centres) of the supporting feet: the feet `[support]` names,
/// touching or not (those that do not touch are set down); without `[support]`, the feet
/// that touch, or both if none does; if the support has no foot, both feet.
/// `dynamics` is at `state`.
Vec2 supportFeetMiddle(const Character& character, const PlanarDynamics& dynamics,
                       const SupportSet& support, const CharacterState& state);
/// The same with the soles where `state` has the feet (for a phase without the dynamics:
/// `when com`, docs/language.md, Transitions).
Vec2 supportFeetMiddle(const Character& character, const SupportSet& support,
                       const CharacterState& state);

/// The velocity of what the supporting feet stand on, m/s: the mean of
/// LinkState::supportVelocity over the feet `[support]` allows that touch (zero when none
/// does, and on still terrain). The targets' frame moves with it.
Vec2 supportFeetVelocity(const Character& character, const SupportSet& support,
                         const CharacterState& state);

/// The targets' frame while a phase lasts (docs/features.md, The frame): its origin,
/// placed when the phase begins, moves on at the velocity of what the supporting feet
/// stand on.
class SupportFrame {
 public:
  /// The phase begins with the origin at `origin`, at rest.
  void begin(const Vec2& origin);
  /// Moves the origin on to `phaseTime` (seconds into the phase) at the velocity it had
  /// since the last call, then takes the velocity of what the supporting feet stand on in
  /// `state`. On still terrain both are zero and the origin never changes.
  void carry(const Character& character, const SupportSet& support, const CharacterState& state,
             double phaseTime);
  /// World metres, and m/s.
  const Vec2& origin() const { return origin_; }
  const Vec2& velocity() const { return velocity_; }

 private:
  Vec2 origin_ = Vec2::Zero();
  Vec2 velocity_ = Vec2::Zero();
  double phaseTime_ = 0.0;  // when the origin was last carried, seconds into the phase
};

}  // namespace scl
