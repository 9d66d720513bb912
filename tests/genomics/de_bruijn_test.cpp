// SPDX-License-Identifier: BSD-3-Clause
// The assembler's building blocks, against plain string computations: moving along packed
// k-mers, minimizers (rolling and from scratch, of neighbours, of either strand), the
// coverage threshold, the compacted graph's joining, cleaning and contig extension, and the
// pipeline of those steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/assembly_pipeline.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/io/run_log.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "genomics/kmer/minimizer.hpp"
#include "tests/genomics/random_bases.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using namespace xenon::genomics;

using xenon::testing::random_bases;

template <int Words>
void check_shape(int k) {
  std::mt19937_64 random(static_cast<std::uint64_t>(k));
  const KmerShape<Words> shape(k);
  for (int trial = 0; trial < 200; ++trial) {
    const std::string text = random_bases(random, static_cast<std::size_t>(k));
    const PackedKmer<Words> kmer = shape.pack(text);
    ASSERT_EQ(kmer_to_string<Words>(kmer, k), text);
    EXPECT_EQ(kmer_to_string<Words>(shape.reverse_complement(kmer), k), reverse_complement(text));
    const std::string canonical = std::min(text, reverse_complement(text));
    EXPECT_EQ(kmer_to_string<Words>(shape.canonical(kmer), k), canonical);
    EXPECT_EQ("ACGT"[shape.first_base(kmer)], text.front());
    EXPECT_EQ("ACGT"[KmerShape<Words>::last_base(kmer)], text.back());
    for (int base = 0; base < 4; ++base) {
      EXPECT_EQ(kmer_to_string<Words>(shape.successor(kmer, base), k), text.substr(1) + "ACGT"[base]);
      EXPECT_EQ(kmer_to_string<Words>(shape.predecessor(kmer, base), k), "ACGT"[base] + text.substr(0, text.size() - 1));
    }
  }
}

TEST(KmerShape, MovesAlongAndReverseComplementsLikeStrings) {
  for (const int k : {3, 11, 31, 32}) check_shape<1>(k);
  for (const int k : {33, 47, 63, 64}) check_shape<2>(k);
  for (const int k : {65, 77, 95, 96, 97, 99, 127, 128}) check_shape<4>(k);
}

TEST(ReverseComplement, OfBasesAndOtherLetters) {
  EXPECT_EQ(reverse_complement("ACCGTN"), "NACGGT");
  EXPECT_EQ(reverse_complement(""), "");
}

// The minimizer of a k-mer by definition: the smallest canonical m-mer hash, from strings.
std::uint64_t minimizer_by_definition(const std::string& kmer, int m) {
  const KmerShape<1> shape(m);
  std::uint64_t minimum = ~std::uint64_t{0};
  for (std::size_t start = 0; start + static_cast<std::size_t>(m) <= kmer.size(); ++start) {
    const PackedKmer<1> mmer = shape.pack(kmer.substr(start, static_cast<std::size_t>(m)));
    const std::uint64_t product = shape.canonical(mmer)[0] * xenon::genomics::hash_detail::kMultiplier;
    minimum = std::min(minimum, product ^ (product >> 29));
  }
  return minimum;
}

template <int Words>
void check_minimizers(int k) {
  const int m = minimizer_length_for(k);
  std::mt19937_64 random(static_cast<std::uint64_t>(k) * 7);
  // A sequence with breaks (N): the rolling window restarts after each.
  std::string sequence = random_bases(random, 3000);
  for (int i = 0; i < 5; ++i) sequence[random() % sequence.size()] = 'N';
  KmerScanner<Words> scanner(k);
  MinimizerWindow window(k, m);
  const KmerMinimizers<Words> minimizers(k, m);
  const KmerShape<Words> shape(k);
  std::size_t kmers = 0;
  scanner.feed(sequence, [&](const PackedKmer<Words>& canonical) {
    const std::string text = kmer_to_string<Words>(canonical, k);
    const std::uint64_t expected = minimizer_by_definition(text, m);
    ASSERT_EQ(window.minimum(), expected) << text;
    ASSERT_EQ(minimizers.of(canonical), expected);
    ASSERT_EQ(minimizers.of(shape.reverse_complement(canonical)), expected) << "strand-independent";
    std::uint64_t after[4], before[4];
    minimizers.of_neighbours(canonical, after, before);
    for (int base = 0; base < 4; ++base) {
      ASSERT_EQ(after[base], minimizers.of(shape.successor(canonical, base)));
      ASSERT_EQ(before[base], minimizers.of(shape.predecessor(canonical, base)));
    }
    ++kmers;
  }, window);
  EXPECT_GT(kmers, 2000u);
}

TEST(Minimizers, RollingWindowAndWholeKmersAgreeWithTheDefinition) {
  for (const int k : {9, 15, 21, 31}) check_minimizers<1>(k);  // 9: the minimizer is the k-mer itself
  for (const int k : {33, 63}) check_minimizers<2>(k);
  for (const int k : {65, 99, 127}) check_minimizers<4>(k);
}

// Stores own k-mers by minimizer: with the assembler's minimizer lengths, the distinct k-mers
// of a random genome spread evenly over 8 stores: the fullest holds 1.04x the mean at k = 21
// and 1.05x at 31 (with 7-mers at k = 21, the length before, 1.18x).
TEST(Minimizers, SpreadTheKmersEvenlyOverStores) {
  constexpr std::uint32_t kStores = 8;
  std::mt19937_64 random(2026);
  const std::string genome = random_bases(random, 400000);
  for (const int k : {21, 31}) {
    KmerScanner<1> scanner(k);
    MinimizerWindow window(k, minimizer_length_for(k));
    std::vector<std::unordered_set<std::uint64_t>> owned(kStores);
    scanner.feed(genome, [&](const PackedKmer<1>& canonical) {
      owned[store_of_minimizer(window.minimum(), kStores)].insert(canonical[0]);
    }, window);
    std::size_t total = 0, fullest = 0;
    for (const auto& store : owned) {
      total += store.size();
      fullest = std::max(fullest, store.size());
    }
    EXPECT_LT(static_cast<double>(fullest) * kStores / static_cast<double>(total), 1.1) << "k=" << k;
  }
}

// Errors read once to three times, a valley at 4, the genome's peak at 8.
KmerHistogram histogram_with_a_valley_at_4() {
  KmerHistogram histogram;
  const std::uint64_t kmers_by_count[] = {0, 9000, 800, 90, 30, 45, 200, 600, 900, 600, 200, 20};
  for (std::uint64_t count = 1; count < std::size(kmers_by_count); ++count) histogram.add(count, kmers_by_count[count]);
  return histogram;
}

TEST(CoverageThreshold, IsTheHistogramsFirstMinimum) {
  EXPECT_EQ(coverage_threshold_from(histogram_with_a_valley_at_4()), 4u);
  KmerHistogram falling;  // no valley (coverage too low to tell errors apart): keep twice-seen
  for (std::uint64_t count = 1; count < 30; ++count) falling.add(count, 1000 / count);
  EXPECT_EQ(coverage_threshold_from(falling), 2u);
}

// A round after the first applies the histogram's threshold unless the round before applied a
// lower one; --min-coverage overrides both. Each says what set it.
TEST(CoverageThreshold, IsCappedByTheRoundBeforeAndSaysWhatSetIt) {
  const KmerHistogram histogram = histogram_with_a_valley_at_4();
  AssemblerSettings settings;
  const auto expect_choice = [&](const std::vector<KRound>& before, std::uint64_t count, const std::string& from) {
    const CoverageThreshold chosen = choose_coverage_threshold(settings, histogram, before);
    EXPECT_EQ(chosen.count, count) << from;
    EXPECT_EQ(chosen.from, from);
  };
  KRound lower;
  lower.coverage_threshold = 3;
  KRound higher;
  higher.coverage_threshold = 6;
  expect_choice({}, 4, "histogram");
  expect_choice({higher}, 4, "histogram");
  KRound same;
  same.coverage_threshold = 4;
  expect_choice({same}, 4, "histogram");  // a tie: the histogram's own
  expect_choice({lower}, 3, "the round before");
  expect_choice({lower, higher}, 4, "histogram");  // only the round just before caps
  settings.coverage_threshold = 9;
  expect_choice({lower}, 9, "--min-coverage");
}

// Unitigs of a sequence: its k-mers' paths cut at `cuts`, each piece read either way, with the
// given coverage per k-mer.
void add_pieces(UnitigGraph& graph, const std::string& sequence, const std::vector<std::size_t>& cuts,
                int k, std::uint64_t coverage, std::mt19937_64& random) {
  std::size_t begin = 0;
  std::vector<std::size_t> ends = cuts;
  ends.push_back(sequence.size());
  for (const std::size_t end : ends) {
    std::string piece = sequence.substr(begin, end - begin);
    if (random() % 2 != 0) piece = reverse_complement(piece);
    graph.add(piece, coverage * (piece.size() - static_cast<std::size_t>(k) + 1), false);
    begin = end - static_cast<std::size_t>(k) + 1;  // pieces overlap by k - 1
  }
}

