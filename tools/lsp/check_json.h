// `scl check --format json`: diagnostics as JSON for tools and CI annotations, with the
// same token ranges the language server reports (docs/cli.md, "scl check").
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "scl/diagnostics.h"

namespace scl::lsp {

/// One checked file: {"file", "errors", "warnings", "diagnostics": [{"severity", "file",
/// "line", "column", "endLine", "endColumn", "message", "notes": [...]}]}. Lines and
/// columns are 1-based, columns in bytes as in the text output, `endColumn` just past the
/// token; a note goes into the "notes" of the diagnostic before it. `source`: the file's
/// text (for the ranges).
nlohmann::ordered_json checkedFileJson(const std::string& file,
                                       std::span<const Diagnostic> diagnostics,
                                       std::string_view source);

/// A file that could not be checked: {"file", "error": why}.
nlohmann::ordered_json uncheckedFileJson(const std::string& file, const std::string& why);

/// The report of a whole run: {"files": [...], "errors": N, "warnings": N}.
nlohmann::ordered_json checkReportJson(nlohmann::ordered_json files);

}  // namespace scl::lsp
