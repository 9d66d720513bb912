// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace xenon::genomics {

// A Bloom filter of hashed k-mers (the word of a KmerKey<1>, already well mixed): it never
// forgets a k-mer put in, and says "maybe" of a few never put in. Each k-mer sets 4 bits of
// one 64-bit word, so a lookup reads one word (one cache line) however large the filter is.
// Filters of the same size merge by OR: each store builds one of its own k-mers, and the
// union is what every parser reads.
class KmerBloomFilter {
 public:
  KmerBloomFilter() = default;  // holds nothing and is empty(): may_contain is never asked of it

  // 16 bits an item (about 0.5% false positives when full), at least one word.
  static KmerBloomFilter sized_for(std::uint64_t items);
  static std::uint64_t bytes_for(std::uint64_t items);  // sized_for(items).bytes(), not allocated

  // A filter of `words` words with nothing in it, for a filter put together from slices
  // (read_words); std::invalid_argument for 0 words or more than a filter may have.
  static KmerBloomFilter with_words(std::uint64_t words);

  bool empty() const { return words_.empty(); }
  std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }
  std::size_t words() const { return words_.size(); }

  void insert(std::uint64_t hash) { words_[word_of(hash)] |= bits_of(hash); }

  // Where a hash's bits go: one word, 4 bits of it. A filter put together elsewhere from
  // slices takes additions to its words in this form.
  struct WordBits {
    std::uint64_t word = 0;
    std::uint64_t bits = 0;
    bool operator==(const WordBits& other) const = default;
  };
  WordBits place(std::uint64_t hash) const { return {word_of(hash), bits_of(hash)}; }
  // std::out_of_range for a word past the end.
  void add(const WordBits& addition) { words_.at(addition.word) |= addition.bits; }
  bool may_contain(std::uint64_t hash) const {
    const std::uint64_t bits = bits_of(hash);
    return (words_[word_of(hash)] & bits) == bits;
  }

  // Asks for the word a later may_contain(hash) reads, so that many lookups wait for memory at once.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&words_[word_of(hash)]); }

  // Throws std::invalid_argument when the sizes differ (the union would be meaningless).
  void merge(const KmerBloomFilter& other);

  // Little-endian words; from_bytes throws std::invalid_argument on a size not a whole word.
  std::vector<std::byte> to_bytes() const;
  // The same bytes into `out` (bytes() of them), as a message's payload holds them: no copy
  // of megabytes between.
  void write_bytes(std::span<std::byte> out) const;
  // The words [first, first + out.size() / 8) as write_bytes writes them: a slice of the
  // filter for the node that keeps it. std::invalid_argument past the end or not whole words.
  void write_words(std::size_t first, std::span<std::byte> out) const;
  static KmerBloomFilter from_bytes(std::span<const std::byte> bytes);
  // Replaces the words from `first_word` on by `bytes` (little-endian words, as write_bytes
  // writes them): a slice of a filter kept elsewhere. std::invalid_argument on a size not a
  // whole word, or words past the end.
  void read_words(std::size_t first_word, std::span<const std::byte> bytes);

  bool operator==(const KmerBloomFilter& other) const = default;

 private:
  // The word from the hash's high half (scaled, no division), the 4 bits from 4 fields of
  // 6 bits of its low half: independent parts of one mixed hash.
  std::size_t word_of(std::uint64_t hash) const {
    return static_cast<std::size_t>(((hash >> 32) * words_.size()) >> 32);
  }
  static std::uint64_t bits_of(std::uint64_t hash) {
    return (std::uint64_t{1} << (hash & 63)) | (std::uint64_t{1} << ((hash >> 6) & 63)) |
           (std::uint64_t{1} << ((hash >> 12) & 63)) | (std::uint64_t{1} << ((hash >> 18) & 63));
  }

  std::vector<std::uint64_t> words_;
};

}  // namespace xenon::genomics