bool same_either_way(const std::string& a, const std::string& b) { return a == b || a == reverse_complement(b); }

constexpr int kK = 21;

TEST(UnitigGraph, JoinsPiecesThroughSimpleJunctionsInAnyOrientationAndOrder) {
  std::mt19937_64 random(1);
  const std::string genome = random_bases(random, 5000);
  UnitigGraph graph(kK);
  add_pieces(graph, genome, {700, 1500, 1520, 4000}, kK, 30, random);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 1u);
  EXPECT_TRUE(same_either_way(graph.unitigs()[0].bases, genome));
  EXPECT_DOUBLE_EQ(graph.unitigs()[0].coverage(), 30.0);
  EXPECT_EQ(graph.unitigs()[0].kmers, genome.size() - kK + 1);
  const std::vector<Unitig> contigs = graph.contigs(200);
  ASSERT_EQ(contigs.size(), 1u);
  EXPECT_LE(contigs[0].bases, reverse_complement(contigs[0].bases)) << "written the smaller way";
}

TEST(UnitigGraph, JoinsACycleIntoOneCircularContigWithoutTheRepeatedBases) {
  std::mt19937_64 random(2);
  const std::string circle = random_bases(random, 3000);
  // The cycle's path: the circle and its first k-1 bases again, in pieces.
  UnitigGraph graph(kK);
  add_pieces(graph, circle + circle.substr(0, kK - 1), {1000, 2000}, kK, 12, random);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 1u);
  EXPECT_TRUE(graph.unitigs()[0].circular);
  const std::vector<Unitig> contigs = graph.contigs(200);
  ASSERT_EQ(contigs.size(), 1u);
  EXPECT_EQ(contigs[0].bases.size(), circle.size());
  EXPECT_NE((circle + circle).find(contigs[0].bases) == std::string::npos
                ? (circle + circle).find(reverse_complement(contigs[0].bases))
                : 0,
            std::string::npos);
}

std::uint64_t kmers_in(const std::string& bases) { return bases.size() - kK + 1; }

TEST(UnitigGraph, WritesACycleTheSameWayFromWhereverItWasCut) {
  std::mt19937_64 random(7);
  const std::string circle = random_bases(random, 2000);
  std::string first;
  for (const std::size_t cut : {0u, 555u, 1999u}) {
    for (const bool reversed : {false, true}) {
      std::string rotated = circle.substr(cut) + circle.substr(0, cut);
      if (reversed) rotated = reverse_complement(rotated);
      UnitigGraph graph(kK);
      graph.add(rotated + rotated.substr(0, kK - 1), 9 * rotated.size(), true);
      graph.compact();
      const std::vector<Unitig> contigs = graph.contigs(1);
      ASSERT_EQ(contigs.size(), 1u);
      if (first.empty()) first = contigs[0].bases;
      EXPECT_EQ(contigs[0].bases, first) << "cut at " << cut << (reversed ? ", reversed" : "");
    }
  }
  EXPECT_EQ(first.size(), circle.size());
}

TEST(UnitigGraph, KeepsACycleShorterThanKAsItIs) {
  const std::string circle = "AACG";  // four k-mers, each followed by the next, around
  std::string path;
  while (path.size() < circle.size() + kK - 1) path += circle;
  path.resize(circle.size() + kK - 1);
  UnitigGraph graph(kK);
  graph.add(path, 4 * 10, true);
  for (int round = 0; round < 3; ++round) graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 1u);
  EXPECT_EQ(graph.unitigs()[0].bases.size(), path.size());
  const std::vector<Unitig> contigs = graph.contigs(1);
  ASSERT_EQ(contigs.size(), 1u);
  EXPECT_EQ(contigs[0].bases.size(), 4u);
  EXPECT_NE((circle + circle + reverse_complement(circle + circle)).find(contigs[0].bases), std::string::npos);
}

TEST(UnitigGraph, RemovesALowCoverageTipAndJoinsWhatItSplit) {
  std::mt19937_64 random(3);
  const std::string genome = random_bases(random, 4000);
  const std::string junction = genome.substr(2000 - (kK - 1), kK - 1);
  const std::string before = genome.substr(0, 2000);
  const std::string after = genome.substr(2000 - (kK - 1));
  const std::string tip = junction + random_bases(random, 20);  // an error near a read's end
  UnitigGraph graph(kK);
  graph.add(before, 40 * kmers_in(before), false);
  graph.add(reverse_complement(after), 40 * kmers_in(after), false);
  graph.add(tip, 2 * kmers_in(tip), false);
  const CleaningReport report = graph.clean({}, 2);
  EXPECT_EQ(report.tips_removed, 1u);
  ASSERT_EQ(graph.unitigs().size(), 1u);
  EXPECT_TRUE(same_either_way(graph.unitigs()[0].bases, genome));
}

TEST(UnitigGraph, KeepsADeadEndWithoutABetterRivalAndLongDeadEnds) {
  std::mt19937_64 random(4);
  const std::string genome = random_bases(random, 4000);
  const std::string junction = genome.substr(2000 - (kK - 1), kK - 1);
  UnitigGraph graph(kK);
  graph.add(genome.substr(0, 2000), 40 * kmers_in(genome.substr(0, 2000)), false);
  graph.add(genome.substr(2000 - (kK - 1)), 40 * kmers_in(genome.substr(2000 - (kK - 1))), false);
  const std::string branch = junction + random_bases(random, 300);  // longer than a tip
  graph.add(branch, 2 * kmers_in(branch), false);
  EXPECT_EQ(graph.clean({}, 2).tips_removed, 0u);
  EXPECT_EQ(graph.unitigs().size(), 3u);
}

// What a cleaning test expects: one unitig removed (`removed` counts it), leaving the genome
// whole in one unitig; or, where `expected` is false, none removed and `left` unitigs.
void expect_one_removed_or_none(std::uint64_t removed, bool expected, const UnitigGraph& graph,
                                const std::string& genome, std::size_t left) {
  if (expected) {
    EXPECT_EQ(removed, 1u);
    ASSERT_EQ(graph.unitigs().size(), 1u);
    EXPECT_TRUE(same_either_way(graph.unitigs()[0].bases, genome));
  } else {
    EXPECT_EQ(removed, 0u);
    EXPECT_EQ(graph.unitigs().size(), left);
  }
}

// A strain read 6 times where its sister is read 40 times: its own end is no error.
TEST(UnitigGraph, KeepsAShortDeadEndReadAsOftenAsAGenome) {
  std::mt19937_64 random(3);
  const std::string genome = random_bases(random, 4000);
  const std::string junction = genome.substr(2000 - (kK - 1), kK - 1);
  const std::string before = genome.substr(0, 2000);
  const std::string after = genome.substr(2000 - (kK - 1));
  const std::string strains_end = junction + random_bases(random, 20);
  UnitigGraph graph(kK);
  graph.add(before, 40 * kmers_in(before), false);
  graph.add(reverse_complement(after), 40 * kmers_in(after), false);
  graph.add(strains_end, 6 * kmers_in(strains_end), false);
  EXPECT_EQ(graph.clean({}, 2).tips_removed, 0u);
  EXPECT_EQ(graph.unitigs().size(), 3u);
}

// The threshold holds where a well-read way runs beside: a branch read less often goes there,
// and stays where what is around it is read as thinly (a genome of low depth).
TEST(UnitigGraph, RemovesABranchUnderTheThresholdOnlyBesideAWellReadOne) {
  for (const std::uint64_t genome_depth : {40, 4}) {
    SCOPED_TRACE("genome read " + std::to_string(genome_depth) + " times");
    std::mt19937_64 random(4);
    const std::string genome = random_bases(random, 4000);
    const std::string junction = genome.substr(2000 - (kK - 1), kK - 1);
    const std::string before = genome.substr(0, 2000);
    const std::string after = genome.substr(2000 - (kK - 1));
    const std::string branch = junction + random_bases(random, 300);  // longer than a tip
    UnitigGraph graph(kK);
    graph.add(before, genome_depth * kmers_in(before), false);
    graph.add(after, genome_depth * kmers_in(after), false);
    graph.add(branch, 3 * kmers_in(branch), false);
    const CleaningReport report = graph.clean({}, 5);
    expect_one_removed_or_none(report.weak_branches_removed, genome_depth == 40, graph, genome, 3);
  }
}

