#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <span>

#include "genomics/kmer/kmer_hash.hpp"

namespace xenon::genomics {

// Counts of hashed k-mers (KmerKey): open addressing with linear probing, split into 64 parts
// that grow one at a time (by half), so that growing never needs twice the memory of the
// whole table. Keys and counts live in separate arrays: 12 bytes a slot for k <= 32. A part
// grows past 80% load; the hash is a good mixer, so probes stay short.
template <int Words>
class KmerCountTable {
 public:
  using Key = KmerKey<Words>;

  KmerCountTable() = default;
  KmerCountTable(const KmerCountTable&) = delete;
  KmerCountTable& operator=(const KmerCountTable&) = delete;

  void add(const Key& key) {
    if (key[Words - 1] == kEmpty) {  // the one routing value that marks empty slots
      ++unslotted_[key];
      return;
    }
    Part& part = parts_[part_of(key)];
    if (part.size >= part.grow_at) grow(part);
    increment(part, key);
  }

  // Adds many keys, fetching each one's slot from memory a few keys ahead of its turn.
  void add_all(std::span<const Key> keys) {
    constexpr std::size_t kAhead = 8;
    const std::size_t count = keys.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (i + kAhead < count) prefetch(keys[i + kAhead]);
      add(keys[i]);
    }
  }

  std::uint64_t distinct() const {
    std::uint64_t total = unslotted_.size();
    for (const Part& part : parts_) total += part.size;
    return total;
  }

  // Calls visit(const Key&, std::uint64_t count) for every key, in no particular order.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const Part& part : parts_) {
      for (std::size_t slot = 0; slot < part.capacity; ++slot) {
        if (part.keys[slot][Words - 1] == kEmpty) continue;
        std::uint64_t count = part.counts[slot];
        if (count == kSaturated) count += saturated_extra_.at(part.keys[slot]);
        visit(part.keys[slot], count);
      }
    }
    for (const auto& [key, count] : unslotted_) visit(key, count);
  }

  // Bytes held by the slot arrays (for reports).
  std::size_t memory_bytes() const {
    std::size_t bytes = 0;
    for (const Part& part : parts_) bytes += part.capacity * (sizeof(Key) + sizeof(std::uint32_t));
    return bytes;
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::uint32_t kSaturated = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::size_t kParts = 64;
  static constexpr std::size_t kInitialCapacity = 1024;

  struct Part {
    std::unique_ptr<Key[]> keys;
    std::unique_ptr<std::uint32_t[]> counts;
    std::size_t capacity = 0;
    std::size_t size = 0;
    std::size_t grow_at = 0;  // 0 until allocated, so the first add allocates
  };

  // The routing word: its low 6 bits pick the part, the next 32 the slot (the high half picks
  // the store: see store_of()).
  static std::size_t part_of(const Key& key) { return key[Words - 1] & (kParts - 1); }
  static std::size_t home_slot(const Key& key, std::size_t capacity) {
    const std::uint64_t bits = (key[Words - 1] >> 6) & 0xffffffffu;
    return static_cast<std::size_t>((bits * capacity) >> 32);
  }

  void prefetch(const Key& key) const {
    if (key[Words - 1] == kEmpty) return;
    const Part& part = parts_[part_of(key)];
    if (part.capacity == 0) return;
    const std::size_t slot = home_slot(key, part.capacity);
    __builtin_prefetch(&part.keys[slot]);
    __builtin_prefetch(&part.counts[slot]);
  }

  void increment(Part& part, const Key& key) {
    std::size_t slot = home_slot(key, part.capacity);
    while (true) {
      Key& held = part.keys[slot];
      if (held == key) {
        std::uint32_t& count = part.counts[slot];
        if (count == kSaturated) {
          ++saturated_extra_[key];
        } else if (++count == kSaturated) {
          saturated_extra_[key] = 0;
        }
        return;
      }
      if (held[Words - 1] == kEmpty) {
        held = key;
        part.counts[slot] = 1;
        ++part.size;
        return;
      }
      if (++slot == part.capacity) slot = 0;
    }
  }

  // Places a key known to be absent (while growing).
  static void place(Part& part, const Key& key, std::uint32_t count) {
    std::size_t slot = home_slot(key, part.capacity);
    while (part.keys[slot][Words - 1] != kEmpty) {
      if (++slot == part.capacity) slot = 0;
    }
    part.keys[slot] = key;
    part.counts[slot] = count;
  }

  static void grow(Part& part) {
    Part bigger;
    bigger.capacity = part.capacity == 0 ? kInitialCapacity : part.capacity + part.capacity / 2;
    bigger.grow_at = bigger.capacity / 5 * 4;
    bigger.size = part.size;
    bigger.keys = std::make_unique_for_overwrite<Key[]>(bigger.capacity);
    bigger.counts = std::make_unique_for_overwrite<std::uint32_t[]>(bigger.capacity);
    Key empty;
    empty.fill(kEmpty);
    std::fill_n(bigger.keys.get(), bigger.capacity, empty);
    for (std::size_t slot = 0; slot < part.capacity; ++slot) {
      if (part.keys[slot][Words - 1] != kEmpty) place(bigger, part.keys[slot], part.counts[slot]);
    }
    part = std::move(bigger);
  }

  std::array<Part, kParts> parts_;
  // Keys whose routing word is the empty marker (about one key in 2^64): kept aside.
  std::map<Key, std::uint64_t> unslotted_;
  // Counts beyond 2^32 - 1: the slot holds the maximum, the rest is here.
  std::map<Key, std::uint64_t> saturated_extra_;
};

}  // namespace xenon::genomics
