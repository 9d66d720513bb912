// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/kmer/kmer_histogram.hpp"

#include <stdexcept>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

KmerHistogram::KmerHistogram() : dense_(kDenseCounts, 0) {}

void KmerHistogram::merge(const KmerHistogram& other) {
  other.for_each([this](std::uint64_t count, std::uint64_t kmers) { add(count, kmers); });
}

std::uint64_t KmerHistogram::distinct_kmers() const {
  std::uint64_t total = 0;
  for_each([&](std::uint64_t, std::uint64_t kmers) { total += kmers; });
  return total;
}

std::uint64_t KmerHistogram::total_kmers() const {
  std::uint64_t total = 0;
  for_each([&](std::uint64_t count, std::uint64_t kmers) { total += count * kmers; });
  return total;
}

std::uint64_t KmerHistogram::max_count() const {
  std::uint64_t highest = 0;
  for_each([&](std::uint64_t count, std::uint64_t) { highest = count; });
  return highest;
}

std::string KmerHistogram::jellyfish_text(std::uint64_t high) const {
  std::string text;
  std::uint64_t above = 0;
  for_each([&](std::uint64_t count, std::uint64_t kmers) {
    if (count > high) {
      above += kmers;
    } else {
      text += std::to_string(count) + ' ' + std::to_string(kmers) + '\n';
    }
  });
  if (above != 0) text += std::to_string(high + 1) + ' ' + std::to_string(above) + '\n';
  return text;
}

std::vector<std::byte> KmerHistogram::to_bytes() const {
  std::vector<std::byte> bytes;
  for_each([&](std::uint64_t count, std::uint64_t kmers) {
    const std::size_t at = bytes.size();
    bytes.resize(at + 16);
    store_le64(bytes.data() + at, count);
    store_le64(bytes.data() + at + 8, kmers);
  });
  return bytes;
}

KmerHistogram KmerHistogram::from_bytes(std::span<const std::byte> bytes) {
  if (bytes.size() % 16 != 0) {
    throw std::invalid_argument("histogram of " + std::to_string(bytes.size()) +
                                " bytes is not whole (count, k-mers) pairs");
  }
  KmerHistogram histogram;
  for (std::size_t at = 0; at < bytes.size(); at += 16) {
    histogram.add(load_le64(bytes.data() + at), load_le64(bytes.data() + at + 8));
  }
  return histogram;
}

}  // namespace xenon::genomics
