// SPDX-License-Identifier: BSD-3-Clause
// Scaffolding (genomics/assembler/scaffolding.hpp) on graphs built from random sequences,
// whose right answer is known by construction: read pairs join two contigs across a repeat
// longer than a read (with the repeat's bases between them) and across a gap the graph does
// not hold (10 N when the pairs do not say how long it is, else as long as they say; none
// where the two contigs' ends overlap), in the right order and orientation; an end that pairs
// link to two others about as often is not joined (one linked under a third as often is),
// nor one that pairs leave along two of its ways out,
// nor two ends that pairs put more than a fragment into each other; where
// no pair spans the way between two contigs, the graph alone joins them when every way out
// of the one leads to the other (N for a loop's rounds); a genome read far more often than
// the sample is judged by its own depth (a link needs the deeper contig's threshold), two
// dead ends that two pairs link to each other alone are joined (pairs that put one more than
// a fragment into a third contig are no rival), and a
// read of another strain that crosses into its unitigs is placed by the read's own; a link
// reaches as far as the fragments' length says, and an end that few pairs tie to its contig
// where the graph goes on two ways links nothing; every contig is in one scaffold.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "genomics/assembler/fasta_output.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/scaffolding.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/random_bases.hpp"

namespace {

using namespace xenon::genomics;

constexpr int kK = 21;
constexpr int kPairs = 10;  // read pairs for each link

using xenon::testing::random_bases;

std::uint64_t kmers_in(const std::string& bases) { return bases.size() - kK + 1; }

bool same_either_way(const std::string& a, const std::string& b) { return a == b || a == reverse_complement(b); }

// The unitig of `graph` that holds `piece`, read as `piece` reads: index * 2 + reversed.
std::uint32_t oriented_along(const UnitigGraph& graph, const std::string& piece) {
  for (std::size_t index = 0; index < graph.unitigs().size(); ++index) {
    if (graph.unitigs()[index].bases == piece) return static_cast<std::uint32_t>(2 * index);
    if (graph.unitigs()[index].bases == reverse_complement(piece)) return static_cast<std::uint32_t>(2 * index + 1);
  }
  ADD_FAILURE() << "no unitig holds the piece";
  return 0;
}

// Pairs of a fragment that runs from `from` into `to` (each a unitig read along the
// fragment): the first mate in `from`, the second (reverse complemented, as sequenced) in `to`.
void add_pairs(ReadThreads& pairs, std::uint32_t from, std::uint32_t to) {
  for (int pair = 0; pair < kPairs; ++pair) {
    const std::vector<std::uint32_t> first{from};
    const std::vector<std::uint32_t> second{to ^ 1};
    pairs.add_pair(first, second);
  }
}

// One pair of a fragment that runs from `from` into `to`, as add_pairs.
void add_pairs_once(ReadThreads& pairs, std::uint32_t from, std::uint32_t to) {
  const std::vector<std::uint32_t> first{from};
  const std::vector<std::uint32_t> second{to ^ 1};
  pairs.add_pair(first, second);
}

// Two genomes that share a repeat of 300 bases (longer than a read), as the compacted graph
// has them: each one's part before the repeat and after it (20x), and the repeat (40x).
struct SharedRepeat {
  std::mt19937_64 random{15};
  std::string repeat = random_bases(random, 300);
  std::string first = random_bases(random, 2000) + repeat + random_bases(random, 1800);
  std::string second = random_bases(random, 1500) + repeat + random_bases(random, 1600);
  std::string in[2], out[2];
  UnitigGraph graph{kK};

  SharedRepeat() {
    const std::string* genomes[2] = {&first, &second};
    for (int genome = 0; genome < 2; ++genome) {
      const std::string& bases = *genomes[genome];
      const std::size_t at = bases.find(repeat);
      in[genome] = bases.substr(0, at + kK - 1);
      out[genome] = bases.substr(at + repeat.size() - (kK - 1));
      graph.add(in[genome], 20 * kmers_in(in[genome]), false);
      graph.add(out[genome], 20 * kmers_in(out[genome]), false);
    }
    graph.add(repeat, 40 * kmers_in(repeat), false);
    graph.compact();
  }
};

// Contigs of a graph, and what they and scaffolds of them spell.
struct Contigs {
  const UnitigGraph* graph = nullptr;
  std::vector<Contig> contigs;
  std::string bases(std::size_t contig) const {
    return spelled_contig(graph->unitigs(), graph->k(), contigs[contig]);
  }
  std::string spelled(const Scaffold& scaffold) const {
    return spelled_scaffold(scaffold, contigs, graph->unitigs(), graph->k());
  }
};

// The contigs of `graph`, each unitig on its own (no extension into the repeat).
Contigs plain_contigs(const UnitigGraph& graph) {
  return {&graph, graph.contig_paths(200, false)};
}

// The first and the last k-1 bases: where a unitig joins the one before it and the one after.
std::string head(const std::string& bases) { return bases.substr(0, kK - 1); }
std::string tail(const std::string& bases) { return bases.substr(bases.size() - (kK - 1)); }

// Each contig is in exactly one scaffold, read one way or the other.
void expect_every_contig_once(const std::vector<Scaffold>& scaffolds, const Contigs& made) {
  const std::vector<Contig>& contigs = made.contigs;
  std::vector<int> times(contigs.size(), 0);
  for (const Scaffold& scaffold : scaffolds) {
    for (const std::size_t contig : scaffold.contigs) {
      ASSERT_LT(contig, contigs.size());
      ++times[contig];
      const std::string bases = made.bases(contig);
      const std::string spelled = made.spelled(scaffold);
      EXPECT_TRUE(spelled.find(bases) != std::string::npos ||
                  spelled.find(reverse_complement(bases)) != std::string::npos)
          << "contig " << contig;
    }
  }
  for (std::size_t contig = 0; contig < contigs.size(); ++contig) EXPECT_EQ(times[contig], 1) << "contig " << contig;
}

TEST(Scaffolding, PairsJoinTwoContigsAcrossARepeatLongerThanAReadWithTheRepeatsBases) {
  SharedRepeat shared;
  const Contigs made = plain_contigs(shared.graph);
  ASSERT_EQ(made.contigs.size(), 5u) << "two ways in, two out, and the repeat";
  ReadThreads pairs(kK);
  for (int genome = 0; genome < 2; ++genome) {
    add_pairs(pairs, oriented_along(shared.graph, shared.in[genome]), oriented_along(shared.graph, shared.out[genome]));
  }
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_contigs(shared.graph, made.contigs, pairs, report);
  EXPECT_EQ(report.joins, 2u);
  EXPECT_EQ(report.joins_through_graph, 2u);
  ASSERT_EQ(scaffolds.size(), 3u);
  // Longest first: each genome whole, in order and one orientation, then the repeat alone.
  EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), shared.first));
  EXPECT_TRUE(same_either_way(made.spelled(scaffolds[1]), shared.second));
  EXPECT_TRUE(same_either_way(made.spelled(scaffolds[2]), shared.repeat));
  for (const Scaffold& scaffold : scaffolds) EXPECT_EQ(scaffold.gaps, 0u);
  expect_every_contig_once(scaffolds, made);
  std::string fasta;
  UnitigGraph written = shared.graph;  // graph_file() takes the unitigs of the graph it is given
  write_scaffolds_fasta(scaffolds, made.contigs, graph_file(std::move(written)),
                        [&fasta](std::string_view record) { fasta += record; });
  EXPECT_EQ(fasta.rfind(">scaffold_1 length=" + std::to_string(shared.first.size()) + " contigs=contig_", 0), 0u) << fasta;
  EXPECT_EQ(scaffold_n50(scaffolds), shared.first.size());
}

