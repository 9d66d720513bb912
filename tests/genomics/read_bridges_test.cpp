// SPDX-License-Identifier: BSD-3-Clause
// Read bridges: a read that spans a coverage gap, or two that meet in it, join the two dead
// ends the gap left, and only then; what stores send of them comes back as sent; the pipeline asks for them first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "genomics/assembler/assembly_pipeline.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/io/run_log.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/random_bases.hpp"

namespace {

using namespace xenon::genomics;

constexpr int kK = 21;

using xenon::testing::random_bases;

bool same_either_way(const std::string& a, const std::string& b) { return a == b || a == reverse_complement(b); }

// A genome whose graph lost the k-mers of [gap_begin, gap_end) (read once: not solid): two
// unitigs, each with a dead end at the gap.
struct GappedGenome {
  std::string genome;
  std::size_t gap_begin;
  std::size_t gap_end;
  std::vector<GraphPiece> pieces;

  GappedGenome(std::mt19937_64& random, std::size_t length, std::size_t gap_begin, std::size_t gap_end)
      : genome(random_bases(random, length)), gap_begin(gap_begin), gap_end(gap_end) {
    // K-mers start at 0 .. gap_begin - 1 and at gap_end .. length - k.
    const std::string left = genome.substr(0, gap_begin + kK - 1);
    const std::string right = genome.substr(gap_end);
    pieces.push_back({left, 20 * (left.size() - kK + 1), false});
    pieces.push_back({reverse_complement(right), 20 * (right.size() - kK + 1), false});
  }
  UnitigGraph graph() const {
    UnitigGraph graph(kK);
    for (const GraphPiece& piece : pieces) graph.add(piece.bases, piece.coverage, piece.closed);
    graph.compact();
    return graph;
  }
};

BridgeVotes bridges_of(const UnitigGraph& graph, const std::vector<std::string>& reads) {
  const std::vector<UnitigEnds> ends = ReadThreads::ends_of(graph, kK);
  const ReadThreads threads(ends, kK);
  const DeadEnds dead = DeadEnds::of(graph);
  BridgeVotes votes;
  for (const std::string& read : reads) find_bridges(threads, dead, kK, read, votes);
  return votes;
}

TEST(DeadEnds, AreTheEndsNoLinkJoins) {
  std::mt19937_64 random(1);
  const GappedGenome gapped(random, 1200, 600, 640);
  const UnitigGraph graph = gapped.graph();
  ASSERT_EQ(graph.unitigs().size(), 2u);
  const DeadEnds dead = DeadEnds::of(graph);
  for (std::size_t unitig = 0; unitig < 2; ++unitig) {
    EXPECT_EQ(dead.of_unitig[unitig], DeadEnds::kHead | DeadEnds::kTail) << "two unitigs apart: every end dead";
  }
  UnitigGraph whole(kK);
  whole.add(gapped.genome.substr(0, 700), 1, false);
  whole.add(gapped.genome.substr(700 - kK + 1, 300), 1, false);
  whole.add(gapped.genome.substr(700 - kK + 1, 200) + "A", 1, false);  // a fork after the first
  const DeadEnds forked = DeadEnds::of(whole);
  std::size_t dead_ends = 0;
  for (const std::uint8_t ends : forked.of_unitig) dead_ends += (ends & DeadEnds::kHead ? 1 : 0) + (ends & DeadEnds::kTail ? 1 : 0);
  EXPECT_EQ(dead_ends, 3u) << "the first's head and the two branches' tails";
}

// A node finding bridges has the dead ends' flags and the unitigs' ends, not the graph: the
// junctions it takes from those are the graph's, at every dead end, read either way.
TEST(DeadEnds, TheirJunctionsFromTheUnitigEndsAreTheGraphs) {
  std::mt19937_64 random(2);
  const std::string genome = random_bases(random, 5000);
  UnitigGraph graph(kK);
  graph.add(genome.substr(0, 2600), 1, false);
  graph.add(genome.substr(2600 - kK + 1, 900), 1, false);
  graph.add(genome.substr(2600 - kK + 1, 300) + "A", 1, false);  // a fork: a dead branch
  graph.add(reverse_complement(genome.substr(3600, 40)), 1, false);  // short, read the other way
  graph.compact();
  const DeadEnds whole = DeadEnds::of(graph);
  ASSERT_GE(whole.junctions.size(), 5u);
  for (const std::size_t span : {std::size_t{1}, std::size_t{30}, ReadThreads::kEndSpan}) {
    const std::vector<UnitigEnds> ends = ReadThreads::ends_of(graph, kK, span);
    const DeadEnds sent = DeadEnds::of(whole.of_unitig, ends, kK);
    EXPECT_EQ(sent.junctions, whole.junctions) << "span " << span;
    for (UnitigGraph::Oriented oriented = 0; oriented < 2 * graph.unitigs().size(); ++oriented) {
      if (sent.tail(oriented)) {
        EXPECT_EQ(sent.last_junction(oriented), graph.last_junction(oriented)) << oriented;
      } else {
        EXPECT_THROW(sent.last_junction(oriented), std::out_of_range) << oriented;
      }
      if (sent.head(oriented)) {
        EXPECT_EQ(sent.first_junction(oriented), graph.first_junction(oriented)) << oriented;
      }
    }
    std::vector<std::uint8_t> too_few = whole.of_unitig;
    too_few.pop_back();
    EXPECT_THROW(DeadEnds::of(too_few, ends, kK), std::invalid_argument);
  }
}

// One read over the gap, either strand, lower case or not: the gap's k-mers join the two
// unitigs into the genome, counted as often as the reads that spelled them.
TEST(ReadBridges, JoinTheDeadEndsOfAGapThatOneReadSpans) {
  std::mt19937_64 random(2);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  const std::string over_gap = gapped.genome.substr(1420, 150);
  std::string lower = reverse_complement(over_gap);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char base) { return static_cast<char>(std::tolower(base)); });
  for (const std::string& read : {over_gap, lower}) {
    const UnitigGraph graph = gapped.graph();
    const BridgeVotes votes = bridges_of(graph, {read, gapped.genome.substr(100, 150)});
    ASSERT_EQ(votes.size(), 1u);
    std::uint64_t ambiguous = 7;
    const std::vector<ReadBridge> bridges = votes.chosen(ambiguous);
    EXPECT_EQ(ambiguous, 0u);
    ASSERT_EQ(bridges.size(), 1u);
    EXPECT_EQ(bridges[0].reads, 1u);
    // The k-mers the graph lacked: from the last k-1 bases of the left unitig to the first k-1
    // of the right one.
    const std::string lacked = gapped.genome.substr(gapped.gap_begin, gapped.gap_end - gapped.gap_begin + kK - 1);
    EXPECT_TRUE(same_either_way(bridges[0].bases, lacked));

    AssemblerSettings settings;
    settings.counting.k = kK;
    RunLog log;
    const AssemblyProgress progress(log, false);
    AssemblyOutcome outcome;
    AssemblyPipeline pipeline(settings, outcome, progress);
    pipeline.take_cleaned(gapped.pieces);
    ASSERT_EQ(pipeline.next(), NextStep::thread_for_bridges) << "a round asks for bridges first";
    pipeline.bridges_threaded(votes, 2);
    EXPECT_EQ(outcome.read_bridges, 1u);
    ASSERT_EQ(pipeline.graph().unitigs().size(), 1u);
    const Unitig& joined = pipeline.graph().unitigs()[0];
    EXPECT_TRUE(same_either_way(joined.bases, gapped.genome));
    const std::uint64_t genome_kmers = gapped.genome.size() - kK + 1;
    const std::uint64_t gap_kmers = gapped.gap_end - gapped.gap_begin;
    EXPECT_EQ(joined.coverage_sum, 20 * (genome_kmers - gap_kmers) + gap_kmers);
    EXPECT_EQ(pipeline.next(), NextStep::thread_for_repeats) << "bridged once";

    // A later round of several k bridges too (its larger k thins coverage to one read in
    // places the smaller did not), then hands its graph on.
    settings.first_round = false;
    settings.carry_to_next_round = true;
    AssemblyOutcome later_outcome;
    AssemblyPipeline later(settings, later_outcome, progress);
    later.take_cleaned(gapped.pieces);
    ASSERT_EQ(later.next(), NextStep::thread_for_bridges);
    later.bridges_threaded(votes, 2);
    EXPECT_EQ(later_outcome.read_bridges, 1u);
    EXPECT_EQ(later.graph().unitigs().size(), 1u);
    EXPECT_EQ(later.next(), NextStep::carry);
  }
}

