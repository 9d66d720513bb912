// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace xenon::genomics {

// How many distinct k-mers occur how many times. Counts below 4,096 live in an array (almost
// all of them), the rest in a map.
class KmerHistogram {
 public:
  KmerHistogram();

  void add(std::uint64_t count, std::uint64_t kmers = 1) {
    if (count < kDenseCounts) {
      dense_[count] += kmers;
    } else {
      sparse_[count] += kmers;
    }
  }
  void merge(const KmerHistogram& other);

  // Calls visit(count, kmers) for every count that occurs, in increasing order.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (std::uint64_t count = 1; count < kDenseCounts; ++count) {
      if (dense_[count] != 0) visit(count, dense_[count]);
    }
    for (const auto& [count, kmers] : sparse_) visit(count, kmers);
  }

  std::uint64_t distinct_kmers() const;  // k-mers counted at least once
  std::uint64_t total_kmers() const;     // occurrences: sum of count x k-mers
  std::uint64_t unique_kmers() const { return dense_[1]; }
  std::uint64_t max_count() const;

  // Jellyfish's `histo` output: "count kmers" for every count that occurs, up to `high`, and
  // every count above it added up on one line numbered high + 1 (Jellyfish's default: 10000).
  std::string jellyfish_text(std::uint64_t high = 10000) const;

  // Little-endian (count, kmers) pairs, for messages.
  std::vector<std::byte> to_bytes() const;
  // Throws std::invalid_argument on a length that is not whole pairs.
  static KmerHistogram from_bytes(std::span<const std::byte> bytes);

  bool operator==(const KmerHistogram& other) const = default;

 private:
  static constexpr std::uint64_t kDenseCounts = 4096;
  std::vector<std::uint64_t> dense_;
  std::map<std::uint64_t, std::uint64_t> sparse_;
};

}  // namespace xenon::genomics
