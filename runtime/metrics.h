// Measured quantities of a motion (docs/marks.md): standing, fallen, rise time, airborne
// time, max pelvis height in the air, energy, distance. Fed one step at a time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "kinematics/character_state.h"
#include "runtime/world_metrics.h"
#include "scl/program.h"

namespace scl {

/// Thresholds of docs/marks.md, with the points they measure.
struct MetricsDef {
  /// "Head height" is the height of the neckTop joint (the head link's origin), metres.
  /// Standing: head height at least this.
  double standingHeadHeight = 1.6;
  /// Standing: the trunk's world angle within uprightTrunkAngle ± this, radians.
  double standingTrunkTolerance = degToRad(20.0);
  /// The trunk's world angle when the body stands: its standing pose's, rounded to a
  /// quarter turn (uprightTrunkAngle()): 90° for an upright body (the human), 0° for a
  /// level one (a dinosaur, a bird), radians.
  double uprightTrunkAngle = kPi / 2.0;
  /// Standing: no link but the feet touched the environment for this long, seconds.
  double standingWindow = 1.0;
  /// Standing: every foot that touches lies roughly flat: its sole (heel to toe,
  /// footPoints()) within this of horizontal, radians. A foot on its heel with the toes up
  /// (an ankle at its limit) or on tiptoe is not stood on.
  double standingFootTolerance = degToRad(25.0);
  /// The shapes of the left and the right foot for that test (metricsFor() copies them
  /// from the character); empty: feet are not checked (states made up by tests).
  std::vector<LinkDef> feet;
  /// The character's roles and head joint (metricsFor() copies them): the thesis biped's
  /// unless set.
  CharacterRoles roles = bipedRoles();
  int headJoint = kNeckTop;
  int linkCount = kBipedLinkCount;
  /// The chair's seat height when the scene has one, metres: the pelvis or a thigh resting
  /// on the seat (every contact point within kSeatContactTolerance of it) is sitting, not a
  /// fall — a scene with a chair allows sitting on it, before or after standing.
  std::optional<double> seatHeight;
  /// Rise time: the first time head height reaches this, metres. The thesis's 1.8 m is
  /// its standing head height; here a straight standing pose puts neckTop at 1.79 m, so
  /// the rise threshold is 1.75 m (98 % of it).
  double riseHeadHeight = 1.75;
  /// The motion is meant to be upright from t = 0 (a walk); otherwise from the first
  /// time the character is standing (a rise).
  bool uprightFromStart = false;
};

/// Reference heights of a character standing straight: every link upright (world angle
/// 90°), the feet flat, the lowest point on the ground (docs/marks.md, Reference heights).
struct ReferenceHeights {
  /// The head joint (Character::headJoint(), the human's neckTop): the character's head height (the
  /// human's 1.79 m), metres.
  double head = 0.0;
  /// The hip joints: its leg length, metres.
  double hip = 0.0;
  /// The top of the head (the outer edge of the head's distal cap), metres.
  double top = 0.0;
};
ReferenceHeights referenceHeights(const Character& character);

/// The trunk's world angle in the character's standing pose, rounded to the nearest
/// quarter turn, radians: what "upright" means for its trunk (MetricsDef).
double uprightTrunkAngle(const Character& character);

/// The thresholds of docs/marks.md for `character`: the human's (MetricsDef{}), with the
/// head heights scaled by the ratio of its reference head height to the human's, so that
/// "standing" means the same posture on a smaller or larger body (the human gets exactly
/// MetricsDef{}'s thresholds), and the character's feet for the flat-foot test.
MetricsDef metricsFor(const Character& character);
/// metricsFor(character) for a run of `scene`: meant upright from t = 0 when the scene
/// starts standing (docs/marks.md, Standing and fallen), else from the first standing;
/// sitting on the scene's chair, if it has one, is no fall.
MetricsDef metricsFor(const Character& character, const Scene& scene);

/// How far a contact point may lie from the seat's top and still be on it, metres.
inline constexpr double kSeatContactTolerance = 0.03;

/// Summary figures of a run so far.
struct MotionSummary {
  /// Simulated time observed, seconds.
  double duration = 0.0;
  /// Whether the character is standing now (docs/marks.md, Standing and fallen).
  bool standing = false;
  /// First time the character was standing, seconds.
  std::optional<double> firstStanding;
  /// While standing: when the current standing interval began, seconds (it may have
  /// stood, squatted and stood again since firstStanding); nullopt when not standing.
  std::optional<double> standingSince;
  /// First time it fell (a link other than the feet and hands touched while it was meant
  /// to be upright, sitting on a scene's chair excepted), seconds.
  std::optional<double> fell;
  /// First time head height reached MetricsDef::riseHeadHeight, seconds; nullopt for a
  /// motion that starts with the head that high (standing, walking): it does not rise.
  std::optional<double> riseTime;
  /// Highest pelvis centre of mass while airborne (no link in contact), metres.
  std::optional<double> maxAirbornePelvisHeight;
  /// Highest pelvis centre of mass at any time, metres.
  double maxPelvisHeight = 0.0;
  /// Time with no link touching the environment, seconds.
  double airborneTime = 0.0;
  /// The longest single interval with no link touching the environment, seconds (a jump's
  /// flight, where airborneTime also counts a start's drop and small hops).
  double longestAirborne = 0.0;
  /// Σ_t Δt Σ_joints τ², (N·m)²·s.
  double energy = 0.0;
  /// Pelvis horizontal travel from the start, metres (positive forward, +x).
  double distance = 0.0;
  /// The largest forward pelvis travel from the start at any time, metres (≥ 0; a step
  /// forward and back ends near 0 distance but not here).
  double farthest = 0.0;
  /// Which links have touched the environment (ground or chair) at some time, by index.
  std::array<bool, kMaxLinks> touched{};
  /// The scene bodies each link has touched at some time, terrain and movable objects
  /// alike (bit i for Scene::bodies[i], as LinkState::touching), by link index.
  std::array<std::uint64_t, kMaxLinks> touchedBodies{};
  /// The scene bodies each link touches at the last step observed, by link index.
  std::array<std::uint64_t, kMaxLinks> touchingAtEnd{};
  /// Head height now, metres.
  double headHeight = 0.0;
  /// Number of phase changes observed.
  int phaseChanges = 0;
  /// The scene bodies some link holds at the last step observed (LinkState::holding).
  std::uint64_t heldAtEnd = 0;
  /// The world's movable objects over the run (RunSession fills them from WorldMetrics;
  /// empty in a scene without them).
  std::vector<ObjectSummary> objects;
};

class MotionMetrics {
 public:
  explicit MotionMetrics(const MetricsDef& def = {});

