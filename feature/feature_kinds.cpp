// The registration of the feature kinds: each kind's maker (defined in its own file,
// `<kind>_feature.cpp`) and the table of them. A new kind is its file, its maker's
// declaration and its line in the table (and its source in CMakeLists.txt).
#include <array>

#include "feature/feature_kind.h"

namespace scl {

std::unique_ptr<FeatureKind> makeSupportFeature(std::span<const Primitive> phase,
                                                const FeatureContext& context);
std::unique_ptr<FeatureKind> makeComFeature(std::span<const Primitive> phase,
                                            const FeatureContext& context);
std::unique_ptr<FeatureKind> makeAngularMomentumFeature(std::span<const Primitive> phase,
                                                        const FeatureContext& context);
std::unique_ptr<FeatureKind> makeTrackFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context);
std::unique_ptr<FeatureKind> makeSwingFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context);
std::unique_ptr<FeatureKind> makeForceFeature(std::span<const Primitive> phase,
                                              const FeatureContext& context);
std::unique_ptr<FeatureKind> makePostureFeature(std::span<const Primitive> phase,
                                                const FeatureContext& context);

namespace {

using FeatureKindMaker = std::unique_ptr<FeatureKind> (*)(std::span<const Primitive>,
                                                          const FeatureContext&);

// In the order the kinds' rows are stacked after the contacts' (which fixes every
// solution's floating-point operations). The posture's unit rows must come last: they
// have no root part (reduced_problem.cpp).
constexpr auto kFeatureKinds = std::to_array<FeatureKindMaker>({
    makeSupportFeature,  // landing rows, at the contacts' level
    makeComFeature,
    makeAngularMomentumFeature,
    makeTrackFeature,
    makeSwingFeature,
    makeForceFeature,
    makePostureFeature,
});

}  // namespace

std::vector<std::unique_ptr<FeatureKind>> makeFeatureKinds(std::span<const Primitive> phase,
                                                           const FeatureContext& context) {
  std::vector<std::unique_ptr<FeatureKind>> kinds;
  kinds.reserve(kFeatureKinds.size());
  for (FeatureKindMaker make : kFeatureKinds) kinds.push_back(make(phase, context));
  return kinds;
}

}  // namespace scl
