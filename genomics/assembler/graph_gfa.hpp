// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

// The assembly graph as a GFA 1 file (https://github.com/GFA-spec/GFA-spec, GFA1.md), with
// what its size is, to decide whether to draw it.
struct GraphFile {
  std::string text;
  std::uint64_t segments = 0;
  std::uint64_t bases = 0;  // of every segment
};

// The graph the contigs were read from, in GFA 1:
//  - one S line per unitig, named by its place in the graph from 1, with its bases as the
//    graph keeps them (the smaller of the two strands), LN:i: its length and KC:i: its
//    k-mers' counts added up;
//  - one L line per link, each once (a link and its reverse complement are one), overlapping
//    by k-1 bases: "(k-1)M"; a cycle links to itself;
//  - one P line per contig, named as in contigs.fasta, with the unitigs it was read from
//    (`paths`, from UnitigGraph::contigs()), oriented as the contig reads them.
// Nothing in it depends on threads, processes or time.
GraphFile graph_gfa(const UnitigGraph& graph, const std::vector<std::vector<UnitigGraph::Oriented>>& paths);

}  // namespace xenon::genomics