TEST(Scaffolding, AnEndThatPairsLinkToTwoOthersIsNotJoined) {
  SharedRepeat shared;
  const Contigs made = plain_contigs(shared.graph);
  ReadThreads pairs(kK);
  const std::uint32_t in0 = oriented_along(shared.graph, shared.in[0]);
  add_pairs(pairs, in0, oriented_along(shared.graph, shared.out[0]));
  add_pairs(pairs, in0, oriented_along(shared.graph, shared.out[1]));  // the conflict
  add_pairs(pairs, oriented_along(shared.graph, shared.in[1]), oriented_along(shared.graph, shared.out[1]));
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_contigs(shared.graph, made.contigs, pairs, report);
  EXPECT_EQ(report.joins, 0u);
  EXPECT_EQ(report.conflicted_ends, 2u) << "the end of in[0], and the start of out[1]";
  ASSERT_EQ(scaffolds.size(), made.contigs.size());
  for (std::size_t i = 0; i < scaffolds.size(); ++i) {
    EXPECT_EQ(made.spelled(scaffolds[i]), made.bases(i)) << "each contig alone, as contigs.fasta has it";
  }
  // A second partner linked by fewer than a third as many pairs as the first leaves the end
  // to the first (3 against 10: both genomes joined); a third or more, open (4 against 10).
  for (const int stray : {3, 4}) {
    ReadThreads uneven(kK);
    for (int genome = 0; genome < 2; ++genome) {
      add_pairs(uneven, oriented_along(shared.graph, shared.in[genome]), oriented_along(shared.graph, shared.out[genome]));
    }
    for (int pair = 0; pair < stray; ++pair) {
      const std::vector<std::uint32_t> first{in0};
      const std::vector<std::uint32_t> second{oriented_along(shared.graph, shared.out[1]) ^ 1};
      uneven.add_pair(first, second);
    }
    ScaffoldingReport uneven_report;
    const std::vector<Scaffold> joined = scaffold_contigs(shared.graph, made.contigs, uneven, uneven_report);
    EXPECT_EQ(uneven_report.joins, stray == 3 ? 2u : 0u) << stray << " stray pairs";
    EXPECT_EQ(uneven_report.conflicted_ends, stray == 3 ? 0u : 2u) << stray << " stray pairs";
    if (stray == 3) {
      ASSERT_EQ(joined.size(), 3u);
      EXPECT_TRUE(same_either_way(made.spelled(joined[0]), shared.first));
      EXPECT_TRUE(same_either_way(made.spelled(joined[1]), shared.second));
    }
    expect_every_contig_once(joined, made);
  }
  // Fewer pairs than the threshold (3) link nothing either.
  ReadThreads few(kK);
  for (int pair = 0; pair < 2; ++pair) {
    const std::vector<std::uint32_t> first{in0};
    const std::vector<std::uint32_t> second{oriented_along(shared.graph, shared.out[0]) ^ 1};
    few.add_pair(first, second);
  }
  ScaffoldingReport few_report;
  EXPECT_EQ(scaffold_contigs(shared.graph, made.contigs, few, few_report).size(), made.contigs.size());
  EXPECT_EQ(few_report.joins, 0u);
}

// The scaffolds of `made` when pairs (kPairs) link the end of `left` to the start of `right`.
std::vector<Scaffold> scaffold_linked(const UnitigGraph& graph, const Contigs& made, const std::string& left,
                                      const std::string& right, ScaffoldingReport& report) {
  ReadThreads pairs(kK);
  add_pairs(pairs, oriented_along(graph, left), oriented_along(graph, right));
  return scaffold_contigs(graph, made.contigs, pairs, report);
}

