// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "genomics/assembler/contig.hpp"
#include "genomics/assembler/junction_index.hpp"
#include "genomics/assembler/unitig.hpp"

namespace xenon::genomics {

struct CleaningSettings {
  std::size_t tip_length = 0;      // tips shorter than this (bases) are removed; 0: 2.5 k
  std::size_t bubble_length = 0;   // bubbles with branches up to this long are popped; 0: 5 k
  int rounds = 10;                 // at most, each one tips, then bubbles
  // The lengths applied with k-mers of k bases (the defaults where 0).
  std::size_t tip_length_for(int k) const {
    return tip_length != 0 ? tip_length : static_cast<std::size_t>(k) * 5 / 2;
  }
  std::size_t bubble_length_for(int k) const {
    return bubble_length != 0 ? bubble_length : static_cast<std::size_t>(k) * 5;
  }
};

struct CleaningReport {
  std::uint64_t weak_branches_removed = 0;
  std::uint64_t tips_removed = 0;
  std::uint64_t bubbles_popped = 0;
  int rounds = 0;
};

// The compacted de Bruijn graph: unitigs joined where the last k-1 bases of one are the first
// k-1 bases of another (either read forward or reverse complemented). Cleaning removes
// branches read less than the threshold beside a well-read one, tips (short dead ends beside a
// better-covered branch: sequencing errors near a read's end) and bubbles (two branches between
// the same two junctions, of about the same length: an error inside reads, or a repeat's copy
// with a variant), each only where it looks like an error beside the coverage around it (a
// bubble's branch also where it is read about as often as the best), then joins the unitigs that meet at
// junctions left with one way in and one way out. Everything is ordered by sequence, so the result does not depend on the order in
// which unitigs were added.
class UnitigGraph {
 public:
  // A unitig read forward (even) or reverse complemented (odd): index * 2 + reversed.
  using Oriented = std::size_t;
  // How many reads went through x, then all of y, then z.
  using Passages = std::function<std::uint32_t(Oriented x, Oriented y, Oriented z)>;
  // How many reads went on to each unitig after going through `context` (unitigs in a row).
  using NextAfter = std::function<std::map<Oriented, std::uint32_t>(const std::vector<Oriented>& context)>;
  // How many read pairs with a mate in `anchor` have the other mate in each of `ways`.
  using MatesAfter = std::function<std::map<Oriented, std::uint32_t>(Oriented anchor, const std::vector<Oriented>& ways)>;

  explicit UnitigGraph(int k) : k_(k) {}

  // A unitig of at least k bases and its k-mers' summed counts.
  void add(std::string bases, std::uint64_t coverage_sum, bool circular);

  // `threshold`: the count that tells errors from genome over the whole sample (the k-mer
  // histogram's); the graph may hold k-mers read fewer times, judged by their neighbours.
  CleaningReport clean(const CleaningSettings& settings, std::uint64_t threshold);

  // Joins unitigs through junctions with one way in and one way out (clean() does it too).
  void compact();

  // Contigs of at least `minimum_length` bases: each in the orientation that is smaller of it
  // and its reverse complement, a cycle without its repeated k-1 bases, longest first. With
  // `extend`, a unitig goes on into its neighbours while only one way leads on (into a repeat:
  // so each copy of a repeat is written beside what surrounds it, by the contig that enters
  // it, read forward, not by the one it enters: leave_repeats_entered_from), a unitig held
  // whole in a longer contig is not written again, and a contig's ends lose what a longer
  // contig holds, but for a repeat right next to the rest (read 1.5 times as often or more).
  // Where two or more ways lead on, `reads` (when given) can pick one: the way taken by at
  // least two reads that went through the last unitigs of the contig so far, when no read
  // that went through them took another (the longest such stretch of unitigs that reads
  // crossed decides). Failing that, `mates` can: the way where at least three read pairs with
  // a mate in the contig's last long unitig (300 bases or more, at most 300 bases back) have
  // the other mate, when no pair points to another way. A walk enters a repeat again (round a
  // loop: X R Y R Z) as long as the repeat's count makes room for another copy, never by the
  // mates' choice; and a candidate's walk stops at the first unitig on each side that a
  // longer contig wrote, unless it is a repeat with room for another copy (its count less
  // what the contigs holding it take).
  // Each contig is its unitigs in order, read as the contig reads them (it spells them
  // joined on their k-1 shared bases; a cycle's contig leaves out the last k-1 bases of its
  // one unitig read forward, the first k-1 read reverse complemented): contig.hpp.
  std::vector<Contig> contig_paths(std::size_t minimum_length, bool extend = true, const NextAfter& reads = {},
                                   const MatesAfter& mates = {}) const;
  // The same contigs spelled, and (when given) their `paths`.
  std::vector<Unitig> contigs(std::size_t minimum_length, bool extend = true, const NextAfter& reads = {},
                              const MatesAfter& mates = {}, std::vector<std::vector<Oriented>>* paths = nullptr) const;
  static_assert(std::is_same_v<Oriented, Contig::Oriented>, "a contig's path is read as the graph's unitigs");

  // Every link of the graph once (a link read the other way, y^1 then x^1, is the same link):
  // x then y where the last k-1 bases of x are the first of y, and a cycle to itself; sorted.
  std::vector<std::pair<Oriented, Oriented>> links() const;

