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
  std::unique_ptr<PrimitiveInstance> operator()(const PdPrimitive& pd) const {
    return std::make_unique<PdInstance>(pd);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const VirtualForcePrimitive& vf) const {
    if (vf.stanceBalance) return std::make_unique<StanceBalanceInstance>(vf);
    return std::make_unique<VirtualForceInstance>(vf);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const GravityCompPrimitive& gc) const {
    return std::make_unique<GravityCompensationInstance>(gc);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const IkPrimitive& ik) const {
    return std::make_unique<IkInstance>(ik);
  }
  std::unique_ptr<PrimitiveInstance> operator()(const RelaxPrimitive& relax) const {
    return std::make_unique<RelaxInstance>(relax);
  }
};
}  // namespace

std::unique_ptr<PrimitiveInstance> makePrimitive(const Primitive& primitive) {
  return std::visit(Factory{}, primitive);
}

}  // namespace scl
