// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

// A part of a scaffold: a contig read one way, from one of its bases on (where it overlaps
// the contig before it), or bases of the scaffold's own (the graph's way between two
// contigs, a run of N).
struct ScaffoldPiece {
  static constexpr std::size_t kOwnBases = ~std::size_t{0};
  std::size_t contig = kOwnBases;  // its index in contigs.fasta, or kOwnBases: `bases`
  bool reversed = false;           // the contig reverse complemented
  std::size_t from = 0;            // the contig's bases from this one on
  std::string bases;
  bool operator==(const ScaffoldPiece&) const = default;
};

// A run of contigs that read pairs put in order: the pieces it is spelled from (the
// contigs, each read one way, with what lies between them: the graph's bases where it holds
// the way from one to the next, else a run of N), and the contigs it holds (their indexes in
// contigs.fasta). It is spelled only as it is written (spelled_scaffold), so that no scaffold
// holds a second copy of its contigs' bases.
struct Scaffold {
  std::vector<ScaffoldPiece> pieces;
  std::size_t length = 0;  // bases, N counted
  std::vector<std::size_t> contigs;
  std::size_t gaps = 0;  // runs of N among its own bases
};

struct ScaffoldingReport {
  std::uint64_t join_span_median = 0;  // read pairs that span a join between unitigs inside a contig (read as the median base)
  std::uint64_t link_threshold = 0;  // read pairs a link between two contig ends needed (both read as the median base)
  std::uint64_t link_reach = 0;      // the most bases between a linking pair's mates' unitigs
  std::uint64_t joins = 0;           // of two contigs in a scaffold
  std::uint64_t joins_through_graph = 0;  // of them, with the graph's bases between the two
  std::uint64_t conflicted_ends = 0;  // contig ends left open: two partners or more
  std::uint64_t insert_size = 0;      // the fragments' median length (0: too few pairs to say)
  std::uint64_t joins_by_overlap = 0;  // of two contigs the graph does not connect, where their ends overlap
  std::uint64_t joins_by_graph_alone = 0;  // of ends no pair links: the graph leads from each to the other only
  std::uint64_t joins_of_dead_ends = 0;  // of two dead ends linked to each other alone, by 2 pairs
  std::uint64_t gaps_sized = 0;       // gaps of N whose size the pairs measured
};

// Scaffolds the contigs (as UnitigGraph::contig_paths() gave them) by
// the read pairs of `pairs` (ReadThreads::pair_count()):
// - a mate is placed by the unitigs it crossed that lie in one contig only, are 2k bases
//   long or more and are read at most 1.5 times as often as their genome's typical base (a
//   contig of 10,000 bases or more: its own median base; a shorter one: the median base of
//   all the contigs): the last such unitig of the first mate's, the first of the second's,
//   unless a later one lies in a contig whose genome was read 1.5 times less (a strain's
//   read crossing into a stretch it shares with a strain read more); a pair whose mates lie
//   in two contigs links the end the fragment leaves the one by and the end it enters the
//   other by, when the bases of the contigs between the mates' unitigs and those ends are
//   at most the link reach: twice (the 98th percentile of the fragments' lengths, below,
//   less 2k) (a mate has a k-mer in the unitig that places it; twice, as two contigs that each
//   reach into the repeat between them both hold its bases), at most kLinkReach; an end
//   links nothing where the graph goes on from its outermost unitig two ways or more and
//   fewer than half the pairs its link threshold asks span the join just inside its
//   outermost unitig that places mates (the contig may have run on into another repeat
//   copy's way);
// - two ends are joined when the pairs that link them reach both contigs' thresholds, and
//   no other end is linked to either by a third as many or more (and over the thresholds): a quarter of the median
//   count of pairs that span the joins between unitigs inside contigs, each count taken
//   over its contig's typical coverage, times the contig's (so it follows its genome's
//   depth), and at least 3 (`link_threshold` and `join_span_median` in the report: those of
//   a contig read as often as the median base of all the contigs);
// - two dead ends (the graph goes on from neither) that pairs link to each other and to no
//   other end are joined by 2 pairs, one under the least threshold, where both thresholds
//   are the least (3): at 10x, coverage thins to nothing over a few dozen bases far more
//   often than two chance pairs meet two dead ends (pairs that put an end more than a
//   fragment into another end do not count as linking it elsewhere: their mates lie in a
//   repeat both carry);
// - two ends that no pair links are joined when the graph leads from each to the other
//   alone: every way out of the one, through unitigs that place no mate (kLinkReach bases at
//   most, no dead end), reaches the unitig nearest the other's end that places mates, and no
//   other such unitig (a tandem array or another repeat longer than a fragment less two
//   mates); through a loop (how many rounds no read says) the join is a run of N as long as
//   the graph's shortest way between (kUnknownGap at least);
// - between two joined contigs go the bases of the graph's shortest way from the one to the
//   other (unitigs no other contig holds, kLinkReach bases at most), or the overlap where
//   the one ends with unitigs the other begins with; failing both, where the pairs measure
//   no gap over 100 bases (or none), the two merged where the one ends with 10 to 500 bases
//   the other begins with (a mismatch allowed in every 25, kept as the first has it: the
//   graph broke there, at an error or a variant, or where too few reads covered the
//   join's k-mers); failing that, a run of N as long as
//   the gap: the fragments' length less the bases the two contigs hold of it, the median
//   over the pairs that link the two ends by the unitigs where the fragment begins and ends
//   (kUnknownGap N at least, and where no pair measured the gap). The fragments' length is
//   the median over the pairs whose fragment begins and ends in unitigs of one contig, along
//   it (ReadThreads::for_each_pair: where each mate begins in its unitig); at least
//   100 such pairs, else every gap is of unknown size.
// Every contig is in one scaffold, a contig no join reached alone. Circular contigs stay
// alone. Scaffolds come longest first (then by their first contig), each beginning with its
// end contig of the smaller index, read as contigs.fasta has it when that end is its start.
std::vector<Scaffold> scaffold_contigs(const UnitigGraph& graph, const std::vector<Contig>& contigs,
                                       const ReadThreads& pairs, ScaffoldingReport& report);

// The most a link may reach (all of it when too few fragments inside contigs measure it),
// and the longest way between two contigs looked for in the graph.
inline constexpr std::size_t kLinkReach = 2000;
// The N written for a gap of unknown size (QUAST reads 10 N or more as a gap).
inline constexpr std::size_t kUnknownGap = 10;

// Every contig alone, in order: the scaffolds of an assembly without read pairs.
std::vector<Scaffold> unscaffolded(const std::vector<Contig>& contigs);

// The scaffold's bases, from the contigs it was made of and the unitigs they spell.
std::string spelled_scaffold(const Scaffold& scaffold, const std::vector<Contig>& contigs,
                             const std::vector<Unitig>& unitigs, int k);
// The same bases in windows of at most `window` bases (a window ends where a piece does), in
// order, each handed to `take`: the scaffold is never spelled whole.
void spell_in_windows(const Scaffold& scaffold, const std::vector<Contig>& contigs, const std::vector<Unitig>& unitigs,
                      int k, std::size_t window, const std::function<void(std::string_view)>& take);

// N50 of the scaffolds' lengths (N counted).
std::size_t scaffold_n50(const std::vector<Scaffold>& scaffolds);

}  // namespace xenon::genomics
