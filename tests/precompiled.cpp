// The translation unit that builds the test units' precompiled headers (tests/CMakeLists.txt,
// target scl_test_headers): CMake compiles them before this file, which has nothing of its own.