// A genome of 3,000 random bases whose bases 1,400 to 1,700 no read covered: the graph holds
// the part before (reverse complemented) and the part after, a contig each.
struct GappedGenome {
  std::mt19937_64 random;
  std::string genome = random_bases(random, 3000);
  std::string left = genome.substr(0, 1400);
  std::string right = genome.substr(1700);
  UnitigGraph graph{kK};
  Contigs made;

  explicit GappedGenome(std::uint64_t seed) : random(seed) {  // the members above, in order, first
    graph.add(reverse_complement(left), 20 * kmers_in(left), false);
    graph.add(right, 20 * kmers_in(right), false);
    graph.compact();
    made = plain_contigs(graph);
  }
  GappedGenome(const GappedGenome&) = delete;  // made.graph points at graph
};

// Pairs of 100-base reads from fragments of a genome, each mate traced through the graph (so
// placed where it begins in its unitig), as the assembler threads them.
struct TracedPairs {
  static constexpr std::size_t kRead = 100;
  const std::string& genome;
  const ReadThreads index;
  ReadThreads pairs{kK};

  TracedPairs(const UnitigGraph& graph, const std::string& bases) : genome(bases), index(graph, kK) {}

  // The fragment of `length` bases from `start`; false where a mate lies in no unitig.
  bool add(std::size_t start, std::size_t length) {
    const ReadThreads::Traced first = index.trace(genome.substr(start, kRead));
    const ReadThreads::Traced second = index.trace(reverse_complement(genome.substr(start + length - kRead, kRead)));
    if (first.runs.empty() || second.runs.empty()) return false;
    pairs.add_pair(joined(first), joined(second), 1, first.lead + second.lead);
    return true;
  }

  static std::vector<ReadThreads::CompactOriented> joined(const ReadThreads::Traced& traced) {
    std::vector<ReadThreads::CompactOriented> path;
    for (const auto& run : traced.runs) path.insert(path.end(), run.begin(), run.end());
    return path;
  }
};

TEST(Scaffolding, AGapTheGraphDoesNotHoldIsTenN) {
  const GappedGenome gapped(16);
  const UnitigGraph& graph = gapped.graph;
  const std::string& left = gapped.left;
  const std::string& right = gapped.right;
  const Contigs& made = gapped.made;
  ASSERT_EQ(made.contigs.size(), 2u);
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_linked(graph, made, left, right, report);
  ASSERT_EQ(scaffolds.size(), 1u);
  EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), left + std::string(kUnknownGap, 'N') + right));
  EXPECT_EQ(scaffolds[0].gaps, 1u);
  EXPECT_EQ(report.joins_through_graph, 0u);
  expect_every_contig_once(scaffolds, made);
  // Without pairs, each contig is a scaffold of its own.
  const std::vector<Scaffold> alone = unscaffolded(made.contigs);
  ASSERT_EQ(alone.size(), 2u);
  expect_every_contig_once(alone, made);
}

// Reads of 100 bases from fragments of 450 to 550 (500 on average) across the genome, each
// mate traced through the graph (so placed where it begins in its unitig): the fragments
// inside each contig measure their length, those across the gap its size.
TEST(Scaffolding, AGapIsAsLongAsTheFragmentsAcrossItSay) {
  const GappedGenome gapped(17);
  const UnitigGraph& graph = gapped.graph;
  const std::string& genome = gapped.genome;
  const std::string& left = gapped.left;
  const std::string& right = gapped.right;
  const Contigs& made = gapped.made;
  ASSERT_EQ(made.contigs.size(), 2u);
  TracedPairs traced(graph, genome);
  for (std::size_t start = 0, fragment = 0; start + 550 <= genome.size(); start += 5, ++fragment) {
    traced.add(start, 450 + (fragment * 37) % 101);
  }
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_contigs(graph, made.contigs, traced.pairs, report);
  EXPECT_NEAR(static_cast<double>(report.insert_size), 500.0, 10.0);
  ASSERT_EQ(scaffolds.size(), 1u);
  EXPECT_EQ(scaffolds[0].gaps, 1u);
  EXPECT_EQ(report.gaps_sized, 1u);
  const std::string bases = made.spelled(scaffolds[0]);
  const std::size_t first_n = bases.find('N');
  ASSERT_NE(first_n, std::string::npos);
  const std::size_t gap = bases.find_first_not_of('N', first_n) - first_n;
  EXPECT_NEAR(static_cast<double>(gap), 300.0, 15.0) << "the bases between the contigs";
  EXPECT_TRUE(same_either_way(bases, left + std::string(gap, 'N') + right));
}

// Pairs that link the two contigs but put them more than a fragment into each other (their
// mates 1,300 bases and more from the ends, with fragments of 500): mates in a repeat both
// ends carry, not beside each other. The ends are not joined.
TEST(Scaffolding, PairsThatPutTwoEndsMoreThanAFragmentIntoEachOtherJoinNothing) {
  const GappedGenome gapped(17);
  const UnitigGraph& graph = gapped.graph;
  const std::string& genome = gapped.genome;
  const Contigs& made = gapped.made;
  ASSERT_EQ(made.contigs.size(), 2u);
  TracedPairs traced(graph, genome);
  // Fragments of 500 inside each contig, which measure the insert size.
  for (std::size_t start = 0; start + 500 <= 1400; start += 5) ASSERT_TRUE(traced.add(start, 500));
  for (std::size_t start = 1700; start + 500 <= genome.size(); start += 5) ASSERT_TRUE(traced.add(start, 500));
  // The links: from the first 100 bases of the genome to its last 100.
  for (int pair = 0; pair < kPairs; ++pair) ASSERT_TRUE(traced.add(0, genome.size()));
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_contigs(graph, made.contigs, traced.pairs, report);
  EXPECT_NEAR(static_cast<double>(report.insert_size), 500.0, 10.0);
  EXPECT_EQ(scaffolds.size(), 2u) << "not joined";
  expect_every_contig_once(scaffolds, made);
}

