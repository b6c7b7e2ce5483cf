" SCL scripts (docs/language.md) and world files (docs/scene.md): *.scl and *.world files
" are filetype scl.
autocmd BufRead,BufNewFile *.scl,*.world setfiletype scl
