Content-Length: 90

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"rootUri":null}}Content-Length: 5

{"a":Content-Length: x

Content-Type: a

Content-Length: 9

{not jsonContent-Length: 50

{"jsonrpc":"2.0","id":3,"method":"unknown/method"}Content-Length: 67

{"jsonrpc":"2.0","id":[1],"method":"textDocument/hover","params":7}