// A bubble's weaker branch goes when it looks like an error beside the best one (read at most
// a tenth as often, or less than 1.5 times the threshold) or is read at least half as often (a
// repeat's other copy). A strain's variant, read a sixth or a third as often as its sister's,
// stays.
TEST(UnitigGraph, PopsABubblesBranchOnlyWhereItLooksLikeAnError) {
  struct Case {
    std::uint64_t best, variant, threshold;
    bool popped;
  };
  for (const Case& test : {Case{38, 3, 2, true}, Case{6, 2, 2, true}, Case{36, 6, 2, false}, Case{36, 12, 2, false},
                          Case{20, 10, 2, true}}) {
    SCOPED_TRACE(std::to_string(test.variant) + " beside " + std::to_string(test.best));
    std::mt19937_64 random(5);
    const std::string genome = random_bases(random, 4000);
    const std::size_t snp = 2000;
    const std::string left = genome.substr(0, snp);                       // ends with the first junction
    const std::string branch = genome.substr(snp - (kK - 1), 2 * kK - 1);  // every k-mer holding the SNP
    std::string variant = branch;
    variant[kK - 1] = variant[kK - 1] == 'A' ? 'G' : 'A';
    const std::string right = genome.substr(snp + 1);  // starts with the second junction
    UnitigGraph graph(kK);
    graph.add(left, test.best * kmers_in(left), false);
    graph.add(branch, test.best * kmers_in(branch), false);
    graph.add(reverse_complement(variant), test.variant * kmers_in(variant), false);
    graph.add(right, test.best * kmers_in(right), false);
    const CleaningReport report = graph.clean({}, test.threshold);
    expect_one_removed_or_none(report.bubbles_popped, test.popped, graph, genome, 4);
  }
}

bool inside_either_way(const std::string& piece, const std::string& sequence) {
  return sequence.find(piece) != std::string::npos || sequence.find(reverse_complement(piece)) != std::string::npos;
}

// Two random sequences that share `repeat`, as the compacted graph has them: each one's part
// before the repeat and after it (20x), and the repeat (40x): five unitigs.
struct SharedRepeat {
  std::string repeat, first, second;
  std::vector<GraphPiece> pieces;  // as the stores' walks would give them
  UnitigGraph graph{kK};

  SharedRepeat(std::mt19937_64& random, std::size_t repeat_length, std::size_t first_flanks,
               std::size_t second_flanks)
      : repeat(random_bases(random, repeat_length)),
        first(random_bases(random, first_flanks) + repeat + random_bases(random, first_flanks)),
        second(random_bases(random, second_flanks) + repeat + random_bases(random, second_flanks + 100)) {
    for (const std::string& genome : {first, second}) {
      const std::size_t at = genome.find(repeat);
      const std::string in = genome.substr(0, at + kK - 1);
      const std::string out = genome.substr(at + repeat.size() - (kK - 1));
      pieces.push_back({in, 20 * kmers_in(in), false});
      pieces.push_back({out, 20 * kmers_in(out), false});
    }
    pieces.push_back({repeat, 40 * kmers_in(repeat), false});
    for (const GraphPiece& piece : pieces) graph.add(piece.bases, piece.coverage, piece.closed);
    graph.compact();
  }
};

// Each copy of the repeat is written once, by the contig of the flank that enters it (read
// as the graph holds the repeat); the flank it enters is written alone.
TEST(UnitigGraph, ExtendsContigsIntoARepeatSoEachCopyIsWrittenOnceBesideAFlank) {
  std::mt19937_64 random(6);
  SharedRepeat shared(random, 300, 2000, 1500);
  const UnitigGraph& graph = shared.graph;
  const std::string& repeat = shared.repeat;
  const std::string& first = shared.first;
  const std::string& second = shared.second;
  EXPECT_EQ(graph.unitigs().size(), 5u);
  const std::vector<Unitig> plain = graph.contigs(200, false);
  EXPECT_EQ(plain.size(), 5u);
  const std::vector<Unitig> extended = graph.contigs(200);
  ASSERT_EQ(extended.size(), 4u) << "the repeat is not written on its own again";
  int copies[2] = {0, 0};  // of the repeat, in contigs of the first genome and of the second
  for (const Unitig& contig : extended) {
    const bool in_first = inside_either_way(contig.bases, first);
    EXPECT_TRUE(in_first || inside_either_way(contig.bases, second));
    const bool holds_repeat = contig.bases.find(repeat) != std::string::npos ||
                              contig.bases.find(reverse_complement(repeat)) != std::string::npos;
    if (holds_repeat) ++copies[in_first ? 0 : 1];
  }
  EXPECT_EQ(copies[0], 1) << "the first genome's copy, once";
  EXPECT_EQ(copies[1], 1) << "the second genome's copy, once";
}

TEST(UnitigGraph, WritesARegionOnceThoughAnotherBranchLeadsThroughIt) {
  std::mt19937_64 random(8);
  const std::string genome = random_bases(random, 4000);
  // A bubble not popped: both branches extend through the whole region, the stronger one is
  // written with it, and the weaker (61 bases) with nothing around it is too short to write.
  const std::size_t snp = 2000;
  const std::string left = genome.substr(0, snp);
  const std::string branch = genome.substr(snp - (kK - 1), 2 * kK - 1);
  std::string variant = branch;
  variant[kK - 1] = variant[kK - 1] == 'A' ? 'G' : 'A';
  const std::string right = genome.substr(snp + 1);
  UnitigGraph bubble(kK);
  bubble.add(left, 40 * kmers_in(left), false);
  bubble.add(branch, 38 * kmers_in(branch), false);
  bubble.add(variant, 4 * kmers_in(variant), false);
  bubble.add(right, 40 * kmers_in(right), false);
  const std::vector<Unitig> once = bubble.contigs(200);
  ASSERT_EQ(once.size(), 1u) << "the region is not written again with the variant";
  EXPECT_TRUE(same_either_way(once[0].bases, genome));
  // A spur of 600 bases off the end of `left`, read as often: the longer way (left, right)
  // takes `left`, and the spur is written alone, not with `left` again.
  const std::string spur = left.substr(left.size() - (kK - 1)) + random_bases(random, 600);
  UnitigGraph forked(kK);
  forked.add(left, 40 * kmers_in(left), false);
  forked.add(genome.substr(snp - (kK - 1)), 40 * kmers_in(genome.substr(snp - (kK - 1))), false);
  forked.add(spur, 40 * kmers_in(spur), false);
  const std::vector<Unitig> trimmed = forked.contigs(200);
  ASSERT_EQ(trimmed.size(), 2u);
  EXPECT_TRUE(same_either_way(trimmed[0].bases, genome));
  EXPECT_TRUE(same_either_way(trimmed[1].bases, spur)) << "the spur without the 2,000 bases of left";
}

// Two ways through one unitig U: A U B and S1 U S2, which reads (here an oracle that knows
// both) tell apart. U read twice as often as the rest is a repeat of two copies, and each way
// is written whole with its copy. U read as often as the rest is in the genome once: the way
// into it from A or S1 cannot know which is its place (a repeat whose other copy's way out a
// gap in the reads hid, merged into U), so neither is taken, and U is written once, alone.
TEST(UnitigGraph, AUnitigTwoWaysLeadIntoIsEnteredOnlyWhereItsCountMakesRoomForBoth) {
  std::mt19937_64 random(14);
  const std::size_t overlap = kK - 1;
  const std::string u = random_bases(random, 3000);
  const std::string a = random_bases(random, 2000) + u.substr(0, overlap);
  const std::string b = u.substr(u.size() - overlap) + random_bases(random, 2000);
  const std::string s1 = random_bases(random, 400) + u.substr(0, overlap);
  const std::string s2 = u.substr(u.size() - overlap) + random_bases(random, 400);
  for (const int copies : {2, 1}) {
    UnitigGraph graph(kK);
    for (const std::string& piece : {a, u, b, s1, s2})
      graph.add(piece, (piece == u ? copies : 1) * 20 * kmers_in(piece), false);
    graph.compact();
    ASSERT_EQ(graph.unitigs().size(), 5u);
    const auto oriented = [&graph](const std::string& bases) {
      for (std::size_t index = 0; index < graph.unitigs().size(); ++index) {
        if (graph.unitigs()[index].bases == bases) return 2 * index;
        if (graph.unitigs()[index].bases == reverse_complement(bases)) return 2 * index + 1;
      }
      ADD_FAILURE() << "no such unitig";
      return std::size_t{0};
    };
    // The two ways, each read both ways.
    std::vector<std::vector<std::size_t>> ways{{oriented(a), oriented(u), oriented(b)},
                                               {oriented(s1), oriented(u), oriented(s2)}};
    for (std::size_t way = 0; way < 2; ++way) {
      std::vector<std::size_t> back(ways[way].rbegin(), ways[way].rend());
      for (std::size_t& step : back) step ^= 1;
      ways.push_back(back);
    }
    const UnitigGraph::NextAfter reads = [&ways](const std::vector<std::size_t>& context) {
      std::map<std::size_t, std::uint32_t> votes;
      for (const std::vector<std::size_t>& way : ways) {
        for (std::size_t end = context.size(); end < way.size(); ++end) {
          if (std::equal(context.begin(), context.end(),
                         way.begin() + static_cast<std::ptrdiff_t>(end - context.size()))) {
            votes[way[end]] += 5;
          }
        }
      }
      return votes;
    };
    const std::vector<Unitig> contigs = graph.contigs(200, true, reads);
    if (copies == 2) {
      ASSERT_EQ(contigs.size(), 2u);
      EXPECT_TRUE(same_either_way(contigs[0].bases, a + u.substr(overlap) + b.substr(overlap)));
      EXPECT_TRUE(same_either_way(contigs[1].bases, s1 + u.substr(overlap) + s2.substr(overlap)));
      continue;
    }
    ASSERT_EQ(contigs.size(), 5u);
    std::size_t written = 0;
    for (const Unitig& contig : contigs) {
      for (const std::string& piece : {a, u, b, s1, s2})
        written += same_either_way(contig.bases, piece) ? 1 : 0;
    }
    EXPECT_EQ(written, 5u) << "each piece once, alone";
  }
}

