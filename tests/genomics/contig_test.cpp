// SPDX-License-Identifier: BSD-3-Clause
// A contig kept as its path through the graph spells what its bases were, either way round.
#include <gtest/gtest.h>

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
