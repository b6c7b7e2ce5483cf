" SCL scripts (docs/language.md): *.scl files are filetype scl.
autocmd BufRead,BufNewFile *.scl setfiletype scl