  // Settles repeats: a unitig that n unitigs enter and n leave (n >= 2), where reads pair
  // each way in with exactly one way out (at least `minimum_passages` reads for each pair, at
  // most one read for any other), is copied into each of those n paths, joined with the
  // unitigs on both sides. Returns the number of repeats settled.
  std::uint64_t resolve_repeats(const Passages& passages, std::uint32_t minimum_passages);

  const std::vector<Unitig>& unitigs() const { return unitigs_; }
  // Its unitigs, moved out for what outlives the graph (graph.gfa's segments): the graph is
  // left empty.
  std::vector<Unitig> take_unitigs();
  int k() const { return k_; }
  std::string oriented_bases(Oriented oriented) const;  // read forward (even) or reverse complemented (odd)
  std::string first_junction(Oriented oriented) const;  // its first k-1 bases, read that way
  std::string last_junction(Oriented oriented) const;   // its last k-1 bases, read that way

 private:
  // The graph itself (unitig_graph.cpp).
  // Junctions are looked up by key (junction_index.hpp), several times a unitig in compaction
  // and cleaning.
  JunctionKey first_junction_key(Oriented oriented) const;
  JunctionKey last_junction_key(Oriented oriented) const;
  // The k-1 bases from `from` of a unitig's bases, read forward or as their reverse complement.
  JunctionKey junction_key(const std::string& bases, std::size_t from, bool reversed) const;

  // The junctions of the unitigs as they were when built (a graph changed since needs new
  // ones).
  struct Junctions {
    // By the k-1 bases of a junction read one way: the oriented unitigs that end there, and
    // the ones that begin there.
    JunctionIndex ending;
    JunctionIndex beginning;
    // Each oriented unitig's first and last junction, made once.
    std::vector<JunctionKey> first_keys;
    std::vector<JunctionKey> last_keys;
  };

  Junctions junctions() const;
  std::span<const Oriented> after(const Junctions& junctions, Oriented oriented) const;
  std::span<const Oriented> before(const Junctions& junctions, Oriented oriented) const;
  void remove(const std::vector<bool>& removed);

  // Compaction (unitig_compaction.cpp).
  void sort_canonically();
  std::string canonical_rotation(const std::string& bases) const;

  // Cleaning (graph_cleaning.cpp).
  bool better(std::size_t a, std::size_t b) const;  // a is kept over b
  bool looks_like_error(std::size_t weak, std::size_t strong, std::uint64_t threshold) const;
  bool read_about_as_often(std::size_t weak, std::size_t strong) const;  // at least half
  std::uint64_t remove_weak_branches(std::uint64_t threshold);
  // Removes each unitig (not a cycle) that, read a way `eligible` admits, ends at a junction
  // where another unitig ends that `beats(it, other)`; returns how many went.
  std::uint64_t remove_beaten(const std::function<bool(const Junctions&, Oriented)>& eligible,
                              const std::function<bool(std::size_t, std::size_t)>& beats);
  std::uint64_t remove_tips(std::size_t tip_length, std::uint64_t threshold);
  std::uint64_t pop_bubbles(std::size_t bubble_length, std::uint64_t threshold);

  // Contigs (contig_extension.cpp).
  std::vector<Oriented> way_on(const Junctions& joined, Oriented start, const NextAfter& reads,
                               const MatesAfter& mates) const;
  bool loops_back(const Junctions& joined, Oriented from, Oriented way) const;
  bool loop_walked(const Junctions& joined, std::span<const Oriented> path, Oriented start, Oriented way) const;
  std::optional<Oriented> loop_not_yet_walked(const Junctions& joined, std::span<const Oriented> path, Oriented start,
                                              const std::map<Oriented, std::uint32_t>& pair_votes) const;
  bool chosen_against(const Junctions& joined, Oriented back, Oriented arriving, const NextAfter& reads,
                      const MatesAfter& mates) const;
  std::optional<Oriented> way_of_own_depth(Oriented start, const std::map<Oriented, std::uint32_t>& votes,
                                           std::span<const Oriented> following,
                                           const std::function<bool(Oriented)>& walked) const;
  std::map<Oriented, std::uint32_t> pairs_from_anchor(std::span<const Oriented> path,
                                                      std::span<const Oriented> following,
                                                      const MatesAfter& mates) const;
  std::vector<Oriented> extension(const Junctions& joined, std::size_t index, const NextAfter& reads,
                                  const MatesAfter& mates) const;
  void leave_repeats_entered_from(std::vector<Oriented>& walk, std::size_t candidate) const;
  // What the contigs taken so far hold: whether any holds each unitig, and their candidates'
  // coverages added up, once each time a contig goes through it.
  struct Held {
    std::vector<bool> any;
    std::vector<double> coverage;
  };
  bool room_for_copy(std::size_t unitig, const Held& held, std::uint64_t count, std::uint64_t kmers) const;
  void keep_up_to_written(std::vector<Oriented>& walk, const Held& held, std::size_t candidate) const;
  void trim_covered_ends(std::vector<Oriented>& walk, const Held& held, std::size_t minimum_length) const;
  std::size_t spelled_length(std::span<const Oriented> walk) const;

  int k_;
  std::vector<Unitig> unitigs_;
  // What compact() need not do again: put the unitigs in sequence order (each in its
  // canonical orientation), and join them (nothing was added or removed since).
  bool in_canonical_order_ = false;
  bool compacted_ = false;
};

}  // namespace xenon::genomics
