// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/fasta_output.hpp"

#include <cstdio>

#include "genomics/assembler/assembler_settings.hpp"

namespace xenon::genomics {

void write_contigs_fasta(const std::vector<Contig>& contigs, const GraphFile& graph, const FastaSink& write) {
  std::string record;
  char header[160];
  for (std::size_t i = 0; i < contigs.size(); ++i) {
    const Contig& contig = contigs[i];
    std::snprintf(header, sizeof header, ">%s length=%zu coverage=%.2f%s\n", contig_name(i).c_str(), contig.length,
                  contig.coverage(), contig.circular ? " circular" : "");
    record = header;
    append_fasta_lines(record, spelled_contig(graph.segments, graph.k, contig));
    write(record);
  }
}

void write_scaffolds_fasta(const std::vector<Scaffold>& scaffolds, const std::vector<Contig>& contigs,
                           const GraphFile& graph, const FastaSink& write) {
  std::string record;
  for (std::size_t i = 0; i < scaffolds.size(); ++i) {
    const Scaffold& scaffold = scaffolds[i];
    record = ">scaffold_" + std::to_string(i + 1) + " length=" + std::to_string(scaffold.length) + " contigs=";
    for (std::size_t part = 0; part < scaffold.contigs.size(); ++part) {
      record += (part == 0 ? "" : ",") + contig_name(scaffold.contigs[part]);
    }
    record += '\n';
    append_fasta_lines(record, spelled_scaffold(scaffold, contigs, graph.segments, graph.k));
    write(record);
  }
}

void append_fasta_lines(std::string& text, const std::string& bases) {
  for (std::size_t at = 0; at < bases.size(); at += 80) {
    text.append(bases, at, 80);
    text += '\n';
  }
}

}  // namespace xenon::genomics
