// `scl lsp`'s transport: JSON-RPC messages framed with Content-Length on two file
// descriptors (standard input and output), around an LspServer.
#pragma once

#include <string>

namespace scl::lsp {

class LspServer;

/// Serves messages read from `in` and writes the answers to `out` until the `exit`
/// notification or the end of input. Returns the exit code: 0 after `shutdown` and
/// `exit`, 1 when the input ended or `exit` came without `shutdown`, or the output failed.
int serveStdio(LspServer& server, int in, int out);

}  // namespace scl::lsp
