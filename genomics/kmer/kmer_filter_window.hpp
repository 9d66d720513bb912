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
      : filter_(filter), filter_k_(filter_k), needed_(k - filter_k + 1) {
    if (filter_k < 1 || filter_k > 32 || filter_k > k || filter.empty()) {
      throw std::invalid_argument("a k-mer filter of length " + std::to_string(filter_k) + " for k = " +
                                  std::to_string(k) + (filter.empty() ? " and no filter" : ""));
    }
    mask_ = filter_k == 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * filter_k)) - 1;
    top_shift_ = 2 * filter_k - 2;
  }

  // A new record: nothing before it counts.
  void begin_record() {
    valid_ = 0;
    run_ = 0;
  }

  // Looks up the shorter k-mers that `bases` complete (going on from the bases prepared before
  // in this record), for the scan of the same bases that follows.
  void prepare(std::string_view bases) {
    hashes_.resize(bases.size());
    kinds_.resize(bases.size());
    for (std::size_t i = 0; i < bases.size(); ++i) {
      const int code = kBaseCodes[static_cast<unsigned char>(bases[i])];
      if (code < 0) {
        valid_ = 0;
        kinds_[i] = Kind::kBreak;
        continue;
      }
      const auto base = static_cast<std::uint64_t>(code);
      forward_ = ((forward_ << 2) | base) & mask_;  // the packing of KmerScanner<1>: the stores' keys
      reverse_ = (reverse_ >> 2) | ((3 - base) << top_shift_);
      if (++valid_ < filter_k_) {
        kinds_[i] = Kind::kTooFewBases;
        continue;
      }
      valid_ = filter_k_;
      hashes_[i] = key_of<1>({forward_ < reverse_ ? forward_ : reverse_})[0];
      kinds_[i] = Kind::kEndsShorterKmer;
      filter_.prefetch(hashes_[i]);
    }
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

  // A break (not ACGT); a base too few since the break to end a shorter k-mer; a base that ends one.
  enum class Kind : std::uint8_t { kBreak, kTooFewBases, kEndsShorterKmer };

  const KmerBloomFilter& filter_;
  int filter_k_;
  int needed_;  // shorter k-mers in a k-mer
  std::uint64_t mask_ = 0;
  int top_shift_ = 0;
  // Rolling over the record as prepared.
  int valid_ = 0;  // bases since the last break, at most filter_k_
  int run_ = 0;    // shorter k-mers in a row, ending here, that the filter may hold (at most needed_)
  std::uint64_t forward_ = 0;
  std::uint64_t reverse_ = 0;
  // The prepared stretch, a slot a base.
  std::vector<std::uint64_t> hashes_;
  std::vector<Kind> kinds_;
  std::vector<int> runs_;
  std::size_t next_ = 0;  // the slot the scan's next base takes
  int passing_run_ = 0;   // the run at the last base scanned
};

}  // namespace xenon::genomics
