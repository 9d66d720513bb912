// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"

namespace xenon::genomics {

// What one round of several k hands the next (multi_k_assembly.hpp): the unitigs of its graph
// once cleaned (tips removed, bubbles popped), before repeats are settled and contigs read,
// one a line. Not its contigs: a contig (or a settled repeat) goes on past a unitig's end
// where reads or mates chose the way, and a wrong choice carried as solid k-mers would stay
// wrong at every larger k (measured: inversions on the Shigella plasmids); a cleaned unitig
// is only k-mers the reads have, and its k-mers at a larger k cross no branch of this one.
std::string carried_sequences(const UnitigGraph& graph);

// Calls visit(std::string_view sequence) for each of the sequences, one a line.
template <class Visit>
void for_each_carried_sequence(std::string_view sequences, Visit&& visit) {
  while (!sequences.empty()) {
    const std::size_t end = std::min(sequences.find('\n'), sequences.size());
    visit(sequences.substr(0, end));
    sequences.remove_prefix(std::min(end + 1, sequences.size()));
  }
}

// For a checkpoint's origin (the graph depends on them): "" without carried sequences, else
// " carried=BYTES:HASH" (FNV-1a, 64 bits).
std::string carried_fingerprint(const std::string& sequences);

// How many sequences, one a line.
std::size_t carried_count(const std::string& sequences);

// What putting every k-mer (k at most 32) of the sequences in the filter would add, so that a
// later round's filter of k-mers read twice or more passes the carried k-mers too (solid
// whatever their count): the words that would change, in order, each once with the bits it
// lacks. Usually none: a carried k-mer was solid, so read twice or more, unless the threshold
// was 1. The filter is left as it is; each keeper finds these for its node's share of the
// sequences and every keeper adds every keeper's (filter_keeper.hpp).
std::vector<KmerBloomFilter::WordBits> carried_kmer_additions(const KmerBloomFilter& filter, const std::string& sequences,
                                                              int k);

}  // namespace xenon::genomics