// Two strains in one sample: L B1 R read 30 times, and a rarer strain's variant B2 of B1
// read 7 times. L and R are read more than 3/2 as often as B2, but they are no repeat copies
// of B2's contig: the contig of 30 that holds them takes all their count. So B2 is written
// alone, not with L and R again.
TEST(UnitigGraph, ARarerStrainsVariantIsWrittenWithoutTheAbundantStrainAroundIt) {
  std::mt19937_64 random(15);
  const std::size_t overlap = kK - 1;
  const std::string left = random_bases(random, 3000);
  const std::string right = random_bases(random, 3000);
  const auto between = [&](const std::string& middle) {
    return left.substr(left.size() - overlap) + middle + right.substr(0, overlap);
  };
  const std::string abundant = between(random_bases(random, 1313));
  const std::string rare = between(random_bases(random, 1311));
  UnitigGraph graph(kK);
  graph.add(left, 30 * kmers_in(left), false);
  graph.add(abundant, 30 * kmers_in(abundant), false);
  graph.add(rare, 7 * kmers_in(rare), false);
  graph.add(right, 30 * kmers_in(right), false);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 4u);
  const std::vector<Unitig> contigs = graph.contigs(200);
  ASSERT_EQ(contigs.size(), 2u);
  EXPECT_TRUE(same_either_way(contigs[0].bases, left + abundant.substr(overlap) + right.substr(overlap)));
  EXPECT_TRUE(same_either_way(contigs[1].bases, rare)) << "the variant without the 6,000 bases around it";
}

// The bases of a path of oriented unitigs, joined on their k-1 shared bases.
std::string spelled(const UnitigGraph& graph, const std::vector<UnitigGraph::Oriented>& path) {
  std::string bases;
  for (const UnitigGraph::Oriented oriented : path) {
    std::string piece = graph.unitigs()[oriented / 2].bases;
    if (oriented % 2 != 0) piece = reverse_complement(piece);
    bases += bases.empty() ? piece : piece.substr(kK - 1);
  }
  return bases;
}

bool linked(const std::vector<std::pair<UnitigGraph::Oriented, UnitigGraph::Oriented>>& links, UnitigGraph::Oriented x,
            UnitigGraph::Oriented y) {
  return std::find(links.begin(), links.end(), std::pair(x, y)) != links.end() ||
         std::find(links.begin(), links.end(), std::pair(y ^ 1, x ^ 1)) != links.end();
}

TEST(UnitigGraph, ContigPathsSpellTheContigsAlongLinksListedOnce) {
  std::mt19937_64 random(6);
  SharedRepeat shared(random, 300, 2000, 1500);
  const UnitigGraph& graph = shared.graph;
  // Two ways into the repeat and two out, each link once (not again read the other way).
  const auto links = graph.links();
  ASSERT_EQ(links.size(), 4u);
  for (const auto& [x, y] : links) {
    EXPECT_FALSE(std::pair(y ^ 1, x ^ 1) != std::pair(x, y) &&
                 std::find(links.begin(), links.end(), std::pair(y ^ 1, x ^ 1)) != links.end());
    EXPECT_EQ(spelled(graph, {x}).substr(spelled(graph, {x}).size() - (kK - 1)), spelled(graph, {y}).substr(0, kK - 1));
  }
  for (const bool extend : {true, false}) {
    std::vector<std::vector<UnitigGraph::Oriented>> paths;
    const std::vector<Unitig> contigs = graph.contigs(200, extend, {}, {}, &paths);
    EXPECT_EQ(contigs.size(), extend ? 4u : 5u);
    ASSERT_EQ(paths.size(), contigs.size());
    for (std::size_t i = 0; i < contigs.size(); ++i) {
      EXPECT_EQ(spelled(graph, paths[i]), contigs[i].bases) << "contig " << i;
      const bool holds_repeat = contigs[i].bases.find(shared.repeat) != std::string::npos ||
                                contigs[i].bases.find(reverse_complement(shared.repeat)) != std::string::npos;
      EXPECT_EQ(paths[i].size(), extend && holds_repeat ? 2u : 1u) << "a flank and the repeat it enters, or a flank alone";
      for (std::size_t step = 1; step < paths[i].size(); ++step) {
        EXPECT_TRUE(linked(links, paths[i][step - 1], paths[i][step]));
      }
    }
    // The paths give the same contigs as a call without them.
    const std::vector<Unitig> alone = graph.contigs(200, extend);
    ASSERT_EQ(alone.size(), contigs.size());
    for (std::size_t i = 0; i < contigs.size(); ++i) EXPECT_EQ(alone[i].bases, contigs[i].bases);
  }
}

TEST(UnitigGraph, ACyclesPathIsItsUnitigLinkedToItself) {
  std::mt19937_64 random(8);
  // Long circles, and ones shorter than k (their unitig goes round more than once).
  for (int circles = 0; circles < 40; ++circles) {
    const std::string circle = random_bases(random, circles < 20 ? 300 : 3 + random() % 8);
    std::string around = circle;
    while (around.size() < circle.size() + kK - 1) around += circle;
    around.resize(circle.size() + kK - 1);
    UnitigGraph graph(kK);
    graph.add(around, 9 * circle.size(), true);
    graph.compact();
    std::vector<std::vector<UnitigGraph::Oriented>> paths;
    const std::vector<Unitig> contigs = graph.contigs(1, true, {}, {}, &paths);
    ASSERT_EQ(paths.size(), 1u);
    ASSERT_EQ(paths[0].size(), 1u);
    const std::string bases = spelled(graph, paths[0]);
    // The contig leaves out the k-1 bases that close the cycle: the last read forward, the first reversed.
    const bool forward = paths[0][0] % 2 == 0;
    EXPECT_EQ(forward ? bases.substr(0, bases.size() - (kK - 1)) : bases.substr(kK - 1), contigs[0].bases);
    EXPECT_EQ(graph.links(), (std::vector<std::pair<UnitigGraph::Oriented, UnitigGraph::Oriented>>{{0, 0}}));
  }
}

void check_traced_leads(int k) {
  std::mt19937_64 random(10);
  std::string unitig(5000, 'A');
  for (char& base : unitig) base = "ACGT"[random() % 4];
  UnitigGraph graph(k);
  graph.add(unitig, 10 * (unitig.size() - static_cast<std::size_t>(k) + 1), false);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 1u);
  const bool stored_forward = graph.unitigs()[0].bases == unitig;
  const ReadThreads threads(graph, k);
  const auto expect_lead = [&](const std::string& read, std::int64_t lead_forward, std::int64_t lead_reversed) {
    const ReadThreads::Traced traced = threads.trace(read);
    ASSERT_EQ(traced.runs.size(), 1u) << read;
    ASSERT_EQ(traced.runs[0].size(), 1u);
    const bool forward = (traced.runs[0][0] % 2 == 0) == stored_forward;
    EXPECT_EQ(traced.lead, forward ? lead_forward : lead_reversed) << read;
  };
  const auto size = static_cast<std::int64_t>(unitig.size());
  for (const std::size_t at : {std::size_t{0}, std::size_t{7}, std::size_t{800}, std::size_t{4850}}) {
    const std::string read = unitig.substr(at, 150);
    const auto begins = static_cast<std::int64_t>(at);
    expect_lead(read, begins, -1);
    expect_lead(reverse_complement(read), -1, size - begins - 150);
    std::string broken = read;
    broken[3] = broken[3] == 'A' ? 'C' : 'A';  // its first k-mers are not in the graph
    expect_lead(broken, begins, -1);
  }
  // Bases the graph does not hold before the unitig's first.
  expect_lead("ACGTACGTAC" + unitig.substr(0, 140), -10, -1);
}

