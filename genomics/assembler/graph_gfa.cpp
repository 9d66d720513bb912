// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/graph_gfa.hpp"

#include "genomics/assembler/assembler_settings.hpp"

namespace xenon::genomics {
namespace {

std::string segment_name(UnitigGraph::Oriented oriented) { return std::to_string(oriented / 2 + 1); }
char orientation(UnitigGraph::Oriented oriented) { return oriented % 2 == 0 ? '+' : '-'; }

}  // namespace

GraphFile graph_gfa(const UnitigGraph& graph, const std::vector<std::vector<UnitigGraph::Oriented>>& paths) {
  const std::string overlap = std::to_string(graph.k() - 1) + "M";
  GraphFile file;
  file.text = "H\tVN:Z:1.0\n";
  const std::vector<Unitig>& unitigs = graph.unitigs();
  for (std::size_t index = 0; index < unitigs.size(); ++index) {
    const Unitig& unitig = unitigs[index];
    file.text += "S\t" + segment_name(2 * index) + "\t" + unitig.bases +
                 "\tLN:i:" + std::to_string(unitig.bases.size()) +
                 "\tKC:i:" + std::to_string(unitig.coverage_sum) + "\n";
    ++file.segments;
    file.bases += unitig.bases.size();
  }
  for (const auto& [from, to] : graph.links()) {
    file.text += "L\t" + segment_name(from) + "\t" + orientation(from) + "\t" + segment_name(to) + "\t" +
                 orientation(to) + "\t" + overlap + "\n";
  }
  for (std::size_t contig = 0; contig < paths.size(); ++contig) {
    std::string names;
    std::string overlaps;
    for (const UnitigGraph::Oriented oriented : paths[contig]) {
      if (!names.empty()) {
        names += ',';
        overlaps += overlaps.empty() ? "" : ",";
        overlaps += overlap;
      }
      names += segment_name(oriented) + orientation(oriented);
    }
    file.text += "P\t" + contig_name(contig) + "\t" + names + "\t" + (overlaps.empty() ? "*" : overlaps) + "\n";
  }
  return file;
}

}  // namespace xenon::genomics
