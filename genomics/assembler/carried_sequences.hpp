// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <string>

#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

// What one round of several k hands the next (multi_k_assembly.hpp): the unitigs of its graph
// once cleaned (tips removed, bubbles popped), before repeats are settled and contigs read,
// one a line. Not its contigs: a contig (or a settled repeat) goes on past a unitig's end
// where reads or mates chose the way, and a wrong choice carried as solid k-mers would stay
// wrong at every larger k (measured: inversions on the Shigella plasmids); a cleaned unitig
// is only k-mers the reads have, and its k-mers at a larger k cross no branch of this one.
std::string carried_sequences(const UnitigGraph& graph);

// For a checkpoint's origin (the graph depends on them): "" without carried sequences, else
// " carried=BYTES:HASH" (FNV-1a, 64 bits).
std::string carried_fingerprint(const std::string& sequences);

// How many sequences, one a line.
std::size_t carried_count(const std::string& sequences);

}  // namespace xenon::genomics
