// The canonical form of a character file (`scl fmt`): `character NAME`, then each
// statement on one line (a pose on two), consecutive links and joints aligned in columns,
// a blank line where the kind of statement changes, numbers in their shortest form, and
// every comment kept: one on its own line before the statement it preceded, one after
// code at the end of its statement.
#include <algorithm>
#include <map>

#include "scl/character_file.h"
#include "scl/comment_layout.h"
#include "scl/printer.h"

namespace scl {

namespace {

namespace sx = syntax;

std::string number(const sx::NumberLit& n) {
  return (n.parameter ? "@" : "") + formatNumber(n.value);
}
std::string vec(const sx::Vec& v) { return "(" + number(v.x) + ", " + number(v.y) + ")"; }

// The cells of a statement's line, to be aligned with its neighbours of the same kind.
std::vector<std::string> cells(const sx::CharacterStatement& statement) {
  std::vector<std::string> out;
  auto add = [&](std::string text) { out.push_back(std::move(text)); };
  if (auto* link = std::get_if<sx::LinkStatement>(&statement)) {
    add("link");
    add(link->name.text);
    if (link->length) add("length: " + number(*link->length));
    if (link->thickness) add("thickness: " + vec(*link->thickness));
    if (link->mass) add("mass: " + number(*link->mass));
    if (link->density) add("density: " + number(*link->density));
  } else if (auto* joint = std::get_if<sx::JointStatement>(&statement)) {
    add("joint");
    add(joint->name.text);
    if (joint->parent) add("parent: " + joint->parent->text);
    if (joint->child) add("child: " + joint->child->text);
    if (joint->at) add("at: " + number(*joint->at));
    if (joint->range) add("range: " + vec(*joint->range));
    if (joint->kp) add("kp: " + number(*joint->kp));
    if (joint->kd) add("kd: " + number(*joint->kd));
    if (joint->torque) add("torque: " + number(*joint->torque));
  } else if (auto* mirror = std::get_if<sx::MirrorStatement>(&statement)) {
    add("mirror " + mirror->first.text + " " + mirror->second.text);
  } else if (auto* group = std::get_if<sx::GroupStatement>(&statement)) {
    std::string text = "group " + group->name.text + ":";
    for (size_t i = 0; i < group->members.size(); ++i)
      text += (i ? ", " : " ") + group->members[i].text;
    add(std::move(text));
  } else if (auto* role = std::get_if<sx::RoleStatement>(&statement)) {
    std::string text = "role " + role->role.text + ":";
    for (size_t i = 0; i < role->members.size(); ++i)
      text += (i ? ", " : " ") + role->members[i].text;
    add(std::move(text));
  }
  return out;
}

std::string poseText(const sx::PoseStatement& pose) {
  std::string first = "pose " + pose.name.text;
  if (pose.description) first += " \"" + *pose.description + "\"";
  std::string second;
  auto add = [&](const std::string& text) { second += (second.empty() ? "" : " ") + text; };
  if (pose.head) add("head: " + number(*pose.head));
  if (pose.support) add("support: " + pose.support->text);
  if (pose.settles) add("settles: " + pose.settles->text);
  for (const sx::PoseAngle& angle : pose.angles) {
    std::string value = angle.flat ? "flat" : "";
    if (angle.value) value += (angle.flat ? " " : "") + number(*angle.value);
    add(angle.joint.text + ": " + value);
  }
  // A pose with nothing on its second line is one line: an indented empty line would turn
  // the comment printed after it into an own-line comment when read again.
  return second.empty() ? first : first + "\n  " + second;
}

int kindOf(const sx::CharacterStatement& statement) { return static_cast<int>(statement.index()); }

const SourceLocation& locationOf(const sx::CharacterStatement& statement) {
  return std::visit([](const auto& s) -> const SourceLocation& { return s.location; }, statement);
}

}  // namespace

std::string printCharacterFile(const sx::CharacterFile& file,
                               const std::vector<Comment>& comments) {
  const auto& statements = file.statements;
  std::vector<int> lines;
  lines.reserve(statements.size());
  for (const auto& statement : statements) lines.push_back(locationOf(statement).line);
  const CommentLayout layout = layOutComments(file.location.line, lines, comments);
  const auto& before = layout.before;
  const auto& after = layout.after;
  const auto& header = layout.header;
  std::string out;
  auto emitBefore = [&](size_t index) {
    for (size_t i = 0; i < before[index].size(); ++i) {
      const Comment* comment = before[index][i];
      if (i > 0 && comment->blankLineBefore && !out.ends_with("\n\n")) out += '\n';
      out += comment->text + '\n';
    }
  };
  auto endLine = [&](size_t index) {
    for (const Comment* comment : after[index]) out += "  " + comment->text;
    out += '\n';
  };
  for (const Comment* comment : header) out += comment->text + '\n';
  out += "character " + file.name.text;
  endLine(0);

  // Runs of consecutive statements of one kind, aligned together.
  size_t k = 0;
  while (k < statements.size()) {
    size_t end = k + 1;
    while (end < statements.size() && kindOf(statements[end]) == kindOf(statements[k]) &&
           before[end + 1].empty())
      ++end;
    out += '\n';
    emitBefore(k + 1);
    std::vector<std::vector<std::string>> rows;
    std::vector<size_t> widths;
    for (size_t i = k; i < end; ++i) {
      rows.push_back(cells(statements[i]));
      for (size_t c = 0; c < rows.back().size(); ++c) {
        if (widths.size() <= c) widths.push_back(0);
        widths[c] = std::max(widths[c], rows.back()[c].size());
      }
    }
    for (size_t i = k; i < end; ++i) {
      if (i > k) emitBefore(i + 1);
      if (auto* pose = std::get_if<sx::PoseStatement>(&statements[i])) {
        out += poseText(*pose);
      } else {
        const std::vector<std::string>& row = rows[i - k];
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
          line += row[c];
          if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 1, ' ');
        }
        out += line;
      }
      endLine(i + 1);
    }
    k = end;
  }
  if (!before.back().empty()) {
    out += '\n';
    emitBefore(before.size() - 1);
  }
  return out;
}

}  // namespace scl
