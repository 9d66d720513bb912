// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>

#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {

// A k-mer's hashed form. The hash is a bijection, so stores keep only this form and recover
// the k-mer from it when they must print it: a k-mer is hashed once, by the parser, and never
// again. The last word (the "routing word") picks the store, the table part and the slot.
template <int Words>
using KmerKey = std::array<std::uint64_t, Words>;

namespace hash_detail {

inline constexpr std::uint64_t kMultiplier = 0xd6e8feb86659fd93ULL;

// The inverse of an odd number modulo 2^64, by Newton's iteration (each step doubles the
// correct low bits: 3, 6, 12, 24, 48, 96).
constexpr std::uint64_t inverse_of(std::uint64_t odd) {
  std::uint64_t inverse = odd;
  for (int i = 0; i < 5; ++i) inverse *= 2 - odd * inverse;
  return inverse;
}
inline constexpr std::uint64_t kInverseMultiplier = inverse_of(kMultiplier);
static_assert(kMultiplier * kInverseMultiplier == 1);

// x ^= x >> 32 undoes itself; multiplication by an odd constant is undone by its inverse.
constexpr std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 32;
  x *= kMultiplier;
  x ^= x >> 32;
  x *= kMultiplier;
  x ^= x >> 32;
  return x;
}
constexpr std::uint64_t unmix(std::uint64_t x) {
  x ^= x >> 32;
  x *= kInverseMultiplier;
  x ^= x >> 32;
  x *= kInverseMultiplier;
  x ^= x >> 32;
  return x;
}
static_assert(unmix(mix(0x0123456789abcdefULL)) == 0x0123456789abcdefULL);

}  // namespace hash_detail

// Each word after the first is mixed with the key's word before it, so the routing word (the
// last) depends on every word of the k-mer.
template <int Words>
constexpr KmerKey<Words> key_of(const PackedKmer<Words>& kmer) {
  KmerKey<Words> key{};
  key[0] = hash_detail::mix(kmer[0]);
  for (std::size_t w = 1; w < static_cast<std::size_t>(Words); ++w) key[w] = hash_detail::mix(kmer[w] ^ key[w - 1]);
  return key;
}

template <int Words>
constexpr PackedKmer<Words> kmer_of(const KmerKey<Words>& key) {
  PackedKmer<Words> kmer{};
  kmer[0] = hash_detail::unmix(key[0]);
  for (std::size_t w = 1; w < static_cast<std::size_t>(Words); ++w) kmer[w] = hash_detail::unmix(key[w]) ^ key[w - 1];
  return kmer;
}

// Which of `stores` stores owns a key: the routing word's high half, scaled (no division).
template <int Words>
constexpr std::uint32_t store_of(const KmerKey<Words>& key, std::uint32_t stores) {
  return static_cast<std::uint32_t>(((key[Words - 1] >> 32) * stores) >> 32);
}

}  // namespace xenon::genomics
