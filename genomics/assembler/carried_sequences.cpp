// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/carried_sequences.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_hash.hpp"

namespace xenon::genomics {

std::string carried_sequences(const UnitigGraph& graph) {
  std::size_t bytes = 0;
  for (const Unitig& unitig : graph.unitigs()) bytes += unitig.bases.size() + 1;
  std::string sequences;
  sequences.reserve(bytes);  // held through the next round: no room to spare
  for (const Unitig& unitig : graph.unitigs()) {
    sequences += unitig.bases;
    sequences += '\n';
  }
  return sequences;
}

std::string carried_fingerprint(const std::string& sequences) {
  if (sequences.empty()) return "";
  std::uint64_t hash = 0xcbf29ce484222325;
  for (const char c : sequences) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3;
  }
  char text[64];
  std::snprintf(text, sizeof text, " carried=%zu:%016llx", sequences.size(), static_cast<unsigned long long>(hash));
  return text;
}

std::size_t carried_count(const std::string& sequences) {
  return static_cast<std::size_t>(std::count(sequences.begin(), sequences.end(), '\n'));
}

namespace {

// Sorted by word, one entry a word with the union of its bits.
void merge_by_word(std::vector<KmerBloomFilter::WordBits>& additions) {
  std::sort(additions.begin(), additions.end(),
            [](const KmerBloomFilter::WordBits& a, const KmerBloomFilter::WordBits& b) { return a.word < b.word; });
  std::size_t kept = 0;
  for (const KmerBloomFilter::WordBits& addition : additions) {
    if (kept != 0 && additions[kept - 1].word == addition.word) {
      additions[kept - 1].bits |= addition.bits;
    } else {
      additions[kept++] = addition;
    }
  }
  additions.resize(kept);
}

}  // namespace

std::vector<KmerBloomFilter::WordBits> carried_kmer_additions(const KmerBloomFilter& filter, const std::string& sequences,
                                                              int k) {
  std::vector<KmerBloomFilter::WordBits> additions;
  std::size_t merge_at = std::size_t{1} << 16;  // a k-mer lacking twice is added twice until merged
  // Looked up a batch at a time, each batch's words asked for first: the keepers do this
  // before a round's parsers start (node 0 did it alone for every carried k-mer, where one
  // lookup at a time waited for memory at every k-mer: 35 -> 24 ms on 40x E. coli).
  constexpr std::size_t kBatch = 32;
  std::array<std::uint64_t, kBatch> hashes{};
  std::size_t batched = 0;
  const auto look_up = [&] {
    for (std::size_t at = 0; at < batched; ++at) filter.prefetch(hashes[at]);
    for (std::size_t at = 0; at < batched; ++at) {
      const KmerBloomFilter::WordBits placed = filter.place(hashes[at]);
      if (!filter.may_contain(hashes[at])) additions.push_back(placed);
    }
    batched = 0;
    if (additions.size() >= merge_at) {
      merge_by_word(additions);
      merge_at = std::max(merge_at, 2 * additions.size());
    }
  };
  KmerScanner<1> scanner(k);
  for_each_carried_sequence(sequences, [&](std::string_view sequence) {
    scanner.reset();
    scanner.feed(sequence, [&](const PackedKmer<1>& kmer) {
      hashes[batched++] = key_of<1>(kmer)[0];
      if (batched == kBatch) look_up();
    });
  });
  look_up();
  merge_by_word(additions);
  return additions;
}

}  // namespace xenon::genomics
