// Runs a libFuzzer target's LLVMFuzzerTestOneInput on given files, without libFuzzer: the
// normal build's regression tests replay every seed corpus and every input a fuzzer ever
// found (tests/fuzz/regressions-*/) through the target's own invariants. A broken invariant
// aborts, so the test fails; the file being replayed is printed first to name it.
//
//   replay_fuzz_TARGET FILE_OR_DIRECTORY...
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> inputsOf(const std::filesystem::path& path) {
  if (!std::filesystem::is_directory(path)) return {path};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(path))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
      for (const std::filesystem::path& file : inputsOf(argv[i])) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
          std::cerr << "replay: cannot read " << file.string() << '\n';
          return 1;
        }
        const std::string bytes{std::istreambuf_iterator<char>(in), {}};
        std::cout << "replay: " << file.string() << std::endl;
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
        ++replayed;
      }
    }
    if (replayed == 0) {
      std::cerr << "replay: no input files\n";
      return 1;
    }
    std::cout << "replay: " << replayed << " inputs, every invariant held\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "replay: " << error.what() << '\n';
    return 1;
  }
}
