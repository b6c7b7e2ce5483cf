// The state hash of Simulation::stateHash(): FNV-1a over the exact bits of the values
// that make up a state, so equal hashes mean bit-identical states.
#pragma once

#include <cstdint>
#include <cstring>

namespace scl {

inline constexpr std::uint64_t kStateHashSeed = 1469598103934665603ull;

/// Adds `value`'s bytes to `hash`.
template <typename T>
void hashBytes(std::uint64_t& hash, const T& value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 1099511628211ull;  // FNV-1a
  }
}

}  // namespace scl
