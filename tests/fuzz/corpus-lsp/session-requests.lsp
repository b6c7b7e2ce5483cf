Content-Length: 90

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"rootUri":null}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 237

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.scl","languageId":"scl","version":1,"text":"scene pose: standing\n{\n  (a)\n  [knees 10, hips -5 time: 0.3]\n  [symm]\n} -> a when time 1\n"}}}Content-Length: 142

{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":3,"character":4}}}Content-Length: 147

{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":3,"character":3}}}Content-Length: 147

{"jsonrpc":"2.0","id":4,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":5,"character":6}}}Content-Length: 185

{"jsonrpc":"2.0","id":5,"method":"textDocument/references","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":2,"character":4},"context":{"includeDeclaration":true}}}Content-Length: 115

{"jsonrpc":"2.0","id":6,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///w/a.scl"}}}Content-Length: 155

{"jsonrpc":"2.0","id":7,"method":"textDocument/formatting","params":{"textDocument":{"uri":"file:///w/a.scl"},"options":{"tabSize":2,"insertSpaces":true}}}Content-Length: 150

{"jsonrpc":"2.0","id":8,"method":"textDocument/prepareRename","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":2,"character":4}}}Content-Length: 157

{"jsonrpc":"2.0","id":9,"method":"textDocument/rename","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":2,"character":4},"newName":"b"}}Content-Length: 121

{"jsonrpc":"2.0","id":10,"method":"textDocument/semanticTokens/full","params":{"textDocument":{"uri":"file:///w/a.scl"}}}Content-Length: 215

{"jsonrpc":"2.0","id":11,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///w/a.scl"},"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":0}},"context":{"diagnostics":[]}}}Content-Length: 227

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/a.scl","version":2},"contentChanges":[{"range":{"start":{"line":3,"character":10},"end":{"line":3,"character":12}},"text":"kneez"}]}}Content-Length: 142

{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":3,"character":4}}}Content-Length: 147

{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":3,"character":3}}}Content-Length: 147

{"jsonrpc":"2.0","id":4,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":5,"character":6}}}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}