#include "tools/lsp/language_words.h"

#include <array>

namespace scl::lsp {

namespace {

constexpr std::string_view kCaptureMeaning =
    "**capture**: after `when com`, the capture point's x from the frame's origin, "
    "x + vx·√(y/g), m: where a step would bring the body to rest";

// The quantities of `when com`, in ComQuantity's order.
constexpr std::array<std::string_view, kComQuantityWords.size()> kComQuantityMeanings = {
    "**x**: the centre of mass's distance ahead of the frame's origin, m",
    "**y**: the centre of mass's height above the frame's origin, m",
    "**vx**: the centre of mass's forward velocity relative to the frame, m/s",
    "**vy**: the centre of mass's upward velocity relative to the frame, m/s (< 0: falling)",
    kCaptureMeaning,
};

// The size counted by the compiler: two branches that each add a keyword merge cleanly.
constexpr auto kKeywords = std::to_array<KeywordInfo>({
    // Primitives.
    {"vf",
     "**vf**: virtual force, `[vf (fx, fy) on: LINK by: JOINT]`: the force (fx, fy) N at the "
     "`on:` link's centre of mass, as torques of the joints from `by:` (Jacobian transpose)"},
    {"sb",
     "**sb**: stance balance, `[vf sb(kp, kd) on: LINK by: JOINT]`: the horizontal force "
     "kp·(x_d − x_com) − kd·ẋ_com toward the middle of the feet; kp N/m, kd N·s/m"},
    {"ik",
     "**ik**: two-link inverse kinematics, `[ik (x, y), ... on: WRIST|ANKLE rel: JOINT time: T]`: "
     "the effector moves through the targets (m, from the `rel:` joint at phase start) over T s"},
    {"relax",
     "**relax**: `[relax JOINTS strength s]`: τ = −s·kd·θ̇, the joints follow gravity, damped; s "
     "from 0 to 1"},
    {"gc",
     "**gc**: gravity compensation, `[gc by: JOINT strength s]`: a force −m·g on every link, "
     "through the chain from the base (default: the feet in contact); s from 0 to 1, default 1"},
    {"symm", "**symm**: the previous primitive of the phase with left and right swapped"},
    {"com",
     "**com**: feature, the whole-body centre of mass tracks (x, y) m from the middle of the "
     "feet (`legs` after it: in leg lengths); `com x X`, `com y Y`: one coordinate, the other "
     "free; `com standing [(x, y)]`, `com y standing [DY]`: from the standing pose's height; "
     "kp 1/s², kd 1/s, time: s, velocity:, weight, priority"},
    {"angmom",
     "**angmom**: feature, the centroidal angular momentum tracks L kg·m²/s; kd 1/s, weight, "
     "priority"},
    {"track",
     "**track**: feature, a joint's position or a link's centre of mass (or a held body's) "
     "tracks (x, y) m from the feet's middle (`legs` after it: in leg lengths), or a link's "
     "(a held body's) world angle tracks degrees; `[track NAME BODY]`: the point meets a "
     "movable body on its path, at its velocity (a catch); kp, kd, time:, velocity:, weight, "
     "priority"},
    {"legs",
     "**legs**: after a `com` or `track` target (or a `com y standing` offset, a swing's "
     "landing point and lift): it is in the character's leg lengths "
     "(hip to ankle plus the ankle's height; the mean of both legs), so the script fits bodies "
     "of other sizes; after the number of `when com`, the same (per second for vx, vy)"},
    {"posture",
     "**posture**: feature, the posture task toward the phase's PD targets, or with `clip:` a "
     "clip's angles and their rates; kp 1/s², kd 1/s, weight, priority"},
    {"clip",
     "**clip**: `clip NAME: \"FILE\"` before the phases declares a clip file (relative to the "
     "script); `[clip NAME joints: ...]` PD targets read from it each step; `clip:` NAME a "
     "posture's clip (docs/clips.md, Control by clips)"},
    {"speed", "**speed:** clip seconds per phase second (default 1)"},
    {"from", "**from:** the clip's time, s, when the phase begins (default 0)"},
    {"loop", "**loop**: the clip's playback wraps around at its end"},
    {"nearest",
     "**nearest**: each step the frame of the clips nearest the current joint angles and "
     "velocities is the posture's target (nearest-posture selection)"},
    {"joints", "**joints:** the joints a `[clip NAME]` item drives (default: every joint it has)"},
    {"support", "**support**: feature, the links whose contacts the QP may use"},
    {"grasp",
     "**grasp** LINKS BODY [reach: m]: each link (a hand) that comes within reach of the "
     "movable body BODY is welded to it and holds it while the phases that follow grasp it; "
     "the first phase that does not lets go"},
    {"reach", "**reach:** the largest gap, metres, at which a grasp takes hold (default 0.05)"},
    {"force",
     "**force** LINK (fx, fy) [max: N]: feature, a force task: the link pushes on what it "
     "touches with (fx, fy) newtons (x forward), pressing at most N (default: the force's "
     "magnitude); weight, priority"},
    {"max", "**max:** the most a force task's link presses with, newtons"},
    {"swing",
     "**swing** FOOT (x, y) [legs] [lift: H] [feedback: (cd, cv)]: feature, the foot's sole "
     "goes to a landing point from the frame origin over `time:` (default 0.4 s), lifted H "
     "(default 0.08) on the way and turned as when standing; the landing point moves cd·d + "
     "cv·v with the centre of mass's place d and velocity v ahead of the origin"},
    {"heel", "**heel** after a `support` link: its rear end alone carries (the toe may rise)"},
    {"toe",
     "**toe** after a `support` link: its front end alone carries (the heel may rise: "
     "heel-off)"},
    {"lift", "**lift:** how high a swing lifts the foot above the straight way (default 0.08)"},
    {"feedback",
     "**feedback:** (cd, cv) a swing's foot placement gains: metres per metre of the centre of "
     "mass ahead of the frame origin, and per m/s of its velocity (SIMBICON's)"},
    // Named arguments and PD frames.
    {"on", "**on:** the link a virtual force acts on, or the effector (wrist, ankle) of ik"},
    {"by", "**by:** the joint whose chain realises a virtual force, or the base of gc"},
    {"rel", "**rel:** the joint whose position at phase start the ik targets are offsets from"},
    {"time", "**time:** seconds to move the target from its value at phase start"},
    {"velocity",
     "**velocity:** (vx, vy) a com's or position track's end velocity (m/s, or leg lengths/s after "
     "`legs`): the way there is a Hermite curve, as a toss"},
    {"strength", "**strength** scale from 0 to 1 (relax: of the damping; gc: of the weight)"},
    {"kp", "**kp** proportional gain (stance balance N/m; features 1/s²)"},
    {"kd", "**kd** derivative gain (stance balance N·s/m; features 1/s)"},
    {"weight", "**weight** of a feature's squared error within its priority level"},
    {"priority", "**priority** strict priority level of a feature, 1 (highest) to 9"},
    {"child", "**child**: the target is the child link's world angle, degrees"},
    {"parent", "**parent**: the target is the parent link's world angle, degrees"},
    // Transitions and structure.
    {"after", "**after t**: the phase ends t seconds after it began"},
    {"when", "**when contact|com|holding|released ...**: the phase ends when the condition holds"},
    {"and",
     "**and when contact LINKS after t**, **and when com ... after t**: the condition, checked "
     "from t s on"},
    {"or",
     "**or after t**: the fallback of a `when` condition: the phase ends after t s without it"},
    {"contact",
     "**contact** [established|lost|changed] [any|all] LINKS [with BODY]: latched per link "
     "since the phase began"},
    {"established",
     "**established**: the link gained contact since the phase began and touches now"},
    {"lost", "**lost**: the link lost contact since the phase began and is free now"},
    {"changed", "**changed**: established or lost"},
    {"any", "**any**: one listed link meets the condition"},
    {"all", "**all**: every listed link meets the condition"},
    {"with", "**with BODY**: the contact counts with this scene body only (by its name)"},
    {"holding", "**when holding BODY**: the phase ends when a link holds BODY (a grasp took hold)"},
    {"released",
     "**when released BODY**: the phase ends when no link holds BODY any more (a phase that "
     "let go, or a grip that broke), having held it since the phase began"},
    {"grip",
     "**grip:** the strongest force a grasp's hold bears, newtons; pulled harder, it breaks"},
    {"capture", kCaptureMeaning},
    {"backto",
     "**backto NAME**: the transition leads back to the phase NAME (`N times`: a counted cycle)"},
    {"times", "**N times**: the cycle runs N times in all, then goes on"},
    {"finally", "**finally** TRANSITION **backto** NAME: the last phase's exit, a cycle"},
    {"define", "**define NAME { ... }**: a block of primitives used as `[NAME]` in phases"},
    {"scene",
     "**scene**: the initial state: character:, pose:, env:, height: (chair seat, m), "
     "duration: (s), world: (a world file); the world's bodies follow it, one a line"},
    {"pose", "**pose:** the initial pose of the character"},
    {"env", "**env:** the environment: flat, or chair"},
    {"character",
     "**character:** a built-in character's name or, in quotes, a character file's path"},
    {"height", "**height:** the chair's seat height, m (0.05 to 1.5)"},
    {"duration", "**duration:** the default run length, s (at most 3600)"},
    {"world",
     "**world:** a world file's path, in quotes (relative to the script): its terrain and "
     "objects join the scene's; a world file begins with `world NAME`, then one body a line"},
});

}  // namespace

std::span<const KeywordInfo> keywords() { return kKeywords; }

std::string_view keywordMeaning(std::string_view word) {
  for (const KeywordInfo& keyword : kKeywords)
    if (keyword.word == word) return keyword.meaning;
  return {};
}

std::string_view comConditionMeaning() {
  return "**when com QUANTITY < NUM** (or `>`; `legs` after NUM: in leg lengths): the phase "
         "ends when the centre of mass's x, y (m), vx, vy (m/s) or capture point (m), in the "
         "frame of the features (from the supporting feet's middle at phase start), passes NUM";
}

std::string_view comQuantityMeaning(ComQuantity quantity) {
  return kComQuantityMeanings[static_cast<size_t>(quantity)];
}

}  // namespace scl::lsp
