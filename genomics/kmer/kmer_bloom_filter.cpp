// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/kmer/kmer_bloom_filter.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

namespace {
constexpr std::uint64_t kBitsPerItem = 16;
constexpr std::uint64_t kLargestWords = std::uint64_t{1} << 32;  // word_of scales a 32-bit half
}  // namespace

namespace {
std::uint64_t words_for(std::uint64_t items) {
  return std::clamp<std::uint64_t>((items * kBitsPerItem + 63) / 64, 1, kLargestWords);
}
}  // namespace

KmerBloomFilter KmerBloomFilter::sized_for(std::uint64_t items) { return with_words(words_for(items)); }

KmerBloomFilter KmerBloomFilter::with_words(std::uint64_t words) {
  if (words == 0 || words > kLargestWords) {
    throw std::invalid_argument("a k-mer filter of " + std::to_string(words) + " words");
  }
  KmerBloomFilter filter;
  filter.words_.assign(static_cast<std::size_t>(words), 0);
  return filter;
}

std::uint64_t KmerBloomFilter::bytes_for(std::uint64_t items) { return words_for(items) * sizeof(std::uint64_t); }

void KmerBloomFilter::merge(const KmerBloomFilter& other) {
  if (other.words_.size() != words_.size()) {
    throw std::invalid_argument("k-mer filters of " + std::to_string(bytes()) + " and " +
                                std::to_string(other.bytes()) + " bytes cannot be merged");
  }
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= other.words_[i];
}

std::vector<std::byte> KmerBloomFilter::to_bytes() const {
  std::vector<std::byte> out(bytes());
  write_bytes(out);
  return out;
}

void KmerBloomFilter::write_bytes(std::span<std::byte> out) const {
  if (out.size() != bytes()) {
    throw std::invalid_argument("a k-mer filter of " + std::to_string(bytes()) + " bytes written into " +
                                std::to_string(out.size()));
  }
  for (std::size_t i = 0; i < words_.size(); ++i) store_le64(out.data() + 8 * i, words_[i]);
}

void KmerBloomFilter::write_words(std::size_t first, std::span<std::byte> out) const {
  if (out.size() % 8 != 0 || first > words_.size() || out.size() / 8 > words_.size() - first) {
    throw std::invalid_argument("words " + std::to_string(first) + " to " + std::to_string(first + out.size() / 8) +
                                " of a k-mer filter of " + std::to_string(words_.size()));
  }
  for (std::size_t i = 0; i < out.size() / 8; ++i) store_le64(out.data() + 8 * i, words_[first + i]);
}

KmerBloomFilter KmerBloomFilter::from_bytes(std::span<const std::byte> bytes) {
  if (bytes.size() % 8 != 0) {
    throw std::invalid_argument("a k-mer filter of " + std::to_string(bytes.size()) + " bytes, not whole words");
  }
  KmerBloomFilter filter;
  filter.words_.resize(bytes.size() / 8);
  filter.read_words(0, bytes);
  return filter;
}

void KmerBloomFilter::read_words(std::size_t first_word, std::span<const std::byte> bytes) {
  if (bytes.size() % 8 != 0 || first_word > words_.size() || bytes.size() / 8 > words_.size() - first_word) {
    throw std::invalid_argument("a slice of " + std::to_string(bytes.size()) + " bytes from word " +
                                std::to_string(first_word) + " of a k-mer filter of " + std::to_string(words_.size()) +
                                " words");
  }
  for (std::size_t i = 0; i < bytes.size() / 8; ++i) words_[first_word + i] = load_le64(bytes.data() + 8 * i);
}

}  // namespace xenon::genomics
