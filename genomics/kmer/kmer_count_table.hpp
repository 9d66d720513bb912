// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <span>

#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/page_array.hpp"

namespace xenon::genomics {

// Counts of hashed k-mers (KmerKey): open addressing over buckets of one cache line each (5
// keys and their counts for k <= 32, 3 up to 64; two lines and 3 keys above, both prefetched), probed bucket after bucket, so a k-mer
// costs one memory access whether it is new or seen before. The table is split into 64 parts
// that grow one at a time (by half), so growing never needs twice the memory of the whole
// table. A part grows past 80% load; the hash is a good mixer, so probes stay short. Parts
// live in pages of their own (PageArray): the array a part grows out of goes back to the
// system at once instead of staying resident as a hole in the heap.
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

  // Adds many keys, fetching each one's bucket from memory some keys ahead of its turn.
  void add_all(std::span<const Key> keys) {
    constexpr std::size_t kAhead = 16;
    const std::size_t count = keys.size();
    for (std::size_t i = 0; i < count; ++i) {
      // Written here, not in a helper: GCC finds a helper that only prefetches free of side
      // effects and deletes its calls.
      if (i + kAhead < count) {
        const Key& ahead = keys[i + kAhead];
        const Part& part = parts_[part_of(ahead)];
        if (part.buckets != 0) {
          const Bucket* bucket = part.table.get() + home_bucket(ahead, part.buckets);
          __builtin_prefetch(bucket);
          // A bucket of two lines (four words): its last slot and the counts are in the second.
          if constexpr (kBucketBytes > 64) __builtin_prefetch(reinterpret_cast<const char*>(bucket) + 64);
        }
      }
      add(keys[i]);
    }
  }

  // Adds a key that is not in the table with its count (a table saved and read back).
  void insert_new(const Key& key, std::uint64_t count) {
    if (key[Words - 1] == kEmpty) {
      unslotted_[key] = count;
      return;
    }
    Part& part = parts_[part_of(key)];
    if (part.size >= part.grow_at) grow(part);
    const std::uint32_t slot_count = count >= kSaturated ? kSaturated : static_cast<std::uint32_t>(count);
    if (slot_count == kSaturated) saturated_extra_[key] = count - kSaturated;
    place(part, key, slot_count);
    ++part.size;
  }

  // The key's count: 0 when it is not in the table.
  std::uint64_t count_of(const Key& key) const {
    if (key[Words - 1] == kEmpty) {
      const auto found = unslotted_.find(key);
      return found == unslotted_.end() ? 0 : found->second;
    }
    const Part& part = parts_[part_of(key)];
    if (part.buckets == 0) return 0;
    // A part is never full (it grows past 80%): the search meets the key or an empty slot.
    for (std::size_t b = home_bucket(key, part.buckets);; b = b + 1 == part.buckets ? 0 : b + 1) {
      const Bucket& bucket = part.table[b];
      for (std::size_t slot = 0; slot < kSlots; ++slot) {
        if (bucket.holds(slot, key)) {
          const std::uint64_t count = bucket.counts[slot];
          return count == kSaturated ? count + saturated_extra_.at(key) : count;
        }
        if (bucket.routing(slot) == kEmpty) return 0;
      }
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
      for (std::size_t b = 0; b < part.buckets; ++b) {
        const Bucket& bucket = part.table[b];
        for (std::size_t slot = 0; slot < kSlots; ++slot) {
          if (bucket.routing(slot) == kEmpty) continue;
          const Key key = bucket.key(slot);
          std::uint64_t count = bucket.counts[slot];
          if (count == kSaturated) count += saturated_extra_.at(key);
          visit(key, count);
        }
      }
    }
    for (const auto& [key, count] : unslotted_) visit(key, count);
  }

  // Frees every key.
  void clear() {
    parts_ = {};
    unslotted_.clear();
    saturated_extra_.clear();
  }

