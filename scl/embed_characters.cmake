# Writes OUTPUT, a C++ file holding every characters/*.character as a built-in character
# (scl/character_file.h: builtinCharacters()). Run by scl/CMakeLists.txt at build time, so
# an edited character file is compiled in by the next build.
#   cmake -DSOURCE_DIR=<repo> -DOUTPUT=<file> -P embed_characters.cmake
file(GLOB files "${SOURCE_DIR}/characters/*.character")
list(SORT files)
set(body "// Generated from characters/*.character by scl/embed_characters.cmake; do not edit.\n")
string(APPEND body "#include \"scl/character_file.h\"\n\nnamespace scl {\n\nnamespace {\n")
set(entries "")
set(index 0)
foreach(file ${files})
  get_filename_component(name ${file} NAME_WE)
  file(READ ${file} text)
  string(APPEND body "constexpr char kSource${index}[] = R\"scl_character(${text})scl_character\";\n")
  string(APPEND entries "    {\"${name}\", kSource${index}},\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND body "constexpr BuiltinCharacter kBuiltins[] = {\n${entries}};\n\n}  // namespace\n\n")
string(APPEND body "std::span<const BuiltinCharacter> builtinCharacters() { return kBuiltins; }\n\n")
string(APPEND body "}  // namespace scl\n")
file(WRITE ${OUTPUT}.tmp "${body}")
# Rewritten only when it changed, so that nothing recompiles needlessly.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
file(REMOVE ${OUTPUT}.tmp)