// Where coverage thinned to nothing between two contigs (the graph stops at both), two pairs
// that link them and nothing else join them, under the threshold of 3; one pair does not,
// nor two where one end is linked by a pair to a third contig too, nor two where the graph
// goes on from one of the ends (two ways: a branch, not a gap). (A deep contig's threshold
// holds between dead ends too: ALinkNeedsTheThresholdOfTheDeeperOfItsContigs; so do pairs
// that put two ends more than a fragment into each other:
// PairsThatPutTwoEndsMoreThanAFragmentIntoEachOtherJoinNothing.)
TEST(Scaffolding, TwoDeadEndsThatTwoPairsLinkToEachOtherAloneAreJoined) {
  std::mt19937_64 random(24);
  const std::string left = random_bases(random, 1400);
  const std::string right = random_bases(random, 1300);
  const std::string third = random_bases(random, 1200);
  const std::string fork[2] = {random_bases(random, 40), random_bases(random, 40)};
  struct Case {
    const char* name;
    int pairs;
    bool third_linked;
    bool left_goes_on;
    std::size_t scaffolds;
  };
  for (const Case& tried : {Case{"two pairs", 2, false, false, 2}, Case{"one pair", 1, false, false, 3},
                            Case{"a third linked", 2, true, false, 3}, Case{"a branch", 2, false, true, 3}}) {
    SCOPED_TRACE(tried.name);
    UnitigGraph graph(kK);
    graph.add(left, 20 * kmers_in(left), false);
    graph.add(right, 20 * kmers_in(right), false);
    graph.add(third, 20 * kmers_in(third), false);
    if (tried.left_goes_on) {
      for (const std::string& way : fork) graph.add(tail(left) + way, 3 * kmers_in(tail(left) + way), false);
    }
    graph.compact();
    const Contigs made = plain_contigs(graph);
    ASSERT_EQ(made.contigs.size(), 3u);
    ReadThreads pairs(kK);
    for (int pair = 0; pair < tried.pairs; ++pair) {
      pairs.add_pair(std::vector<std::uint32_t>{oriented_along(graph, left)},
                     std::vector<std::uint32_t>{oriented_along(graph, right) ^ 1});
    }
    if (tried.third_linked) {
      pairs.add_pair(std::vector<std::uint32_t>{oriented_along(graph, left)},
                     std::vector<std::uint32_t>{oriented_along(graph, third) ^ 1});
    }
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds = scaffold_contigs(graph, made.contigs, pairs, report);
    EXPECT_EQ(report.link_threshold, 3u);
    EXPECT_EQ(scaffolds.size(), tried.scaffolds);
    EXPECT_EQ(report.joins_of_dead_ends, tried.scaffolds == 2 ? 1u : 0u);
    if (tried.scaffolds == 2) {
      EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), left + std::string(kUnknownGap, 'N') + right));
    }
    expect_every_contig_once(scaffolds, made);
  }
}

// Pairs that put an end more than a fragment into a third contig's end (as mates in a repeat
// both carry would) are no rival to the two pairs that link it to its neighbour across a gap
// the reads left: those two dead ends are joined all the same, the gap as long as the two
// pairs say. (The rival pairs size 500 - (1,400 + 100) = -1,000 bases: past a fragment.)
TEST(Scaffolding, PairsThatPutAnEndPastAFragmentIntoAnotherDoNotHoldItsDeadEndOpen) {
  const GappedGenome gapped(18);
  std::mt19937_64 random(25);
  const std::string third = random_bases(random, 1200);
  UnitigGraph graph(kK);
  graph.add(reverse_complement(gapped.left), 20 * kmers_in(gapped.left), false);
  graph.add(gapped.right, 20 * kmers_in(gapped.right), false);
  graph.add(third, 20 * kmers_in(third), false);
  graph.compact();
  const Contigs made = plain_contigs(graph);
  ASSERT_EQ(made.contigs.size(), 3u);
  const std::string& genome = gapped.genome;
  for (const bool rival : {false, true}) {
    SCOPED_TRACE(rival ? "with the pairs into the third contig" : "alone");
    TracedPairs traced(graph, genome);
    // Fragments of 500 inside each contig, which measure the insert size.
    for (std::size_t start = 0; start + 500 <= 1400; start += 5) ASSERT_TRUE(traced.add(start, 500));
    for (std::size_t start = 1700; start + 500 <= genome.size(); start += 5) ASSERT_TRUE(traced.add(start, 500));
    // Two fragments across the gap (1,400 to 1,700), a mate on each side.
    ASSERT_TRUE(traced.add(1295, 510));
    ASSERT_TRUE(traced.add(1300, 500));
    if (rival) {  // 4 pairs from the genome's first 100 bases to the third contig's last 100
      const ReadThreads::Traced first = traced.index.trace(genome.substr(0, TracedPairs::kRead));
      const ReadThreads::Traced second = traced.index.trace(third.substr(third.size() - TracedPairs::kRead));
      for (int pair = 0; pair < 4; ++pair) {
        traced.pairs.add_pair(TracedPairs::joined(first), TracedPairs::joined(second), 1, first.lead + second.lead);
      }
    }
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds = scaffold_contigs(graph, made.contigs, traced.pairs, report);
    EXPECT_NEAR(static_cast<double>(report.insert_size), 500.0, 10.0);
    ASSERT_EQ(scaffolds.size(), 2u);
    EXPECT_EQ(report.joins_of_dead_ends, 1u);
    const std::string bases = made.spelled(scaffolds[0]);
    const std::size_t first_n = bases.find('N');
    ASSERT_NE(first_n, std::string::npos);
    const std::size_t gap = bases.find_first_not_of('N', first_n) - first_n;
    EXPECT_NEAR(static_cast<double>(gap), 300.0, 25.0);
    EXPECT_TRUE(same_either_way(bases, gapped.left + std::string(gap, 'N') + gapped.right));
    expect_every_contig_once(scaffolds, made);
  }
}

