// `[support]`: the links whose contacts the QP may use (contacts.h takes them), the
// targets' frame they give, and the rows of this kind: a named support link that does not
// touch is set down, its caps' lowest points descending (docs/features.md, Contacts).
#include <cmath>
#include <limits>

#include "feature/contacts.h"
#include "feature/feature_kind.h"
#include "feature/feature_math.h"

namespace scl {

SupportSet supportSetOf(std::span<const Primitive> phasePrimitives) {
  SupportSet support;
  forEachFeature<SupportPrimitive>(phasePrimitives, [&](const SupportPrimitive& named) {
    support.named = true;
    for (size_t i = 0; i < named.links.size(); ++i) {
      const int link = named.links[i];
      const SupportPrimitive::End end =
          i < named.ends.size() ? named.ends[i] : SupportPrimitive::End::Whole;
      support.links[link] = true;
      support.ends[link] |= end == SupportPrimitive::End::Heel  ? kHeelEnd
                            : end == SupportPrimitive::End::Toe ? kToeEnd
                                                                : kHeelEnd | kToeEnd;
    }
  });
  if (!support.named) {
    support.links.fill(true);
    support.ends.fill(kHeelEnd | kToeEnd);
  }
  support.pushLimit.fill(std::numeric_limits<double>::infinity());
  forEachFeature<ForcePrimitive>(phasePrimitives, [&](const ForcePrimitive& force) {
    const double limit =
        force.hasMax ? force.max.value : std::hypot(force.fx.value, force.fy.value);
    const auto link = static_cast<size_t>(force.link);
    support.pushing[link] = true;
    support.pushLimit[link] = std::min(support.pushLimit[link], limit);
  });
  return support;
}

namespace {

// The middle of the supporting feet's soles, given each foot's (`soleMiddle(foot)`).
template <typename SoleMiddle>
Vec2 supportFeetMiddle(const Character& character, const SupportSet& support,
                       const CharacterState& state, const SoleMiddle& soleMiddle) {
  const std::array<int, 2> feet = character.roles.feet();
  int candidates = 0, carrying = 0;
  Vec2 all = Vec2::Zero(), carried = Vec2::Zero(), both = Vec2::Zero();
  for (int foot : feet) {
    const Vec2 middle = soleMiddle(foot);
    both += middle;
    if (!support.links[foot]) continue;
    ++candidates;
    all += middle;
    // A foot `[support]` names carries the body whether it touches yet or not: one that
    // does not is set down where it is (its landing rows). A foot hovering a few
    // millimetres when the phase begins must not move the frame onto the other foot.
    if (support.named || state.links[foot].contact) {
      ++carrying;
      carried += middle;
    }
  }
  if (carrying > 0) return carried / carrying;
  if (candidates > 0) return all / candidates;
  return both / 2.0;
}

}  // namespace

Vec2 supportFeetMiddle(const Character& character, const PlanarDynamics& dynamics,
                       const SupportSet& support, const CharacterState& state) {
  return supportFeetMiddle(character, support, state, [&](int foot) {
    const LinkDef& link = character.links[foot];
    return dynamics.pointPosition(foot, Vec2(0.5 * link.axisSign * link.length, 0.0));
  });
}

Vec2 supportFeetMiddle(const Character& character, const SupportSet& support,
                       const CharacterState& state) {
  return supportFeetMiddle(character, support, state, [&](int foot) {
    const LinkState& link = state.links[foot];
    return Vec2(link.origin +
                0.5 * character.links[foot].length * linkAxis(character, foot, link.angle));
  });
}

Vec2 supportFeetVelocity(const Character& character, const SupportSet& support,
                         const CharacterState& state) {
  Vec2 sum = Vec2::Zero();
  int touching = 0;
  for (int foot : character.roles.feet()) {
    if (!support.links[foot] || !state.links[foot].contact) continue;
    sum += state.links[foot].supportVelocity;
    ++touching;
  }
  return touching > 0 ? Vec2(sum / touching) : Vec2::Zero();
}

void SupportFrame::begin(const Vec2& origin) {
  origin_ = origin;
  velocity_ = Vec2::Zero();
  phaseTime_ = 0.0;
}

void SupportFrame::carry(const Character& character, const SupportSet& support,
                         const CharacterState& state, double phaseTime) {
  origin_ += velocity_ * (phaseTime - phaseTime_);
  phaseTime_ = phaseTime;
  velocity_ = supportFeetVelocity(character, support, state);
}

namespace {

class SupportFeature final : public FeatureKind {
 public:
  explicit SupportFeature(const FeatureContext& context)
      : character_(context.character), settings_(context.settings), support_(context.support) {}