// A traced read says where it begins in its first unitig, read as the read runs: at its
// offset in it, before it (below 0) when its first bases are not in the graph, the same
// when an error breaks its first k-mers, and counted from the other end when it reads the
// unitig reverse complemented; in a long unitig's tail, as far into it. At k of two words
// and of four (over 64, as ReadThreads keeps them).
TEST(ReadThreads, ATracedReadSaysWhereItBeginsInItsFirstUnitig) {
  for (const int k : {kK, 99}) {
    SCOPED_TRACE(k);
    check_traced_leads(k);
  }
}

// What reads counted elsewhere and reads threaded through the whole graph both give: the same
// kept reads (some) and the same passages through every three unitigs.
void expect_same_evidence(ReadThreads& counted, ReadThreads& whole, const UnitigGraph& graph) {
  EXPECT_EQ(counted.kept_reads(), whole.kept_reads());
  EXPECT_FALSE(whole.kept_reads().empty());
  const std::size_t oriented = 2 * graph.unitigs().size();
  for (std::size_t x = 0; x < oriented; ++x) {
    for (std::size_t y = 0; y < oriented; ++y) {
      for (std::size_t z = 0; z < oriented; ++z) ASSERT_EQ(counted.passages(x, y, z), whole.passages(x, y, z));
    }
  }
}

// A node that threads reads is sent only the unitigs' ends (a long unitig's first and last
// k-mers): it traces every read as the whole graph does, and the runs it traced, counted on
// another node, give the same passages and the same reads to keep.
TEST(ReadThreads, TheUnitigEndsSentToANodeTraceReadsAsTheWholeGraphDoes) {
  std::mt19937_64 random(9);
  SharedRepeat shared(random, 80, 3000, 2500);
  const UnitigGraph& graph = shared.graph;
  ThreadingRequest request;
  request.threading = 1;
  request.k = kK;
  request.ends = ReadThreads::ends_of(graph, kK);
  ASSERT_TRUE(std::any_of(request.ends.begin(), request.ends.end(), [](const UnitigEnds& ends) { return !ends.tail.empty(); }))
      << "a unitig long enough to be sent as two ends";
  const xenon::ActorName store = xenon::ActorName::make(1, 0, 7);
  request.shares = {{xenon::ActorName::make(0, 0, 7), {}}, {store, {}}};
  const xenon::Payload message = request.encode();
  const ThreadingRequest received = ThreadingRequest::decode(message.bytes(), store);
  EXPECT_EQ(received.threading, 1u);
  EXPECT_EQ(received.owners, (std::vector<xenon::ActorName>{xenon::ActorName::make(0, 0, 7), store}));
  EXPECT_EQ(received.owner, 1u) << "the store's place among the shares: its slice of the end index";
  request.threading = 0;
  EXPECT_THROW(ThreadingRequest::decode(request.encode().bytes(), store), std::invalid_argument);
  request.threading = 1;
  ReadThreads whole(graph, kK);
  const ReadThreads ends(received.ends, kK);
  ReadThreads counted(kK);  // as node 0 counts what the stores traced: no index of its own
  int reads = 0;
  for (const std::string& genome : {shared.first, shared.second}) {
    for (std::size_t at = 0; at + 150 <= genome.size(); at += 5, ++reads) {
      std::string read = genome.substr(at, 150);
      if (reads % 2 == 1) read = reverse_complement(read);
      if (reads % 7 == 0) read[75] = 'N';  // two runs of ACGT
      ASSERT_EQ(ends.trace(read), whole.trace(read)) << "read " << reads;
      whole.thread_reads({read});
      counted.add_traced(ends.trace(read).runs, read);
      ASSERT_TRUE(counted.trace(read).runs.empty()) << "a ReadThreads for counting only traces nothing";
    }
  }
  expect_same_evidence(counted, whole, graph);
  // A message cut short, and ends cut otherwise than ends_of() cuts them, are refused.
  EXPECT_ANY_THROW(ThreadingRequest::decode(message.bytes().first(message.size() - 3), store));
  std::vector<UnitigEnds> wrong = request.ends;
  wrong.back().head.pop_back();
  EXPECT_THROW(ReadThreads(wrong, kK), std::invalid_argument);
}

// Finding crossings indexes only as many k-mers at each end as the longest read has: a read
// that leaves a unitig holds its k-mers there within that many of the end. Those ends give the
// same crossings, passages and kept reads as the whole graph; reads that cross nothing are
// not placed at all (the whole graph places them, in one unitig).
TEST(ReadThreads, EndsAsLongAsTheLongestReadFindTheSameCrossings) {
  std::mt19937_64 random(11);
  SharedRepeat shared(random, 80, 3000, 2500);
  const UnitigGraph& graph = shared.graph;
  constexpr std::size_t kReadLength = 150;
  const std::size_t span = ReadThreads::end_span_for(kReadLength, kK);
  EXPECT_EQ(span, kReadLength - kK + 1);
  EXPECT_EQ(ReadThreads::end_span_for(kK - 1, kK), 1u);
  EXPECT_EQ(ReadThreads::end_span_for(InputTally::kLongRecord, kK), ReadThreads::kEndSpan);
  const std::vector<UnitigEnds> ends = ReadThreads::ends_of(graph, kK, span);
  std::size_t cut = 0;
  for (const UnitigEnds& unitig : ends) cut += unitig.tail.empty() ? 0 : 1;
  ASSERT_GT(cut, 0u) << "unitigs long enough to be cut at this span";
  ReadThreads whole(graph, kK);
  ReadThreads short_ends(ends, kK, span);
  ReadThreads counted(kK);
  int reads = 0;
  int unplaced = 0;
  for (const std::string& genome : {shared.first, shared.second}) {
    for (std::size_t at = 0; at + kReadLength <= genome.size(); at += 3, ++reads) {
      std::string read = genome.substr(at, kReadLength);
      if (reads % 2 == 1) read = reverse_complement(read);
      if (reads % 5 == 0) read[40] = read[40] == 'A' ? 'C' : 'A';  // an error
      const ReadThreads::Traced all = whole.trace(read);
      const ReadThreads::Traced near_ends = short_ends.trace(read);
      const auto crossing = [](const ReadThreads::Traced& traced) {
        std::vector<std::vector<std::size_t>> runs;
        for (const auto& run : traced.runs) {
          if (run.size() > 1) runs.push_back(run);
        }
        return runs;
      };
      ASSERT_EQ(crossing(near_ends), crossing(all)) << "read " << reads;
      if (near_ends.runs.empty() && !all.runs.empty()) ++unplaced;
      whole.thread_reads({read});
      counted.add_traced(near_ends.runs, read);
    }
  }
  EXPECT_GT(unplaced, 0) << "reads inside long unitigs, not placed near their ends";
  expect_same_evidence(counted, whole, graph);
  // Ends cut at another span than the index is told are refused, as is a span out of range.
  EXPECT_THROW(ReadThreads(ends, kK, span + 1), std::invalid_argument);
  EXPECT_THROW(ReadThreads(ends, kK, 0), std::invalid_argument);
  EXPECT_THROW(ReadThreads(ends, kK, ReadThreads::kEndSpan + 1), std::invalid_argument);
}

// The request goes to the first store of its shares, and each store passes it on to its
// children in the binary tree of the shares (merge_tree.hpp): every store gets it exactly
// once, whatever the count, the first passes it to ceil(log2 n) stores, and each reports to
// the coordinator named in it, not to the store that passed it on.
TEST(ReadThreads, ARequestGoesDownATreeOfTheStoresReachingEachOnce) {
  const xenon::ActorName coordinator = xenon::ActorName::make(0, 0, 1);
  for (const std::uint32_t stores : {1u, 2u, 3u, 8u, 13u}) {
    ThreadingRequest request;
    request.threading = 1;
    request.k = kK;
    request.coordinator = coordinator;
    request.ends = {{1, std::string(kK, 'A'), {}}};
    request.files = {"a.fq"};
    InputPiece piece;
    piece.whole = true;
    for (std::uint32_t store = 0; store < stores; ++store) {
      request.shares.push_back({xenon::ActorName::make(store, 0, 7), {piece}});
    }
    const xenon::Payload message = request.encode();
    std::map<std::uint64_t, int> received;
    std::vector<xenon::ActorName> to_visit = {request.shares.front().store};
    while (!to_visit.empty()) {
      const xenon::ActorName store = to_visit.back();
      to_visit.pop_back();
      ++received[store.value()];
      const ThreadingRequest taken = ThreadingRequest::decode(message.bytes(), store);
      EXPECT_EQ(taken.coordinator, coordinator);
      if (store == request.shares.front().store) {
        EXPECT_EQ(taken.pass_on_to.size(), static_cast<std::size_t>(std::ceil(std::log2(stores)))) << stores;
      }
      to_visit.insert(to_visit.end(), taken.pass_on_to.begin(), taken.pass_on_to.end());
    }
    EXPECT_EQ(received.size(), stores);
    for (const auto& [store, times] : received) EXPECT_EQ(times, 1) << store;
  }
}

