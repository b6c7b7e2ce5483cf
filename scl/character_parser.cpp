// The character file parser: one function per grammar rule, on the shared lexer and
// token cursor. The checks of the body are character_builder.cpp's.
#include <array>
#include <string>

#include "scl/character_file.h"
#include "scl/token_cursor.h"

namespace scl {

namespace {

using syntax::CharacterFile;
using syntax::CharacterStatement;
using syntax::GroupStatement;
using syntax::JointStatement;
using syntax::LinkStatement;
using syntax::MirrorStatement;
using syntax::Name;
using syntax::PoseAngle;
using syntax::PoseStatement;
using syntax::RoleStatement;

constexpr std::array<std::string_view, 6> kStatementWords = {"link",  "joint", "mirror",
                                                             "group", "role",  "pose"};

LexerOptions characterLexing() { return {.strings = true}; }

class CharacterParser : private TokenCursor {
 public:
  CharacterParser(TokenStream& tokens, FileName fileName, DiagnosticSink& sink)
      : TokenCursor(tokens, std::move(fileName), sink) {}

  // character-file := "character" NAME { statement }
  CharacterFile parseFile() {
    CharacterFile file;
    if (!isWord("character")) {
      std::string hint;
      if (isKind(TokenKind::Identifier))
        hint = didYouMean(peek().text, std::array<std::string_view, 1>{"character"});
      expectedNear("'character NAME' to begin a character file", peek(), hint);
      skipToStatement();
    } else {
      file.location = location(next());
      if (isKind(TokenKind::Identifier) && !isStatementStart())
        file.name = parseName();
      else
        expectedNear("the character's name after 'character'", peek());
    }
    while (!atEnd()) {
      if (!isKind(TokenKind::Identifier)) {
        expectedNear("a statement (link, joint, mirror, group, role, pose)", peek());
        next();
        skipToStatement();
        continue;
      }
      const Token word = peek();
      std::optional<CharacterStatement> statement;
      if (word.text == "link")
        statement = parseLink();
      else if (word.text == "joint")
        statement = parseJoint();
      else if (word.text == "mirror")
        statement = parseMirror();
      else if (word.text == "group")
        statement = parseGroup();
      else if (word.text == "role")
        statement = parseRole();
      else if (word.text == "pose")
        statement = parsePose();
      else if (word.text == "character") {
        errorAt(word, "a file holds one character: 'character' may appear only at its start");
        next();
        skipToStatement();
        continue;
      } else {
        errorAt(word, "unknown statement '" + quoteToken(word.text) + "'" +
                          didYouMean(word.text, kStatementWords) +
                          " (statements: link, joint, mirror, group, role, pose)");
        next();
        skipToStatement();
        continue;
      }
      if (statement)
        file.statements.push_back(std::move(*statement));
      else
        skipToStatement();
    }
    return file;
  }

 private:
  bool isStatementStart() const {
    if (!isKind(TokenKind::Identifier)) return false;
    for (std::string_view word : kStatementWords)
      if (isWord(word)) return true;
    return isWord("character");
  }
  // Recovery: on to the next statement keyword.
  void skipToStatement() {
    while (!atEnd() && !isStatementStart()) next();
  }
  // After a statement's arguments: the next statement or the end must follow.
  bool expectStatementEnd(std::string_view what, std::span<const ArgSpec> specs) {
    if (atEnd() || isStatementStart()) return true;
    std::string hint;
    if (isKind(TokenKind::Identifier)) {
      hint = didYouMean(peek().text, argNames(specs));
      if (hint.empty()) hint = didYouMean(peek().text, kStatementWords);  // `miror leftArm ...`
    }
    expectedNear("an argument of " + std::string(what) + " or the next statement", peek(), hint);
    return false;
  }
  std::optional<Name> parseNameAfter(std::string_view what) {
    if (!isKind(TokenKind::Identifier) || isStatementStart()) {
      expectedNear(what, peek());
      return std::nullopt;
    }
    return parseName();
  }

  // link := "link" NAME { "length:" NUM | "thickness:" vec | "mass:" NUM | "density:" NUM }
  std::optional<CharacterStatement> parseLink() {
    LinkStatement link;
    link.location = location(next());
    auto name = parseNameAfter("a link name after 'link'");
    if (!name) return std::nullopt;
    link.name = *name;
    std::array<ArgSpec, 4> specs = {{
        {"length", true, "a length (metres)", nullptr, &link.length, nullptr},
        {"thickness", true, "the cap diameters (proximal, distal) in metres", nullptr, nullptr,
         &link.thickness},
        {"mass", true, "a mass (kilograms)", nullptr, &link.mass, nullptr},
        {"density", true, "a density (kilograms per square metre)", nullptr, &link.density,
         nullptr},
    }};
    if (!parseArgs(specs, "link") || !expectStatementEnd("link", specs)) return std::nullopt;
    return link;
  }

