// The interface every control primitive implements, and the factory that makes one from
// a bound scl::Primitive (scl/program.h).
//
// A controller builds one instance per primitive of a phase once, calls begin() when the
// phase starts and apply() every step, in script order, on one shared ControlFrame.
// apply() must not allocate: everything a primitive needs is prepared when it is made.
#pragma once

#include <memory>

#include "kinematics/character_state.h"
#include "primitives/control_frame.h"
#include "scl/program.h"

namespace scl {

class PrimitiveInstance {
 public:
  virtual ~PrimitiveInstance() = default;
  /// The phase starts in `atPhaseStart` (records start angles, reference points, ...).
  virtual void begin(const CharacterState& atPhaseStart) = 0;
  /// Writes this step's drives or added torques. `phaseTime` is the time since the phase
  /// began, seconds.
  virtual void apply(const CharacterState& state, double phaseTime, ControlFrame& out) = 0;
};

/// Makes the instance for a bound primitive; nullptr for a feature (isFeature(): the
/// whole-body QP's tasks, which the controller solves together). Throws std::invalid_argument when
/// the primitive names something it cannot drive (e.g. an IK effector that is no wrist or ankle);
/// the binder rejects those before, so this guards hand-built programs. `character` (the program's)
/// must outlive the instance.
std::unique_ptr<PrimitiveInstance> makePrimitive(const Primitive& primitive,
                                                 const Character& character);

}  // namespace scl