std::string with_error_at(std::string read, std::size_t at) {
  read[at] = read[at] == 'A' ? 'C' : 'A';
  return read;
}

// A read with an error within a k-mer of either dead end (so that it lacks the end's own k-mer)
// still bridges, with the unitig's own bases there: the bridge is the genome's, not the read's.
TEST(ReadBridges, TakeTheGraphsBasesWhereAReadErrsNextToAnEnd) {
  std::mt19937_64 random(3);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  const UnitigGraph graph = gapped.graph();
  const std::string over_gap = gapped.genome.substr(1450, 150);  // k-mers of both unitigs past an error
  const std::string lacked = gapped.genome.substr(gapped.gap_begin, gapped.gap_end - gapped.gap_begin + kK - 1);
  const std::size_t last_kmer_middle = gapped.gap_begin - 1 + kK / 2 - 1450;
  const std::size_t first_kmer_middle = gapped.gap_end + kK / 2 - 1450;
  const std::size_t last_base = gapped.gap_begin - 1 + kK - 1 - 1450;  // of the left unitig
  const std::size_t first_base = gapped.gap_end - 1450;                 // of the right one
  const std::vector<std::pair<const char*, std::string>> reads = {
      {"an error in the left unitig's last k-mer", with_error_at(over_gap, last_kmer_middle)},
      {"an error in the right unitig's first k-mer", with_error_at(over_gap, first_kmer_middle)},
      {"an error at the left unitig's last base", with_error_at(over_gap, last_base)},
      {"an error at the right unitig's first base", with_error_at(over_gap, first_base)},
      {"an error at both", with_error_at(with_error_at(over_gap, last_base), first_base)}};
  for (const auto& [what, read] : reads) {
    for (const std::string& either_way : {read, reverse_complement(read)}) {
      const BridgeVotes votes = bridges_of(graph, {either_way});
      std::uint64_t ambiguous = 0;
      const std::vector<ReadBridge> bridges = votes.chosen(ambiguous);
      ASSERT_EQ(bridges.size(), 1u) << what << (either_way == read ? "" : ", read reversed");
      EXPECT_TRUE(same_either_way(bridges[0].bases, lacked)) << what;
    }
  }
}

