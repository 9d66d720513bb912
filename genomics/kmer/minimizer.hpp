// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

// Minimizers: the smallest hash of the canonical m-mers (m <= 32) inside a k-mer. A k-mer and
// its reverse complement have the same one, and consecutive k-mers of a sequence mostly share
// it, so routing k-mers to stores by minimizer keeps most neighbours of a k-mer in its own store
// (the assembler walks the graph mostly without messages).
namespace minimizer_detail {

// The reverse complement of an m-mer held in the low 2 * bases bits of a word.
inline std::uint64_t reverse_complement_word(std::uint64_t word, int bases) {
  return reverse_word_bases(~word) >> (64 - 2 * bases);
}

// One multiplication and one shift: the order of hashes only has to look random, and the high
// half (which picks the store) is the well-mixed one.
inline std::uint64_t canonical_hash(std::uint64_t forward, std::uint64_t reverse) {
  const std::uint64_t product = std::min(forward, reverse) * hash_detail::kMultiplier;
  return product ^ (product >> 29);
}

}  // namespace minimizer_detail

// The m-mer length used with k: about a third of k, between 11 and 21, and k itself below 11.
// Not fewer bases: the m-mers that win as minimizers are the few with the smallest hashes in
// most windows, so with few m-mers a handful of frequent ones set the stores' loads. At k = 21
// and m = 7 (8,192 canonical 7-mers), 40x E. coli over 8 stores put 1.22x the mean of distinct
// k-mers in one store; at m = 11, 1.007x, with as many walk pieces crossing stores.
inline int minimizer_length_for(int k) { return std::min(k, std::clamp(k / 3, 11, 21)); }

// Which of `stores` stores owns the k-mers of a minimizer. A minimizer is the smallest of many
// hashes, so its high bits are mostly zero: it is mixed again before its high half is scaled.
inline std::uint32_t store_of_minimizer(std::uint64_t minimizer, std::uint32_t stores) {
  return static_cast<std::uint32_t>(((hash_detail::mix(minimizer) >> 32) * stores) >> 32);
}

// The minimizer of the last k bases of a run of ACGT, kept up to date base by base (the
// window's smallest hashes in a monotone queue): for a scanner (KmerScanner::feed's observer).
class MinimizerWindow {
 public:
  MinimizerWindow(int k, int m)
      : m_(m), window_(static_cast<std::uint64_t>(k - m + 1)),
        mask_(m == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * m)) - 1),
        queue_(std::bit_ceil(static_cast<std::size_t>(k - m + 2))) {}

  void reset() {
    valid_ = 0;
    head_ = tail_ = 0;
  }

  void push(int code) {
    const auto base = static_cast<std::uint64_t>(code);
    forward_ = ((forward_ << 2) | base) & mask_;
    reverse_ = (reverse_ >> 2) | ((3 - base) << (2 * m_ - 2));
    ++position_;
    if (++valid_ < m_) return;
    const std::uint64_t hash = minimizer_detail::canonical_hash(forward_, reverse_);
    while (tail_ != head_ && at(tail_ - 1).hash > hash) --tail_;
    at(tail_++) = {position_, hash};
    while (at(head_).position + window_ <= position_) ++head_;
  }

  // The minimizer of the last k bases (valid once k bases of a run were pushed).
  std::uint64_t minimum() const { return at(head_).hash; }

 private:
  struct Entry {
    std::uint64_t position;
    std::uint64_t hash;
  };
  Entry& at(std::size_t index) { return queue_[index & (queue_.size() - 1)]; }
  const Entry& at(std::size_t index) const { return queue_[index & (queue_.size() - 1)]; }

  int m_;
  std::uint64_t window_;  // m-mers in a k-mer
  std::uint64_t mask_;
  std::vector<Entry> queue_;
  std::size_t head_ = 0;
  std::size_t tail_ = 0;
  int valid_ = 0;
  std::uint64_t position_ = 0;
  std::uint64_t forward_ = 0;
  std::uint64_t reverse_ = 0;
};

// Minimizers of whole packed k-mers and of their eight neighbours.
template <int Words>
class KmerMinimizers {
 public:
  KmerMinimizers(int k, int m) : k_(k), m_(m), mask_(m == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * m)) - 1) {}

  std::uint64_t of(const PackedKmer<Words>& kmer) const {
    std::uint64_t minimum = ~std::uint64_t{0};
    for (int start = 0; start + m_ <= k_; ++start) minimum = std::min(minimum, hash_at(kmer, start));
    return minimum;
  }

  // after[b]: the minimizer of the k-mer after `kmer` by base b; before[b]: of the one before.
  void of_neighbours(const PackedKmer<Words>& kmer, std::uint64_t after[4], std::uint64_t before[4]) const {
    const int mmers = k_ - m_ + 1;
    std::uint64_t without_first = ~std::uint64_t{0};  // m-mers 1 .. mmers-1
    std::uint64_t without_last = ~std::uint64_t{0};   // m-mers 0 .. mmers-2
    for (int start = 0; start < mmers; ++start) {
      const std::uint64_t hash = hash_at(kmer, start);
      if (start != 0) without_first = std::min(without_first, hash);
      if (start != mmers - 1) without_last = std::min(without_last, hash);
    }
    const std::uint64_t tail = bases(kmer, k_ - m_ + 1, m_ - 1);  // last m-1 bases
    const std::uint64_t head = bases(kmer, 0, m_ - 1);             // first m-1 bases
    for (int base = 0; base < 4; ++base) {
      const std::uint64_t appended = ((tail << 2) | static_cast<std::uint64_t>(base)) & mask_;
      after[base] = std::min(without_first, hash_of(appended));
      const std::uint64_t prepended = (static_cast<std::uint64_t>(base) << (2 * m_ - 2)) | head;
      before[base] = std::min(without_last, hash_of(prepended));
    }
  }

 private:
  // `count` bases from base `start` (0: the first), as a number.
  std::uint64_t bases(const PackedKmer<Words>& kmer, int start, int count) const {
    const int shift = 2 * (k_ - start - count);  // bits after the wanted bases
    const std::uint64_t mask = count == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * count)) - 1;
    const auto word = static_cast<std::size_t>(Words - 1 - shift / 64);  // holds the wanted bases' last
    const int within = shift % 64;
    std::uint64_t value = kmer[word] >> within;
    if (within + 2 * count > 64 && word > 0) value |= kmer[word - 1] << (64 - within);
    return value & mask;
  }
  std::uint64_t hash_of(std::uint64_t mmer) const {
    return minimizer_detail::canonical_hash(mmer, minimizer_detail::reverse_complement_word(mmer, m_));
  }
  std::uint64_t hash_at(const PackedKmer<Words>& kmer, int start) const { return hash_of(bases(kmer, start, m_)); }

  int k_;
  int m_;
  std::uint64_t mask_;
};

}  // namespace xenon::genomics
