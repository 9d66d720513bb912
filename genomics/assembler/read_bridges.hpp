// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

class MemoPlacer;  // memo_placer.hpp

// Read bridges: where coverage thins to a single read, the k-mers that read alone holds are not
// solid, and the graph stops at two dead ends with the genome going on between them. A read
// that leaves one unitig at its dead end and, after k-mers the graph does not hold, enters
// another at its dead beginning says what lies between: those k-mers (MEGAHIT's "mercy
// k-mers" do the same for the k-mers of a read between two solid ones with no edge on).
// A bridge joins the two ends only when neither end is bridged anywhere else.

// Which ends of each unitig (by index) have nothing joined to them, and their bases there.
struct DeadEnds {
  static constexpr std::uint8_t kHead = 1;  // nothing before its first k-mer, read forward
  static constexpr std::uint8_t kTail = 2;  // nothing after its last
  std::vector<std::uint8_t> of_unitig;
  // The last k-1 bases of each dead end, read the way that ends there (a dead head of a unitig
  // read one way is its dead tail read the other): all of the graph's bases that finding
  // bridges reads, so a node needs only these beside the index it places reads by.
  std::map<UnitigGraph::Oriented, std::string> junctions;

  static DeadEnds of(const UnitigGraph& graph);
  // As a node that was sent the flags (of_unitig) and the unitigs' ends has them; flags for
  // another number of unitigs than `ends` are refused (invalid_argument).
  static DeadEnds of(std::vector<std::uint8_t> of_unitig, const std::vector<UnitigEnds>& ends, std::size_t k);
  // The last and first k-1 bases of a unitig read as `oriented` reads it, at a dead tail and
  // a dead head of that reading (out_of_range elsewhere).
  const std::string& last_junction(UnitigGraph::Oriented oriented) const { return junctions.at(oriented); }
  std::string first_junction(UnitigGraph::Oriented oriented) const;
  // Read as `oriented` reads the unitig.
  bool tail(UnitigGraph::Oriented oriented) const {
    return (of_unitig[oriented / 2] & ((oriented & 1) == 0 ? kTail : kHead)) != 0;
  }
  bool head(UnitigGraph::Oriented oriented) const { return tail(oriented ^ 1); }
};

// A way from the dead end of `from` into the dead beginning of `to`: the k-mers between
// (their bases, starting with the last k-1 bases of `from` and ending with the first k-1 of
// `to`), and how many reads spelled it so (`overlapping`: how many reads met in the gap, the
// fewer of the two overhangs' counts).
struct ReadBridge {
  UnitigGraph::Oriented from = 0;
  UnitigGraph::Oriented to = 0;
  std::string bases;
  std::uint64_t reads = 0;
  bool overlapping = false;
  bool operator==(const ReadBridge&) const = default;
};

// Where no read spans a gap, two may still meet in it: one that leaves a dead end and stops in
// the gap, and one that begins in the gap and enters a dead beginning (read from the other
// strand, it too leaves a dead end). Each is kept as an overhang of the dead end it leaves:
// the end's last k-1 bases (the graph's), and the read's bases after them. Two overhangs
// whose bases overlap by kMinimumOverlap bases or more, exactly (the one read the other way),
// spell the gap between their ends: fewer than k bases of the reads overlap there, or the
// k-mers they share would have been read twice.
inline constexpr std::size_t kMinimumOverlap = 16;
// An overlap must hold this many of the 16 pairs of bases (not a run of one base, nor a repeat
// of two or three), and its first bases must start few overhangs (not a repeat's).
inline constexpr std::size_t kLeastOverlapBasePairs = 5;
inline constexpr std::size_t kMostOverlapCandidates = 8;
// Two ends that read pairs also link (a mate in each unitig, the fragment across the gap) are
// joined by overhangs that overlap by this many bases or more: among thousands of dead ends an
// overlap this short is met by chance, between two ends the pairs put side by side it is not
// (an exact 8-base match is 1 in 65,536 at each place two overhangs could overlap). An end no
// read leaves counts its own last k-1 bases as its overhang (paired_gaps.hpp).
inline constexpr std::size_t kLeastPairedOverlap = 8;
// Where a read lacks a dead end's own k-mer, its bases there may differ from the unitig's by
// this many substitutions, no more.
inline constexpr std::size_t kMostJunctionErrors = 2;