// A read that holds neither of the left unitig's last k+1 k-mers (two errors), or that stops
// inside the gap, bridges nothing; nor does a read where the graph goes on.
TEST(ReadBridges, NeedTheReadToHoldBothUnitigsNearTheirEnds) {
  std::mt19937_64 random(3);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  const UnitigGraph graph = gapped.graph();
  const std::string over_gap = gapped.genome.substr(1420, 150);
  // Every k-mer starting k or fewer bases before the left unitig's last one holds an error.
  const std::size_t last_kmer_start = gapped.gap_begin - 1 - 1420;
  const std::string hides_the_end =
      with_error_at(with_error_at(over_gap, last_kmer_start + kK / 2), last_kmer_start + kK / 2 - kK);
  // Likewise the right unitig's first k+1 k-mers (a read that goes further into it).
  const std::string into_right = gapped.genome.substr(1460, 150);
  const std::size_t first_kmer_start = gapped.gap_end - 1460;
  const std::string hides_the_entry =
      with_error_at(with_error_at(into_right, first_kmer_start + kK / 2), first_kmer_start + kK / 2 + kK);
  const std::string into_gap = gapped.genome.substr(1400, 120);
  const std::string inside = gapped.genome.substr(600, 150);
  for (const std::string& read : {hides_the_end, hides_the_entry, into_gap, inside}) {
    EXPECT_EQ(bridges_of(graph, {read, reverse_complement(read)}).size(), 0u) << read;
  }
  const std::string in_gap = with_error_at(over_gap, 1520 - 1420);  // an error where only the read knows
  EXPECT_EQ(bridges_of(graph, {in_gap}).size(), 1u) << "an error inside the gap is the read's word against none";
}