// A sample of two genomes read 60x and 10x, the second with most of the bases (so the
// sample's median base is read 10x), as the compacted graph has them: the deep genome's two
// contigs of 12,000 bases (a gap between them), the shallow one's two of 3,000 and one of
// 30,000, each one unitig.
struct TwoDepths {
  std::mt19937_64 random{23};
  std::string deep[2] = {random_bases(random, 12000), random_bases(random, 12000)};
  std::string shallow[2] = {random_bases(random, 3000), random_bases(random, 3000)};
  std::string rest = random_bases(random, 30000);
  UnitigGraph graph{kK};
  Contigs made;

  TwoDepths() {
    for (const std::string& bases : deep) graph.add(bases, 60 * kmers_in(bases), false);
    for (const std::string& bases : shallow) graph.add(bases, 10 * kmers_in(bases), false);
    graph.add(rest, 10 * kmers_in(rest), false);
    graph.compact();
    made = plain_contigs(graph);
  }
  TwoDepths(const TwoDepths&) = delete;  // made.graph points at graph
};

// The deep genome's contigs are read 6x as often as the sample's median base, yet they are
// no repeat: their own median base says how often their genome was read, so they place
// mates, and pairs join them.
TEST(Scaffolding, AGenomeReadFarMoreOftenThanTheSampleIsJudgedByItsOwnDepth) {
  const TwoDepths sample;
  ASSERT_EQ(sample.made.contigs.size(), 5u);
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds =
      scaffold_linked(sample.graph, sample.made, sample.deep[0], sample.deep[1], report);
  EXPECT_EQ(report.joins, 1u);
  ASSERT_EQ(scaffolds.size(), 4u);
  const std::string spelled = sample.made.spelled(scaffolds[1]);  // after the 30,000 bases of the shallow one's
  EXPECT_TRUE(same_either_way(spelled, sample.deep[0] + std::string(kUnknownGap, 'N') + sample.deep[1])) << spelled.size();
  expect_every_contig_once(scaffolds, sample.made);
}

// A read of the shallow genome that crosses from its own unitig into one of the deep genome's
// (a stretch two strains share, held by the deep strain's contig) is placed by its own: its
// mate's contig is joined to the shallow contig, not to the deep one.
TEST(Scaffolding, AReadThatCrossesIntoAGenomeReadFarMoreIsPlacedByItsOwnUnitig) {
  const TwoDepths sample;
  const std::uint32_t own = oriented_along(sample.graph, sample.shallow[0]);
  const std::uint32_t shared = oriented_along(sample.graph, sample.deep[0]);
  const std::uint32_t mate = oriented_along(sample.graph, sample.shallow[1]);
  ReadThreads pairs(kK);
  for (int pair = 0; pair < kPairs; ++pair) {
    const std::vector<std::uint32_t> first{own, shared};
    const std::vector<std::uint32_t> second{mate ^ 1};
    pairs.add_pair(first, second);
  }
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_contigs(sample.graph, sample.made.contigs, pairs, report);
  EXPECT_EQ(report.joins, 1u);
  ASSERT_EQ(scaffolds.size(), 4u);
  bool shallow_joined = false;
  for (const Scaffold& scaffold : scaffolds) {
    const std::string spelled = sample.made.spelled(scaffold);
    if (same_either_way(spelled, sample.shallow[0] + std::string(kUnknownGap, 'N') + sample.shallow[1])) shallow_joined = true;
    EXPECT_FALSE(scaffold.contigs.size() > 1 && spelled.find(sample.deep[0]) != std::string::npos) << "the deep contig joined";
  }
  EXPECT_TRUE(shallow_joined);
  expect_every_contig_once(scaffolds, sample.made);
}

