// The language features of the server, each a function of one document's text and
// analysis that returns the protocol's JSON result: diagnostics, the phase outline,
// definition, references and rename of phases and blocks, hover, completion, formatting
// and semantic tokens. No state of their own: the server (server.h) keeps the documents.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/lsp/analysis.h"
#include "tools/lsp/text_document.h"

namespace scl::lsp {

/// JSON-RPC error codes the server answers with.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
};

/// A request that cannot be answered with a result: becomes the response's error.
class RequestError : public std::runtime_error {
 public:
  RequestError(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  /// The JSON-RPC error code.
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

/// One document as the features see it.
struct DocumentView {
  /// The document's URI (for locations in results).
  const std::string& uri;
  /// The document's name for the front end (its path for a file: URI).
  const std::string& fileName;
  /// Its current text.
  const TextDocument& text;
  /// The front end's analysis of that text.
  const Analysis& analysis;
  /// How the client counts columns.
  PositionEncoding encoding = PositionEncoding::Utf16;
};

/// What the client said it supports (InitializeParams.capabilities).
struct ClientSupport {
  /// Diagnostic.relatedInformation: notes go there (else into the message).
  bool relatedInformation = false;
  /// Markdown in hovers and documentation (else plain text).
  bool markdown = false;
  /// DocumentSymbol[] (else SymbolInformation[]).
  bool hierarchicalSymbols = false;
};

/// JSON of a position and a range.
nlohmann::json toJson(Position position);
nlohmann::json toJson(const Range& range);
/// The range of the token written at a front-end location (empty at a line's end).
Range tokenRange(const DocumentView& document, const SourceLocation& location);
/// The range of `length` bytes from a front-end location.
Range byteRange(const DocumentView& document, const SourceLocation& location, size_t length);

/// `file:` URI of a path and back ("" when `uri` is no file: URI).
std::string fileUri(const std::string& path);
std::string pathOfUri(const std::string& uri);

/// The diagnostics (Diagnostic[]) of the document: errors, warnings and notes of
/// `scl check`; a note goes with the diagnostic before it.
nlohmann::json diagnostics(const DocumentView& document, const ClientSupport& client);

/// textDocument/codeAction: a quick fix for each diagnostic in `range` that says "did you
/// mean 'x'?" about the name it is on (the name replaced by x).
nlohmann::json codeActions(const DocumentView& document, const Range& range,
                           const ClientSupport& client);

/// textDocument/documentSymbol: the scene header, the blocks and the phases (with their
/// exits as detail).
nlohmann::json documentSymbols(const DocumentView& document, const ClientSupport& client);
/// textDocument/definition: where the phase or block named at `position` is defined.
nlohmann::json definition(const DocumentView& document, Position position);
/// textDocument/references.
nlohmann::json references(const DocumentView& document, Position position, bool includeDeclaration);
/// textDocument/prepareRename: the name's range and text, or null.
nlohmann::json prepareRename(const DocumentView& document, Position position);
/// textDocument/rename: a WorkspaceEdit; throws RequestError for a name that cannot be.
nlohmann::json rename(const DocumentView& document, Position position, const std::string& name);
/// textDocument/hover, or null.
nlohmann::json hover(const DocumentView& document, Position position, const ClientSupport& client);
/// textDocument/completion: a CompletionList. `parameters`: the `@` parameters of the
/// document's last version that bound (offered after a typed `@`).
nlohmann::json completion(const DocumentView& document, Position position,
                          const std::vector<Parameter>& parameters);
/// One line on a joint: "range -150° … 0°, kp 300 N·m/rad, kd 30 N·m·s/rad, torque limit
/// 200 N·m".
std::string jointSummary(const Character& character, int joint);
/// One line on a link: "length 0.45 m, mass 28.2 kg".
std::string linkSummary(const Character& character, int link);
/// textDocument/formatting: `scl fmt`'s canonical form as one TextEdit (none when the
/// text is canonical); throws RequestError when the document does not parse.
nlohmann::json formatting(const DocumentView& document);
/// The legend of semanticTokens (token types and modifiers, in index order).
nlohmann::json semanticTokensLegend();
/// textDocument/semanticTokens/full.
nlohmann::json semanticTokens(const DocumentView& document);

}  // namespace scl::lsp