// Two reads that meet in a gap no read spans, one leaving the left unitig and one entering
// the right: where they overlap by kMinimumOverlap bases or more, they spell the gap, read
// from either strand; by fewer, or with a difference where they overlap, they do not.
TEST(ReadBridges, JoinTheDeadEndsOfAGapWhereTwoReadsMeet) {
  std::mt19937_64 random(5);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  const UnitigGraph graph = gapped.graph();
  const std::string lacked = gapped.genome.substr(gapped.gap_begin, gapped.gap_end - gapped.gap_begin + kK - 1);
  const std::string leaving = gapped.genome.substr(1400, 140);  // to 1540: 20 bases past the left unitig
  const std::string entering = gapped.genome.substr(1522, 150);  // 18 bases before the right one
  ASSERT_GE(1540 - 1522, static_cast<int>(kMinimumOverlap));
  for (const bool reversed : {false, true}) {
    const auto either = [reversed](const std::string& read) { return reversed ? reverse_complement(read) : read; };
    const BridgeVotes votes = bridges_of(graph, {either(leaving), either(entering)});
    EXPECT_EQ(votes.size(), 0u) << "no read spans the gap";
    EXPECT_EQ(votes.overhangs(), 2u);
    std::uint64_t ambiguous = 7;
    const std::vector<ReadBridge> bridges = votes.chosen(ambiguous);
    EXPECT_EQ(ambiguous, 0u);
    ASSERT_EQ(bridges.size(), 1u);
    EXPECT_TRUE(bridges[0].overlapping);
    EXPECT_TRUE(same_either_way(bridges[0].bases, lacked));
  }
  const std::string too_short = gapped.genome.substr(1540 - kMinimumOverlap + 1, 150);
  std::string differing = entering;
  differing[5] = differing[5] == 'A' ? 'C' : 'A';
  for (const std::string& other : {too_short, differing}) {
    std::uint64_t ambiguous = 0;
    EXPECT_TRUE(bridges_of(graph, {leaving, other}).chosen(ambiguous).empty());
  }
  // The same leaving read meets reads entering two unitigs: neither is joined.
  const std::string elsewhere = random_bases(random, 500);
  UnitigGraph forked = gapped.graph();
  forked.add(elsewhere, 500, false);
  forked.compact();
  const std::string into_elsewhere = gapped.genome.substr(1522, 18) + elsewhere.substr(0, 100);
  std::uint64_t ambiguous = 0;
  EXPECT_TRUE(bridges_of(forked, {leaving, entering, into_elsewhere}).chosen(ambiguous).empty());
  EXPECT_EQ(ambiguous, 1u) << "the left unitig's end, met two ways";
}