// A link must reach the thresholds of both its contigs, each a quarter of the pairs that
// span a join inside a contig read as often. The deep genome's contig (60x) is two unitigs
// (a stub enters the second), and 40 pairs span the join between them: its threshold is
// 10; the shallow contigs (10x, as the sample's median base) need 3. So 5 pairs join two
// shallow contigs but not the deep contig to a shallow one (pairs of a strain read less, in
// a stretch it shares with the deep one), and 12 do.
TEST(Scaffolding, ALinkNeedsTheThresholdOfTheDeeperOfItsContigs) {
  std::mt19937_64 random(24);
  const std::string first_part = random_bases(random, 6000);
  const std::string junction = tail(first_part);
  const std::string second_part = junction + random_bases(random, 6000);
  const std::string stub = random_bases(random, 100) + junction;
  const std::string shallow[2] = {random_bases(random, 3000), random_bases(random, 3000)};
  const std::string rest = random_bases(random, 30000);
  UnitigGraph graph(kK);
  for (const std::string& bases : {first_part, second_part, stub}) graph.add(bases, 60 * kmers_in(bases), false);
  for (const std::string& bases : {shallow[0], shallow[1], rest}) graph.add(bases, 10 * kmers_in(bases), false);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 6u);
  Contigs made{&graph, {}};
  const auto contig_of = [&](std::vector<Contig::Oriented> path) {
    Contig contig;
    contig.path = std::move(path);
    contig.length = spelled_path_length(graph.unitigs(), kK, contig.path);
    return contig;
  };
  const std::uint32_t deep_first = oriented_along(graph, first_part);
  const std::uint32_t deep_second = oriented_along(graph, second_part);
  made.contigs.push_back(contig_of({deep_first, deep_second}));  // contig 0, 11,980 bases
  for (const std::string& bases : {shallow[0], shallow[1], rest}) made.contigs.push_back(contig_of({oriented_along(graph, bases)}));
  const auto scaffolded = [&](std::uint32_t from, std::uint32_t to, int count, ScaffoldingReport& report) {
    ReadThreads pairs(kK);
    for (int pair = 0; pair < 40; ++pair) {
      const std::vector<std::uint32_t> inside{deep_first};
      const std::vector<std::uint32_t> across{deep_second ^ 1};
      pairs.add_pair(inside, across);
    }
    for (int pair = 0; pair < count; ++pair) {
      const std::vector<std::uint32_t> leaving{from};
      const std::vector<std::uint32_t> entering{to ^ 1};
      pairs.add_pair(leaving, entering);
    }
    return scaffold_contigs(graph, made.contigs, pairs, report);
  };
  const std::uint32_t shallow_first = oriented_along(graph, shallow[0]);
  const std::uint32_t shallow_second = oriented_along(graph, shallow[1]);
  ScaffoldingReport shallow_report;
  const std::vector<Scaffold> shallow_joined = scaffolded(shallow_first, shallow_second, 5, shallow_report);
  EXPECT_EQ(shallow_report.join_span_median, 7u) << "40 pairs at 60x are 6.7 at the sample's 10x";
  EXPECT_EQ(shallow_report.link_threshold, 3u);
  EXPECT_EQ(shallow_report.joins, 1u) << "5 pairs between two shallow contigs";
  expect_every_contig_once(shallow_joined, made);
  for (const auto& [count, joins] : {std::pair{5, 0u}, std::pair{12, 1u}}) {
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds = scaffolded(deep_second, shallow_first, count, report);
    EXPECT_EQ(report.joins, joins) << count << " pairs from the deep contig to a shallow one";
    if (joins == 1) {
      EXPECT_TRUE(same_either_way(made.spelled(scaffolds[1]), made.bases(0) + std::string(kUnknownGap, 'N') + shallow[0]));
    }
    expect_every_contig_once(scaffolds, made);
  }
}

// A contig whose last unitig the graph leaves two ways: into another contig, and into a
// short stub (a repeat copy's way out, merged into the contig's end where the copy lost its
// way in). Pairs that lead from the contig along one way only join it there; pairs along the
// stub too (kFewestLinkPairs or more, and at least a third as many as along the other way)
// say the end holds two copies' reads, and it is joined to nothing.
TEST(Scaffolding, AnEndThatPairsLeaveAlongTwoWaysIsNotJoined) {
  std::mt19937_64 random(21);
  const std::string last = random_bases(random, 1000);
  const std::string junction = last.substr(last.size() - (kK - 1));
  const std::string next = junction + random_bases(random, 600);
  const std::string stub = junction + random_bases(random, 15);  // shorter than 2k: it places no mate
  UnitigGraph graph(kK);
  for (const std::string& bases : {last, next, stub}) graph.add(bases, 20 * kmers_in(bases), false);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 3u);
  const Contigs made = plain_contigs(graph);
  ASSERT_EQ(made.contigs.size(), 2u) << "the stub is shorter than a contig";
  const std::uint32_t from = oriented_along(graph, last);
  const std::uint32_t into_next = oriented_along(graph, next);
  const std::uint32_t into_stub = oriented_along(graph, stub);
  // Pairs between the contig's last unitig and kPairs into the next contig, `along_stub`
  // into the stub; with `mirrored`, the fragments run the other way (the second mate in the
  // contig, the first beyond its end).
  const auto scaffolded = [&](int along_stub, bool mirrored, ScaffoldingReport& report) {
    ReadThreads pairs(kK);
    const auto add = [&](std::uint32_t beyond, int count) {
      for (int pair = 0; pair < count; ++pair) {
        const std::vector<std::uint32_t> in_contig{from};
        const std::vector<std::uint32_t> out{beyond ^ 1};
        mirrored ? pairs.add_pair(out, in_contig) : pairs.add_pair(in_contig, out);
      }
    };
    add(into_next, kPairs);
    add(into_stub, along_stub);
    return scaffold_contigs(graph, made.contigs, pairs, report);
  };
  // 2: fewer than kFewestLinkPairs; 3: fewer than a third of kPairs (10); 4 and 10: two ways.
  for (const bool mirrored : {false, true}) {
    for (const int along_stub : {0, 2, 3, 4, kPairs}) {
      ScaffoldingReport report;
      const std::vector<Scaffold> scaffolds = scaffolded(along_stub, mirrored, report);
      const bool two_ways = along_stub >= 4;
      EXPECT_EQ(report.joins, two_ways ? 0u : 1u) << along_stub << " pairs along the stub, mirrored " << mirrored;
      EXPECT_EQ(report.conflicted_ends, two_ways ? 1u : 0u) << along_stub << ", mirrored " << mirrored;
      ASSERT_EQ(scaffolds.size(), two_ways ? 2u : 1u) << along_stub << ", mirrored " << mirrored;
      if (!two_ways) {
        EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), last + next.substr(kK - 1)));
      }
      expect_every_contig_once(scaffolds, made);
    }
  }
}

