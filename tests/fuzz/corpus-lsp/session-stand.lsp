Content-Length: 90

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"rootUri":null}}Content-Length: 681

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.scl","languageId":"scl","version":1,"text":"// Quiet stance: stand still for 10 s.\n//\n// The legs and trunk track upright targets, the ankles are relaxed so that stance\n// balance (the centre of mass over the middle of the feet) and gravity compensation\n// decide their torques \u2014 the same composition as the last phase of sit-to-stand.\n// outcome: mark stand\nscene pose: standing env: flat duration: 10\n{\n  (quiet_stance)\n  [necks 0, waist 0, hips 0, knees 0 time: 0.5]\n  [relax ankles strength 0.1]\n  [vf sb(600, 300) on: trunk, by: leftAnkle]\n  [symm]\n  [gc]\n}\n"}}}Content-Length: 142

{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/a.scl"},"position":{"line":3,"character":4}}}Content-Length: 155

{"jsonrpc":"2.0","id":7,"method":"textDocument/formatting","params":{"textDocument":{"uri":"file:///w/a.scl"},"options":{"tabSize":2,"insertSpaces":true}}}Content-Length: 45

{"jsonrpc":"2.0","id":99,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}