// Reads that overlap by fewer than kMinimumOverlap bases, but kLeastPairedOverlap or more,
// join nothing alone: short_overlaps() keeps them for the read pairs (paired_gaps.hpp), and
// leaves to chosen() the ends it weighs. So does a dead end that no read leaves, which
// overlaps the reads entering another by its own last k-1 bases.
TEST(ReadBridges, KeepShorterOverlapsForThePairsAndLetAnEndNoReadLeavesOverlapByItsOwnBases) {
  std::mt19937_64 random(8);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  const UnitigGraph graph = gapped.graph();
  const DeadEnds dead = DeadEnds::of(graph);
  const std::string lacked = gapped.genome.substr(gapped.gap_begin, gapped.gap_end - gapped.gap_begin + kK - 1);
  const std::string leaving = gapped.genome.substr(1400, 140);  // to 1540
  const std::size_t overlap = kLeastPairedOverlap + 2;
  ASSERT_LT(overlap, kMinimumOverlap);
  const std::string entering = gapped.genome.substr(1540 - overlap, 150);
  std::uint64_t ambiguous = 0;
  for (const bool reversed : {false, true}) {
    const auto either = [reversed](const std::string& read) { return reversed ? reverse_complement(read) : read; };
    const BridgeVotes votes = bridges_of(graph, {either(leaving), either(entering)});
    EXPECT_TRUE(votes.chosen(ambiguous).empty()) << "too short an overlap to join alone";
    const std::vector<ReadBridge> kept = votes.short_overlaps(dead);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_TRUE(same_either_way(kept[0].bases, lacked));
    EXPECT_EQ(kept[0].reads, 1u);
  }
  // Exactly kLeastPairedOverlap bases (of 5 kinds of base pairs or more, as any overlap must
  // hold) are kept; one fewer is not.
  const std::string least = gapped.genome.substr(1540 - kLeastPairedOverlap, kLeastPairedOverlap);
  std::set<std::string> kinds;
  for (std::size_t i = 1; i < least.size(); ++i) kinds.insert(least.substr(i - 1, 2));
  ASSERT_GE(kinds.size(), kLeastOverlapBasePairs) << least;
  const std::string exactly = gapped.genome.substr(1540 - kLeastPairedOverlap, 150);
  EXPECT_EQ(bridges_of(graph, {leaving, exactly}).short_overlaps(dead).size(), 1u);
  const std::string barely = gapped.genome.substr(1540 - (kLeastPairedOverlap - 1), 150);
  EXPECT_TRUE(bridges_of(graph, {leaving, barely}).short_overlaps(dead).empty()) << "shorter still: not kept";
  const std::string well_over = gapped.genome.substr(1540 - kMinimumOverlap, 150);
  const BridgeVotes joined = bridges_of(graph, {leaving, well_over});
  EXPECT_EQ(joined.chosen(ambiguous).size(), 1u);
  EXPECT_TRUE(joined.short_overlaps(dead).empty()) << "ends chosen() weighs are its own";
  // choose(), what node 0 calls, gives both, whichever of them holds the bridge.
  const BridgeVotes::Choice choice = joined.choose(dead);
  EXPECT_EQ(choice.bridges, joined.chosen(ambiguous));
  EXPECT_EQ(choice.ambiguous, ambiguous);
  EXPECT_EQ(choice.bridges.size(), 1u);
  EXPECT_EQ(choice.short_overlaps, joined.short_overlaps(dead));
  const BridgeVotes kept_for_pairs = bridges_of(graph, {leaving, exactly});
  EXPECT_EQ(kept_for_pairs.choose(dead).short_overlaps, kept_for_pairs.short_overlaps(dead));
  EXPECT_TRUE(kept_for_pairs.choose(dead).bridges.empty());

  // No read leaves the left unitig: a read entering the right one from 18 bases into the
  // left one's last k-1 meets those bases, for the pairs to confirm.
  const std::string from_inside_the_end = gapped.genome.substr(gapped.gap_begin + 2, 150);
  const BridgeVotes entering_only = bridges_of(graph, {from_inside_the_end});
  EXPECT_EQ(entering_only.overhangs(), 1u);
  EXPECT_TRUE(entering_only.chosen(ambiguous).empty()) << "an end's own bases join nothing alone";
  const std::vector<ReadBridge> met = entering_only.short_overlaps(dead);
  ASSERT_EQ(met.size(), 1u);
  EXPECT_TRUE(same_either_way(met[0].bases, lacked));
}

// Two reads that meet only in a run of two bases repeated (ACAC...) say nothing of where the
// gap goes: an overlap must hold kLeastOverlapBasePairs kinds of base pairs, wherever in the
// overhang it starts. The same reads over other bases are joined.
TEST(ReadBridges, AnOverlapInARepeatOfTwoBasesJoinsNothing) {
  for (const bool repeat : {true, false}) {
    std::mt19937_64 random(11);
    GappedGenome gapped(random, 3000, 1500, 1640);
    if (repeat) {
      for (std::size_t at = 1530; at < 1610; ++at) gapped.genome[at] = (at % 2 == 0) ? 'A' : 'C';
    }
    const UnitigGraph graph = gapped.graph();
    const std::string leaving = gapped.genome.substr(1400, 190);   // stops at 1590, in the gap
    const std::string entering = gapped.genome.substr(1560, 150);  // from 1560: 30 bases met
    const BridgeVotes votes = bridges_of(graph, {leaving, entering});
    ASSERT_EQ(votes.overhangs(), 2u);
    std::uint64_t ambiguous = 0;
    const std::vector<ReadBridge> bridges = votes.chosen(ambiguous);
    if (repeat) {
      EXPECT_TRUE(bridges.empty()) << "an overlap of ACAC... alone";
      EXPECT_TRUE(votes.choose(DeadEnds::of(graph)).bridges.empty());
    } else {
      ASSERT_EQ(bridges.size(), 1u);
      const std::string lacked = gapped.genome.substr(1500, 1640 - 1500 + kK - 1);
      EXPECT_TRUE(same_either_way(bridges[0].bases, lacked));
    }
  }
}