// Two contigs that overlap by 40 bases, one of them differing there (an error at the end of
// a contig where the graph broke: no k-mer in common), joined by pairs: merged where they
// overlap, with no gap; without the mismatch allowance (a
// second difference), a gap.
TEST(Scaffolding, ContigsThatOverlapWhereTheGraphBrokeAreMerged) {
  std::mt19937_64 random(18);
  const std::string genome = random_bases(random, 3000);
  for (const int differences : {1, 2}) {
    const std::string left = genome.substr(0, 1400);
    std::string right = genome.substr(1360);
    for (int difference = 0; difference < differences; ++difference) {
      char& base = right[static_cast<std::size_t>(20 + 10 * difference)];
      base = base == 'A' ? 'C' : 'A';
    }
    UnitigGraph graph(kK);
    graph.add(left, 20 * kmers_in(left), false);
    graph.add(right, 20 * kmers_in(right), false);
    graph.compact();
    const Contigs made = plain_contigs(graph);
    ASSERT_EQ(made.contigs.size(), 2u);
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds = scaffold_linked(graph, made, left, right, report);
    ASSERT_EQ(scaffolds.size(), 1u);
    if (differences == 1) {
      EXPECT_EQ(report.joins_by_overlap, 1u);
      EXPECT_EQ(scaffolds[0].gaps, 0u);
      // The overlap written once, as whichever contig the scaffold begins with has it.
      const std::string as_right = genome.substr(0, 1360) + right;
      EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), genome) || same_either_way(made.spelled(scaffolds[0]), as_right));
    } else {
      EXPECT_EQ(report.joins_by_overlap, 0u);
      EXPECT_EQ(scaffolds[0].gaps, 1u);
      EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), left + std::string(kUnknownGap, 'N') + right));
    }
  }
}

// A genome A R Y R Y R B, where R (30 bases) and Y (100) are shorter than a fragment
// together: no pair spans the array from A to B, but every way out of A leads to B and
// into B comes from A. The two contigs (A and B; R and Y are too short to be contigs) are
// joined by the graph alone, with N between (A R Y R Y R B has them): how many times the
// genome goes round R Y no read says. Where the way between is a bubble instead (A, then
// one of two variants of a short repeat, then B), its bases are written as the graph has
// them.
TEST(Scaffolding, TheGraphAloneJoinsTwoContigsThatEveryWayBetweenLeadsTo) {
  std::mt19937_64 random(19);
  const std::string a = random_bases(random, 1500);
  const std::string r = random_bases(random, 30);
  const std::string y = random_bases(random, 100);
  const std::string b = random_bases(random, 1400);
  for (const bool loop : {true, false}) {
    SCOPED_TRACE(loop ? "round a loop" : "through a bubble");
    UnitigGraph graph(kK);
    const std::string in = loop ? a + head(r) : a;
    const std::string out = loop ? tail(r) + b : b;
    graph.add(in, 20 * kmers_in(in), false);
    graph.add(out, 20 * kmers_in(out), false);
    std::string variant = r;
    variant[15] = variant[15] == 'A' ? 'C' : 'A';
    if (loop) {
      const std::string round = tail(r) + y + head(r);
      graph.add(r, 60 * kmers_in(r), false);
      graph.add(round, 40 * kmers_in(round), false);
    } else {
      for (const std::string& way : {r, variant}) {
        const std::string piece = tail(a) + way + head(b);
        graph.add(piece, 10 * kmers_in(piece), false);
      }
    }
    graph.compact();
    const Contigs made = plain_contigs(graph);
    ASSERT_EQ(made.contigs.size(), 2u);
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds =
        scaffold_contigs(graph, made.contigs, ReadThreads(kK), report);
    EXPECT_EQ(report.joins_by_graph_alone, 1u);
    ASSERT_EQ(scaffolds.size(), 1u);
    expect_every_contig_once(scaffolds, made);
    if (loop) {
      EXPECT_EQ(scaffolds[0].gaps, 1u);
      EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), in + std::string(kUnknownGap, 'N') + out));
    } else {
      EXPECT_EQ(scaffolds[0].gaps, 0u);
      EXPECT_TRUE(same_either_way(made.spelled(scaffolds[0]), a + r + b) || same_either_way(made.spelled(scaffolds[0]), a + variant + b));
    }
  }
}

// Where the ways out of A, through a short repeat R, lead to two contigs (B and C, each
// after R) or to a dead end (a short stub read 3 times), the graph alone joins nothing.
TEST(Scaffolding, TheGraphAloneJoinsNothingWhereTheWaysPartOrEnd) {
  std::mt19937_64 random(20);
  const std::string a = random_bases(random, 1500);
  const std::string r = random_bases(random, 30);
  const std::string b = random_bases(random, 1400);
  const std::string c = random_bases(random, 1300);
  for (const bool dead_end : {false, true}) {
    SCOPED_TRACE(dead_end ? "a dead end" : "two ways");
    UnitigGraph graph(kK);
    graph.add(a + head(r), 20 * kmers_in(a), false);
    graph.add(r, 40 * kmers_in(r), false);
    graph.add(tail(r) + b, 20 * kmers_in(b), false);
    if (dead_end) {
      graph.add(tail(r) + c.substr(0, 30), 3 * kmers_in(c.substr(0, 30)), false);
    } else {
      graph.add(tail(r) + c, 20 * kmers_in(c), false);
    }
    graph.compact();
    const Contigs made = plain_contigs(graph);
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds =
        scaffold_contigs(graph, made.contigs, ReadThreads(kK), report);
    EXPECT_EQ(report.joins_by_graph_alone, 0u);
    EXPECT_EQ(report.joins, 0u);
    EXPECT_EQ(scaffolds.size(), made.contigs.size());
    expect_every_contig_once(scaffolds, made);
  }
}

// `length` random bases after the last k-1 of `before`: a unitig the graph goes on to from it.
std::string after(std::mt19937_64& random, const std::string& before, std::size_t length) {
  return tail(before) + random_bases(random, length);
}

