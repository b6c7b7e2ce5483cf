// Semantic tokens: every token of the document classified by what it names (a keyword, a
// phase, a block, a joint, a link, a scene value, a number or `@` parameter), plus the
// comments, for editors to colour beyond what a TextMate grammar can know.
#include <algorithm>
#include <array>

#include "scl/world.h"
#include "tools/lsp/features.h"
#include "tools/lsp/language_words.h"

namespace scl::lsp {

using nlohmann::json;

namespace {

// Indices into the legend's token types.
enum TokenType : int {
  kKeyword,
  kFunction,
  kEvent,
  kVariable,
  kProperty,
  kEnumMember,
  kNumber,
  kParameter,
  kString,
  kComment,
};
constexpr std::array<std::string_view, 10> kTypes = {
    "keyword",    "function", "event",     "variable", "property",
    "enumMember", "number",   "parameter", "string",   "comment"};
constexpr int kDeclaration = 1;  // the modifier bit of "declaration"

struct Classified {
  size_t offset;
  size_t length;
  int type;
  int modifiers;
};

bool isWord(const Token* token, std::string_view word) {
  return token && token->kind == TokenKind::Identifier && token->text == word;
}
bool isKind(const Token* token, TokenKind kind) { return token && token->kind == kind; }

bool isWorldKey(std::string_view name) {
  for (const WorldKind& kind : worldKinds())
    for (const WorldKey& key : kind.keys)
      if (key.key == name) return true;
  return false;
}

// The type of identifier `i` of `tokens` from its neighbours; -1 when it names nothing known.
std::pair<int, int> classifyName(const Analysis& analysis, const std::vector<Token>& tokens,
                                 size_t i) {
  const Token* before = i > 0 ? &tokens[i - 1] : nullptr;
  const Token* twoBefore = i > 1 ? &tokens[i - 2] : nullptr;
  const Token* after = i + 1 < tokens.size() ? &tokens[i + 1] : nullptr;
  const std::string_view name = tokens[i].text;
  if (isWord(before, "define")) return {kFunction, kDeclaration};
  if (isKind(before, TokenKind::LeftParen) && isKind(twoBefore, TokenKind::LeftBrace))
    return {kEvent, kDeclaration};
  if (isKind(before, TokenKind::LeftParen) && isKind(twoBefore, TokenKind::Colon))
    return {kEvent, 0};
  if (isWord(before, "backto")) return {kEvent, 0};
  if (isKind(before, TokenKind::Colon) &&
      (isWord(twoBefore, "pose") || isWord(twoBefore, "env") || isWord(twoBefore, "character")))
    return {kEnumMember, 0};
  const Character& character = *analysis.character;
  if (isKind(before, TokenKind::LeftBracket) && isKind(after, TokenKind::RightBracket) &&
      std::any_of(analysis.tree.defines.begin(), analysis.tree.defines.end(),
                  [&](const syntax::Define& block) { return block.name.text == name; }))
    return {kFunction, 0};
  if (character.findJoint(name) || !character.findJointGroup(name).empty()) return {kVariable, 0};
  if (character.findLink(name) || !character.findLinkGroup(name).empty()) return {kProperty, 0};
  if (!keywordMeaning(name).empty()) return {kKeyword, 0};
  // A world statement's kind word and its keys (`box crate at: ...`).
  const bool isNamingKind = before && before->kind == TokenKind::Identifier &&
                            findWorldKind(before->text) && before->text != "ground";
  if (findWorldKind(name) && !isKind(before, TokenKind::Colon) && !isNamingKind)
    return {kKeyword, 0};
  if (isKind(after, TokenKind::Colon) && isWorldKey(name)) return {kKeyword, 0};
  return {-1, 0};
}

std::vector<Classified> classify(const DocumentView& document) {
  const std::string_view text = document.text.text();
  const std::vector<Token> tokens = tokensOf(text, 0, text.size());
  std::vector<Classified> out;
  out.reserve(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    int type = -1, modifiers = 0;
    if (token.kind == TokenKind::Identifier)
      std::tie(type, modifiers) = classifyName(document.analysis, tokens, i);
    else if (token.kind == TokenKind::Number)
      type = token.parameter ? kParameter : kNumber;
    else if (token.kind == TokenKind::String)
      type = kString;
    if (type >= 0) out.push_back({offsetIn(text, token), token.text.size(), type, modifiers});
  }
  const size_t tokenCount = out.size();
  for (const Comment& comment : scanComments(text))
    out.push_back({document.text.offsetOf({{}, comment.line, comment.column}), comment.text.size(),
                   kComment, 0});
  std::inplace_merge(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(tokenCount), out.end(),
                     [](const Classified& a, const Classified& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace

json semanticTokensLegend() {
  json types = json::array();
  for (std::string_view type : kTypes) types.push_back(type);
  return {{"tokenTypes", types}, {"tokenModifiers", {"declaration"}}};
}

json semanticTokens(const DocumentView& document) {
  std::vector<int> data;
  if (!document.analysis.characterFile && !document.analysis.statementFile) {
    const std::vector<Classified> classified = classify(document);
    data.reserve(classified.size() * 5);
    Position previous;
    for (const Classified& item : classified) {
      const Position start = document.text.positionAt(item.offset, document.encoding);
      const Position end = document.text.positionAt(item.offset + item.length, document.encoding);
      data.push_back(start.line - previous.line);
      data.push_back(start.line == previous.line ? start.character - previous.character
                                                 : start.character);
      data.push_back(end.character - start.character);
      data.push_back(item.type);
      data.push_back(item.modifiers);
      previous = start;
    }
  }
  return {{"data", data}};
}

}  // namespace scl::lsp
