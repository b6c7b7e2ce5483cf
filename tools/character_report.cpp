#include "tools/character_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <vector>

#include "base/format.h"
#include "base/svg.h"
#include "base/xml.h"
#include "runtime/placement.h"
#include "scl/character.h"

namespace scl {

namespace {

// What a positive angle means for each joint of the built-in human. Standing, every link
// but the foot hangs down from its joint, so counter-clockwise swings it forward.
constexpr std::array<JointSignNote, 9> kHumanSignNotes = {{
    {"neckTop",
     "turns the neck, and the body below it, forward relative to the head: with the body "
     "held, the head nods forward (chin toward the chest); < 0 tips it back.",
     "neck swings forward: the head nods forward", Direction::Forward},
    {"neckBottom",
     "turns the trunk forward relative to the neck: with the trunk held, the neck and head "
     "tilt forward; < 0 tilts them back.",
     "trunk swings forward: the neck tilts forward", Direction::Forward},
    {"waist",
     "swings the pelvis, and the legs with it, forward toward the trunk (the pike of a "
     "kip-up): with the legs held, the trunk bends forward; < 0 arches the back.",
     "pelvis and legs swing forward (pike)", Direction::Forward},
    {"shoulders",
     "swings the arm forward and up: 90° holds it straight out in front, 180° straight up; "
     "< 0 swings it back.",
     "arm swings forward; 180° is straight up", Direction::Forward},
    {"elbows",
     "bends the elbow, the forearm swinging forward; 0° is a straight arm, which the range "
     "does not pass.",
     "forearm swings forward: the elbow bends", Direction::Forward},
    {"wrists", "tilts the hand forward relative to the forearm; < 0 tilts it back.",
     "hand swings forward", Direction::Forward},
    {"hips",
     "swings the thigh forward (flexion): 90° holds it level in front of an upright pelvis; "
     "< 0 swings it back.",
     "thigh swings forward", Direction::Forward},
    {"knees",
     "would swing the shank forward past a straight leg, which the range (at most 0°) does "
     "not allow: knee < 0 bends the knee, the shank swinging back.",
     "shank swings forward; bent knees are < 0", Direction::Forward},
    {"ankles",
     "raises the toes: 90° sets the foot at right angles to the shank, pointing forward; "
     "smaller angles point the toes down.",
     "toes rise; 90° is square to the shank", Direction::Up},
}};

// How the tables spell signs and arrows: typographic in Markdown, ASCII in the terminal.
struct Notation {
  std::string_view minus;
  std::string_view arrow;
  std::string_view degree;
  std::string_view none;
};
constexpr Notation kMarkdownNotation{"−", "→", "°", "—"};
constexpr Notation kTextNotation{"-", "->", "", "-"};

// `value` with at most `decimals` decimals, trailing zeros dropped ("0.35", "90").
std::string trimmed(double value, int decimals, const Notation& notation) {
  const std::string text = formatTrimmed(std::fabs(value), decimals);
  bool negative = value < 0 && text != "0";
  return negative ? std::string(notation.minus) + text : text;
}

std::string degreeRange(const JointDef& joint, const Notation& notation) {
  return trimmed(joint.minDeg, 2, notation) + std::string(notation.degree) + " to " +
         trimmed(joint.maxDeg, 2, notation) + std::string(notation.degree);
}

std::string quoted(std::string_view name, bool markdown) {
  return markdown ? "`" + std::string(name) + "`" : std::string(name);
}

double totalMassOf(std::span<const LinkDef> links) {
  double sum = 0.0;
  for (const LinkDef& link : links) sum += link.mass;
  return sum;
}

using Row = std::vector<std::string>;

struct Table {
  Row header;
  std::vector<Row> rows;
  /// Columns holding numbers, right-aligned.
  std::vector<bool> numeric;
};

std::string mirrorName(std::string_view self, std::string_view mirror, bool markdown) {
  return mirror == self ? "midline" : quoted(mirror, markdown);
}

Table linkTable(const CharacterReferenceInput& character, bool markdown) {
  const Notation& notation = markdown ? kMarkdownNotation : kTextNotation;
  Table table;
  if (markdown)
    table.header = {"link",      "length (m)",     "proximal thickness (m)", "distal thickness (m)",
                    "mass (kg)", "zero-pose axis", "parent joint",           "mirror"};
  else
    table.header = {"link",    "length m", "proximal m",   "distal m",
                    "mass kg", "axis",     "parent joint", "mirror"};
  table.numeric = {false, true, true, true, true, false, false, false};
  for (const LinkDef& link : character.links) {
    std::string parent = link.parentJoint < 0
                             ? std::string(notation.none) + " (root)"
                             : quoted(character.joints[link.parentJoint].name, markdown);
    std::string axis = (link.axisSign > 0 ? "+x" : std::string(notation.minus) + "x");
    table.rows.push_back({quoted(link.name, markdown), formatFixed(link.length, 3),
                          formatFixed(link.proximalThickness, 3),
                          formatFixed(link.distalThickness, 3), formatFixed(link.mass, 2), axis,
                          parent,
                          mirrorName(link.name, character.links[link.mirror].name, markdown)});
  }
  return table;
}

Table jointTable(const CharacterReferenceInput& character, bool markdown) {
  const Notation& notation = markdown ? kMarkdownNotation : kTextNotation;
  Table table;
  if (markdown)
    table.header = {"joint",        "parent → child", "anchor on parent (m)", "range", "standing",
                    "kp (N·m/rad)", "kd (N·m·s/rad)", "max torque (N·m)",     "mirror"};
  else
    table.header = {"joint",      "parent -> child", "anchor m",       "range deg", "standing deg",
                    "kp N.m/rad", "kd N.m.s/rad",    "max torque N.m", "mirror"};
  table.numeric = {false, false, true, true, true, true, true, true, false};
  for (size_t j = 0; j < character.joints.size(); ++j) {
    const JointDef& joint = character.joints[j];
    std::string links = quoted(character.links[joint.parentLink].name, markdown) + " " +
                        std::string(notation.arrow) + " " +
                        quoted(character.links[joint.childLink].name, markdown);
    std::string standing =
        j < character.standingJointDeg.size()
            ? trimmed(character.standingJointDeg[j], 2, notation) + std::string(notation.degree)
            : std::string(notation.none);
    table.rows.push_back({quoted(joint.name, markdown), links, formatFixed(joint.anchorOnParent, 3),
                          degreeRange(joint, notation), standing, trimmed(joint.kp, 2, notation),
                          trimmed(joint.kd, 2, notation), trimmed(joint.maxTorque, 2, notation),
                          mirrorName(joint.name, character.joints[joint.mirror].name, markdown)});
  }
  return table;
}

std::string markdownTable(const Table& table) {
  std::string text = "|";
  for (const std::string& cell : table.header) text += " " + cell + " |";
  text += "\n|";
  for (bool numeric : table.numeric) text += numeric ? "---:|" : "---|";
  text += "\n";
  for (const Row& row : table.rows) {
    text += "|";
    for (const std::string& cell : row) text += " " + cell + " |";
    text += "\n";
  }
  return text;
}

std::string textTable(const Table& table) {
  std::vector<size_t> widths(table.header.size(), 0);
  auto measure = [&](const Row& row) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], displayWidth(row[c]));
  };
  measure(table.header);
  for (const Row& row : table.rows) measure(row);
  auto line = [&](const Row& row) {
    std::string text;
    for (size_t c = 0; c < row.size(); ++c) {
      bool last = c + 1 == row.size();
      std::string cell = padded(row[c], widths[c], table.numeric[c]);
      if (last) cell.erase(cell.find_last_not_of(' ') + 1);
      text += cell + (last ? "\n" : "  ");
    }
    return text;
  };
  std::string text = line(table.header);
  for (const Row& row : table.rows) text += line(row);
  return text;
}

