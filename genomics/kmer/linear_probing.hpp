// SPDX-License-Identifier: BSD-3-Clause
// Open addressing with linear probing over a table sized once: the one probing loop behind
// the assembler's k-mer tables (the stores' solid k-mers, the k-mers near unitig ends that
// reads are threaded through). Header only, so that a lookup inlines into its caller.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace xenon::genomics {

// The slots of a table with open addressing and linear probing: twice as many as the entries
// it will hold (at least 16), or as many as leave it a given share full, never grown, so a
// slot's index can name its entry for the table's lifetime. Only indexes: each table stores
// its slots as its lookups run fastest (a key beside its value, or a tag byte a slot that a
// miss reads instead of the key), and
// says through `empty(slot)` and `matches(slot)` what a slot holds. A hash's home is its high
// bits scaled to the slots (no power of two: a table rounded up to one was a quarter to half
// full, and the stores' vertex tables were a round's largest memory), so hashes must spread
// their high bits evenly.
class LinearProbing {
 public:
  LinearProbing() = default;  // no slots: probe() must not be called
  explicit LinearProbing(std::size_t entries) : slots_(entries < 8 ? 16 : 2 * entries) {}
  // Slots for `entries` that leave it at most `fullest` full (0.5 above), at least 16 and
  // always one empty (a miss's probe ends there): for a table whose probes past a slot that
  // is not the key read a tag byte, not a key, which stays fast fuller. 0 < fullest <= 1.
  LinearProbing(std::size_t entries, double fullest) : slots_(slots_for(entries, fullest)) {}

  std::size_t slots() const { return slots_; }

  // Where a probe from `hash` starts (for prefetching).
  std::size_t home(std::uint64_t hash) const {
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::size_t>((static_cast<Wide>(hash) * slots_) >> 64);
  }

  // The first slot from `hash`'s home on (past the last, the first) that is empty or matches:
  // where the key is, or else where it goes.
  template <typename Empty, typename Matches>
  std::size_t probe(std::uint64_t hash, Empty&& empty, Matches&& matches) const {
    std::size_t slot = home(hash);
    while (!empty(slot) && !matches(slot)) {
      if (++slot == slots_) slot = 0;
    }
    return slot;
  }

 private:
  static std::size_t slots_for(std::size_t entries, double fullest) {
    if (!(fullest > 0.0 && fullest <= 1.0)) {
      throw std::invalid_argument("linear probing: a table " + std::to_string(fullest) + " full (0 to 1)");
    }
    const auto spread = static_cast<std::size_t>(static_cast<double>(entries) / fullest);
    return std::max({std::size_t{16}, entries + 1, spread + 1});
  }

  std::size_t slots_ = 0;
};

}  // namespace xenon::genomics