// A contig of the unitigs of `graph` that hold `pieces`, in order, each read as given.
Contig contig_of_pieces(const UnitigGraph& graph, const std::vector<std::string>& pieces) {
  Contig contig;
  for (const std::string& piece : pieces) {
    contig.path.push_back(oriented_along(graph, piece));
    contig.length += piece.size() - (contig.path.size() > 1 ? kK - 1 : 0);
  }
  return contig;
}

// A contig that runs on past a branch (P, then Q, where the graph also leaves P by R): where
// two copies of a repeat are alike over k bases, a contig can take the other copy's way on,
// and its pairs then link it to that copy's neighbour. Pairs link Q to another contig, B;
// another contig of two unitigs (C1, C2) sets the pairs that span a join inside a contig (40,
// so a link needs 10). Q tied to P by 10 pairs: joined to B; by 2 (under half of 10) where
// the graph goes on from Q two ways: joined to nothing; by 2 where the graph stops at Q: joined.
TEST(Scaffolding, AnEndFewPairsTieToItsContigWhereTheGraphGoesOnTwoWaysLinksNothing) {
  std::mt19937_64 random(25);
  const std::string p = random_bases(random, 1000);
  const std::string q = after(random, p, 600);
  const std::string r = after(random, p, 300);
  const std::string s1 = after(random, q, 300);
  const std::string s2 = after(random, q, 300);
  const std::string b = random_bases(random, 1000);
  const std::string c1 = random_bases(random, 1000);
  const std::string c2 = after(random, c1, 600);
  const std::string c3 = after(random, c1, 300);
  for (const auto& [tied_by, goes_on, joined] :
       {std::tuple{10, true, true}, std::tuple{2, true, false}, std::tuple{2, false, true}}) {
    SCOPED_TRACE(std::to_string(tied_by) + " pairs tie Q to P; the graph " + (goes_on ? "goes on two ways" : "stops"));
    UnitigGraph graph(kK);
    std::vector<std::string> singles{r, b, c3};
    if (goes_on) singles.insert(singles.end(), {s1, s2});
    for (const std::string& bases : singles) graph.add(bases, 20 * kmers_in(bases), false);
    for (const std::string& bases : {p, q, c1, c2}) graph.add(bases, 20 * kmers_in(bases), false);
    graph.compact();
    ASSERT_EQ(graph.unitigs().size(), singles.size() + 4);
    std::vector<Contig> contigs{contig_of_pieces(graph, {p, q}), contig_of_pieces(graph, {c1, c2})};
    for (const std::string& bases : singles) contigs.push_back(contig_of_pieces(graph, {bases}));
    ReadThreads pairs(kK);
    const auto add = [&](const std::string& from, const std::string& to, int count) {
      for (int pair = 0; pair < count; ++pair) add_pairs_once(pairs, oriented_along(graph, from), oriented_along(graph, to));
    };
    add(p, q, tied_by);
    add(c1, c2, 40);
    add(q, b, kPairs);
    ScaffoldingReport report;
    const std::vector<Scaffold> scaffolds = scaffold_contigs(graph, contigs, pairs, report);
    EXPECT_EQ(report.link_threshold, 10u);
    EXPECT_EQ(report.joins, joined ? 1u : 0u);
    EXPECT_EQ(scaffolds.size(), contigs.size() - (joined ? 1 : 0));
  }
}

// How far a link reaches follows from the fragments' length: a mate places by a unitig it
// has a k-mer in, so a linking pair's mates lie at most the fragment less 2k from the two
// ends (twice that where both contigs hold the repeat between them). A genome of contig L
// (L1, then L2, the graph leaving L1 two ways, then L3, too short to place mates, the graph
// leaving L2 two ways), 50 bases no read covered, then contig R; fragments of 500 bases,
// mates traced: a link reaches 2 x (500 - 2k), and the fragments across the gap, whose first
// mates place by L2, 10 bases from L's end, link L to R. (The fragments inside L have their
// mates in unitigs that touch: the bases between the mates' unitigs say nothing of the reach.)
TEST(Scaffolding, TheLinkReachFollowsFromTheFragmentsLength) {
  std::mt19937_64 random(26);
  const std::string l1 = random_bases(random, 1000);
  const std::string l2 = after(random, l1, 600);
  const std::string l3 = after(random, l2, 10);
  const std::string x1 = after(random, l1, 300);
  const std::string x2 = after(random, l2, 300);
  const std::string r = random_bases(random, 1000);
  UnitigGraph graph(kK);
  for (const std::string& bases : {l1, l2, l3, x1, x2, r}) graph.add(bases, 20 * kmers_in(bases), false);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 6u);
  std::vector<Contig> contigs{contig_of_pieces(graph, {l1, l2, l3})};
  for (const std::string& bases : {x1, x2, r}) contigs.push_back(contig_of_pieces(graph, {bases}));
  const std::string l = l1 + l2.substr(kK - 1) + l3.substr(kK - 1);
  const std::string genome = l + random_bases(random, 50) + r;
  TracedPairs traced(graph, genome);
  for (std::size_t start = 0; start + 500 <= l.size(); start += 2) ASSERT_TRUE(traced.add(start, 500));
  // Across the gap: the first mate in L2, the second in R.
  for (std::size_t start = l.size() - 340; start <= l.size() - 150; start += 2) ASSERT_TRUE(traced.add(start, 500));
  ScaffoldingReport report;
  const std::vector<Scaffold> scaffolds = scaffold_contigs(graph, contigs, traced.pairs, report);
  EXPECT_EQ(report.insert_size, 500u);
  EXPECT_EQ(report.link_reach, 2 * (500u - 2 * kK));
  EXPECT_EQ(report.joins, 1u);
  ASSERT_EQ(scaffolds.size(), contigs.size() - 1);
  EXPECT_EQ(scaffolds[0].contigs, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(scaffolds[0].gaps, 1u);
}

}  // namespace
