// SPDX-License-Identifier: BSD-3-Clause
// IUPAC ambiguity codes in reads: the assembler reads each as one of its bases, the same one
// whichever strand a read holds, so that a code every read of a place carries does not cut the
// genome there; the counter still breaks k-mers at them, as Jellyfish does.
#include "genomics/kmer/ambiguity_codes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tests/genomics/fasta_records.hpp"
#include "tests/genomics/random_bases.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using xenon::genomics::append_resolving_ambiguity;
using xenon::genomics::has_ambiguity_code;
using xenon::genomics::is_ambiguity_code;

const std::map<char, std::string> kAllowed = {{'R', "AG"},  {'Y', "CT"},  {'K', "GT"},  {'M', "AC"},
                                              {'S', "CG"},  {'W', "AT"},  {'B', "CGT"}, {'D', "AGT"},
                                              {'H', "ACT"}, {'V', "ACG"}};

char complement(char base) {
  static const std::string kFrom = "ACGTNRYKMSWBDHV";
  static const std::string kTo = "TGCANYRMKSWVHDB";
  return kTo[kFrom.find(base)];
}

std::string reverse_complement(const std::string& bases) {
  std::string reverse;
  for (auto base = bases.rbegin(); base != bases.rend(); ++base) reverse += complement(*base);
  return reverse;
}

std::string resolving(const std::string& bases) {
  std::string out;
  append_resolving_ambiguity(out, bases);
  return out;
}

TEST(AmbiguityCodes, EachCodeBecomesABaseItAllowsInTheCaseItIsWrittenIn) {
  for (const auto& [code, allowed] : kAllowed) {
    EXPECT_TRUE(is_ambiguity_code(code)) << code;
    EXPECT_TRUE(is_ambiguity_code(static_cast<char>(code - 'A' + 'a'))) << code;
    for (const std::string& flanks : {std::string("ACGTTGCAAC"), std::string("TTTTTTTTTT"), std::string("")}) {
      const std::string read = flanks + code + flanks;
      const std::string out = resolving(read);
      ASSERT_EQ(out.size(), read.size());
      if (flanks.empty() && (code == 'S' || code == 'W')) {  // its own reverse complement: it stays
        EXPECT_EQ(out, read);
        continue;
      }
      EXPECT_NE(allowed.find(out[flanks.size()]), std::string::npos) << read << " -> " << out;
      EXPECT_EQ(out.substr(0, flanks.size()), flanks);
      EXPECT_EQ(out.substr(flanks.size() + 1), flanks);
      std::string lower = read;
      lower[flanks.size()] = static_cast<char>(code - 'A' + 'a');
      EXPECT_EQ(resolving(lower)[flanks.size()], out[flanks.size()] - 'A' + 'a') << lower;
    }
  }
}

TEST(AmbiguityCodes, NAndOtherBytesStayAndOnlyCodesAreFound) {
  for (const char other : std::string("ACGTacgtNnXU-.*")) EXPECT_FALSE(is_ambiguity_code(other)) << other;
  EXPECT_FALSE(has_ambiguity_code("ACGTNNacgtn"));
  EXPECT_TRUE(has_ambiguity_code("ACGTNNacgtnw"));
  EXPECT_EQ(resolving("ACGTNNacgtnX"), "ACGTNNacgtnX");
  std::string out = "kept";
  append_resolving_ambiguity(out, "AC");
  EXPECT_EQ(out, "keptAC") << "appends";
}

// A read of the other strand holds the code's complement among the reverse complement of its
// neighbours: it resolves to the complement of what the forward read resolves to, S and W
// (their own complements) included; so do codes beside codes. Where the code and its
// neighbours are their own reverse complement, both strands spell the same: the code stays.
TEST(AmbiguityCodes, BothStrandsOfAPlaceReadTheSameBase) {
  std::mt19937_64 random(20261207);
  const std::string codes = "RYKMSWBDHV";
  int checked = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::string read = xenon::testing::random_bases(random, 5 + random() % 30);
    const std::size_t at = random() % read.size();
    read[at] = codes[random() % codes.size()];
    if (trial % 3 == 0) read[random() % read.size()] = codes[random() % codes.size()];
    const std::string reverse = reverse_complement(read);
    const std::size_t side = std::min({xenon::genomics::kAmbiguityContext, at, read.size() - 1 - at});
    const std::string window = read.substr(at - side, 2 * side + 1);
    const std::string forward_out = resolving(read);
    const std::string reverse_out = resolving(reverse);
    if (window == reverse_complement(window)) {  // no base is the same from both strands: it stays
      EXPECT_EQ(forward_out[at], read[at]) << read;
      EXPECT_EQ(reverse_out[read.size() - 1 - at], reverse[read.size() - 1 - at]) << read;
      continue;
    }
    ASSERT_EQ(forward_out[at], complement(reverse_out[read.size() - 1 - at])) << read;
    EXPECT_NE(kAllowed.at(read[at]).find(forward_out[at]), std::string::npos) << read;
    ++checked;
  }
  EXPECT_GT(checked, 3700);
}

// Every read of one place carries the code K, those of the other strand M (as a read
// simulator passes on a reference's code): the assembler's contig runs through it, the counter
// leaves out the k-mers that hold it.
TEST(AmbiguityCodes, ACodeEveryReadCarriesJoinsTheContigAndTheCounterBreaksThere) {
  std::mt19937_64 random(7);
  const std::string genome = xenon::testing::random_bases(random, 8000);
  std::string carried = genome;
  carried[4000] = 'K';
  std::string fastq;
  for (std::size_t start = 0, read = 0; start + 100 <= carried.size(); start += 5, ++read) {
    const std::string forward = carried.substr(start, 100);
    const std::string bases = read % 2 == 0 ? forward : reverse_complement(forward);
    fastq += "@r" + std::to_string(read) + "\n" + bases + "\n+\n" + std::string(100, 'I') + "\n";
  }
  const xenon::testing::TemporaryDirectory in("xenon-ambiguity");
  const std::string reads = in.write("reads.fq", fastq);

  const xenon::testing::TemporaryDirectory assembled("xenon-ambiguity");
  auto run = xenon::testing::run_binary("assembler", "--quiet -k 31 --graph-image no -o " + assembled.path() + " -s " + reads);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> contigs = xenon::testing::fasta_sequences(assembled.read("contigs.fasta"));
  ASSERT_EQ(contigs.size(), 1u) << assembled.read("assembler.log");
  const std::string expected = resolving(carried);
  ASSERT_TRUE(expected[4000] == 'G' || expected[4000] == 'T') << expected[4000];
  // The genome but for its first and last few bases, which one read each holds.
  const std::string forward = expected.find(contigs[0]) != std::string::npos ? contigs[0] : reverse_complement(contigs[0]);
  const std::size_t at = expected.find(forward);
  ASSERT_NE(at, std::string::npos) << "the genome's bases, the code read as " << expected[4000];
  EXPECT_LT(at, 10u);
  EXPECT_GT(at + forward.size(), expected.size() - 10);

  const xenon::testing::TemporaryDirectory counted("xenon-ambiguity");
  run = xenon::testing::run_binary("kmer_counter", "--quiet -k 31 -o " + counted.path() + " " + reads);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string summary = counted.read("summary.json");
  const std::size_t distinct = (8000 - 31 + 1) - 31;  // all but the 31 that hold the code
  EXPECT_NE(summary.find("\"distinct_kmers\": " + std::to_string(distinct) + ","), std::string::npos) << summary;
}

}  // namespace