std::string groupLine(const GroupDef& group, std::span<const LinkDef> links,
                      std::span<const JointDef> joints, bool ofLinks, bool markdown) {
  std::string text = quoted(group.name, markdown) + " = ";
  for (size_t m = 0; m < group.members.size(); ++m) {
    int member = group.members[m];
    text += (m ? ", " : "") + quoted(ofLinks ? links[member].name : joints[member].name, markdown);
  }
  return text;
}

bool noteCovers(const CharacterReferenceInput& character, const JointSignNote& note, int joint) {
  if (note.joints == character.joints[joint].name) return true;
  for (const GroupDef& group : character.jointGroups)
    if (group.name == note.joints && std::ranges::find(group.members, joint) != group.members.end())
      return true;
  return false;
}

// The joints a note covers, in joint order.
std::vector<int> coveredJoints(const CharacterReferenceInput& character,
                               const JointSignNote& note) {
  std::vector<int> members;
  for (int j = 0; j < static_cast<int>(character.joints.size()); ++j)
    if (noteCovers(character, note, j)) members.push_back(j);
  return members;
}

// Notes in the order of their first joint, each once.
std::vector<const JointSignNote*> notesInJointOrder(const CharacterReferenceInput& character) {
  std::vector<const JointSignNote*> ordered;
  for (int j = 0; j < static_cast<int>(character.joints.size()); ++j) {
    const JointSignNote* note = findSignNote(character, j);
    if (note && std::ranges::find(ordered, note) == ordered.end()) ordered.push_back(note);
  }
  return ordered;
}