  // Bytes held by the buckets (for reports).
  std::size_t memory_bytes() const {
    std::size_t bytes = 0;
    for (const Part& part : parts_) bytes += part.buckets * sizeof(Bucket);
    return bytes;
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::uint32_t kSaturated = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::size_t kParts = 64;
  // A bucket is a cache line (two for four words, which would leave one slot in one).
  static constexpr std::size_t kBucketBytes = Words <= 2 ? 64 : 128;
  static constexpr std::size_t kSlots = kBucketBytes / (8 * Words + 4);  // 5, 3 or 3
  static constexpr std::size_t kInitialBuckets = 256;

  struct alignas(kBucketBytes) Bucket {
    std::uint64_t words[kSlots * Words];
    std::uint32_t counts[kSlots];

    std::uint64_t routing(std::size_t slot) const { return words[slot * Words + Words - 1]; }
    Key key(std::size_t slot) const {
      Key key;
      for (int w = 0; w < Words; ++w) key[static_cast<std::size_t>(w)] = words[slot * Words + static_cast<std::size_t>(w)];
      return key;
    }
    bool holds(std::size_t slot, const Key& key) const {
      if constexpr (Words == 1) {
        return words[slot] == key[0];
      } else {  // the routing word first: it differs most often
        bool same = words[slot * Words + Words - 1] == key[Words - 1];
        for (std::size_t w = 0; same && w + 1 < Words; ++w) same = words[slot * Words + w] == key[w];
        return same;
      }
    }
    void set(std::size_t slot, const Key& key, std::uint32_t count) {
      for (int w = 0; w < Words; ++w) words[slot * Words + static_cast<std::size_t>(w)] = key[static_cast<std::size_t>(w)];
      counts[slot] = count;
    }
  };
  static_assert(sizeof(Bucket) == kBucketBytes);

  struct Part {
    PageArray<Bucket> table;  // page-aligned, so no bucket straddles more cache lines than it fills
    std::size_t buckets = 0;
    std::size_t size = 0;
    std::size_t grow_at = 0;  // 0 until allocated, so the first add allocates
  };

  // The routing word: its low 6 bits pick the part, bits 6-37 the bucket. The store was
  // picked by the high half (store_of()), which overlaps only bits 32-37 here and mostly
  // through its top bits, so a store's keys still spread over all its buckets.
  static std::size_t part_of(const Key& key) { return key[Words - 1] & (kParts - 1); }
  static std::size_t home_bucket(const Key& key, std::size_t buckets) {
    const std::uint64_t bits = (key[Words - 1] >> 6) & 0xffffffffu;
    return static_cast<std::size_t>((bits * buckets) >> 32);
  }

  void increment(Part& part, const Key& key) {
    std::size_t b = home_bucket(key, part.buckets);
    while (true) {
      Bucket& bucket = part.table[b];
      for (std::size_t slot = 0; slot < kSlots; ++slot) {
        if (bucket.holds(slot, key)) {
          std::uint32_t& count = bucket.counts[slot];
          if (count == kSaturated) {
            ++saturated_extra_[key];
          } else if (++count == kSaturated) {
            saturated_extra_[key] = 0;
          }
          return;
        }
        if (bucket.routing(slot) == kEmpty) {
          bucket.set(slot, key, 1);
          ++part.size;
          return;
        }
      }
      if (++b == part.buckets) b = 0;
    }
  }

  // Places a key known to be absent (while growing).
  static void place(Part& part, const Key& key, std::uint32_t count) {
    std::size_t b = home_bucket(key, part.buckets);
    while (true) {
      Bucket& bucket = part.table[b];
      for (std::size_t slot = 0; slot < kSlots; ++slot) {
        if (bucket.routing(slot) == kEmpty) {
          bucket.set(slot, key, count);
          return;
        }
      }
      if (++b == part.buckets) b = 0;
    }
  }

  static void grow(Part& part) {
    Part bigger;
    bigger.buckets = part.buckets == 0 ? kInitialBuckets : part.buckets + part.buckets / 2;
    bigger.grow_at = bigger.buckets * kSlots / 5 * 4;
    bigger.size = part.size;
    bigger.table = PageArray<Bucket>(bigger.buckets);
    for (std::size_t b = 0; b < bigger.buckets; ++b) {
      std::fill(std::begin(bigger.table[b].words), std::end(bigger.table[b].words), kEmpty);
    }
    for (std::size_t b = 0; b < part.buckets; ++b) {
      const Bucket& bucket = part.table[b];
      for (std::size_t slot = 0; slot < kSlots; ++slot) {
        if (bucket.routing(slot) != kEmpty) place(bigger, bucket.key(slot), bucket.counts[slot]);
      }
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
