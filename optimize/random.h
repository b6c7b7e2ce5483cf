// A small deterministic random number generator: xoshiro256** seeded by splitmix64, with
// a Marsaglia polar normal generator written here.
//
// The standard library's distributions (std::normal_distribution, ...) are
// implementation-defined, so the optimizer uses this instead: the sequence depends only on
// the seed and is identical on every standard library. The full state is plain data so a
// checkpoint can store and restore it exactly.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace scl {

/// splitmix64 step: used to expand one 64-bit seed into xoshiro's 256-bit state.
inline uint64_t splitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The complete state of a Random, for checkpoints.
struct RandomState {
  /// xoshiro256** state words.
  std::array<uint64_t, 4> words{};
  /// The second value of the last polar pair, returned by the next normal() call.
  double spareNormal = 0.0;
  /// Whether spareNormal holds an unused value.
  bool hasSpareNormal = false;
  bool operator==(const RandomState&) const = default;
};

/// xoshiro256** (Blackman & Vigna) with uniform and standard normal samples.
class Random {
 public:
  explicit Random(uint64_t seed = 1) {
    uint64_t sm = seed;
    for (uint64_t& word : state_.words) word = splitMix64(sm);
  }

  /// Next raw 64-bit value.
  uint64_t next() {
    auto& s = state_.words;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }

  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  /// Standard normal N(0, 1) by Marsaglia's polar method (pairs; the spare is cached).
  double normal() {
    if (state_.hasSpareNormal) {
      state_.hasSpareNormal = false;
      return state_.spareNormal;
    }
    double u = 0.0, v = 0.0, s = 0.0;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    state_.spareNormal = v * factor;
    state_.hasSpareNormal = true;
    return u * factor;
  }

  const RandomState& state() const { return state_; }
  void setState(const RandomState& state) { state_ = state; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  RandomState state_;
};

}  // namespace scl