std::string jointNames(const CharacterReferenceInput& character, const std::vector<int>& joints,
                       bool markdown) {
  std::string text;
  for (size_t i = 0; i < joints.size(); ++i)
    text += (i ? ", " : "") + quoted(character.joints[joints[i]].name, markdown);
  return text;
}

// "`pelvis` → `leftThigh`, `pelvis` → `rightThigh`".
std::string parentToChildren(const CharacterReferenceInput& character,
                             const std::vector<int>& joints, bool markdown) {
  const Notation& notation = markdown ? kMarkdownNotation : kTextNotation;
  std::string text;
  for (size_t i = 0; i < joints.size(); ++i) {
    const JointDef& joint = character.joints[joints[i]];
    text += (i ? ", " : "") + quoted(character.links[joint.parentLink].name, markdown) + " " +
            std::string(notation.arrow) + " " +
            quoted(character.links[joint.childLink].name, markdown);
  }
  return text;
}

std::string signLine(const CharacterReferenceInput& character, const JointSignNote& note,
                     bool markdown) {
  const Notation& notation = markdown ? kMarkdownNotation : kTextNotation;
  std::vector<int> joints = coveredJoints(character, note);
  const JointDef& first = character.joints[joints.front()];
  if (markdown)
    return "- **" + jointNames(character, joints, true) + "** (" +
           parentToChildren(character, joints, true) + "; " + degreeRange(first, notation) +
           "): > 0 " + std::string(note.positive) +
           " As the angle grows, the child's distal end moves " +
           std::string(directionWords(note.childEndMoves)) + ".\n";
  return "  " + jointNames(character, joints, false) + " (" +
         parentToChildren(character, joints, false) + "): > 0 " + std::string(note.positive) + "\n";
}

std::string uncoveredJointLines(const CharacterReferenceInput& character, bool markdown) {
  std::string text;
  for (int j = 0; j < static_cast<int>(character.joints.size()); ++j)
    if (!findSignNote(character, j))
      text += (markdown ? "- **" : "  ") + quoted(character.joints[j].name, markdown) +
              (markdown ? "**" : "") + ": no note on its sign.\n";
  return text;
}

}  // namespace

