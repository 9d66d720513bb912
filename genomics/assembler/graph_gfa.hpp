// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

// The graph the contigs were read from, kept until graph.gfa is written a line at a time
// (write_graph_gfa): the final graph's unitigs and links, not the file's text beside them.
// The contigs and scaffolds are spelled from its unitigs as they are written.
struct GraphFile {
  int k = 0;
  std::vector<Unitig> segments;  // the unitigs, as the graph keeps them
  std::vector<std::pair<UnitigGraph::Oriented, UnitigGraph::Oriented>> links;  // UnitigGraph::links()
  std::uint64_t bases() const;  // of every segment
};

// What graph.gfa is written from: takes the graph's unitigs (the graph is left empty).
GraphFile graph_file(UnitigGraph&& graph);

// Where graph.gfa goes, a line or a few at a time (an output file's write).
using GfaSink = std::function<void(std::string_view)>;

// The graph in GFA 1 (https://github.com/GFA-spec/GFA-spec, GFA1.md):
//  - one S line per unitig, named by its place in the graph from 1, with its bases as the
//    graph keeps them (the smaller of the two strands), LN:i: its length and KC:i: its
//    k-mers' counts added up;
//  - one L line per link, each once (a link and its reverse complement are one), overlapping
//    by k-1 bases: "(k-1)M"; a cycle links to itself;
//  - one P line per contig of `contigs`, named as in contigs.fasta, with the unitigs it was
//    read from, oriented as the contig reads them.
// Nothing in it depends on threads, processes or time.
void write_graph_gfa(const GraphFile& graph, const std::vector<Contig>& contigs, const GfaSink& write);
// The same as one string (for tests and small graphs).
std::string graph_gfa_text(const GraphFile& graph, const std::vector<Contig>& contigs);

}  // namespace xenon::genomics
