// SPDX-License-Identifier: BSD-3-Clause
// contigs.fasta and scaffolds.fasta, written a window of a record at a time.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/contig.hpp"
#include "genomics/assembler/graph_gfa.hpp"
#include "genomics/assembler/scaffolding.hpp"
#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

// Where FASTA goes about 80 kbp at a time (an output file's write), so that no output, nor
// any record of it, is ever held whole as one string beside the sequences it is made of (node
// 0 at the default rounds on 40x E. coli, P = 8: 60.9 MiB while writing when both files were
// strings first, 54.2 a record at a time).
using FastaSink = std::function<void(std::string_view)>;

// Contigs as FASTA, 80 bases a line: ">contig_N length=L coverage=C [circular]", each
// spelled from the graph's unitigs (`graph`'s segments) a window at a time as it is written.
void write_contigs_fasta(const std::vector<Contig>& contigs, const GraphFile& graph, const FastaSink& write);
// Scaffolds as FASTA, 80 bases a line: ">scaffold_N length=L contigs=contig_A,contig_B,...",
// each spelled from `contigs` as it is written.
void write_scaffolds_fasta(const std::vector<Scaffold>& scaffolds, const std::vector<Contig>& contigs,
                           const GraphFile& graph, const FastaSink& write);

// Bases a line of FASTA.
inline constexpr std::size_t kFastaLineBases = 80;

}  // namespace xenon::genomics