  // joint := "joint" NAME { "parent:" NAME | "child:" NAME | "at:" NUM | "range:" vec |
  //                         "kp:" NUM | "kd:" NUM | "torque:" NUM }
  std::optional<CharacterStatement> parseJoint() {
    JointStatement joint;
    joint.location = location(next());
    auto name = parseNameAfter("a joint name after 'joint'");
    if (!name) return std::nullopt;
    joint.name = *name;
    std::array<ArgSpec, 7> specs = {{
        {"parent", true, "a link name", &joint.parent, nullptr, nullptr},
        {"child", true, "a link name", &joint.child, nullptr, nullptr},
        {"at", true, "a distance along the parent (metres)", nullptr, &joint.at, nullptr},
        {"range", true, "the limits (min, max) in degrees", nullptr, nullptr, &joint.range},
        {"kp", true, "a stiffness (N·m/rad)", nullptr, &joint.kp, nullptr},
        {"kd", true, "a damping (N·m·s/rad)", nullptr, &joint.kd, nullptr},
        {"torque", true, "a torque limit (N·m)", nullptr, &joint.torque, nullptr},
    }};
    if (!parseArgs(specs, "joint") || !expectStatementEnd("joint", specs)) return std::nullopt;
    return joint;
  }

  // mirror := "mirror" NAME NAME
  std::optional<CharacterStatement> parseMirror() {
    MirrorStatement mirror;
    mirror.location = location(next());
    auto first = parseNameAfter("a left link or joint after 'mirror'");
    if (!first) return std::nullopt;
    auto second = parseNameAfter("its right mirror image after '" + first->text + "'");
    if (!second) return std::nullopt;
    mirror.first = *first;
    mirror.second = *second;
    return mirror;
  }

  // group := "group" NAME ":" NAME { "," NAME }
  std::optional<CharacterStatement> parseGroup() {
    GroupStatement group;
    group.location = location(next());
    auto name = parseNameAfter("a group name after 'group'");
    if (!name) return std::nullopt;
    group.name = *name;
    if (!expectColonAfter(group.name.text)) return std::nullopt;
    while (true) {
      auto member = parseNameAfter("a link or joint name in group '" + group.name.text + "'");
      if (!member) return std::nullopt;
      group.members.push_back(*member);
      if (!isKind(TokenKind::Comma)) break;
      next();
    }
    return group;
  }

  // role := "role" NAME ":" NAME { "," NAME }
  std::optional<CharacterStatement> parseRole() {
    RoleStatement role;
    role.location = location(next());
    auto name = parseNameAfter("a role after 'role' (" + std::string(kRoleNamesText) + ")");
    if (!name) return std::nullopt;
    role.role = *name;
    if (!expectColonAfter(role.role.text)) return std::nullopt;
    while (true) {
      auto member = parseNameAfter("a link or joint name in role '" + role.role.text + "'");
      if (!member) return std::nullopt;
      role.members.push_back(*member);
      if (!isKind(TokenKind::Comma)) break;
      next();
    }
    return role;
  }

  // pose := "pose" NAME [STRING] { "head:" NUM | "support:" NAME | "settles:" NAME |
  //                                JOINT ":" angle }
  // angle := NUM | "flat" [NUM]
  std::optional<CharacterStatement> parsePose() {
    PoseStatement pose;
    pose.location = location(next());
    auto name = parseNameAfter("a pose name after 'pose'");
    if (!name) return std::nullopt;
    pose.name = *name;
    if (isKind(TokenKind::String)) {
      const std::string_view quoted = next().text;
      pose.description = std::string(quoted.substr(1, quoted.size() - 2));
    }
    while (isKind(TokenKind::Identifier) && !isStatementStart()) {
      if (!isKind(TokenKind::Colon, 1)) {
        expectedNear("':' after '" + quoteToken(peek(1).text) + "'", peek(1));
        return std::nullopt;
      }
      const Name key = parseName();
      next();  // ':'
      if (key.text == "head") {
        if (pose.head) return duplicate(key), std::nullopt;
        pose.head = parseNumber("the head's world angle (degrees) after 'head:'");
        if (!pose.head) return std::nullopt;
      } else if (key.text == "support" || key.text == "settles") {
        std::optional<Name>& slot = key.text == "support" ? pose.support : pose.settles;
        if (slot) return duplicate(key), std::nullopt;
        slot = parseNameAfter(key.text == "support" ? "'ground' or 'seat' after 'support:'"
                                                    : "'yes' or 'no' after 'settles:'");
        if (!slot) return std::nullopt;
      } else {
        PoseAngle angle;
        angle.joint = key;
        if (isWord("flat")) {
          next();
          angle.flat = true;
          if (isKind(TokenKind::Number)) angle.value = parseNumber("");
        } else {
          angle.value =
              parseNumber("an angle (degrees) or 'flat' after '" + quoteToken(key.text) + ":'");
          if (!angle.value) return std::nullopt;
        }
        pose.angles.push_back(std::move(angle));
      }
    }
    if (!atEnd() && !isStatementStart()) {
      expectedNear("a pose argument (head:, support:, settles:, JOINT:) or the next statement",
                   peek());
      return std::nullopt;
    }
    return pose;
  }

  void duplicate(const Name& key) {
    sink().error(key.location, "duplicate argument '" + key.text + ":'");
  }
};

}  // namespace

CharacterParseResult parseCharacterFile(std::string_view source, std::string_view fileName) {
  DiagnosticSink sink;
  const FileName file(fileName);
  TokenStream tokens(source, file, sink, characterLexing());
  CharacterParseResult result;
  result.file = CharacterParser(tokens, file, sink).parseFile();
  result.diagnostics = sink.take();
  return result;
}

}  // namespace scl
