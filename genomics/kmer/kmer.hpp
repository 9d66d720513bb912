// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace xenon::genomics {

inline constexpr int kMaxKmerLength = 128;

// Words of 64 bits that hold a k-mer of length k: one up to 32 bases, two up to 64, four up
// to 128 (three would save a word from 65 to 96 at the cost of another build of every store).
constexpr int kmer_words(int k) { return k <= 32 ? 1 : k <= 64 ? 2 : 4; }

// A k-mer packed two bits per base (A=0, C=1, G=2, T=3), first base most significant, so that
// comparing packed k-mers compares their strings. words[0] is the most significant word; the
// k-mer is one number of 64 * Words bits below 4^k (so the words above its first base are 0).
template <int Words>
using PackedKmer = std::array<std::uint64_t, Words>;

// Word-by-word comparisons: std::array's operators may call memcmp, far slower than a few
// integer compares on the hot path.
template <int Words>
constexpr bool same_words(const std::array<std::uint64_t, Words>& a,
                          const std::array<std::uint64_t, Words>& b) {
  bool same = true;
  for (std::size_t w = 0; w < static_cast<std::size_t>(Words); ++w) same = same && a[w] == b[w];
  return same;
}
template <int Words>
constexpr bool words_less(const std::array<std::uint64_t, Words>& a,
                          const std::array<std::uint64_t, Words>& b) {
  for (std::size_t w = 0; w + 1 < static_cast<std::size_t>(Words); ++w) {
    if (a[w] != b[w]) return a[w] < b[w];
  }
  return a[Words - 1] < b[Words - 1];
}

// Base code of every byte: 0-3 for ACGT in either case, -1 for anything else (N, IUPAC codes,
// gaps), which breaks k-mers as in Jellyfish.
inline constexpr std::array<std::int8_t, 256> kBaseCodes = [] {
  std::array<std::int8_t, 256> codes{};
  codes.fill(-1);
  codes['A'] = codes['a'] = 0;
  codes['C'] = codes['c'] = 1;
  codes['G'] = codes['g'] = 2;
  codes['T'] = codes['t'] = 3;
  return codes;
}();

// Calls `visit(begin, run)` for each run of ACGT in `bases` (any case) at least `minimum`
// long: what k-mers of that length can be read from, a base that is not ACGT breaking them.
template <typename Visit>
void for_each_acgt_run(std::string_view bases, std::size_t minimum, Visit&& visit) {
  std::size_t begin = 0;
  while (begin < bases.size()) {
    std::size_t end = begin;
    while (end < bases.size() && kBaseCodes[static_cast<unsigned char>(bases[end])] >= 0) ++end;
    if (end - begin >= minimum) visit(begin, bases.substr(begin, end - begin));
    begin = end + 1;
  }
}

struct NoBaseObserver {
  void reset() {}
  void push(int /*code*/) {}
};

// Reads bases and hands over the canonical form (the smaller of a k-mer and its reverse
// complement) of every k-mer of ACGT bases. Sequences may arrive in pieces (lines of a FASTA
// record): k-mers span pieces until reset() starts a new sequence.
template <int Words>
class KmerScanner {
  static_assert(Words == 1 || Words == 2 || Words == 4);

 public:
  explicit KmerScanner(int k) : k_(k), top_(Words - 1 - (2 * k - 1) / 64) {
    const int used = 2 * k - 64 * (Words - 1 - top_);  // bits used in the first base's word
    top_mask_ = used == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << used) - 1;
    top_shift_ = used - 2;
  }

  void reset() noexcept { valid_ = 0; }

  // Calls sink(const PackedKmer<Words>& canonical) for each k-mer completed by `bases`.
  template <class Sink>
  void feed(std::string_view bases, Sink&& sink) {
    NoBaseObserver none;
    feed(bases, sink, none);
  }
  // The same, telling `observer` of each base (push(code)) and of each break (reset()) before
  // the k-mer it completes reaches the sink, so that it can track something alongside.
  template <class Sink, class Observer>
  void feed(std::string_view bases, Sink&& sink, Observer& observer) {
    for (const char base : bases) {
      const int code = kBaseCodes[static_cast<unsigned char>(base)];
      if (code < 0) {
        valid_ = 0;
        observer.reset();
        continue;
      }
      push(static_cast<std::uint64_t>(code));
      observer.push(code);
      if (++valid_ >= k_) {
        valid_ = k_;
        sink(words_less<Words>(forward_, reverse_) ? forward_ : reverse_);
      }
    }
  }

 private:
  void push(std::uint64_t code) noexcept {
    if constexpr (Words == 1) {
      forward_[0] = ((forward_[0] << 2) | code) & top_mask_;
      reverse_[0] = (reverse_[0] >> 2) | ((3 - code) << top_shift_);
    } else if constexpr (Words == 2) {
      forward_[0] = ((forward_[0] << 2) | (forward_[1] >> 62)) & top_mask_;
      forward_[1] = (forward_[1] << 2) | code;
      reverse_[1] = (reverse_[1] >> 2) | (reverse_[0] << 62);
      reverse_[0] = (reverse_[0] >> 2) | ((3 - code) << top_shift_);
    } else {  // the words before top_ stay 0
      const auto top = static_cast<std::size_t>(top_);
      for (std::size_t w = top; w + 1 < Words; ++w) forward_[w] = (forward_[w] << 2) | (forward_[w + 1] >> 62);
      forward_[Words - 1] = (forward_[Words - 1] << 2) | code;
      forward_[top] &= top_mask_;
      for (std::size_t w = Words - 1; w > top; --w) reverse_[w] = (reverse_[w] >> 2) | (reverse_[w - 1] << 62);
      reverse_[top] = (reverse_[top] >> 2) | ((3 - code) << top_shift_);
    }
  }

  int k_;
  int top_;  // the word of the first base (0 but for four words and k <= 96)
  int valid_ = 0;  // bases in the current run of ACGT, at most k
  std::uint64_t top_mask_;
  int top_shift_;
  PackedKmer<Words> forward_{};
  PackedKmer<Words> reverse_{};
};

// The bases of a packed k-mer of length k.
template <int Words>
std::string kmer_to_string(const PackedKmer<Words>& kmer, int k) {
  static constexpr char kBases[] = {'A', 'C', 'G', 'T'};
  std::string text(static_cast<std::size_t>(k), 'A');
  for (int i = 0; i < k; ++i) {
    const int bit = 2 * (k - 1 - i);  // of the base, counted from the last base's
    const std::uint64_t word = kmer[static_cast<std::size_t>(Words - 1 - bit / 64)];
    text[static_cast<std::size_t>(i)] = kBases[(word >> (bit % 64)) & 3];
  }
  return text;
}

}  // namespace xenon::genomics
