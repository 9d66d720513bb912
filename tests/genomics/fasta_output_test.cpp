// SPDX-License-Identifier: BSD-3-Clause
// contigs.fasta and scaffolds.fasta: 80 bases a line whatever a record's length, written a
// window at a time, never a record whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/fasta_output.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace {

using namespace xenon::genomics;

constexpr int kK = 5;

std::string random_bases(std::size_t length, std::mt19937& random) {
  std::string bases;
  for (std::size_t i = 0; i < length; ++i) bases += "ACGT"[random() % 4];
  return bases;
}

// What a record is: its header, then its bases 80 a line, the last line as long as is left.
std::string expected_record(const std::string& header, const std::string& bases) {
  std::string record = header;
  for (std::size_t at = 0; at < bases.size(); at += 80) record += bases.substr(at, 80) + "\n";
  return record;
}

// What the writer handed its sink, and the most it handed at once.
struct Written {
  std::string text;
  std::size_t largest = 0;
  FastaSink sink() {
    return [this](std::string_view piece) {
      text += piece;
      largest = std::max(largest, piece.size());
    };
  }
};

struct LongGraph {
  std::mt19937 random{7};
  GraphFile graph;
  LongGraph() {
    graph.k = kK;
    graph.segments.push_back({random_bases(250'000, random), 250'000, 250'000 - kK + 1, false});
    graph.segments.push_back({random_bases(90, random), 86, 86, false});
  }
};

TEST(FastaOutput, RecordsAreEightyBasesALineWhateverTheirLengthAndAreNeverHandedOnWhole) {
  LongGraph made;
  std::vector<Contig> contigs;
  for (const std::size_t length : {1, 79, 80, 81, 160, 81'919, 81'920, 81'921, 250'000}) {
    contigs.push_back({{0}, 0, length, 10, 1, false});
  }
  contigs.push_back({{0, 3}, 249'000, 1'086, 10, 1, false});  // across two unitigs, one reversed
  Written written;
  write_contigs_fasta(contigs, made.graph, written.sink());
  std::string expected;
  for (std::size_t i = 0; i < contigs.size(); ++i) {
    expected += expected_record(">contig_" + std::to_string(i + 1) + " length=" + std::to_string(contigs[i].length) +
                                    " coverage=10.00\n",
                                spelled_contig(made.graph.segments, kK, contigs[i]));
  }
  EXPECT_EQ(written.text, expected);
  EXPECT_LT(written.largest, 200'000u) << "a window at a time, not the 250 kbp contig whole";

  // A scaffold of pieces whose lines run across them: a contig read both ways, a gap, own bases.
  Scaffold scaffold;
  scaffold.pieces = {{8, false, 0, {}}, {ScaffoldPiece::kOwnBases, false, 0, std::string(37, 'N')},
                     {3, true, 5, {}}, {ScaffoldPiece::kOwnBases, false, 0, "ACG"}, {9, true, 0, {}}};
  scaffold.length = 250'000 + 37 + 76 + 3 + 1'086;
  scaffold.contigs = {8, 3, 9};
  scaffold.gaps = 1;
  Written scaffolds;
  write_scaffolds_fasta({scaffold}, contigs, made.graph, scaffolds.sink());
  const std::string bases = spelled_scaffold(scaffold, contigs, made.graph.segments, kK);
  ASSERT_EQ(bases.size(), scaffold.length);
  EXPECT_EQ(bases.substr(250'037, 76), reverse_complement(spelled_contig(made.graph.segments, kK, contigs[3])).substr(5));
  EXPECT_EQ(scaffolds.text, expected_record(">scaffold_1 length=" + std::to_string(scaffold.length) +
                                                " contigs=contig_9,contig_4,contig_10\n",
                                            bases));
  EXPECT_LT(scaffolds.largest, 200'000u);
}

}  // namespace