CharacterReferenceInput characterReference(const Character& source) {
  CharacterReferenceInput character;
  character.name = source.name;
  character.links = source.links;
  character.joints = source.joints;
  character.linkGroups = source.linkGroups;
  character.jointGroups = source.jointGroups;
  // Every character is the same biped with the same conventions: the notes hold for all.
  character.signNotes = kHumanSignNotes;
  if (const PoseDef* standing = source.findPose("standing"))
    character.standingJointDeg = standing->jointDeg;
  character.footFlatAngleDeg = source.footFlatAngleDeg();
  return character;
}

CharacterReferenceInput builtInCharacterReference() {
  return characterReference(*humanCharacter());
}

const JointSignNote* findSignNote(const CharacterReferenceInput& character, int joint) {
  for (const JointSignNote& note : character.signNotes)
    if (noteCovers(character, note, joint)) return &note;
  return nullptr;
}

std::string_view directionWords(Direction direction) {
  switch (direction) {
    case Direction::Forward:
      return "forward (+x)";
    case Direction::Backward:
      return "backward (−x)";
    case Direction::Up:
      return "up (+y)";
    case Direction::Down:
      return "down (−y)";
  }
  return "";
}

std::string characterReferenceMarkdown(const CharacterReferenceInput& character) {
  const Notation& notation = kMarkdownNotation;
  std::ostringstream page;
  page << "# Character reference: " << character.name << "\n\n"
       << "<!-- Generated from the character's file by scl character; do not edit by hand. "
          "tests/test_character_reference.cpp checks it. -->\n\n"
       << "The links, joints and groups of the character `" << character.name
       << "` as the engine simulates them, and what the sign of each joint angle means. This "
          "page is generated from the character's file (a built-in's is "
          "`characters/NAME.character`) by `scl character NAME|FILE --markdown`, and a test "
          "checks that it matches the character and that every sign stated here holds in the "
          "forward kinematics, so it cannot drift. How a character is built and simulated is "
          "in [character.md](character.md).\n\n";

  page << "## Conventions\n\n"
       << "- The world is the x–y plane, +y up; the character faces +x. World angles are "
          "counter-clockwise positive, in degrees.\n"
       << "- In the zero pose every link lies along the x axis, the head pointing to +x and "
          "every other link to "
       << notation.minus
       << "x (the *zero-pose axis* below); every world angle and joint angle is 0 there. "
          "A link's origin is its proximal cap centre.\n"
       << "- Joint angle = child world angle " << notation.minus
       << " parent world angle; the head is the root.\n"
       << "- Standing upright every link reads 90° and every joint 0°, except the ankles: 90° "
          "sets the foot at right angles to the shank, pointing forward. A foot lies flat on "
          "the ground at world angle "
       << formatFixed(character.footFlatAngleDeg, 2) << "°, ankle "
       << formatFixed(character.footFlatAngleDeg - 90.0, 2)
       << "° under a vertical shank, since its two caps differ. The *standing* column below "
          "is the character's `standing` pose.\n\n";

  page << "## Links\n\n"
       << character.links.size() << " links, " << formatFixed(totalMassOf(character.links), 2)
       << " kg in all. Length is the distance between the two cap centres; the thicknesses "
          "are the cap diameters.\n\n"
       << markdownTable(linkTable(character, true)) << "\n";

  page << "## Joints\n\n"
       << character.joints.size()
       << " revolute joints. The joint sits on the parent's axis at the anchor; range is its "
          "limits; kp and kd are the default PD gains; the net torque is clamped to the max "
          "torque.\n\n"
       << markdownTable(jointTable(character, true)) << "\n";

  page << "## Groups\n\n"
       << "A plural name in a script stands for both members.\n\n";
  for (const GroupDef& group : character.linkGroups)
    page << "- link group " << groupLine(group, character.links, character.joints, true, true)
         << "\n";
  for (const GroupDef& group : character.jointGroups)
    page << "- joint group " << groupLine(group, character.links, character.joints, false, true)
         << "\n";

  page << "\n## Joint signs\n\n"
       << "A positive joint angle turns the child link counter-clockwise relative to its "
          "parent. Seen side-on with the character facing +x (to the right), "
          "counter-clockwise swings a link that hangs down forward, so, from the standing "
          "pose:\n\n";
  for (const JointSignNote* note : notesInJointOrder(character))
    page << signLine(character, *note, true);
  page << uncoveredJointLines(character, true);
  page << "\n![The standing character side-on, facing right, with a curved arrow at each "
          "joint showing the direction in which its angle grows](figures/joint-signs.svg)\n\n"
       << "The figure (`scl character --svg`, `docs/figures/joint-signs.svg`) draws the "
          "`standing` pose with the project's forward kinematics; left and right limbs "
          "coincide there, so each arrow stands for both.\n";
  return page.str();
}