// Every store is sent the same request and takes its own pieces from it by its name.
TEST(ReadThreads, EveryStoreTakesItsOwnPiecesFromOneRequest) {
  ThreadingRequest request;
  request.threading = 1;
  request.k = kK;
  request.end_span = 40;
  request.ends = {{1, std::string(kK, 'A'), {}}};
  request.files = {"a.fq", "b.fq"};
  InputPiece first;
  first.file_index = 0;
  first.whole = true;
  InputPiece second;
  second.file_index = 1;
  second.piece = 3;
  second.whole = true;
  const xenon::ActorName one = xenon::ActorName::make(0, 0, 5);
  const xenon::ActorName two = xenon::ActorName::make(1, 0, 5);
  request.shares = {{one, {first}}, {two, {second, first}}};
  const xenon::Payload message = request.encode();
  const ThreadingRequest for_one = ThreadingRequest::decode(message.bytes(), one);
  const ThreadingRequest for_two = ThreadingRequest::decode(message.bytes(), two);
  ASSERT_EQ(for_one.pieces.size(), 1u);
  EXPECT_EQ(for_one.pieces[0].file_index, 0u);
  ASSERT_EQ(for_two.pieces.size(), 2u);
  EXPECT_EQ(for_two.pieces[0].file_index, 1u);
  EXPECT_EQ(for_two.pieces[0].piece, 3u);
  EXPECT_EQ(for_two.pieces[1].file_index, 0u);
  EXPECT_EQ(for_two.end_span, 40u);
  EXPECT_THROW(ThreadingRequest::decode(message.bytes(), xenon::ActorName::make(2, 0, 5)), std::invalid_argument);
  request.shares.push_back({one, {}});
  EXPECT_THROW(ThreadingRequest::decode(request.encode().bytes(), one), std::invalid_argument);
  request.shares.pop_back();
  request.end_span = 0;
  EXPECT_THROW(ThreadingRequest::decode(request.encode().bytes(), one), std::invalid_argument);
}

// Two sequences that share a repeat shorter than a read: reads that cross it tell which way in
// goes with which way out, and each sequence comes back whole.
// 150-base reads every 7 bases along each sequence, every other one reverse complemented, in
// a FASTA file.
struct TiledReads {
  std::string file;
  std::uint64_t count = 0;

  TiledReads(const xenon::testing::TemporaryDirectory& directory, const std::vector<std::string>& sequences) {
    std::string fasta;
    for (const std::string& sequence : sequences) {
      for (std::size_t at = 0; at + 150 <= sequence.size(); at += 7, ++count) {
        const std::string bases = sequence.substr(at, 150);
        fasta += ">r" + std::to_string(count) + "\n" + (count % 2 == 0 ? bases : reverse_complement(bases)) + "\n";
      }
    }
    file = directory.write("reads.fa", fasta);
  }
};

TEST(ReadThreads, SettleARepeatThatReadsCross) {
  std::mt19937_64 random(8);
  SharedRepeat shared(random, 80, 3000, 2500);
  UnitigGraph& graph = shared.graph;
  const std::string& first = shared.first;
  const std::string& second = shared.second;
  ASSERT_EQ(graph.unitigs().size(), 5u);
  const xenon::testing::TemporaryDirectory directory("xenon-read-threads");
  const TiledReads tiled(directory, {first, second});
  ReadThreads threads(graph, kK);
  threads.thread_files({tiled.file});
  EXPECT_EQ(threads.reads_threaded(), tiled.count);
  // Without reads that cross it, or with one read only, the repeat stays.
  UnitigGraph unsettled = graph;
  EXPECT_EQ(unsettled.resolve_repeats([](std::size_t, std::size_t, std::size_t) { return 0u; }, 2), 0u);
  EXPECT_EQ(unsettled.resolve_repeats([](std::size_t, std::size_t, std::size_t) { return 1u; }, 2), 0u);
  EXPECT_EQ(unsettled.unitigs().size(), 5u);
  const std::uint64_t settled = graph.resolve_repeats(
      [&threads](std::size_t x, std::size_t y, std::size_t z) { return threads.passages(x, y, z); }, 2);
  // Before settling, the same reads can guide the contigs through the repeat instead.
  const std::vector<Unitig> guided = unsettled.contigs(200, true, [&threads](const std::vector<std::size_t>& context) {
    return threads.next_after(context);
  });
  ASSERT_EQ(guided.size(), 2u);
  EXPECT_TRUE(same_either_way(guided[0].bases, first));
  EXPECT_TRUE(same_either_way(guided[1].bases, second));
  EXPECT_EQ(unsettled.contigs(200, true).size(), 4u) << "without reads, each contig stops past the repeat";
  EXPECT_EQ(settled, 1u);
  const std::vector<Unitig> contigs = graph.contigs(200, false);
  ASSERT_EQ(contigs.size(), 2u);
  EXPECT_TRUE(same_either_way(contigs[0].bases, first));
  EXPECT_TRUE(same_either_way(contigs[1].bases, second));
}

// The pipeline after the walks, driven as the coordinator drives it: it asks for the reads
// round by round while a round settles something, then for every read with mates, then
// writes both sequences whole; each step in its phase of the log, in order.
TEST(AssemblyPipeline, AsksForReadsWhileRepeatsSettleThenForMatesThenWrites) {
  std::mt19937_64 random(8);
  const SharedRepeat shared(random, 80, 3000, 2500);
  const xenon::testing::TemporaryDirectory directory("xenon-pipeline");
  const TiledReads tiled(directory, {shared.first, shared.second});
  AssemblerSettings settings;
  settings.counting.k = kK;
  RunLog log;
  log.open(directory.path() + "/assembler.log");
  const AssemblyProgress progress(log, false);
  AssemblyOutcome outcome;
  AssemblyPipeline pipeline(settings, outcome, progress);
  log.begin_phase("cleaning");  // the stores cleaned the graph (junction_cleaning_test.cpp)
  pipeline.take_cleaned(shared.pieces);
  EXPECT_EQ(pipeline.graph().unitigs().size(), 5u);

  ASSERT_EQ(pipeline.next(), NextStep::thread_for_bridges);
  pipeline.bridges_threaded(BridgeVotes{}, tiled.count);  // tiled reads leave no gap
  EXPECT_EQ(outcome.read_bridges, 0u);
  ASSERT_EQ(pipeline.next(), NextStep::thread_for_repeats);
  EXPECT_EQ(pipeline.repeat_round(), 0);
  EXPECT_TRUE(pipeline.another_round_may_follow());
  ReadThreads first_round(pipeline.graph(), kK);
  first_round.thread_files({tiled.file});
  pipeline.repeats_threaded(first_round);
  EXPECT_EQ(outcome.repeats_resolved, 1u);
  EXPECT_EQ(pipeline.graph().unitigs().size(), 2u);

  ASSERT_EQ(pipeline.next(), NextStep::thread_for_repeats) << "the graph changed: another round";
  EXPECT_EQ(pipeline.repeat_round(), 1);
  ReadThreads second_round(pipeline.graph(), kK);
  second_round.thread_reads(first_round.kept_reads());
  EXPECT_GT(second_round.reads_threaded(), 0u);
  EXPECT_LT(second_round.reads_threaded(), tiled.count) << "only the reads that crossed";
  pipeline.repeats_threaded(second_round);
  EXPECT_EQ(outcome.repeats_resolved, 1u);

  ASSERT_EQ(pipeline.next(), NextStep::thread_with_mates) << "nothing settled: no third round";
  ReadThreads final_round(pipeline.graph(), kK);
  final_round.thread_files({tiled.file}, true);
  pipeline.mates_threaded(std::move(final_round));
  ASSERT_EQ(pipeline.next(), NextStep::write);
  const AssembledOutputs outputs = pipeline.outputs();
  ASSERT_EQ(outputs.contigs.size(), 2u);
  const auto spelled = [&outputs](std::size_t contig) {
    return spelled_contig(outputs.graph.segments, outputs.graph.k, outputs.contigs[contig]);
  };
  EXPECT_TRUE(same_either_way(spelled(0), shared.first));
  EXPECT_TRUE(same_either_way(spelled(1), shared.second));
  EXPECT_EQ(outcome.contigs, 2u);
  EXPECT_EQ(outcome.total_length, shared.first.size() + shared.second.size());
  EXPECT_EQ(outputs.graph.segments.size(), 2u);
  EXPECT_EQ(outputs.scaffolds.size(), 2u) << "single reads: each contig a scaffold of its own";
  EXPECT_EQ(outcome.scaffolds, 2u);

  std::vector<std::string> phases;
  for (const RunLog::Phase& phase : log.phases()) phases.push_back(phase.name);
  EXPECT_EQ(phases, (std::vector<std::string>{"cleaning", "read bridges", "repeats, round 1", "repeats, round 2",
                                              "reads and pairs", "contigs", "scaffolds"}));
}