// Where a read spans the gap, reads that meet in it are not asked; a read that begins in the
// gap with an error in the right unitig's first k-mers, or that leaves the left one with an
// error in its last k-mer, still meets the other, read from either strand. A read with a base
// missing next to an end says nothing there.
TEST(ReadBridges, LeaveGapsThatAReadSpansToItAndTolerateErrorsNextToAnEnd) {
  std::mt19937_64 random(6);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  const UnitigGraph graph = gapped.graph();
  const std::string lacked = gapped.genome.substr(gapped.gap_begin, gapped.gap_end - gapped.gap_begin + kK - 1);
  const std::string leaving = gapped.genome.substr(1400, 140);
  const std::string entering = gapped.genome.substr(1522, 150);
  std::uint64_t ambiguous = 0;
  const std::vector<ReadBridge> spanned =
      bridges_of(graph, {leaving, entering, gapped.genome.substr(1450, 150)}).chosen(ambiguous);
  ASSERT_EQ(spanned.size(), 1u);
  EXPECT_FALSE(spanned[0].overlapping) << "the read that spans the gap decides";
  EXPECT_EQ(ambiguous, 0u);

  const std::string entering_with_error = with_error_at(entering, 1540 + kK - 2 - 1522);
  const std::string leaving_with_error = with_error_at(leaving, gapped.gap_begin - 1 + kK / 2 - 1400);
  for (const auto& [left, right] : {std::pair{leaving, entering_with_error}, std::pair{leaving_with_error, entering}}) {
    for (const bool reversed : {false, true}) {
      const auto either = [reversed](const std::string& read) { return reversed ? reverse_complement(read) : read; };
      const std::vector<ReadBridge> met = bridges_of(graph, {either(left), either(right)}).chosen(ambiguous);
      ASSERT_EQ(met.size(), 1u) << (reversed ? "reversed" : "forward");
      EXPECT_TRUE(met[0].overlapping);
      EXPECT_TRUE(same_either_way(met[0].bases, lacked));
    }
  }
  // A base missing from the left unitig's last k-1 (the read holds an earlier k-mer of it): the
  // read's bases after that are shifted, and it neither bridges nor meets another read.
  std::string missing_base = gapped.genome.substr(1450, 150);
  missing_base.erase(gapped.gap_begin + kK / 2 - 1450, 1);
  std::string leaving_missing_base = leaving;
  leaving_missing_base.erase(gapped.gap_begin + kK / 2 - 1400, 1);
  EXPECT_EQ(bridges_of(graph, {missing_base}).size(), 0u);
  EXPECT_TRUE(bridges_of(graph, {leaving_missing_base, entering}).chosen(ambiguous).empty());
}

// Ends bridged two ways: to two different unitigs, neither is joined; between the same two
// ends, the spelling most reads gave wins, then the smaller.
TEST(ReadBridges, JoinOnlyEndsThatReadsBridgeOneWay) {
  std::mt19937_64 random(4);
  const GappedGenome gapped(random, 3000, 1500, 1540);
  // A third unitig whose first k-1 bases follow a copy of the left unitig's end in some read.
  const std::string elsewhere = random_bases(random, 500);
  UnitigGraph graph = gapped.graph();
  graph.add(elsewhere, 500, false);
  graph.compact();
  const std::string left_end = gapped.genome.substr(gapped.gap_begin - 60, 60 + kK - 1);
  const std::string to_elsewhere = left_end + random_bases(random, 15) + elsewhere.substr(0, 60);
  const BridgeVotes forked = bridges_of(graph, {gapped.genome.substr(1420, 150), to_elsewhere});
  EXPECT_EQ(forked.size(), 2u);
  std::uint64_t ambiguous = 0;
  EXPECT_TRUE(forked.chosen(ambiguous).empty());
  EXPECT_EQ(ambiguous, 1u) << "the left unitig's end, bridged two ways";

  const std::string over_gap = gapped.genome.substr(1420, 150);
  std::string variant = over_gap;
  variant[1520 - 1420] = variant[1520 - 1420] == 'A' ? 'C' : 'A';
  const BridgeVotes two_spellings = bridges_of(gapped.graph(), {variant, over_gap, reverse_complement(over_gap)});
  EXPECT_EQ(two_spellings.size(), 2u);
  const std::vector<ReadBridge> chosen = two_spellings.chosen(ambiguous);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].reads, 2u);
  EXPECT_TRUE(same_either_way(chosen[0].bases, gapped.genome.substr(gapped.gap_begin, gapped.gap_end - gapped.gap_begin + kK - 1)));
}

