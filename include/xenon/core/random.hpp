// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>

namespace xenon {

/// An unsigned 128-bit integer (GCC and Clang on 64-bit targets).
__extension__ using Uint128 = unsigned __int128;

/// SplitMix64: advances `state` and returns a well-mixed word; turns any seed, even 0 or
/// consecutive integers, into good generator state. \threads Any thread, on its own state.
inline std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// xoshiro256** (Blackman and Vigna): a fast generator with 256 bits of state, good enough
/// for choosing targets and sampling. Not for cryptography.
/// \threads One thread per generator (give each actor or thread its own).
class Random {
 public:
  /// A generator whose sequence is fixed by `seed`.
  explicit Random(std::uint64_t seed) noexcept {
    for (auto& word : state_) word = splitmix64(seed);
  }

  /// The next 64 random bits.
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotate_left(state_[3], 45);
    return result;
  }

  /// Uniform in [0, bound) for bound >= 1, by Lemire's multiply-and-shift with rejection of
  /// the biased low range, so no division on the common path.
  std::uint64_t below(std::uint64_t bound) noexcept {
    Uint128 product = static_cast<Uint128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = -bound % bound;
      while (low < threshold) {
        product = static_cast<Uint128>(next()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

 private:
  static std::uint64_t rotate_left(std::uint64_t x, int k) noexcept {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t state_[4] = {};  // filled by the constructor; zeroed first for the analysers
};

}  // namespace xenon
