// SPDX-License-Identifier: BSD-3-Clause
// A contig kept as its path through the graph spells what its bases were, either way round.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "genomics/assembler/contig.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace {

using namespace xenon::genomics;

constexpr int kK = 5;

// Two unitigs that share a junction of k-1 bases (GGTA: the end of the first, the start of
// the second's reverse complement), and a cycle whose last k-1 bases repeat its first.
const std::vector<Unitig> kUnitigs = {
    {"ACCAGGTA", 0, 4, false},
    {"CGATTACC", 0, 4, false},     // reverse complement: GGTAATCG
    {"TTGACCATTGA", 0, 7, true},  // TTGA again at its end
};

TEST(Contig, APathSpellsItsUnitigsJoinedOnTheirSharedBases) {
  const std::vector<Contig::Oriented> path = {0, 3};
  EXPECT_EQ(spelled_path(kUnitigs, kK, path), "ACCAGGTAATCG");
  EXPECT_EQ(spelled_path_length(kUnitigs, kK, path), 12u);
  EXPECT_EQ(spelled_path_length(kUnitigs, kK, {}), 0u);
  const Contig middle{path, 2, 7, 40, 8, false};
  EXPECT_EQ(spelled_contig(kUnitigs, kK, middle), "CAGGTAA");
}

TEST(Contig, ReadTheOtherWayItSpellsItsReverseComplement) {
  for (const Contig& contig : {Contig{{0, 3}, 0, 12, 40, 8, false}, Contig{{0, 3}, 2, 7, 40, 8, false},
                               Contig{{1}, 1, 6, 10, 4, false}, Contig{{4}, 0, 7, 21, 7, true}}) {
    const Contig reversed = reversed_contig(kUnitigs, kK, contig);
    EXPECT_EQ(spelled_contig(kUnitigs, kK, reversed), reverse_complement(spelled_contig(kUnitigs, kK, contig)))
        << spelled_contig(kUnitigs, kK, contig);
    EXPECT_EQ(reversed.length, contig.length);
    EXPECT_EQ(reversed.coverage_sum, contig.coverage_sum);
    EXPECT_EQ(reversed.circular, contig.circular);
    EXPECT_EQ(reversed_contig(kUnitigs, kK, reversed), contig) << "twice: as it was";
  }
  // A cycle leaves out its repeated k-1 bases: read forward its last ones, reversed its first.
  const Contig cycle{{4}, 0, 7, 21, 7, true};
  EXPECT_EQ(spelled_contig(kUnitigs, kK, cycle), "TTGACCA");
  const Contig turned = reversed_contig(kUnitigs, kK, cycle);
  EXPECT_EQ(turned.path, std::vector<Contig::Oriented>{5});
  EXPECT_EQ(turned.from, 4u);
}

// Random unitigs and paths over them (a path need not join its unitigs on shared bases for
// what it spells to be defined), long enough that windows of 64 bases and more are crossed.
struct RandomContigs {
  std::mt19937 random{20261207};
  std::vector<Unitig> unitigs;
  RandomContigs() {
    for (int i = 0; i < 12; ++i) unitigs.push_back({bases(kK + random() % 150), 0, 1, false});
  }
  std::string bases(std::size_t length) {
    std::string spelled;
    for (std::size_t i = 0; i < length; ++i) spelled += "ACGT"[random() % 4];
    return spelled;
  }
  Contig contig() {
    Contig made;
    const std::size_t steps = 1 + random() % 5;
    for (std::size_t i = 0; i < steps; ++i) made.path.push_back(random() % (2 * unitigs.size()));
    const std::size_t spelled = spelled_path_length(unitigs, kK, made.path);
    made.from = random() % spelled;
    made.length = 1 + random() % (spelled - made.from);
    return made;
  }
  std::string spelled(const Contig& contig, bool reversed) const {
    const std::string forward = spelled_contig(unitigs, kK, contig);
    return reversed ? reverse_complement(forward) : forward;
  }
};

int sign(int value) { return (value > 0) - (value < 0); }

TEST(Contig, AWindowSpellsWhatTheWholeContigDoesThere) {
  RandomContigs made;
  for (int trial = 0; trial < 300; ++trial) {
    const Contig contig = made.contig();
    for (const bool reversed : {false, true}) {
      const std::string whole = made.spelled(contig, reversed);
      for (std::size_t from = 0; from <= contig.length + 1; from += 1 + from / 3) {
        for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{64},
                                        std::size_t{500}, ~std::size_t{0}}) {
          const std::string expected = from >= whole.size() ? std::string() : whole.substr(from, count);
          EXPECT_EQ(spelled_window(made.unitigs, kK, contig, reversed, from, count), expected)
              << "trial " << trial << ", reversed " << reversed << ", from " << from << ", count " << count;
        }
      }
    }
  }
  // A cycle's window never reads its repeated k-1 bases.
  const Contig cycle{{4}, 0, 7, 21, 7, true};
  EXPECT_EQ(spelled_window(kUnitigs, kK, cycle, false, 4, 100), "CCA");
  EXPECT_EQ(spelled_window(kUnitigs, kK, cycle, true, 0, 100), "TGGTCAA");
}

TEST(Contig, ComparedUpToTheirFirstDifferenceTheyOrderAsTheirBases) {
  RandomContigs made;
  for (int trial = 0; trial < 2000; ++trial) {
    const Contig a = made.contig();
    // Often the same path, cut elsewhere or not at all: a long prefix in common, or none to tell.
    Contig b = trial % 3 == 0 ? a : made.contig();
    if (trial % 3 == 0 && trial % 2 == 0 && b.length > 1) b.length -= 1 + made.random() % (b.length - 1);
    for (const bool a_reversed : {false, true}) {
      for (const bool b_reversed : {false, true}) {
        const int expected = sign(made.spelled(a, a_reversed).compare(made.spelled(b, b_reversed)));
        EXPECT_EQ(sign(compare_spelled(made.unitigs, kK, a, a_reversed, b, b_reversed)), expected)
            << "trial " << trial << ": " << made.spelled(a, a_reversed) << " against " << made.spelled(b, b_reversed);
      }
    }
  }
  // Alike but for one base, wherever it lies (in the first window, on a window's edge, late).
  const std::string same = made.bases(400);
  for (std::size_t differs = 0; differs < same.size(); ++differs) {
    std::string other = same;
    other[differs] = other[differs] == 'A' ? 'C' : 'A';
    const std::vector<Unitig> pair = {{same, 0, 1, false}, {other, 0, 1, false}};
    const Contig a{{0}, 0, same.size(), 0, 1, false};
    const Contig b{{2}, 0, same.size(), 0, 1, false};
    EXPECT_EQ(sign(compare_spelled(pair, kK, a, false, b, false)), sign(same.compare(other))) << "at " << differs;
    EXPECT_EQ(sign(compare_spelled(pair, kK, a, true, b, true)),
              sign(reverse_complement(same).compare(reverse_complement(other))))
        << "at " << differs << ", reversed";
  }
}

TEST(Contig, N50IsOfTheLengthsKept) {
  std::vector<Contig> contigs(3);
  contigs[0].length = 500;
  contigs[1].length = 300;
  contigs[2].length = 200;
  EXPECT_EQ(contig_n50(contigs), 500u);  // 500 >= 1000 / 2
  contigs[0].length = 400;
  EXPECT_EQ(contig_n50(contigs), 300u);  // 400 + 300 >= 900 / 2
  EXPECT_EQ(contig_n50({}), 0u);
}

}  // namespace
