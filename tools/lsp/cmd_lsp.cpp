// `scl lsp`: the language server on standard input and output (docs/editors.md).
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <iostream>
#include <string>

#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/lsp/server.h"
#include "tools/lsp/stdio.h"
#include "tools/version.h"

namespace scl {

int sclLspMain(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::cout << "usage: scl lsp [--stdio]\n"
                   "The SCL language server: JSON-RPC (Language Server Protocol) on standard "
                   "input and output, for editors (docs/editors.md).\n"
                   "Exit 0 after the client's shutdown and exit, 1 when the input ends first.\n";
      return kExitOk;
    }
    // Clients that start servers generically pass --stdio; it is the only transport.
    if (std::strcmp(argv[i], "--stdio") == 0) continue;
    std::cerr << "scl lsp: unexpected argument '" << argv[i] << "' (try 'scl lsp --help')\n";
    return kExitUsageError;
  }
  // A client that goes away must end the server with an error, not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  lsp::LspServer server{std::string(kVersion)};
  return lsp::serveStdio(server, STDIN_FILENO, STDOUT_FILENO);
}

}  // namespace scl
