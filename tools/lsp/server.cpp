#include "tools/lsp/server.h"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>

#include "tools/lsp/analysis.h"
#include "tools/lsp/features.h"
#include "tools/lsp/text_document.h"

namespace scl::lsp {

using nlohmann::json;

namespace {

// LSP TextDocumentSyncKind.Incremental.
constexpr int kSyncIncremental = 2;
// LSP MessageType.Error and Warning (window/logMessage).
constexpr int kLogError = 1;
// Deeper than any message of the protocol; copying a JSON value recurses, so a message
// nested tens of thousands deep would overflow the stack.
constexpr int kMaxNesting = 256;

// Whether JSON text opens more than `limit` arrays and objects inside one another (strings
// skipped); it need not be valid JSON.
bool nestsDeeperThan(std::string_view text, int limit) {
  int depth = 0;
  bool inString = false, escaped = false;
  for (const char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// An open document and what is known about it.
struct Document {
  std::string uri;
  /// What the front end calls it: the path of a file: URI, else the URI.
  std::string fileName;
  TextDocument text;
  int version = 0;
  /// The analysis of the current text; nullopt when the text changed since.
  std::optional<Analysis> analysis;
  /// The `@` parameters of the last version that bound (for completion after `@`).
  std::vector<Parameter> lastParameters;
  /// Its diagnostics wait to be published.
  bool publishPending = true;
};

// A member of a JSON object by path, or nullptr.
const json* member(const json& object, std::initializer_list<const char*> path) {
  const json* at = &object;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    const auto found = at->find(key);
    if (found == at->end()) return nullptr;
    at = &*found;
  }
  return at;
}

bool flag(const json& object, std::initializer_list<const char*> path) {
  const json* value = member(object, path);
  return value && value->is_boolean() && value->get<bool>();
}

int clampedInt(const json& value) {
  if (value.is_number_integer())
    return static_cast<int>(std::clamp<long long>(value.get<long long>(), INT_MIN, INT_MAX));
  if (value.is_number()) {
    const double number = value.get<double>();
    if (number != number) return 0;  // NaN
    return static_cast<int>(std::clamp<double>(number, INT_MIN, INT_MAX));
  }
  throw RequestError(kInvalidParams, "a position's line and character must be numbers");
}

Position positionParam(const json& params) {
  const json* position = member(params, {"position"});
  if (!position || !position->is_object()) throw RequestError(kInvalidParams, "missing 'position'");
  return {clampedInt(position->at("line")), clampedInt(position->at("character"))};
}

std::string uriParam(const json& params) {
  const json* uri = member(params, {"textDocument", "uri"});
  if (!uri || !uri->is_string()) throw RequestError(kInvalidParams, "missing 'textDocument.uri'");
  return uri->get<std::string>();
}

json response(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json errorResponse(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json notification(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace

struct LspServer::Impl {
  std::string version;
  bool initialized = false;
  bool shutdown = false;
  bool exited = false;
  ClientSupport client;
  PositionEncoding encoding = PositionEncoding::Utf16;
  std::map<std::string, Document> documents;

  using Request = json (Impl::*)(const json& params);
  using Notification = void (Impl::*)(const json& params, std::vector<json>& out);

  // --- lifecycle ------------------------------------------------------------------------

  json initialize(const json& params) {
    const json& capabilities = params.is_object() && params.contains("capabilities")
                                   ? params["capabilities"]
                                   : json::object();
    client.relatedInformation =
        flag(capabilities, {"textDocument", "publishDiagnostics", "relatedInformation"});
    client.hierarchicalSymbols =
        flag(capabilities, {"textDocument", "documentSymbol", "hierarchicalDocumentSymbolSupport"});
    if (const json* formats = member(capabilities, {"textDocument", "hover", "contentFormat"});
        formats && formats->is_array())
      client.markdown = std::find(formats->begin(), formats->end(), "markdown") != formats->end();
    if (const json* encodings = member(capabilities, {"general", "positionEncodings"});
        encodings && encodings->is_array() &&
        std::find(encodings->begin(), encodings->end(), "utf-8") != encodings->end())
      encoding = PositionEncoding::Utf8;
    initialized = true;
    json result = {
        {"capabilities",
         {{"positionEncoding", encoding == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
          {"textDocumentSync",
           {{"openClose", true}, {"change", kSyncIncremental}, {"save", false}}},
          {"completionProvider",
           {{"triggerCharacters", {"[", "@", ":", ",", "("}}, {"resolveProvider", false}}},
          {"hoverProvider", true},
          {"definitionProvider", true},
          {"referencesProvider", true},
          {"documentSymbolProvider", true},
          {"renameProvider", {{"prepareProvider", true}}},
          {"documentFormattingProvider", true},
          {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
          {"semanticTokensProvider",
           {{"legend", semanticTokensLegend()}, {"full", true}, {"range", false}}}}},
        {"serverInfo", {{"name", "scl"}, {"version", version}}}};
    return result;
  }

  json shutdownRequest(const json&) {
    shutdown = true;
    return nullptr;
  }

  // --- documents ------------------------------------------------------------------------

  Document& document(const std::string& uri) {
    const auto found = documents.find(uri);
    if (found == documents.end())
      throw RequestError(kInvalidParams, "document '" + uri + "' is not open");
    return found->second;
  }

  const Analysis& analysisOf(Document& document) {
    if (!document.analysis) {
      document.analysis = analyze(document.text.text(), document.fileName);
      if (document.analysis->program)
        document.lastParameters = document.analysis->program->parameters;
    }
    return *document.analysis;
  }

  DocumentView view(Document& document) {
    return {document.uri, document.fileName, document.text, analysisOf(document), encoding};
  }

  void didOpen(const json& params, std::vector<json>&) {
    const json& item = params.at("textDocument");
    const std::string uri = item.at("uri").get<std::string>();
    Document& document = documents[uri];
    document.uri = uri;
    const std::string path = pathOfUri(uri);
    document.fileName = path.empty() ? uri : path;
    document.text.setText(item.at("text").get<std::string>());
    document.version = item.contains("version") ? clampedInt(item["version"]) : 0;
    document.analysis.reset();
    document.publishPending = true;
  }

  void didChange(const json& params, std::vector<json>&) {
    Document& changed = document(uriParam(params));
    if (const json* version = member(params, {"textDocument", "version"});
        version && version->is_number())
      changed.version = clampedInt(*version);
    // Invalidated before any change is applied: a malformed change later in the list throws
    // with the earlier ones applied, and the old analysis's locations would then be read
    // against the new text.
    changed.analysis.reset();
    changed.publishPending = true;
    for (const json& change : params.at("contentChanges")) {
      const std::string& text = change.at("text").get_ref<const std::string&>();
      if (const json* range = member(change, {"range"}); range && range->is_object()) {
        const Position start{clampedInt(range->at("start").at("line")),
                             clampedInt(range->at("start").at("character"))};
        const Position end{clampedInt(range->at("end").at("line")),
                           clampedInt(range->at("end").at("character"))};
        changed.text.replace(changed.text.offsetAt(start, encoding),
                             changed.text.offsetAt(end, encoding), text);
      } else {
        changed.text.setText(text);
      }
    }
  }

  void didClose(const json& params, std::vector<json>& out) {
    const std::string uri = uriParam(params);
    if (documents.erase(uri) > 0)
      out.push_back(notification("textDocument/publishDiagnostics",
                                 {{"uri", uri}, {"diagnostics", json::array()}}));
  }

  void ignore(const json&, std::vector<json>&) {}

  // --- requests on a document -----------------------------------------------------------

  json documentSymbol(const json& params) {
    return documentSymbols(view(document(uriParam(params))), client);
  }
  json definitionRequest(const json& params) {
    return definition(view(document(uriParam(params))), positionParam(params));
  }
  json referencesRequest(const json& params) {
    return references(view(document(uriParam(params))), positionParam(params),
                      flag(params, {"context", "includeDeclaration"}));
  }
  json hoverRequest(const json& params) {
    return hover(view(document(uriParam(params))), positionParam(params), client);
  }
  json completionRequest(const json& params) {
    Document& target = document(uriParam(params));
    return completion(view(target), positionParam(params), target.lastParameters);
  }
  json formattingRequest(const json& params) {
    return formatting(view(document(uriParam(params))));
  }
  json prepareRenameRequest(const json& params) {
    return prepareRename(view(document(uriParam(params))), positionParam(params));
  }
  json renameRequest(const json& params) {
    const json* name = member(params, {"newName"});
    if (!name || !name->is_string()) throw RequestError(kInvalidParams, "missing 'newName'");
    return rename(view(document(uriParam(params))), positionParam(params),
                  name->get<std::string>());
  }
  json codeActionRequest(const json& params) {
    const json* range = member(params, {"range"});
    if (!range || !range->is_object()) throw RequestError(kInvalidParams, "missing 'range'");
    const Range wanted{
        {clampedInt(range->at("start").at("line")), clampedInt(range->at("start").at("character"))},
        {clampedInt(range->at("end").at("line")), clampedInt(range->at("end").at("character"))}};
    return codeActions(view(document(uriParam(params))), wanted, client);
  }
  json semanticTokensRequest(const json& params) {
    return semanticTokens(view(document(uriParam(params))));
  }

  // --- dispatch -------------------------------------------------------------------------

  static Request findRequest(const std::string& method) {
    static constexpr std::pair<std::string_view, Request> kRequests[] = {
        {"initialize", &Impl::initialize},
        {"shutdown", &Impl::shutdownRequest},
        {"textDocument/documentSymbol", &Impl::documentSymbol},
        {"textDocument/definition", &Impl::definitionRequest},
        {"textDocument/references", &Impl::referencesRequest},
        {"textDocument/hover", &Impl::hoverRequest},
        {"textDocument/completion", &Impl::completionRequest},
        {"textDocument/formatting", &Impl::formattingRequest},
        {"textDocument/prepareRename", &Impl::prepareRenameRequest},
        {"textDocument/rename", &Impl::renameRequest},
        {"textDocument/semanticTokens/full", &Impl::semanticTokensRequest},
        {"textDocument/codeAction", &Impl::codeActionRequest},
    };
    for (const auto& [name, handler] : kRequests)
      if (name == method) return handler;
    return nullptr;
  }

  static Notification findNotification(const std::string& method) {
    static constexpr std::pair<std::string_view, Notification> kNotifications[] = {
        {"textDocument/didOpen", &Impl::didOpen},
        {"textDocument/didChange", &Impl::didChange},
        {"textDocument/didClose", &Impl::didClose},
        {"textDocument/didSave", &Impl::ignore},
        {"initialized", &Impl::ignore},
    };
    for (const auto& [name, handler] : kNotifications)
      if (name == method) return handler;
    return nullptr;
  }

  json request(const json& id, const std::string& method, const json& params) {
    if (shutdown) return errorResponse(id, kInvalidRequest, "the server is shut down");
    if (method == "initialize" && initialized)
      return errorResponse(id, kInvalidRequest, "initialize was already called");
    if (!initialized && method != "initialize")
      return errorResponse(id, kServerNotInitialized, "the server is not initialized");
    const Request handler = findRequest(method);
    if (!handler) return errorResponse(id, kMethodNotFound, "unknown method '" + method + "'");
    try {
      return response(id, (this->*handler)(params));
    } catch (const RequestError& error) {
      return errorResponse(id, error.code(), error.what());
    } catch (const json::exception& error) {
      return errorResponse(id, kInvalidParams, std::string("invalid params: ") + error.what());
    } catch (const std::exception& error) {
      return errorResponse(id, kInternalError, error.what());
    }
  }

  void notify(const std::string& method, const json& params, std::vector<json>& out) {
    if (method == "exit") {
      exited = true;
      return;
    }
    if (!initialized || shutdown) return;  // dropped, as the protocol says
    const Notification handler = findNotification(method);
    if (!handler) return;  // unknown notifications ($/cancelRequest, ...) are ignored
    try {
      (this->*handler)(params, out);
    } catch (const std::exception& error) {
      out.push_back(notification(
          "window/logMessage",
          {{"type", kLogError}, {"message", "scl lsp: " + method + ": " + error.what()}}));
    }
  }

  std::vector<json> handle(std::string_view text) {
    std::vector<json> out;
    if (nestsDeeperThan(text, kMaxNesting)) {
      out.push_back(errorResponse(nullptr, kInvalidRequest,
                                  "the message nests arrays and objects deeper than " +
                                      std::to_string(kMaxNesting) + " levels"));
      return out;
    }
    json message = json::parse(text, nullptr, false);
    if (message.is_discarded()) {
      out.push_back(errorResponse(nullptr, kParseError, "the message is no valid JSON"));
      return out;
    }
    const json* method = member(message, {"method"});
    const json* id = member(message, {"id"});
    const bool validId = id && (id->is_string() || id->is_number_integer() || id->is_null());
    if (!message.is_object() || (method && !method->is_string()) || (id && !validId)) {
      out.push_back(errorResponse(validId ? *id : json(nullptr), kInvalidRequest,
                                  "not a JSON-RPC request or notification"));
      return out;
    }
    if (!method) {
      if (!id) out.push_back(errorResponse(nullptr, kInvalidRequest, "a message without 'method'"));
      return out;  // a response to a request of ours: there are none
    }
    const json params = message.contains("params") ? message["params"] : json::object();
    if (id && *method != "exit")
      out.push_back(request(*id, method->get<std::string>(), params));
    else
      notify(method->get<std::string>(), params, out);
    return out;
  }

  std::vector<json> idle() {
    std::vector<json> out;
    for (auto& [uri, document] : documents) {
      if (!document.publishPending) continue;
      document.publishPending = false;
      try {
        const DocumentView current = view(document);
        out.push_back(notification("textDocument/publishDiagnostics",
                                   {{"uri", uri},
                                    {"version", document.version},
                                    {"diagnostics", diagnostics(current, client)}}));
      } catch (const std::exception& error) {
        out.push_back(
            notification("window/logMessage",
                         {{"type", kLogError},
                          {"message", "scl lsp: diagnostics of " + uri + ": " + error.what()}}));
      }
    }
    return out;
  }
};

LspServer::LspServer(std::string version) : impl_(std::make_unique<Impl>()) {
  impl_->version = std::move(version);
}
LspServer::~LspServer() = default;

std::vector<json> LspServer::handle(std::string_view message) {
  try {
    return impl_->handle(message);
  } catch (const std::exception& error) {
    return {
        notification("window/logMessage",
                     {{"type", kLogError}, {"message", std::string("scl lsp: ") + error.what()}})};
  }
}

std::vector<json> LspServer::framingError(const std::string& why) {
  return {errorResponse(nullptr, kParseError, why)};
}

bool LspServer::hasPendingWork() const {
  return std::any_of(impl_->documents.begin(), impl_->documents.end(),
                     [](const auto& entry) { return entry.second.publishPending; });
}

std::vector<json> LspServer::idle() { return impl_->idle(); }

bool LspServer::exited() const { return impl_->exited; }

int LspServer::exitCode() const { return impl_->shutdown ? 0 : 1; }

const std::string* LspServer::documentText(const std::string& uri) const {
  const auto found = impl_->documents.find(uri);
  return found == impl_->documents.end() ? nullptr : &found->second.text.text();
}

std::string serialize(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace scl::lsp
