// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "genomics/kmer/linear_probing.hpp"

namespace xenon::genomics {

// A junction's k-1 bases read one way, two bits a base in up to four words (k <= 127): made
// and compared without allocating a string.
using JunctionKey = std::array<std::uint64_t, 4>;

inline std::size_t hash_junction(const JunctionKey& key) noexcept {
  std::uint64_t hash = 0;
  for (const std::uint64_t word : key) {
    hash = (hash ^ word) * 0x9E3779B97F4A7C15ULL;
    hash ^= hash >> 29;
  }
  return static_cast<std::size_t>(hash);
}

// The oriented unitigs at each junction, in the order they were added, in flat arrays (a
// table of 4-byte slots probed as linear_probing.hpp says, the distinct junctions, and one
// list of unitigs) instead of a node and a vector per junction: node 0 builds this index
// again after every change to the graph, and allocating for each junction was most of that
// time.
class JunctionIndex {
 public:
  JunctionIndex() = default;

  // `entries`: (junction, oriented unitig) pairs; a junction's unitigs keep their order here.
  explicit JunctionIndex(const std::vector<std::pair<JunctionKey, std::size_t>>& entries) : probing_(entries.size()) {
    if (entries.size() >= kEmpty) throw std::length_error("more than 2^32 - 1 unitig ends at junctions");
    slots_.assign(probing_.slots(), kEmpty);
    junctions_.reserve(entries.size());
    for (const auto& [key, oriented] : entries) ++junction_for(key).count;
    std::uint32_t next = 0;
    for (Junction& junction : junctions_) {
      junction.first = next;
      next += junction.count;
      junction.count = 0;  // counted again as the unitigs are placed
    }
    unitigs_.resize(entries.size());
    for (const auto& [key, oriented] : entries) {
      Junction& junction = junction_for(key);
      unitigs_[junction.first + junction.count++] = oriented;
    }
  }

  // The unitigs at `key`; empty when none.
  std::span<const std::size_t> at(const JunctionKey& key) const {
    if (slots_.empty()) return {};
    const std::uint32_t found = slots_[slot_of(key)];
    if (found == kEmpty) return {};
    return std::span<const std::size_t>(unitigs_).subspan(junctions_[found].first, junctions_[found].count);
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Junction {
    JunctionKey key{};
    std::uint32_t first = 0;  // where its unitigs begin in unitigs_
    std::uint32_t count = 0;
  };

  // The slot that holds `key`, or the empty one where it goes (the slots are twice the
  // entries, so one is always found).
  std::size_t slot_of(const JunctionKey& key) const {
    return probing_.probe(
        hash_junction(key), [this](std::size_t slot) { return slots_[slot] == kEmpty; },
        [this, &key](std::size_t slot) { return junctions_[slots_[slot]].key == key; });
  }

  // The junction of `key`, added if it is new.
  Junction& junction_for(const JunctionKey& key) {
    const std::size_t slot = slot_of(key);
    if (slots_[slot] == kEmpty) {
      slots_[slot] = static_cast<std::uint32_t>(junctions_.size());
      junctions_.push_back(Junction{key, 0, 0});
    }
    return junctions_[slots_[slot]];
  }

  LinearProbing probing_;
  std::vector<std::uint32_t> slots_;  // an index into junctions_, or kEmpty
  std::vector<Junction> junctions_;
  std::vector<std::size_t> unitigs_;
};

}  // namespace xenon::genomics
