// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"
#include "genomics/kmer/kmer_hash.hpp"

namespace xenon::genomics {

// Tells, for each k-mer a KmerScanner completes, whether every shorter k-mer (of the filter's
// length) inside it may be in the filter. A k-mer read c times has each of its shorter k-mers
// read c times or more; so with a filter of the shorter k-mers read twice or more, a k-mer that
// fails was read exactly once, and the counter may leave it out of its table, counting it only
// as one more k-mer read once.
//
// The filter is larger than a cache, so each lookup waits for memory. prepare() looks up every
// shorter k-mer of a stretch of bases at once (prefetched, so the waits overlap); the scan of
// the same bases then follows as the scanner's observer: each base (push) and each break
// (reset) takes its verdict in turn.
class KmerFilterWindow {
 public:
  KmerFilterWindow(const KmerBloomFilter& filter, int filter_k, int k)
      : filter_(filter), needed_(k - filter_k + 1), scanner_(checked_filter_k(filter, filter_k, k)) {}

  // A new record: nothing before it counts.
  void begin_record() {
    scanner_.reset();
    run_ = 0;
  }

  // Looks up the shorter k-mers that `bases` complete (going on from the bases prepared before
  // in this record), for the scan of the same bases that follows.
  void prepare(std::string_view bases) {
    hashes_.resize(bases.size());
    kinds_.resize(bases.size());
    // The shorter k-mers as the stores key them: a scanner of their length, each base's kind
    // marked as it passes, then the base that ends a shorter k-mer marked so.
    BaseKinds marks{kinds_};
    scanner_.feed(bases, [&](const PackedKmer<1>& canonical) {
      const std::size_t last = marks.at - 1;
      hashes_[last] = key_of<1>(canonical)[0];
      kinds_[last] = Kind::kEndsShorterKmer;
      filter_.prefetch(hashes_[last]);
    }, marks);
    runs_.resize(bases.size());
    for (std::size_t i = 0; i < bases.size(); ++i) {
      if (kinds_[i] == Kind::kEndsShorterKmer) {
        // Bounded by needed_: records may be longer than an int counts.
        run_ = !filter_.may_contain(hashes_[i]) ? 0 : run_ < needed_ ? run_ + 1 : needed_;
      } else if (kinds_[i] == Kind::kBreak) {
        run_ = 0;
      }
      runs_[i] = run_;
    }
    next_ = 0;
  }

  // The scanner's observer, base by base over what was prepared (a scan of other bases, or
  // of more, is a caller's bug: caught, not read past the end).
  void push(int /*code*/) { take_next(); }
  void reset() { take_next(); }

  // Whether the k-mer ending at the last base pushed has every shorter k-mer in the filter.
  bool passes() const { return passing_run_ >= needed_; }

 private:
  void take_next() {
    if (next_ == runs_.size()) throw std::logic_error("k-mer filter window: a base scanned that was not prepared");
    passing_run_ = runs_[next_++];
  }

  static int checked_filter_k(const KmerBloomFilter& filter, int filter_k, int k) {
    if (filter_k < 1 || filter_k > 32 || filter_k > k || filter.empty()) {
      throw std::invalid_argument("a k-mer filter of length " + std::to_string(filter_k) + " for k = " +
                                  std::to_string(k) + (filter.empty() ? " and no filter" : ""));
    }
    return filter_k;
  }

  // A break (not ACGT); a base too few since the break to end a shorter k-mer; a base that ends one.
  enum class Kind : std::uint8_t { kBreak, kTooFewBases, kEndsShorterKmer };

  // The scanner's observer while preparing: each base's kind, in order.
  struct BaseKinds {
    std::vector<Kind>& kinds;
    std::size_t at = 0;
    void push(int /*code*/) { kinds[at++] = Kind::kTooFewBases; }
    void reset() { kinds[at++] = Kind::kBreak; }
  };

  const KmerBloomFilter& filter_;
  int needed_;  // shorter k-mers in a k-mer
  // Rolling over the record as prepared.
  KmerScanner<1> scanner_;
  int run_ = 0;  // shorter k-mers in a row, ending here, that the filter may hold (at most needed_)
  // The prepared stretch, a slot a base.
  std::vector<std::uint64_t> hashes_;
  std::vector<Kind> kinds_;
  std::vector<int> runs_;
  std::size_t next_ = 0;  // the slot the scan's next base takes
  int passing_run_ = 0;   // the run at the last base scanned
};

}  // namespace xenon::genomics