std::string characterReferenceMarkdown() {
  return characterReferenceMarkdown(builtInCharacterReference());
}

std::string characterReferenceText(const CharacterReferenceInput& character) {
  std::ostringstream text;
  text << character.name << ": " << character.links.size() << " links, " << character.joints.size()
       << " joints, " << formatFixed(totalMassOf(character.links), 2) << " kg\n\n"
       << textTable(linkTable(character, false)) << "\n"
       << textTable(jointTable(character, false)) << "\n";
  text << "link groups\n";
  for (const GroupDef& group : character.linkGroups)
    text << "  " << groupLine(group, character.links, character.joints, true, false) << "\n";
  text << "joint groups\n";
  for (const GroupDef& group : character.jointGroups)
    text << "  " << groupLine(group, character.links, character.joints, false, false) << "\n";
  text << "\njoint signs: a positive angle turns the child link counter-clockwise relative to "
          "its parent; standing, facing +x:\n";
  for (const JointSignNote* note : notesInJointOrder(character))
    text << signLine(character, *note, false);
  text << uncoveredJointLines(character, false);
  return text.str();
}

// --- the figure ---------------------------------------------------------------------

namespace {

struct FigureLayout {
  /// Pixels per metre.
  double scale = 250.0;
  /// Figure size, pixels.
  double width = 780.0;
  double height = 700.0;
  /// Pixel column of world x = 0 and pixel row of the ground (y = 0).
  double originX = 250.0;
  double groundY = 640.0;
  /// Left edge of the labels, pixels.
  double labelX = 385.0;
  /// Vertical distance between two labels (two lines each), pixels.
  double labelSpacing = 38.0;
  /// Radius of a joint's arrow, pixels; joints within `crowdedDistance` metres of earlier
  /// ones get arrows `radiusStep` wider each, so concentric arrows stay apart.
  double arrowRadius = 34.0;
  double radiusStep = 16.0;
  double crowdedDistance = 0.06;
  /// How far each arrow turns, radians.
  double arrowSweep = degToRad(70.0);
};

constexpr std::array<std::string_view, 9> kArrowColours = {"#c1121f", "#e76f51", "#6a4c93",
                                                           "#0077b6", "#2a9d8f", "#bc6c25",
                                                           "#588157", "#9d0208", "#1d3557"};

// Pixels to a tenth.
std::string number(double value) { return formatFixed(value, 1); }

struct Pixel {
  double x = 0.0, y = 0.0;
};

// Labels as near their wanted rows as they can be while `spacing` apart, kept in order:
// overlapping neighbours are pushed apart symmetrically until none overlap.
std::vector<double> spreadLabels(std::vector<double> rows, double spacing) {
  for (int iteration = 0; iteration < 200; ++iteration) {
    bool moved = false;
    for (size_t i = 1; i < rows.size(); ++i) {
      double overlap = spacing - (rows[i] - rows[i - 1]);
      if (overlap > 1e-6) {
        rows[i - 1] -= overlap / 2.0;
        rows[i] += overlap / 2.0;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return rows;
}

// One link as the filmstrip draws it: two cap circles and the trapezoid between them.
void drawLink(std::ostringstream& svg, const LinkDef& def, const LinkState& link,
              std::string_view fill, double scale, const auto& toPixel) {
  Vec2 axis = def.axisSign * Vec2(std::cos(link.angle), std::sin(link.angle));
  Vec2 normal(-axis.y(), axis.x());
  Vec2 a = link.origin, b = link.origin + def.length * axis;
  double r1 = def.proximalThickness / 2.0, r2 = def.distalThickness / 2.0;
  Pixel pa = toPixel(a), pb = toPixel(b);
  svg << "<g fill=\"" << fill << "\" stroke=\"#8a9bb0\" stroke-width=\"0.8\">";
  svg << "<circle cx=\"" << number(pa.x) << "\" cy=\"" << number(pa.y) << "\" r=\""
      << number(r1 * scale) << "\"/>";
  svg << "<circle cx=\"" << number(pb.x) << "\" cy=\"" << number(pb.y) << "\" r=\""
      << number(r2 * scale) << "\"/>";
  svg << "<polygon stroke=\"none\" points=\"";
  const Vec2 corners[4] = {a + r1 * normal, b + r2 * normal, b - r2 * normal, a - r1 * normal};
  for (const Vec2& corner : corners) {
    Pixel p = toPixel(corner);
    svg << number(p.x) << "," << number(p.y) << " ";
  }
  // The link's axis, from its origin to its distal cap centre: the direction arrows turn.
  svg << "\"/><line x1=\"" << number(pa.x) << "\" y1=\"" << number(pa.y) << "\" x2=\""
      << number(pb.x) << "\" y2=\"" << number(pb.y)
      << "\" stroke=\"#5c6f82\" stroke-width=\"1.5\"/>"
      << "</g>\n";
}

struct Arrow {
  const JointSignNote* note = nullptr;
  std::vector<int> joints;
  Pixel centre;
  double radius = 0.0;
  /// World angles (counter-clockwise, radians) where the arc starts and ends.
  double start = 0.0, end = 0.0;
  Pixel tip;
};

std::vector<Arrow> layOutArrows(const CharacterReferenceInput& character,
                                const CharacterState& standing, const FigureLayout& layout,
                                const auto& toPixel) {
  std::vector<Arrow> arrows;
  std::vector<Vec2> placed;
  for (const JointSignNote* note : notesInJointOrder(character)) {
    Arrow arrow;
    arrow.note = note;
    arrow.joints = coveredJoints(character, *note);
    int joint = arrow.joints.front();
    Vec2 position = standing.jointPositions[joint];
    int crowd = static_cast<int>(std::ranges::count_if(placed, [&](const Vec2& other) {
      return (other - position).norm() < layout.crowdedDistance;
    }));
    placed.push_back(position);
    int child = character.joints[joint].childLink;
    double childAngle = standing.links[child].angle;
    // The child's axis direction: its world angle, turned half a turn for links along -x.
    arrow.start = character.links[child].axisSign > 0 ? childAngle : childAngle + kPi;
    arrow.end = arrow.start + layout.arrowSweep;
    arrow.centre = toPixel(position);
    arrow.radius = layout.arrowRadius + layout.radiusStep * crowd;
    arrow.tip = {arrow.centre.x + arrow.radius * std::cos(arrow.end),
                 arrow.centre.y - arrow.radius * std::sin(arrow.end)};
    arrows.push_back(arrow);
  }
  return arrows;
}

void drawArrow(std::ostringstream& svg, const Arrow& arrow, size_t index) {
  Pixel from{arrow.centre.x + arrow.radius * std::cos(arrow.start),
             arrow.centre.y - arrow.radius * std::sin(arrow.start)};
  // Screen y points down, so a counter-clockwise arc has sweep-flag 0.
  std::string path = "M" + number(from.x) + "," + number(from.y) + " A" + number(arrow.radius) +
                     "," + number(arrow.radius) + " 0 0 0 " + number(arrow.tip.x) + "," +
                     number(arrow.tip.y);
  std::string_view colour = kArrowColours[index % kArrowColours.size()];
  svg << "<path d=\"" << path << "\" fill=\"none\" stroke=\"white\" stroke-width=\"6\"/>\n"
      << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour
      << "\" stroke-width=\"2.5\" marker-end=\"url(#head" << index % kArrowColours.size()
      << ")\"/>\n";
}

void drawLabel(std::ostringstream& svg, const CharacterReferenceInput& character,
               const Arrow& arrow, size_t index, double row, const FigureLayout& layout) {
  std::string_view colour = kArrowColours[index % kArrowColours.size()];
  svg << "<line x1=\"" << number(arrow.tip.x) << "\" y1=\"" << number(arrow.tip.y) << "\" x2=\""
      << number(layout.labelX - 6) << "\" y2=\"" << number(row - 4) << "\" stroke=\"" << colour
      << "\" stroke-width=\"0.8\" stroke-dasharray=\"3,2\"/>\n";
  const JointDef& first = character.joints[arrow.joints.front()];
  svg << "<text x=\"" << number(layout.labelX) << "\" y=\"" << number(row)
      << "\" font-size=\"13\" fill=\"" << colour << "\"><tspan font-weight=\"bold\">"
      << escapeXml(jointNames(character, arrow.joints, false))
      << " &gt; 0</tspan><tspan dx=\"8\" font-size=\"12\" fill=\"#555555\">range "
      << escapeXml(degreeRange(first, kMarkdownNotation)) << "</tspan></text>\n";
  svg << "<text x=\"" << number(layout.labelX) << "\" y=\"" << number(row + 16)
      << "\" font-size=\"12\" fill=\"#333333\">" << escapeXml(arrow.note->shortForm) << "</text>\n";
}

void drawLegend(std::ostringstream& svg, const FigureLayout& layout) {
  static constexpr std::array<std::string_view, 12> kLines = {"The standing pose, side-on,",
                                                              "facing +x (to the right).",
                                                              "",
                                                              "Joint angle = child link's",
                                                              "world angle − its parent's.",
                                                              "Each arrow turns the child",
                                                              "the way the angle grows:",
                                                              "counter-clockwise, so a",
                                                              "hanging link swings forward.",
                                                              "",
                                                              "Left and right limbs coincide:",
                                                              "one arrow stands for both."};
  for (size_t i = 0; i < kLines.size(); ++i)
    svg << "<text x=\"20\" y=\"" << number(90 + 17.0 * static_cast<double>(i))
        << "\" font-size=\"12\">" << escapeXml(kLines[i]) << "</text>\n";
  // Axes and the positive sense of angles, bottom left.
  double x0 = 36, y0 = layout.groundY - 50;
  svg << "<g stroke=\"#1b263b\" stroke-width=\"1.5\" fill=\"none\">"
      << "<path d=\"M" << number(x0) << "," << number(y0) << " H" << number(x0 + 70)
      << "\" marker-end=\"url(#axis)\"/><path d=\"M" << number(x0) << "," << number(y0) << " V"
      << number(y0 - 70) << "\" marker-end=\"url(#axis)\"/>"
      << "<path d=\"M" << number(x0 + 40) << "," << number(y0) << " A40,40 0 0 0 " << number(x0)
      << "," << number(y0 - 40) << "\" stroke-dasharray=\"4,2\" "
      << "marker-end=\"url(#axis)\"/></g>\n"
      << "<text x=\"" << number(x0 + 74) << "\" y=\"" << number(y0 + 4)
      << "\" font-size=\"12\">+x</text>\n"
      << "<text x=\"" << number(x0 - 8) << "\" y=\"" << number(y0 - 76)
      << "\" font-size=\"12\">+y</text>\n"
      << "<text x=\"" << number(x0 + 32) << "\" y=\"" << number(y0 - 34)
      << "\" font-size=\"12\">+ angle</text>\n";
}

}  // namespace

std::string jointSignFigureSvg(const CharacterReferenceInput& character,
                               const CharacterState& standing) {
  const FigureLayout layout;
  auto toPixel = [&](const Vec2& world) {
    return Pixel{layout.originX + world.x() * layout.scale,
                 layout.groundY - world.y() * layout.scale};
  };
  SvgDef page;
  page.width = layout.width;
  page.height = layout.height;
  page.rootAttributes = "font-family=\"sans-serif\"";
  SvgWriter document(page);
  // The figure's elements are written as markup of their own, then into the document.
  std::ostringstream svg;
  svg << "<!-- Generated by scl character with its svg option; do not edit. -->\n"
      << "<defs>\n";
  for (size_t c = 0; c < kArrowColours.size(); ++c)
    svg << "<marker id=\"head" << c
        << "\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"10\" "
           "markerHeight=\"10\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">"
           "<path d=\"M0,0 L10,5 L0,10 z\" fill=\""
        << kArrowColours[c] << "\"/></marker>\n";
  svg << "<marker id=\"axis\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"8\" "
         "markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">"
         "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1b263b\"/></marker>\n"
      << "</defs>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"20\" y=\"34\" font-size=\"18\" font-weight=\"bold\">Joint signs of the "
      << escapeXml(character.name) << ": which way each angle grows</text>\n"
      << "<rect x=\"0\" y=\"" << number(layout.groundY) << "\" width=\"" << number(layout.width)
      << "\" height=\"" << number(layout.height - layout.groundY) << "\" fill=\"#e8e2d6\"/>\n"
      << "<text x=\"20\" y=\"" << number(layout.groundY + 22)
      << "\" font-size=\"12\" fill=\"#555555\">ground, y = 0</text>\n";
  drawLegend(svg, layout);

  // Left links first and lighter, so the right side is in front (as in the filmstrip).
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < character.links.size(); ++i) {
      bool left = character.links[i].name.starts_with("left");
      if ((pass == 0) != left) continue;
      drawLink(svg, character.links[i], standing.links[i], left ? "#eef2f6" : "#dce4ec",
               layout.scale, toPixel);
    }

  std::vector<Arrow> arrows = layOutArrows(character, standing, layout, toPixel);
  for (size_t a = 0; a < arrows.size(); ++a) drawArrow(svg, arrows[a], a);
  for (const Arrow& arrow : arrows)
    svg << "<circle cx=\"" << number(arrow.centre.x) << "\" cy=\"" << number(arrow.centre.y)
        << "\" r=\"3.5\" fill=\"white\" stroke=\"#1b263b\" stroke-width=\"1.2\"/>\n";

  // Labels in a column, in the order of their arrows' tips from the top.
  std::vector<size_t> order(arrows.size());
  for (size_t a = 0; a < order.size(); ++a) order[a] = a;
  std::ranges::stable_sort(order,
                           [&](size_t l, size_t r) { return arrows[l].tip.y < arrows[r].tip.y; });
  std::vector<double> wanted;
  wanted.reserve(order.size());
  for (size_t a : order) wanted.push_back(arrows[a].tip.y + 4);
  std::vector<double> rows = spreadLabels(wanted, layout.labelSpacing);
  for (size_t k = 0; k < order.size(); ++k)
    drawLabel(svg, character, arrows[order[k]], order[k], rows[k], layout);
  document.raw(svg.str());
  return document.finish();
}

CharacterState standingState(const Character& character) {
  const PoseDef* standing = character.findPose("standing");
  if (!standing) return forwardKinematics(character, Vec2::Zero(), degToRad(90.0), {});
  Placement placement = placePose(character, *standing, nullptr, {});
  return forwardKinematics(character, placement.headOrigin, placement.headAngle,
                           placement.jointAngles);
}

CharacterState builtInStandingState() { return standingState(*humanCharacter()); }

std::string jointSignFigureSvg() {
  return jointSignFigureSvg(builtInCharacterReference(), builtInStandingState());
}

}  // namespace scl
