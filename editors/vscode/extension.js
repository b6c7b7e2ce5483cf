// The SCL extension's client: starts `scl lsp` (docs/editors.md) for SCL scripts and
// character files. The setting `scl.path` names the scl program.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('scl').get('path', 'scl');
  const server = { command, args: ['lsp'] };
  client = new LanguageClient('scl', 'SCL', { run: server, debug: server }, {
    documentSelector: [
      { scheme: 'file', language: 'scl' },
      { scheme: 'untitled', language: 'scl' },
      { scheme: 'file', language: 'scl-character' },
    ],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
