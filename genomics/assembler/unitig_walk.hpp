// SPDX-License-Identifier: BSD-3-Clause
// The unitig step: from a vertex, on to the only vertex after it, spelling the bases and
// summing the counts. The stores take it a lookup at a time, as the next vertex may be another
// store's (graph_store.hpp); the coordinator takes it through the cycles no store walk reached
// (assembler_coordinator.hpp). Which next vertex a walk may take is theirs to say.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "genomics/assembler/vertex_table.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

template <int Words>
struct UnitigWalk {
  using Kmer = PackedKmer<Words>;

  Kmer current{};              // the last k-mer taken, read as the walk reads it
  std::uint8_t after = 0;      // the bases that can follow `current` (VertexEdges::after)
  std::string bases;           // of the k-mers taken
  std::uint64_t coverage = 0;  // their counts summed

  // Starts at `kmer`, a vertex with `count` and `edges`, read reverse complemented or not.
  void begin(const Kmer& kmer, int k, std::uint32_t count, std::uint8_t edges, bool reversed) {
    current = kmer;
    after = VertexEdges::after(edges, reversed);
    bases = kmer_to_string<Words>(kmer, k);
    coverage = count;
  }

  // The base (0-3) of the one k-mer after `current`, or -1 where none or several follow it.
  int only_base_after() const { return VertexEdges::degree(after) == 1 ? std::countr_zero(after) : -1; }

  // Takes `next`, the k-mer after `current`: a vertex with `count` and `edges`, read reverse
  // complemented or not.
  void take(const Kmer& next, std::uint32_t count, std::uint8_t edges, bool reversed) {
    bases.push_back("ACGT"[KmerShape<Words>::last_base(next)]);
    coverage += count;
    current = next;
    after = VertexEdges::after(edges, reversed);
  }
};

}  // namespace xenon::genomics