// Without repeat rounds no reads are asked for, and the contigs stop at the repeat.
TEST(AssemblyPipeline, WithoutRepeatRoundsWritesAtOnce) {
  std::mt19937_64 random(8);
  const SharedRepeat shared(random, 80, 3000, 2500);
  AssemblerSettings settings;
  settings.counting.k = kK;
  settings.repeat_rounds = 0;
  settings.read_bridges = false;
  RunLog log;
  const AssemblyProgress progress(log, false);
  AssemblyOutcome outcome;
  AssemblyPipeline pipeline(settings, outcome, progress);
  pipeline.take_cleaned(shared.pieces);
  ASSERT_EQ(pipeline.next(), NextStep::write);
  const AssembledOutputs outputs = pipeline.outputs();
  EXPECT_EQ(outputs.contigs.size(), 4u);
  EXPECT_EQ(outcome.repeats_resolved, 0u);
}

// X and X2 go into a repeat R, Z1 and Z2 come out of it; reads pair X with Z1 and X2 with Z2.
// When X can also go on to W, joining X, R and Z1 would cut X from W: the repeat stays.
TEST(UnitigGraph, SettlesARepeatOnlyWhereItIsTheOnlyWayOn) {
  std::mt19937_64 random(9);
  const std::string repeat = random_bases(random, 80);
  const std::string into = repeat.substr(0, kK - 1);
  const std::string out_of = repeat.substr(repeat.size() - (kK - 1));
  const std::string x = random_bases(random, 500) + into;
  const std::string x2 = random_bases(random, 400) + into;
  const std::string z1 = out_of + random_bases(random, 450);
  const std::string z2 = out_of + random_bases(random, 350);
  const std::string w = into + random_bases(random, 300);
  for (const bool with_w : {false, true}) {
    UnitigGraph graph(kK);
    for (const std::string& bases : {x, x2, repeat, z1, z2}) graph.add(bases, 10 * kmers_in(bases), false);
    if (with_w) graph.add(w, 10 * kmers_in(w), false);
    graph.compact();
    const auto read_as = [&graph](std::size_t oriented) {
      const std::string& bases = graph.unitigs()[oriented / 2].bases;
      return oriented % 2 == 0 ? bases : reverse_complement(bases);
    };
    const auto passages = [&](std::size_t in, std::size_t, std::size_t out) {
      const std::string from = read_as(in), to = read_as(out);
      const auto pairs = [&](const std::string& a, const std::string& b) {
        return (from == a && to == b) || (from == reverse_complement(b) && to == reverse_complement(a));
      };
      return pairs(x, z1) || pairs(x2, z2) ? 5u : 0u;
    };
    EXPECT_EQ(graph.resolve_repeats(passages, 2), with_w ? 0u : 1u) << (with_w ? "with W" : "without W");
  }
}

// A repeat longer than the reads but shorter than the fragments: no read crosses it, read
// pairs with a mate on either side do. Mates are records at the same place in two files.
// A tandem repeat longer than a read: X R Y1 R ... Yn R Z, each Y between two copies of R,
// as the unitigs X, R, each Y and Z (R counted `repeat_count` times a k-mer, the rest 20).
struct TandemRepeat {
  std::string genome;
  UnitigGraph graph{kK};

  TandemRepeat(std::mt19937_64& random, std::size_t loops, std::uint64_t repeat_count) {
    const std::string x = random_bases(random, 2000);
    const std::string repeat = random_bases(random, 100);
    const std::string z = random_bases(random, 1500);
    const std::size_t overlap = kK - 1;
    const std::string into = x + repeat.substr(0, overlap);
    const std::string out_of = repeat.substr(repeat.size() - overlap) + z;
    genome = x + repeat;
    graph.add(into, 20 * kmers_in(into), false);
    graph.add(repeat, repeat_count * kmers_in(repeat), false);
    for (std::size_t loop = 0; loop < loops; ++loop) {
      const std::string y = random_bases(random, 60);
      const std::string between = repeat.substr(repeat.size() - overlap) + y + repeat.substr(0, overlap);
      graph.add(between, 20 * kmers_in(between), false);
      genome += y + repeat;
    }
    genome += z;
    graph.add(out_of, 20 * kmers_in(out_of), false);
    graph.compact();
  }
};

// The reads choose each Y after the copy of R before it, and Z after the last: the contig
// goes round the loops, R written once a copy, as many copies as R's count makes room for.
// Where R is read as often as the rest, the contig stops at R's second copy instead.
TEST(ReadThreads, GuideContigsRoundATandemRepeatLongerThanTheReads) {
  struct Case {
    std::size_t loops;
    std::uint64_t repeat_count;
    bool whole;
  };
  for (const Case& tried : {Case{1, 40, true}, Case{2, 60, true}, Case{1, 20, false}, Case{2, 40, false}}) {
    std::mt19937_64 random(12);
    TandemRepeat tandem(random, tried.loops, tried.repeat_count);
    ASSERT_EQ(tandem.graph.unitigs().size(), 3 + tried.loops);
    const xenon::testing::TemporaryDirectory directory("xenon-tandem");
    const TiledReads tiled(directory, {tandem.genome});
    ReadThreads threads(tandem.graph, kK);
    threads.thread_files({tiled.file});
    const std::vector<Unitig> contigs = tandem.graph.contigs(
        200, true, [&threads](const std::vector<std::size_t>& context) { return threads.next_after(context); });
    ASSERT_GE(contigs.size(), 1u);
    if (tried.whole) {
      EXPECT_EQ(contigs.size(), 1u) << tried.loops << " loops";
      EXPECT_TRUE(same_either_way(contigs[0].bases, tandem.genome)) << tried.loops << " loops";
    } else {
      EXPECT_LT(contigs[0].bases.size(), tandem.genome.size()) << "no room for another copy of R";
    }
  }
}

// Read pairs as FASTA: mates of `length` bases from fragments of `fragment` bases, one every 5
// bases along each genome, the second mate reverse complemented (as sequenced).
struct PairedReads {
  std::string first, second;
};
PairedReads paired_reads(const std::vector<std::string>& genomes, std::size_t length, std::size_t fragment) {
  PairedReads pairs;
  std::size_t pair = 0;
  for (const std::string& genome : genomes) {
    for (std::size_t at = 0; at + fragment <= genome.size(); at += 5, ++pair) {
      pairs.first += ">p" + std::to_string(pair) + "/1\n" + genome.substr(at, length) + "\n";
      pairs.second += ">p" + std::to_string(pair) + "/2\n" +
                      reverse_complement(genome.substr(at + fragment - length, length)) + "\n";
    }
  }
  return pairs;
}

// The same tandem repeat, X R Y R Z, read only as 80-base mates of 400-base fragments: no
// read holds R with a base either side, so reads cannot choose between Y and Z after R, and
// the pairs from X reach both. The contig goes round the loop once, as R's count makes room
// for, then out to Z: the whole genome. Without the pairs (nothing says this copy of R is the
// one beside Y), or where R's count makes room for one copy only, it stops at R.
TEST(ReadThreads, PairsLeadContigsRoundAShortTandemRepeatNoReadCrosses) {
  struct Case {
    bool paired;
    std::uint64_t repeat_count;
    bool whole;
  };
  for (const Case& tried : {Case{true, 40, true}, Case{false, 40, false}, Case{true, 20, false}}) {
    std::mt19937_64 random(12);
    TandemRepeat tandem(random, 1, tried.repeat_count);
    ASSERT_EQ(tandem.graph.unitigs().size(), 4u);
    const PairedReads mates = paired_reads({tandem.genome}, 80, 400);
    const xenon::testing::TemporaryDirectory directory("xenon-tandem-pairs");
    ReadThreads threads(tandem.graph, kK);
    threads.thread_files({directory.write("reads_1.fa", mates.first), directory.write("reads_2.fa", mates.second)},
                         tried.paired);
    const std::vector<Unitig> contigs = tandem.graph.contigs(
        200, true, [&threads](const std::vector<std::size_t>& context) { return threads.next_after(context); },
        [&threads](std::size_t anchor, const std::vector<std::size_t>& ways) { return threads.mates_after(anchor, ways); });
    ASSERT_GE(contigs.size(), 1u);
    if (tried.whole) {
      EXPECT_EQ(contigs.size(), 1u);
      EXPECT_TRUE(same_either_way(contigs[0].bases, tandem.genome));
    } else {
      EXPECT_LT(contigs[0].bases.size(), tandem.genome.size())
          << (tried.paired ? "no room for another copy of R" : "no pairs");
    }
  }
}