  /// Records one step: the state after the step, the torques applied during it, its
  /// length and the phase active after it.
  void observe(const CharacterState& state, const std::array<double, kMaxJoints>& torques,
               double dt, int phase);

  const MotionSummary& summary() const { return summary_; }

  /// Head height of a state: the height of the joint joining the head to the body (the
  /// human's neckTop; Character::headJoint()), metres.
  static double headHeight(const Character& character, const CharacterState& state);
  /// Whether a link other than the feet and hands touches the environment: "fallen"
  /// when the motion is meant to be upright (docs/marks.md, Standing and fallen).
  static bool bodyTouches(const Character& character, const CharacterState& state);

 private:
  /// Whether `link` rests on the seat of height `seatHeight`: the pelvis or a thigh, every
  /// contact point within kSeatContactTolerance of the seat's top.
  bool sitsOnSeat(const CharacterState& state, int link, double seatHeight) const;
  /// Whether `link` is a foot or a hand (the links an upright character may touch with).
  static bool isFootOrHand(const CharacterRoles& roles, int link);

 private:
  MetricsDef def_;
  MotionSummary summary_;
  bool started_ = false;
  double startPelvisX_ = 0.0;
  double lastNonFootContact_ = 0.0;
  bool startedHigh_ = false;
  int lastPhase_ = -1;
  double airborneSince_ = 0.0;  // start of the current airborne interval
  bool airborne_ = false;
};

}  // namespace scl
