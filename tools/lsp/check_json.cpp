#include "tools/lsp/check_json.h"

#include "tools/lsp/analysis.h"
#include "tools/lsp/text_document.h"

namespace scl::lsp {

using json = nlohmann::ordered_json;

namespace {

json located(const Diagnostic& diagnostic, const TextDocument& text, const std::string& file) {
  json out = {{"file", diagnostic.location.file.empty() ? file : diagnostic.location.file.str()},
              {"line", diagnostic.location.line},
              {"column", diagnostic.location.column}};
  // The range of the token, for a location in this file (another file's text is not here).
  if (diagnostic.location.line > 0 &&
      (diagnostic.location.file.empty() || diagnostic.location.file == file)) {
    const size_t begin = text.offsetOf(diagnostic.location);
    const size_t length = tokenLengthAt(text.text(), begin);
    out["endLine"] = diagnostic.location.line;
    out["endColumn"] = diagnostic.location.column + static_cast<int>(length);
  }
  if (diagnostic.severity != Severity::Note) out["severity"] = severityName(diagnostic.severity);
  out["message"] = diagnostic.message;
  if (diagnostic.kind) out["kind"] = warningKindName(*diagnostic.kind);
  return out;
}

}  // namespace

json checkedFileJson(const std::string& file, std::span<const Diagnostic> diagnostics,
                     std::string_view source) {
  const TextDocument text{std::string(source)};
  json list = json::array();
  int errors = 0, warnings = 0;
  for (const Diagnostic& diagnostic : diagnostics) {
    errors += diagnostic.severity == Severity::Error;
    warnings += diagnostic.severity == Severity::Warning;
    json item = located(diagnostic, text, file);
    if (diagnostic.severity == Severity::Note && !list.empty()) {
      list.back()["notes"].push_back(std::move(item));
      continue;
    }
    // A note with no diagnostic before it stands alone.
    if (diagnostic.severity == Severity::Note) item["severity"] = "note";
    item["notes"] = json::array();
    list.push_back(std::move(item));
  }
  return {{"file", file}, {"errors", errors}, {"warnings", warnings}, {"diagnostics", list}};
}

json uncheckedFileJson(const std::string& file, const std::string& why) {
  return {{"file", file}, {"error", why}};
}

json checkReportJson(json files) {
  int errors = 0, warnings = 0;
  for (const json& file : files) {
    errors += file.value("errors", 0) + (file.contains("error") ? 1 : 0);
    warnings += file.value("warnings", 0);
  }
  return {{"files", std::move(files)}, {"errors", errors}, {"warnings", warnings}};
}

}  // namespace scl::lsp
