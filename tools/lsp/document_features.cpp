// The features of a document as a whole: position helpers, diagnostics and formatting.
#include <cctype>
#include <filesystem>

#include "scl/character_file.h"
#include "scl/parser.h"
#include "scl/printer.h"
#include "scl/world.h"
#include "tools/lsp/features.h"

namespace scl::lsp {

using nlohmann::json;

json toJson(Position position) {
  return {{"line", position.line}, {"character", position.character}};
}

json toJson(const Range& range) {
  return {{"start", toJson(range.start)}, {"end", toJson(range.end)}};
}

Range byteRange(const DocumentView& document, const SourceLocation& location, size_t length) {
  const size_t begin = document.text.offsetOf(location);
  return {document.text.positionAt(begin, document.encoding),
          document.text.positionAt(begin + length, document.encoding)};
}

Range tokenRange(const DocumentView& document, const SourceLocation& location) {
  if (location.line <= 0) return {};
  const size_t begin = document.text.offsetOf(location);
  return byteRange(document, location, tokenLengthAt(document.text.text(), begin));
}

namespace {

bool unreserved(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' ||
         c == '~' || c == '/';
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int severityCode(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return 1;
    case Severity::Warning:
      return 2;
    case Severity::Note:
      return 3;
  }
  return 1;
}

// "file:line:col: " for a location in another file (or of the whole file: "file: ").
std::string locationPrefix(const SourceLocation& location) {
  std::string out = location.file.str();
  if (location.line > 0)
    out += ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
  return out + ": ";
}

// A path made absolute (from the working directory, as the front end read it).
std::string absolute(const std::string& path) {
  std::error_code error;
  const std::filesystem::path full = std::filesystem::absolute(path, error);
  return error ? path : full.string();
}

}  // namespace

std::string fileUri(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "file://";
  for (char c : path) {
    if (unreserved(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

std::string pathOfUri(const std::string& uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.compare(0, kScheme.size(), kScheme) != 0) return "";
  std::string_view rest = std::string_view(uri).substr(kScheme.size());
  // file://host/path: the authority (usually empty, sometimes localhost) is no part of it.
  const size_t slash = rest.find('/');
  rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hexValue(rest[i + 1]) >= 0 &&
        hexValue(rest[i + 2]) >= 0) {
      path += static_cast<char>(hexValue(rest[i + 1]) * 16 + hexValue(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

json diagnostics(const DocumentView& document, const ClientSupport& client) {
  json out = json::array();
  const auto inThisFile = [&](const SourceLocation& location) {
    return location.file == document.fileName;
  };
  for (const Diagnostic& diagnostic : document.analysis.diagnostics) {
    const bool here = inThisFile(diagnostic.location);
    if (diagnostic.severity == Severity::Note && !out.empty()) {
      // A note explains the diagnostic before it ("'[' opened here", a character file's
      // own errors): related information, or a line of its message.
      json& parent = out.back();
      if (client.relatedInformation) {
        const std::string uri = here ? document.uri : fileUri(absolute(diagnostic.location.file));
        // Another file's range cannot be converted from this text: its line start.
        const Range range = here ? tokenRange(document, diagnostic.location)
                                 : Range{{std::max(diagnostic.location.line - 1, 0), 0},
                                         {std::max(diagnostic.location.line - 1, 0), 0}};
        parent["relatedInformation"].push_back(
            {{"location", {{"uri", uri}, {"range", toJson(range)}}},
             {"message", diagnostic.message}});
      } else {
        parent["message"] = parent["message"].get<std::string>() + "\n" +
                            locationPrefix(diagnostic.location) + "note: " + diagnostic.message;
      }
      continue;
    }
    json item = {
        {"range", toJson(here ? tokenRange(document, diagnostic.location) : Range{})},
        {"severity", severityCode(diagnostic.severity)},
        {"source", "scl"},
        {"message", (here ? "" : locationPrefix(diagnostic.location)) + diagnostic.message}};
    // The warning's kind: what an `// allow: KIND` comment names to silence it.
    if (diagnostic.kind) item["code"] = warningKindName(*diagnostic.kind);
    out.push_back(std::move(item));
  }
  return out;
}

namespace {

bool before(Position a, Position b) {
  return a.line != b.line ? a.line < b.line : a.character <= b.character;
}

Position positionOfJson(const json& position) {
  return {position.at("line").get<int>(), position.at("character").get<int>()};
}

}  // namespace

json codeActions(const DocumentView& document, const Range& range, const ClientSupport& client) {
  constexpr std::string_view kHint = "did you mean '";
  json out = json::array();
  for (const json& diagnostic : diagnostics(document, client)) {
    const std::string& message = diagnostic["message"].get_ref<const std::string&>();
    const size_t hint = message.find(kHint);
    const size_t end = hint == std::string::npos ? hint : message.find("'?", hint + kHint.size());
    if (end == std::string::npos) continue;
    const std::string suggestion = message.substr(hint + kHint.size(), end - hint - kHint.size());
    const Range at{positionOfJson(diagnostic["range"]["start"]),
                   positionOfJson(diagnostic["range"]["end"])};
    if (!before(at.start, range.end) || !before(range.start, at.end)) continue;
    // Only where the diagnostic is on the name it quotes: that name is what is replaced.
    const size_t from = document.text.offsetAt(at.start, document.encoding);
    const std::string written =
        document.text.text().substr(from, document.text.offsetAt(at.end, document.encoding) - from);
    if (written.empty() || written == suggestion ||
        message.find("'" + written + "'") == std::string::npos)
      continue;
    std::string title = "Change '";
    title.append(written).append("' to '").append(suggestion).append("'");
    json edit = {{"range", diagnostic["range"]}, {"newText", suggestion}};
    out.push_back({{"title", std::move(title)},
                   {"kind", "quickfix"},
                   {"diagnostics", json::array({diagnostic})},
                   {"isPreferred", true},
                   {"edit", {{"changes", {{document.uri, json::array({std::move(edit)})}}}}}});
  }
  return out;
}

json formatting(const DocumentView& document) {
  const std::string& source = document.text.text();
  std::string formatted;
  std::vector<Diagnostic> problems;
  if (document.analysis.statementFile)
    throw RequestError(kRequestFailed,
                       "objective and problem files have no canonical form to format");
  if (document.analysis.worldFile) {
    WorldFileParse parsed = parseWorldFile(source, document.fileName);
    problems = std::move(parsed.diagnostics);
    if (!hasErrors(problems)) formatted = printWorldFile(parsed.file, scanComments(source));
  } else if (document.analysis.characterFile) {
    CharacterParseResult parsed = parseCharacterFile(source, document.fileName);
    problems = std::move(parsed.diagnostics);
    if (!hasErrors(problems)) formatted = printCharacterFile(parsed.file, scanComments(source));
  } else {
    ParseResult parsed = parse(source, document.fileName);
    problems = std::move(parsed.diagnostics);
    if (!hasErrors(problems)) formatted = print(parsed.script, scanComments(source));
  }
  if (hasErrors(problems)) {
    int errors = 0;
    for (const Diagnostic& problem : problems) errors += problem.severity == Severity::Error;
    throw RequestError(kRequestFailed, "cannot format: the document has " + std::to_string(errors) +
                                           (errors == 1 ? " syntax error" : " syntax errors"));
  }
  if (formatted == source) return json::array();
  const Range whole{{0, 0}, document.text.end(document.encoding)};
  return json::array({{{"range", toJson(whole)}, {"newText", formatted}}});
}

}  // namespace scl::lsp
