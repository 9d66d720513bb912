// SPDX-License-Identifier: BSD-3-Clause
// A contig as the unitigs it is read from, spelled only as it is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/unitig.hpp"

namespace xenon::genomics {

// A contig of the final graph: `length` bases from base `from` of what its path spells (the
// path's unitigs joined on their k-1 shared bases; all of them but for a cycle, which leaves
// out its repeated k-1). Node 0 keeps the graph's unitigs and these, not the contigs' bases
// beside them (40x E. coli: 4.6 MB a copy).
struct Contig {
  // Its unitigs, read as the contig reads them (graph.gfa's P line): index * 2 + reversed,
  // as UnitigGraph::Oriented.
  using Oriented = std::size_t;
  std::vector<Oriented> path;
  std::size_t from = 0;
  std::size_t length = 0;
  std::uint64_t coverage_sum = 0;  // of the unitig it grew from, as the contig's coverage
  std::uint64_t kmers = 0;
  bool circular = false;

  // The mean k-mer count.
  double coverage() const { return mean_count(coverage_sum, kmers); }
  bool operator==(const Contig&) const = default;
};

// What `path` spells, over `unitigs` (index * 2 + reversed) of k-mers of `k` bases, and its length.
std::string spelled_path(const std::vector<Unitig>& unitigs, int k, std::span<const Contig::Oriented> path);
std::size_t spelled_path_length(const std::vector<Unitig>& unitigs, int k,
                                std::span<const Contig::Oriented> path);
// The contig's bases.
std::string spelled_contig(const std::vector<Unitig>& unitigs, int k, const Contig& contig);
// `count` bases of the contig from its base `from` (fewer where it ends first), read forward
// or, `reversed`, as its reverse complement: only the unitigs that hold them are read, so a
// step that needs a contig's end or the first bases two contigs differ in spells no more.
std::string spelled_window(const std::vector<Unitig>& unitigs, int k, const Contig& contig, bool reversed,
                           std::size_t from, std::size_t count);
// The contig's bases in windows of `window` bases (the last one shorter), in order, each handed
// to `take`: the contig is never spelled whole.
void spell_in_windows(const std::vector<Unitig>& unitigs, int k, const Contig& contig, std::size_t window,
                      const std::function<void(std::string_view)>& take);
// What contigs `a` and `b` spell (each read forward or, reversed, as its reverse complement),
// compared as strings are (< 0, 0, > 0), read in windows up to their first difference.
int compare_spelled(const std::vector<Unitig>& unitigs, int k, const Contig& a, bool a_reversed, const Contig& b,
                    bool b_reversed);
// The same contig read the other way: its path reversed, each unitig read the other way.
Contig reversed_contig(const std::vector<Unitig>& unitigs, int k, Contig contig);

// N50 of the contigs' lengths.
std::size_t contig_n50(const std::vector<Contig>& contigs);

}  // namespace xenon::genomics