  // Landing rows belong to the contacts' level, whatever the priorities.
  void notePriorities(PriorityLevels& /*levels*/) const override {}
  void assignLevels(const PriorityLevels& /*levels*/) override {}
  void begin(const PlanarDynamics& /*dynamics*/, const Vec2& /*frameOrigin*/) override {}

  int rowCapacity() const override {
    if (!support_.named) return 0;
    int links = 0;
    for (bool named : support_.links) links += named ? 1 : 0;
    return 4 * links;  // two caps, two rows each
  }

  void addRows(const FeatureStep& step, ObjectiveRows& rows,
               FeatureStepResult& /*result*/) override {
    if (!support_.named) return;
    bool carried = false;  // a support link touches: the body stands on something
    for (int link = 0; link < character_.linkCount(); ++link)
      carried = carried || (support_.links[link] && step.state.links[link].contactPointCount > 0);
    // Airborne, nothing can brake the body's fall: a foot is set down from the centre of
    // mass, which falls freely (its velocity, gravity's acceleration), not from the world,
    // which only folding the legs could.
    Motion reference;
    if (!carried) reference = {step.dynamics.comVelocity(), step.dynamics.model().gravity};
    for (int link = 0; link < character_.linkCount(); ++link)
      if (support_.links[link] && step.state.links[link].contactPointCount == 0)
        addLandingRows(link, step.dynamics, reference, rows);
  }

 private:
  // What a foot is set down from: still ground, or the falling centre of mass (m/s, m/s²).
  struct Motion {
    Vec2 velocity = Vec2::Zero();
    Vec2 acceleration = Vec2::Zero();
  };

  // The link's caps' lowest points move down at the landing speed from `reference`,
  // weighted as contacts.
  void addLandingRows(int link, const PlanarDynamics& dynamics, const Motion& reference,
                      ObjectiveRows& rows) const {
    const double damping = settings_.contactDamping;
    const LinkDef& def = character_.links[link];
    const Vec2 down(0.0, -1.0);
    const double middleX =
        dynamics.pointPosition(link, Vec2(0.5 * def.axisSign * def.length, 0.0)).x();
    for (const Vec2& centre : {Vec2(Vec2::Zero()), Vec2(def.axisSign * def.length, 0.0)}) {
      if (!endMayCarry(support_, link, dynamics.pointPosition(link, centre).x(), middleX))
        continue;  // the end the support leaves out is not set down
      const double radius =
          centre.isZero() ? 0.5 * def.proximalThickness : 0.5 * def.distalThickness;
      const BodyMotion& body = dynamics.bodies()[link];
      const Vec2 local = centre + toBodyFrame(body, radius * down);
      const Vec2 v = dynamics.pointVelocity(link, local);
      rows.addPoint(link, local,
                    reference.acceleration +
                        damping * (reference.velocity + settings_.landingSpeed * down - v),
                    contactRowLevel(settings_), settings_.contactWeight);
    }
  }

  const Character& character_;
  const FeatureSettings& settings_;
  const SupportSet& support_;
};

}  // namespace

std::unique_ptr<FeatureKind> makeSupportFeature(std::span<const Primitive> /*phase*/,
                                                const FeatureContext& context) {
  return std::make_unique<SupportFeature>(context);
}

}  // namespace scl