// Two places that share the k - 1 bases J of a junction, X J Y in one and J Z in the other,
// where a gap in the reads hid what comes before J in the second: the graph has one way into
// Z, from X, and two out of X. The reads from X all go on to Y, so Z's walk back does not take
// X (it would join the two places): the contigs are X J Y and J Z, though X J Z, the longest
// walk, would be written first.
TEST(ReadThreads, AContigDoesNotTakeAWayInThatTheReadsFromItGiveToAnother) {
  std::mt19937_64 random(21);
  const std::string junction = random_bases(random, kK - 1);
  const std::string x = random_bases(random, 1500) + junction;
  const std::string y = junction + random_bases(random, 1000);
  const std::string second = junction + random_bases(random, 2000);
  const std::string first = x + y.substr(junction.size());
  UnitigGraph graph(kK);
  for (const std::string& unitig : {x, y, second}) graph.add(unitig, 20 * kmers_in(unitig), false);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 3u);
  const xenon::testing::TemporaryDirectory directory("xenon-shared-junction");
  const TiledReads tiled(directory, {first, second});
  ReadThreads threads(graph, kK);
  threads.thread_files({tiled.file});
  const std::vector<Unitig> contigs =
      graph.contigs(200, true, [&threads](const std::vector<std::size_t>& context) { return threads.next_after(context); });
  ASSERT_EQ(contigs.size(), 2u);
  EXPECT_TRUE(same_either_way(contigs[0].bases, first));
  EXPECT_TRUE(same_either_way(contigs[1].bases, second));
}

// Two strains share a stretch S longer than the reads: A S B, read `abundant` times as deep
// as a unit, and C S D, read `rare` times. The reads from S go on both ways. Where the one
// strain is read 6 times as often as the other, its contig goes on by the way read about as
// often as its start, and is the whole of A S B; no contig goes from C into B. Where the two
// are read 2 to 1, nothing says which way is A's: no contig goes from A through S to B.
TEST(ReadThreads, TheAbundantStrainsContigGoesOnByTheWayReadAsOftenAsItsStart) {
  struct Case {
    std::uint64_t abundant, rare;
    bool whole;
  };
  for (const Case& tried : {Case{6, 1, true}, Case{2, 1, false}}) {
    std::mt19937_64 random(31);
    const std::string shared = random_bases(random, 400);
    const std::string a = random_bases(random, 2000), b = random_bases(random, 2000);
    const std::string c = random_bases(random, 1800), d = random_bases(random, 1800);
    const std::string abundant = a + shared + b;
    const std::string rare = c + shared + d;
    const std::uint64_t depth = 10;
    UnitigGraph graph(kK);
    const auto add = [&](const std::string& bases, std::uint64_t copies) {
      graph.add(bases, depth * copies * kmers_in(bases), false);
    };
    add(a + shared.substr(0, kK - 1), tried.abundant);
    add(shared.substr(shared.size() - (kK - 1)) + b, tried.abundant);
    add(c + shared.substr(0, kK - 1), tried.rare);
    add(shared.substr(shared.size() - (kK - 1)) + d, tried.rare);
    add(shared, tried.abundant + tried.rare);
    graph.compact();
    ASSERT_EQ(graph.unitigs().size(), 5u);
    std::vector<std::string> genomes(tried.abundant, abundant);
    genomes.insert(genomes.end(), tried.rare, rare);
    const xenon::testing::TemporaryDirectory directory("xenon-two-strains");
    const TiledReads tiled(directory, genomes);
    ReadThreads threads(graph, kK);
    threads.thread_files({tiled.file});
    const std::vector<Unitig> contigs =
        graph.contigs(200, true, [&threads](const std::vector<std::size_t>& context) { return threads.next_after(context); });
    ASSERT_GE(contigs.size(), 1u);
    EXPECT_EQ(same_either_way(contigs[0].bases, abundant), tried.whole) << tried.abundant << " to " << tried.rare;
    const std::string rare_into_b = c.substr(c.size() - 100) + shared + b.substr(0, 100);
    for (const Unitig& contig : contigs) {
      EXPECT_EQ(contig.bases.find(rare_into_b), std::string::npos);
      EXPECT_EQ(contig.bases.find(reverse_complement(rare_into_b)), std::string::npos);
    }
  }
}

TEST(ReadThreads, PairsGuideContigsPastARepeatLongerThanTheReads) {
  std::mt19937_64 random(10);
  SharedRepeat shared(random, 250, 2000, 1800);
  const UnitigGraph& graph = shared.graph;
  const std::string& first = shared.first;
  const std::string& second = shared.second;
  const PairedReads mates = paired_reads({first, second}, 100, 500);
  const std::string& mates_2 = mates.second;
  const xenon::testing::TemporaryDirectory directory("xenon-read-pairs");
  const std::vector<std::string> files = {directory.write("reads_1.fa", mates.first), directory.write("reads_2.fa", mates_2)};
  const auto guided = [&](bool paired) {
    ReadThreads threads(graph, kK);
    threads.thread_files(files, paired);
    EXPECT_EQ(threads.unpaired_files(), 0u);
    return graph.contigs(
        200, true, [&threads](const std::vector<std::size_t>& context) { return threads.next_after(context); },
        [&threads](std::size_t anchor, const std::vector<std::size_t>& ways) { return threads.mates_after(anchor, ways); });
  };
  const std::vector<Unitig> unpaired = guided(false);
  EXPECT_EQ(unpaired.size(), 4u) << "reads alone cannot cross the repeat";
  const std::vector<Unitig> paired = guided(true);
  ASSERT_EQ(paired.size(), 2u);
  EXPECT_TRUE(same_either_way(paired[0].bases, first));
  EXPECT_TRUE(same_either_way(paired[1].bases, second));
  // Files with different numbers of records are not paired.
  ReadThreads uneven(graph, kK);
  uneven.thread_files({files[0], directory.write("short_2.fa", ">p0/2\n" + mates_2.substr(mates_2.find('\n') + 1, 101))}, true);
  EXPECT_EQ(uneven.unpaired_files(), 1u);
}

TEST(UnitigGraph, N50HoldsHalfTheTotalLength) {
  std::vector<Unitig> contigs(4);
  contigs[0].bases.assign(100, 'A');
  contigs[1].bases.assign(400, 'A');
  contigs[2].bases.assign(300, 'A');
  contigs[3].bases.assign(200, 'A');
  EXPECT_EQ(n50(contigs), 300u);  // 400 + 300 >= 1000 / 2
  EXPECT_EQ(n50({}), 0u);
}

TEST(UnitigGraph, RefusesAUnitigShorterThanK) {
  UnitigGraph graph(kK);
  EXPECT_THROW(graph.add("ACGT", 1, false), std::invalid_argument);
}

}  // namespace

// What a store sends node 0 of the runs its reads crossed, in varints: every field comes back
// as it was, small or large, and a message cut anywhere is refused rather than read short.
TEST(ReadThreads, CrossedRunsComeBackAsTheyWereSent) {
  const std::vector<CrossedRun> sent{
      {{6, 7}, 1},
      {{0x7fffffff, 1, 127, 128, 16383, 16384}, std::uint64_t{1} << 40},
      {{}, 300},
  };
  std::vector<std::byte> message;
  for (const CrossedRun& run : sent) CrossedRuns::append(message, run);
  EXPECT_LT(message.size(), 40u) << "small numbers in a byte or two";
  const std::vector<CrossedRun> received = CrossedRuns::decode(message);
  ASSERT_EQ(received.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(received[i].unitigs, sent[i].unitigs);
    EXPECT_EQ(received[i].reads, sent[i].reads);
  }
  std::vector<std::byte> first;
  CrossedRuns::append(first, sent[1]);
  for (std::size_t cut = 1; cut < first.size(); ++cut) {
    EXPECT_THROW(CrossedRuns::decode(std::span(first).first(cut)), std::invalid_argument) << "cut at " << cut;
  }
}
