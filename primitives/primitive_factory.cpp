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
};
}  // namespace

std::unique_ptr<PrimitiveInstance> makePrimitive(const Primitive& primitive,
                                                 const Character& character) {
  return std::visit(Factory{character}, primitive);
}

}  // namespace scl