// The bridges reads spelled, each one way of its two (the smaller), with how many reads did.
class BridgeVotes {
 public:
  void add(UnitigGraph::Oriented from, UnitigGraph::Oriented to, std::string_view bases, std::uint64_t reads = 1);
  // A read that leaves the dead end `end` (whose last k-1 bases are `junction`) and stops in
  // the gap after `beyond` more bases.
  void add_overhang(UnitigGraph::Oriented end, std::string_view junction, std::string_view beyond,
                    std::uint64_t reads = 1);
  // Those of another store or node (encode()), added in.
  void add_encoded(std::span<const std::byte> bytes);
  // Those counted here by another (a read's, once it is settled), added in.
  void add_all(const BridgeVotes& other);
  std::vector<std::byte> encode() const;
  std::size_t size() const { return votes_.size(); }
  std::size_t overhangs() const { return overhangs_.size(); }

  // The bridges to build, in a fixed order: for each two ends that only bridges between them
  // leave (neither end bridged to a third), the bases the most reads spelled (the smaller
  // bases when as many spelled others). Ends no read spans are joined the same way by the
  // overhangs that overlap. `ambiguous` counts the ends left alone.
  std::vector<ReadBridge> chosen(std::uint64_t& ambiguous) const;
  // The ways between two ends that chosen() leaves apart (neither spanned by a read nor
  // overlapping another by kMinimumOverlap bases) spelled by overhangs that overlap by
  // kLeastPairedOverlap bases or more, a dead end of `dead` that no read leaves taking its own
  // last k-1 bases as its overhang: joined only where read pairs link the two ends
  // (paired_gaps.hpp). The most reads' bases for each pair of ends, in a fixed order.
  std::vector<ReadBridge> short_overlaps(const DeadEnds& dead) const;
  // Both at once, the overlaps both weigh found once (what node 0 does after each threading
  // for bridges, while the stores wait).
  struct Choice {
    std::vector<ReadBridge> bridges;  // chosen()
    std::uint64_t ambiguous = 0;
    std::vector<ReadBridge> short_overlaps;  // short_overlaps()
  };
  Choice choose(const DeadEnds& dead) const;

 private:
  using Votes = std::map<std::tuple<UnitigGraph::Oriented, UnitigGraph::Oriented, std::string>, std::uint64_t>;
  static void add_to(Votes& votes, UnitigGraph::Oriented from, UnitigGraph::Oriented to, std::string_view bases,
                     std::uint64_t reads);
  // The bridges that pairs of overhangs overlapping by `least_overlap` bases or more spell
  // (found by the entering one's first `least_overlap` bases), between ends no read spans.
  // With `dead`, a dead end no read leaves overlaps others by its own last k-1 bases.
  Votes overlapping_overhangs(const DeadEnds* dead, std::size_t least_overlap) const;
  // chosen() and short_overlaps(), given the overhangs that overlap by kMinimumOverlap.
  std::vector<ReadBridge> chosen_of(const Votes& overlapping, std::uint64_t& ambiguous) const;
  std::vector<ReadBridge> short_overlaps_of(const Votes& overlapping, const DeadEnds& dead) const;
  // The best bases of each pair of ends in `votes`.
  static std::vector<ReadBridge> best_of(const Votes& votes, bool overlapping);

  Votes votes_;
  std::map<std::tuple<UnitigGraph::Oriented, std::string, std::string>, std::uint64_t> overhangs_;
};

// Adds the bridges `read` spells between the dead ends of the unitigs `threads` indexes (a
// bridge's junctions are the unitigs' own bases, `dead`'s, an error of the read within a k-mer
// of a dead end left out).
void find_bridges(const ReadThreads& threads, const DeadEnds& dead, int k, std::string_view read, BridgeVotes& votes);
// The same through one owner's slice of the index, the k-mers it cannot place itself taken
// from `placer`'s answers: what that finds counts only once placer.stalled() is false after it
// (else it stopped at the first k-mer another owner must answer: see MemoPlacer).
void find_bridges(const MemoPlacer& placer, const DeadEnds& dead, int k, std::string_view read, BridgeVotes& votes);

}  // namespace xenon::genomics
