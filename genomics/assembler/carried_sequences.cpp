// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/carried_sequences.hpp"

#include <algorithm>
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
  KmerScanner<1> scanner(k);
  for_each_carried_sequence(sequences, [&](std::string_view sequence) {
    scanner.reset();
    scanner.feed(sequence, [&](const PackedKmer<1>& kmer) {
      const std::uint64_t hash = key_of<1>(kmer)[0];
      if (filter->may_contain(hash)) return;
      if (copy == nullptr) {
        copy = std::make_shared<KmerBloomFilter>(*filter);
        filter = copy;
      }
      copy->insert(hash);
    });
  });
  return filter;
}

}  // namespace xenon::genomics
