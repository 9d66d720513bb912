// SPDX-License-Identifier: BSD-3-Clause
// Gaps joined by reads that overlap by a few bases, where read pairs link the two ends: found
// in the final graph by the junctions of the round that kept them, widened to its k, joined
// only with enough pairs, and never for an end that two would join; and the assembler end to
// end on reads with such a gap, the same bytes for every thread and process count.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "genomics/assembler/paired_gaps.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/fasta_records.hpp"
#include "tests/genomics/random_bases.hpp"
#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_support.hpp"

namespace {

using namespace xenon::genomics;
using xenon::testing::random_bases;

constexpr int kK = 31;

// Which way of the graph's unitigs reads `bases` (index * 2 + reversed); fails if none does.
UnitigGraph::Oriented reading(const UnitigGraph& graph, const std::string& bases) {
  for (std::size_t index = 0; index < graph.unitigs().size(); ++index) {
    if (graph.unitigs()[index].bases == bases) return 2 * index;
    if (graph.unitigs()[index].bases == reverse_complement(bases)) return 2 * index + 1;
  }
  ADD_FAILURE() << "no unitig reads " << bases.substr(0, 20) << "...";
  return 0;
}

// A genome whose k-mers starting in [1000, 1040) the graph lacks, and a third unitig apart.
struct Gapped {
  std::mt19937_64 random{11};
  std::string genome = random_bases(random, 2500);
  std::string elsewhere = random_bases(random, 800);
  std::string left = genome.substr(0, 1000 + kK - 1);
  std::string right = genome.substr(1040);
  std::string lacked = genome.substr(1000, 40 + kK - 1);  // the bridge at this k
  UnitigGraph graph{kK};
  Gapped() {
    graph.add(left, 10 * left.size(), false);
    graph.add(reverse_complement(right), 10 * right.size(), false);
    graph.add(elsewhere, 10 * elsewhere.size(), false);
    graph.compact();
  }
  UnitigGraph::Oriented left_way() const { return reading(graph, left); }
  UnitigGraph::Oriented right_way() const { return reading(graph, right); }
  // `pairs` pairs with a mate in the left unitig and the other in the right, the first mate on
  // the genome's strand or on the other (ReadThreads::add_pair takes each mate as it reads).
  ReadThreads pairs_across(std::uint32_t pairs, bool fragment_reversed = false) const {
    ReadThreads threads(kK);
    const auto way = [](UnitigGraph::Oriented oriented) {
      return std::vector<ReadThreads::CompactOriented>{static_cast<ReadThreads::CompactOriented>(oriented)};
    };
    if (fragment_reversed) {
      threads.add_pair(way(right_way() ^ 1), way(left_way()), pairs);
    } else {
      threads.add_pair(way(left_way()), way(right_way() ^ 1), pairs);
    }
    return threads;
  }
};

TEST(PairedGaps, JoinTwoDeadEndsThatPairsLinkWithTheReadsBasesWidenedToTheGraphsK) {
  const Gapped gapped;
  for (const bool fragment_reversed : {false, true}) {
    std::uint64_t ambiguous = 9;
    // Found at this k, and in a round of k = 21, whose junctions are the last and first 20
    // bases of the ends: widened by the graph's own bases to the same bridge.
    const std::size_t left_end = 1000 + kK - 1;  // past the left unitig's last base
    const std::string at_21 = gapped.genome.substr(left_end - 20, 1040 + 20 - (left_end - 20));
    for (const ShortOverlap& overlap : {ShortOverlap{kK, gapped.lacked, 3}, ShortOverlap{21, at_21, 3},
                                        ShortOverlap{21, reverse_complement(at_21), 3}}) {
      const std::vector<ReadBridge> joins =
          paired_gaps(gapped.graph, {overlap}, gapped.pairs_across(kLeastLinkingPairs, fragment_reversed), ambiguous);
      ASSERT_EQ(joins.size(), 1u) << "k " << overlap.k;
      const bool forward = joins[0].bases == gapped.lacked;
      EXPECT_TRUE(forward || joins[0].bases == reverse_complement(gapped.lacked));
      EXPECT_EQ(joins[0].from, forward ? gapped.left_way() : gapped.right_way() ^ 1);
      EXPECT_EQ(joins[0].to, forward ? gapped.right_way() : gapped.left_way() ^ 1);
      EXPECT_EQ(joins[0].reads, 3u);
      EXPECT_EQ(ambiguous, 0u);
    }
  }
}

TEST(PairedGaps, LeaveAGapTooFewPairsLinkOrAnEndTwoWouldJoin) {
  const Gapped gapped;
  std::uint64_t ambiguous = 0;
  const ShortOverlap across{kK, gapped.lacked, 1};
  EXPECT_TRUE(paired_gaps(gapped.graph, {across}, gapped.pairs_across(kLeastLinkingPairs - 1), ambiguous).empty());
  EXPECT_TRUE(paired_gaps(gapped.graph, {across}, ReadThreads(kK), ambiguous).empty()) << "no pairs at all";
  const auto way = [](UnitigGraph::Oriented oriented) {
    return std::vector<ReadThreads::CompactOriented>{static_cast<ReadThreads::CompactOriented>(oriented)};
  };
  // Mates that do not face each other across the gap (the second read as the first is).
  ReadThreads facing_away(kK);
  facing_away.add_pair(way(gapped.left_way()), way(gapped.right_way()), 5);
  EXPECT_TRUE(paired_gaps(gapped.graph, {across}, facing_away, ambiguous).empty()) << "mates that face away";
  // Mates that cross other unitigs before and after: the first's last and the second's first
  // (along the fragment) are what link the ends.
  const UnitigGraph::Oriented other = reading(gapped.graph, gapped.elsewhere);
  ReadThreads crossing(kK);
  crossing.add_pair(std::vector<ReadThreads::CompactOriented>{static_cast<ReadThreads::CompactOriented>(other),
                                                              static_cast<ReadThreads::CompactOriented>(gapped.left_way())},
                    std::vector<ReadThreads::CompactOriented>{static_cast<ReadThreads::CompactOriented>(other),
                                                              static_cast<ReadThreads::CompactOriented>(gapped.right_way() ^ 1)},
                    kLeastLinkingPairs);
  EXPECT_EQ(paired_gaps(gapped.graph, {across}, crossing, ambiguous).size(), 1u) << "mates over several unitigs";
  // Bases that begin like no dead end: nothing to join.
  EXPECT_TRUE(paired_gaps(gapped.graph, {{kK, gapped.genome.substr(500, 80), 1}}, gapped.pairs_across(5), ambiguous)
                  .empty());
  // The left end also overlaps the third unitig's beginning, and pairs link that too.
  ReadThreads both = gapped.pairs_across(5);
  const UnitigGraph::Oriented third = reading(gapped.graph, gapped.elsewhere);
  both.add_pair(std::vector<ReadThreads::CompactOriented>{static_cast<ReadThreads::CompactOriented>(gapped.left_way())},
                std::vector<ReadThreads::CompactOriented>{static_cast<ReadThreads::CompactOriented>(third ^ 1)}, 5);
  const ShortOverlap to_third{kK, gapped.left.substr(gapped.left.size() - (kK - 1)) + "ACGTTGCA" +
                                      gapped.elsewhere.substr(0, kK - 1), 1};
  EXPECT_TRUE(paired_gaps(gapped.graph, {across, to_third}, both, ambiguous).empty());
  EXPECT_EQ(ambiguous, 1u) << "the left unitig's end";
  // The same gap found in two rounds is one join, the most reads' bases.
  const ShortOverlap again{kK, gapped.lacked, 4};
  const std::vector<ReadBridge> once = paired_gaps(gapped.graph, {across, again}, gapped.pairs_across(5), ambiguous);
  ASSERT_EQ(once.size(), 1u);
  EXPECT_EQ(once[0].reads, 4u);
  EXPECT_EQ(ambiguous, 0u);
}

// 2x100 read pairs (fragments of 300 bases, mates facing each other) of a random genome, one
// starting every 4 bases, but none that holds bases both before `gap_begin` and at or after
// `gap_end`: the reads before the gap and after it overlap by gap_end - gap_begin bases.
struct GappedReads {
  std::string genome;
  std::string first;
  std::string second;
  GappedReads(std::size_t length, std::size_t gap_begin, std::size_t gap_end) {
    std::mt19937_64 random(12);
    genome = random_bases(random, length);
    const auto crosses = [&](std::size_t start) { return start < gap_begin && start + 100 > gap_end; };
    const auto record = [](std::size_t number, const std::string& bases) {
      return "@pair" + std::to_string(number) + "\n" + bases + "\n+\n" + std::string(bases.size(), 'I') + "\n";
    };
    for (std::size_t start = 0; start + 300 <= length; start += 4) {
      if (crosses(start) || crosses(start + 200)) continue;
      first += record(start, genome.substr(start, 100));
      second += record(start, reverse_complement(genome.substr(start + 200, 100)));
    }
  }
};

// Reads on either side of a gap overlap by 12 bases (too few for a read bridge) and their
// k-mers stop there: the pairs that span it join the two ends, where single reads leave two
// contigs; the bytes are the same for every thread and process count.
TEST(PairedGaps, TheAssemblerJoinsAGapThatReadsMeetInBrieflyWherePairsSpanIt) {
  const GappedReads reads(12000, 6000, 6012);
  const xenon::testing::TemporaryDirectory in("xenon-paired-gaps");
  const std::string first = in.write("reads_1.fq", reads.first);
  const std::string second = in.write("reads_2.fq", reads.second);
  const std::string options = "--quiet -k 31 --min-coverage 2 --graph-image no";
  const xenon::testing::TemporaryDirectory single("xenon-paired-gaps");
  auto run = xenon::testing::run_binary("assembler", options + " -o " + single.path() + " -s " + first + " -s " + second);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(xenon::testing::fasta_sequences(single.read("contigs.fasta")).size(), 2u) << "single reads: the gap stays";

  const xenon::testing::TemporaryDirectory paired("xenon-paired-gaps");
  run = xenon::testing::run_binary("assembler", options + " -threads-per-node 1 -o " + paired.path() + " -1 " + first +
                                                    " -2 " + second);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> joined = xenon::testing::fasta_sequences(paired.read("contigs.fasta"));
  ASSERT_EQ(joined.size(), 1u) << paired.read("assembler.log");
  // The genome but for its first and last few bases, which one read each holds.
  const std::string forward = reads.genome.find(joined[0]) != std::string::npos ? joined[0] : reverse_complement(joined[0]);
  const std::size_t at = reads.genome.find(forward);
  ASSERT_NE(at, std::string::npos) << "the contig is the genome's, gap and all";
  EXPECT_LT(at, 10u);
  EXPECT_GT(at + forward.size(), reads.genome.size() - 10);
  const std::string log = paired.read("assembler.log");
  EXPECT_NE(log.find("1 gaps where reads meet too briefly to join alone joined"), std::string::npos) << log;
  EXPECT_NE(log.find("phase reads and pairs again: done"), std::string::npos) << log;

  const xenon::testing::TemporaryDirectory threads("xenon-paired-gaps");
  run = xenon::testing::run_binary("assembler", options + " -threads-per-node 3 -o " + threads.path() + " -1 " + first +
                                                    " -2 " + second);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* file : {"contigs.fasta", "scaffolds.fasta", "graph.gfa", "assembly.json"}) {
    EXPECT_EQ(threads.read(file), paired.read(file)) << file << ", 3 threads";
  }
  // Under a sanitizer the threads are what it checks; processes are the release build's.
  if (!xenon::testing::built_with_mpi() || xenon::testing::under_sanitizer()) return;
  const xenon::testing::TemporaryDirectory processes("xenon-paired-gaps");
  run = xenon::testing::mpi_run(2, "assembler", options + " -threads-per-node 2 -o " + processes.path() + " -1 " +
                                                    first + " -2 " + second);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* file : {"contigs.fasta", "scaffolds.fasta", "graph.gfa", "assembly.json"}) {
    EXPECT_EQ(processes.read(file), paired.read(file)) << file << ", 2 processes";
  }
}

}  // namespace
