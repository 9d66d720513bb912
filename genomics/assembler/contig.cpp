// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/contig.hpp"

#include <algorithm>
#include <string_view>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

std::size_t spelled_path_length(const std::vector<Unitig>& unitigs, int k,
                                std::span<const Contig::Oriented> path) {
  if (path.empty()) return 0;
  std::size_t length = 0;
  for (const Contig::Oriented oriented : path) length += unitigs[oriented / 2].bases.size();
  return length - (path.size() - 1) * (static_cast<std::size_t>(k) - 1);
}

std::string spelled_path(const std::vector<Unitig>& unitigs, int k, std::span<const Contig::Oriented> path) {
  const std::size_t overlap = static_cast<std::size_t>(k) - 1;
  std::string bases;
  bases.reserve(spelled_path_length(unitigs, k, path));
  for (const Contig::Oriented oriented : path) {
    const std::string& unitig = unitigs[oriented / 2].bases;
    const std::string reversed = oriented % 2 == 0 ? std::string() : reverse_complement(unitig);
    const std::string_view piece = oriented % 2 == 0 ? std::string_view(unitig) : std::string_view(reversed);
    bases.append(bases.empty() ? piece : piece.substr(overlap));
  }
  return bases;
}

std::string spelled_contig(const std::vector<Unitig>& unitigs, int k, const Contig& contig) {
  return spelled_path(unitigs, k, contig.path).substr(contig.from, contig.length);
}

Contig reversed_contig(const std::vector<Unitig>& unitigs, int k, Contig contig) {
  const std::size_t spelled = spelled_path_length(unitigs, k, contig.path);
  std::reverse(contig.path.begin(), contig.path.end());
  for (Contig::Oriented& oriented : contig.path) oriented ^= 1;
  // What the path spells is now read from its other end.
  contig.from = spelled - (contig.from + contig.length);
  return contig;
}

std::size_t contig_n50(const std::vector<Contig>& contigs) {
  std::vector<std::size_t> lengths;
  lengths.reserve(contigs.size());
  for (const Contig& contig : contigs) lengths.push_back(contig.length);
  return n50_of_lengths(std::move(lengths));
}

}  // namespace xenon::genomics
