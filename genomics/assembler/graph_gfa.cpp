// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/graph_gfa.hpp"

#include "genomics/assembler/assembler_settings.hpp"

namespace xenon::genomics {
namespace {

std::string segment_name(UnitigGraph::Oriented oriented) { return std::to_string(oriented / 2 + 1); }
char orientation(UnitigGraph::Oriented oriented) { return oriented % 2 == 0 ? '+' : '-'; }

}  // namespace

std::uint64_t GraphFile::bases() const {
  std::uint64_t total = 0;
  for (const Unitig& segment : segments) total += segment.bases.size();
  return total;
}

GraphFile graph_file(UnitigGraph&& graph) {
  GraphFile file;
  file.k = graph.k();
  file.links = graph.links();
  file.segments = graph.take_unitigs();
  return file;
}

void write_graph_gfa(const GraphFile& graph, const std::vector<Contig>& contigs, const GfaSink& write) {
  const std::string overlap = std::to_string(graph.k - 1) + "M";
  std::string line = "H\tVN:Z:1.0\n";
  write(line);
  for (std::size_t index = 0; index < graph.segments.size(); ++index) {
    const Unitig& unitig = graph.segments[index];
    line = "S\t" + segment_name(2 * index) + "\t";
    line += unitig.bases;
    line += "\tLN:i:" + std::to_string(unitig.bases.size()) + "\tKC:i:" + std::to_string(unitig.coverage_sum) + "\n";
    write(line);
  }
  for (const auto& [from, to] : graph.links) {
    line = "L\t" + segment_name(from) + "\t" + orientation(from) + "\t" + segment_name(to) + "\t" + orientation(to) +
           "\t" + overlap + "\n";
    write(line);
  }
  for (std::size_t contig = 0; contig < contigs.size(); ++contig) {
    std::string names;
    std::string overlaps;
    for (const UnitigGraph::Oriented oriented : contigs[contig].path) {
      if (!names.empty()) {
        names += ',';
        overlaps += overlaps.empty() ? "" : ",";
        overlaps += overlap;
      }
      names += segment_name(oriented) + orientation(oriented);
    }
    line = "P\t" + contig_name(contig) + "\t" + names + "\t" + (overlaps.empty() ? "*" : overlaps) + "\n";
    write(line);
  }
}

std::string graph_gfa_text(const GraphFile& graph, const std::vector<Contig>& contigs) {
  std::string text;
  write_graph_gfa(graph, contigs, [&text](std::string_view part) { text += part; });
  return text;
}

}  // namespace xenon::genomics