// What stores send node 0: their votes, added in, make the same choice as one store's; a
// message cut anywhere, or holding other than bases, is refused.
TEST(ReadBridges, VotesComeBackAsTheyWereSent) {
  BridgeVotes one;
  BridgeVotes first;
  BridgeVotes second;
  one.add(4, 7, "ACGTACGT", 2);
  first.add(4, 7, "ACGTACGT", 1);
  second.add(6, 5, reverse_complement("ACGTACGT"), 1);  // the same bridge, read the other way
  one.add(0, 3, "TTTTGGGG", 300);
  second.add(0, 3, "TTTTGGGG", 300);
  one.add_overhang(9, "ACGTT", "GGA", 2);
  first.add_overhang(9, "ACGTT", "GGA", 1);
  second.add_overhang(9, "ACGTT", "GGA", 1);
  BridgeVotes merged;
  merged.add_encoded(first.encode());
  merged.add_encoded(second.encode());
  EXPECT_EQ(merged.encode(), one.encode());
  EXPECT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged.overhangs(), 1u);
  const std::vector<std::byte> message = one.encode();
  // Where its votes end: the bridges in order (0 to 3 first), then the overhang.
  BridgeVotes first_bridge;
  first_bridge.add(0, 3, "TTTTGGGG", 300);
  BridgeVotes both_bridges = first_bridge;
  both_bridges.add(4, 7, "ACGTACGT", 2);
  const std::size_t after_first = first_bridge.encode().size();
  const std::size_t after_second = both_bridges.encode().size();
  for (std::size_t cut = 1; cut < message.size(); ++cut) {
    BridgeVotes cut_short;
    const std::span<const std::byte> part = std::span(message).first(cut);
    // A cut between two whole votes reads as fewer; anywhere else it is refused.
    if (cut == after_first || cut == after_second) {
      cut_short.add_encoded(part);
      EXPECT_EQ(cut_short.size(), cut == after_first ? 1u : 2u) << "cut at " << cut;
      EXPECT_EQ(cut_short.overhangs(), 0u);
    } else {
      EXPECT_THROW(cut_short.add_encoded(part), std::invalid_argument) << "cut at " << cut;
    }
  }
  std::vector<std::byte> not_bases = BridgeVotes().encode();
  for (const int byte : {0, 1, 2, 1, 1, static_cast<int>('X')}) not_bases.push_back(static_cast<std::byte>(byte));
  BridgeVotes refused;
  EXPECT_THROW(refused.add_encoded(not_bases), std::invalid_argument);

  ThreadingRequest request;
  request.threading = 1;
  request.k = kK;
  request.bridges = true;
  request.ends = {{1, std::string(kK, 'A'), {}}, {1, std::string(kK, 'C'), {}}};
  request.dead_ends = {DeadEnds::kHead, DeadEnds::kHead | DeadEnds::kTail};
  const xenon::ActorName store = xenon::ActorName::make(0, 0, 1);
  request.shares = {{store, {}}};
  const ThreadingRequest received = ThreadingRequest::decode(request.encode().bytes(), store);
  EXPECT_TRUE(received.bridges);
  EXPECT_EQ(received.dead_ends, request.dead_ends);
  request.dead_ends.pop_back();
  EXPECT_THROW(ThreadingRequest::decode(request.encode().bytes(), store), std::invalid_argument);
  ThreadingDone done;
  done.bridges = one.encode();
  EXPECT_EQ(ThreadingDone::decode(done.encode().bytes()).bridges, done.bridges);
}

}  // namespace
