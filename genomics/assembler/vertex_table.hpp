// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/linear_probing.hpp"
#include "genomics/kmer/page_array.hpp"

namespace xenon::genomics {

// The edges of a vertex (a canonical k-mer), one bit per neighbour: bits 0-3 the k-mers after
// it (its last k-1 bases, then A, C, G or T), bits 4-7 the k-mers before it (A, C, G or T,
// then its first k-1 bases). Read in the reverse-complement orientation, the k-mer after it
// by base b is the complement of the one before it by base 3 - b.
struct VertexEdges {
  static std::uint8_t reverse_nibble(std::uint8_t bits) {
    return static_cast<std::uint8_t>(((bits & 1) << 3) | ((bits & 2) << 1) | ((bits & 4) >> 1) |
                                     ((bits & 8) >> 3));
  }
  // The 4-bit set of bases b such that the k-mer, read forward or reversed, goes on with b.
  static std::uint8_t after(std::uint8_t edges, bool reversed) {
    return reversed ? reverse_nibble(static_cast<std::uint8_t>(edges >> 4))
                    : static_cast<std::uint8_t>(edges & 15);
  }
  // The 4-bit set of bases b that can come before it, read forward or reversed.
  static std::uint8_t before(std::uint8_t edges, bool reversed) {
    return reversed ? reverse_nibble(static_cast<std::uint8_t>(edges & 15))
                    : static_cast<std::uint8_t>(edges >> 4);
  }
  static int degree(std::uint8_t nibble) { return std::popcount(nibble); }
};

// The solid k-mers of one store, by hashed key: open addressing with linear probing over
// slots that hold a key with its count, edges and visited mark (one cache line access per
// probe). A slot's index names its vertex for the store's lifetime; the table is filled once
// and never grows.
template <int Words>
class VertexTable {
 public:
  using Key = KmerKey<Words>;
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

  explicit VertexTable(std::size_t vertices = 0)
      : probing_(vertices), slots_(probing_.slots()) {}  // zero bytes: count 0 marks an empty slot

  // Each key once: the stores insert the distinct k-mers they counted.
  void insert(const Key& key, std::uint64_t count) {
    const std::size_t slot = probing_.probe(home(key), [&](std::size_t at) { return empty(at); },
                                            [](std::size_t) { return false; });
    slots_[slot].key = key;
    slots_[slot].count = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(count, 1, std::numeric_limits<std::uint32_t>::max()));
  }

  std::uint32_t find(const Key& key) const {
    const std::size_t slot = probing_.probe(home(key), [&](std::size_t at) { return empty(at); },
                                            [&](std::size_t at) { return same_words<Words>(slots_[at].key, key); });
    return empty(slot) ? kAbsent : static_cast<std::uint32_t>(slot);
  }

  // Where a key's search starts, for prefetching.
  const void* home_address(const Key& key) const { return &slots_[probing_.home(home(key))]; }

  std::size_t slots() const { return slots_.size(); }
  bool occupied(std::size_t slot) const { return !empty(slot); }
  const Key& key(std::size_t slot) const { return slots_[slot].key; }
  std::uint32_t count(std::size_t slot) const { return slots_[slot].count; }
  std::uint8_t edges(std::size_t slot) const { return slots_[slot].edges; }
  void add_edge(std::size_t slot, int bit) {
    slots_[slot].edges = static_cast<std::uint8_t>(slots_[slot].edges | (1u << bit));
  }
  bool visited(std::size_t slot) const { return slots_[slot].visited != 0; }
  void mark_visited(std::size_t slot) { slots_[slot].visited = 1; }

 private:
  struct Slot {
    Key key{};
    std::uint32_t count = 0;
    std::uint8_t edges = 0;
    std::uint8_t visited = 0;
  };

  // Keys are hashes already: their bits spread evenly.
  static std::uint64_t home(const Key& key) { return key[Words - 1]; }
  bool empty(std::size_t slot) const { return slots_[slot].count == 0; }

  LinearProbing probing_;
  PageArray<Slot> slots_;  // in huge pages where the system gives them: looked up at random
};

}  // namespace xenon::genomics
