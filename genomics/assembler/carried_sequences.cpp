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

std::shared_ptr<const KmerBloomFilter> with_carried_kmers(std::shared_ptr<const KmerBloomFilter> filter,
                                                          const std::string& sequences, int k) {
  std::shared_ptr<KmerBloomFilter> copy;  // made at the first k-mer the filter lacks
  // Looked up a batch at a time, each batch's words asked for first: node 0 does this alone
  // before a round's parsers start, and one lookup at a time waited for memory at every k-mer
  // (35 -> 24 ms for the 4.6 M k-mers carried on 40x E. coli).
  constexpr std::size_t kBatch = 32;
  std::array<std::uint64_t, kBatch> hashes{};
  std::size_t batched = 0;
  const auto look_up = [&] {
    for (std::size_t at = 0; at < batched; ++at) filter->prefetch(hashes[at]);
    for (std::size_t at = 0; at < batched; ++at) {
      if (filter->may_contain(hashes[at])) continue;
      if (copy == nullptr) {
        copy = std::make_shared<KmerBloomFilter>(*filter);
        filter = copy;
      }
      copy->insert(hashes[at]);
    }
    batched = 0;
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
  return filter;
}

}  // namespace xenon::genomics
