// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {

// Moves along the de Bruijn graph of packed k-mers of one length: the k-mer after (drop the
// first base, append one) and before (prepend one, drop the last), and the reverse
// complement. A k-mer of two words is handled as one 128-bit number.
template <int Words>
class KmerShape {
  static_assert(Words == 1 || Words == 2);
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
    const Wide reversed = (static_cast<Wide>(reverse_bases(low)) << 64) | reverse_bases(high);
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
  // Reverses the order of the 32 two-bit bases of a word.
  static std::uint64_t reverse_bases(std::uint64_t word) noexcept {
    word = ((word >> 2) & 0x3333333333333333ULL) | ((word & 0x3333333333333333ULL) << 2);
    word = ((word >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((word & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return __builtin_bswap64(word);
  }
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

// The reverse complement of bases in ACGT (other letters become N).
std::string reverse_complement(std::string_view bases);

}  // namespace xenon::genomics
