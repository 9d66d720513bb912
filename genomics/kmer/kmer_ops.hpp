// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {

// Reverses the order of the 32 two-bit bases of a word.
constexpr std::uint64_t reverse_word_bases(std::uint64_t word) noexcept {
  word = ((word >> 2) & 0x3333333333333333ULL) | ((word & 0x3333333333333333ULL) << 2);
  word = ((word >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((word & 0x0f0f0f0f0f0f0f0fULL) << 4);
  return __builtin_bswap64(word);
}

// Moves along the de Bruijn graph of packed k-mers of one length: the k-mer after (drop the
// first base, append one) and before (prepend one, drop the last), and the reverse
// complement. A k-mer of one or two words is handled as one 128-bit number; of four, word by
// word.
template <int Words>
class KmerShape {
  static_assert(Words == 1 || Words == 2, "four words: the specialization below");
  __extension__ using Wide = unsigned __int128;

 public:
  explicit KmerShape(int k)
      : k_(k), mask_(k == 64 ? ~Wide{0} : (Wide{1} << (2 * k)) - 1) {}

  int k() const noexcept { return k_; }

  PackedKmer<Words> successor(const PackedKmer<Words>& kmer, int base) const noexcept {
    return narrow(((wide(kmer) << 2) | static_cast<Wide>(base)) & mask_);
  }
  PackedKmer<Words> predecessor(const PackedKmer<Words>& kmer, int base) const noexcept {
    return narrow((wide(kmer) >> 2) | (static_cast<Wide>(base) << (2 * k_ - 2)));
  }
  PackedKmer<Words> reverse_complement(const PackedKmer<Words>& kmer) const noexcept {
    const Wide value = ~wide(kmer);
    const std::uint64_t high = static_cast<std::uint64_t>(value >> 64);
    const std::uint64_t low = static_cast<std::uint64_t>(value);
    // The base order of all 64 bases reversed: low word's bases first.
    const Wide reversed = (static_cast<Wide>(reverse_word_bases(low)) << 64) | reverse_word_bases(high);
    return narrow(reversed >> (128 - 2 * k_));
  }
  PackedKmer<Words> canonical(const PackedKmer<Words>& kmer) const noexcept {
    const PackedKmer<Words> reverse = reverse_complement(kmer);
    return words_less<Words>(reverse, kmer) ? reverse : kmer;
  }
  static int last_base(const PackedKmer<Words>& kmer) noexcept {
    return static_cast<int>(kmer[Words - 1] & 3);
  }
  int first_base(const PackedKmer<Words>& kmer) const noexcept {
    return static_cast<int>(wide(kmer) >> (2 * k_ - 2)) & 3;
  }

  // Packs k bases of ACGT (no other letters).
  PackedKmer<Words> pack(std::string_view bases) const noexcept {
    Wide value = 0;
    for (int i = 0; i < k_; ++i) {
      value = (value << 2) | static_cast<Wide>(kBaseCodes[static_cast<unsigned char>(bases[static_cast<std::size_t>(i)])]);
    }
    return narrow(value);
  }

 private:
  static Wide wide(const PackedKmer<Words>& kmer) noexcept {
    if constexpr (Words == 1) {
      return kmer[0];
    } else {
      return (static_cast<Wide>(kmer[0]) << 64) | kmer[1];
    }
  }
  static PackedKmer<Words> narrow(Wide value) noexcept {
    if constexpr (Words == 1) {
      return {static_cast<std::uint64_t>(value)};
    } else {
      return {static_cast<std::uint64_t>(value >> 64), static_cast<std::uint64_t>(value)};
    }
  }

  int k_;
  Wide mask_;
};

template <>
class KmerShape<4> {
 public:
  explicit KmerShape(int k) : k_(k) {
    for (int w = 0; w < 4; ++w) {
      const int low_bit = 64 * (3 - w);  // of word w
      const int bits = std::clamp(2 * k - low_bit, 0, 64);
      mask_[static_cast<std::size_t>(w)] = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    }
  }

  int k() const noexcept { return k_; }

  PackedKmer<4> successor(const PackedKmer<4>& kmer, int base) const noexcept {
    PackedKmer<4> next = shifted_left(kmer);
    next[3] |= static_cast<std::uint64_t>(base);
    return masked(next);
  }
  PackedKmer<4> predecessor(const PackedKmer<4>& kmer, int base) const noexcept {
    PackedKmer<4> before = shifted_right(kmer, 2);
    const int bit = 2 * k_ - 2;
    before[static_cast<std::size_t>(3 - bit / 64)] |= static_cast<std::uint64_t>(base) << (bit % 64);
    return before;
  }
  PackedKmer<4> reverse_complement(const PackedKmer<4>& kmer) const noexcept {
    // All 128 bases complemented and their order reversed (the last word's bases first),
    // then shifted down past the 128 - k that were not bases.
    PackedKmer<4> reversed;
    for (std::size_t w = 0; w < 4; ++w) reversed[w] = reverse_word_bases(~kmer[3 - w]);
    return shifted_right(reversed, 256 - 2 * k_);
  }
  PackedKmer<4> canonical(const PackedKmer<4>& kmer) const noexcept {
    const PackedKmer<4> reverse = reverse_complement(kmer);
    return words_less<4>(reverse, kmer) ? reverse : kmer;
  }
  static int last_base(const PackedKmer<4>& kmer) noexcept { return static_cast<int>(kmer[3] & 3); }
  int first_base(const PackedKmer<4>& kmer) const noexcept {
    const int bit = 2 * k_ - 2;
    return static_cast<int>(kmer[static_cast<std::size_t>(3 - bit / 64)] >> (bit % 64)) & 3;
  }

  // Packs k bases of ACGT (no other letters).
  PackedKmer<4> pack(std::string_view bases) const noexcept {
    PackedKmer<4> value{};
    for (int i = 0; i < k_; ++i) {
      value = shifted_left(value);
      value[3] |= static_cast<std::uint64_t>(kBaseCodes[static_cast<unsigned char>(bases[static_cast<std::size_t>(i)])]);
    }
    return masked(value);
  }

 private:
  static PackedKmer<4> shifted_left(const PackedKmer<4>& kmer) noexcept {  // by one base
    return {(kmer[0] << 2) | (kmer[1] >> 62), (kmer[1] << 2) | (kmer[2] >> 62), (kmer[2] << 2) | (kmer[3] >> 62),
            kmer[3] << 2};
  }
  // By `bits` (0 to 255) towards the last word.
  static PackedKmer<4> shifted_right(const PackedKmer<4>& kmer, int bits) noexcept {
    const int words = bits / 64;
    const int rest = bits % 64;
    PackedKmer<4> shifted{};
    for (int w = 3; w >= words; --w) {
      const auto from = static_cast<std::size_t>(w - words);
      std::uint64_t value = kmer[from] >> rest;
      if (rest != 0 && from > 0) value |= kmer[from - 1] << (64 - rest);
      shifted[static_cast<std::size_t>(w)] = value;
    }
    return shifted;
  }
  PackedKmer<4> masked(PackedKmer<4> kmer) const noexcept {
    for (std::size_t w = 0; w < 4; ++w) kmer[w] &= mask_[w];
    return kmer;
  }

  int k_ = 0;
  PackedKmer<4> mask_{};  // the bits of k bases
};

// The complement of a base in ACGT (either case; other letters become N).
inline char complement_base(char base) {
  const int code = kBaseCodes[static_cast<unsigned char>(base)];
  return code >= 0 ? "TGCA"[code] : 'N';
}

// The reverse complement of bases in ACGT (other letters become N).
std::string reverse_complement(std::string_view bases);

// Whether the reverse complement of `bases` sorts before them, read without building it.
inline bool reverse_sorts_first(std::string_view bases) {
  const std::size_t length = bases.size();
  for (std::size_t at = 0; at < length; ++at) {
    const char reverse = complement_base(bases[length - 1 - at]);
    if (reverse != bases[at]) return reverse < bases[at];
  }
  return false;  // its own reverse complement
}

}  // namespace xenon::genomics
