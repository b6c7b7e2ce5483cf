#include "primitives/gravity_compensation_primitive.h"
#include "primitives/ik_primitive.h"
#include "primitives/pd_primitive.h"
#include "primitives/primitive.h"
#include "primitives/relax_primitive.h"
#include "primitives/stance_balance_primitive.h"
#include "primitives/virtual_force_primitive.h"

namespace scl {

namespace {
struct Factory {
  const Character& character;
  std::unique_ptr<PrimitiveInstance> operator()(const PdPrimitive& pd) const {
    return std::make_unique<PdInstance>(pd, character);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const VirtualForcePrimitive& vf) const {
    if (vf.stanceBalance) return std::make_unique<StanceBalanceInstance>(vf, character);
    return std::make_unique<VirtualForceInstance>(vf, character);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const GravityCompPrimitive& gc) const {
    return std::make_unique<GravityCompensationInstance>(gc, character);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const IkPrimitive& ik) const {
    return std::make_unique<IkInstance>(ik, character);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const RelaxPrimitive& relax) const {
    return std::make_unique<RelaxInstance>(relax, character);
  }
  // Features are the whole-body QP's tasks: the controller solves them together
  // (feature/feature_controller.h), not one instance each.
  std::unique_ptr<PrimitiveInstance> operator()(const ComPrimitive&) const { return nullptr; }
  std::unique_ptr<PrimitiveInstance> operator()(const AngularMomentumPrimitive&) const {
    return nullptr;
  }
  std::unique_ptr<PrimitiveInstance> operator()(const TrackPrimitive&) const { return nullptr; }
  std::unique_ptr<PrimitiveInstance> operator()(const PosturePrimitive&) const { return nullptr; }
  std::unique_ptr<PrimitiveInstance> operator()(const SupportPrimitive&) const { return nullptr; }
  std::unique_ptr<PrimitiveInstance> operator()(const GraspPrimitive&) const { return nullptr; }
  std::unique_ptr<PrimitiveInstance> operator()(const ForcePrimitive&) const { return nullptr; }
  std::unique_ptr<PrimitiveInstance> operator()(const SwingPrimitive&) const { return nullptr; }
};
}  // namespace

std::unique_ptr<PrimitiveInstance> makePrimitive(const Primitive& primitive,
                                                 const Character& character) {
  return std::visit(Factory{character}, primitive);
}

}  // namespace scl
