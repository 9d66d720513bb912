// SPDX-License-Identifier: BSD-3-Clause
// The k-mer lengths the assembler runs through when no -k is given: from the median length of
// the first reads, smaller for shorter reads; and --k-list as users write it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "genomics/assembler/k_choice.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using xenon::genomics::k_list_text;
using xenon::genomics::k_rounds_for_read_length;
using xenon::genomics::median_read_length;
using xenon::genomics::parse_k_list;

std::string fastq_record(std::size_t length) {
  return "@read\n" + std::string(length, 'A') + "\n+\n" + std::string(length, 'I') + "\n";
}

TEST(KChoice, ShorterReadsGiveSmallerK) {
  EXPECT_EQ(k_rounds_for_read_length(150), (std::vector<int>{21, 33, 55, 77, 99}));
  EXPECT_EQ(k_rounds_for_read_length(148), (std::vector<int>{21, 33, 55, 77}));
  EXPECT_EQ(k_rounds_for_read_length(125), (std::vector<int>{21, 33, 55, 77}));
  EXPECT_EQ(k_rounds_for_read_length(100), (std::vector<int>{21, 33, 55}));
  EXPECT_EQ(k_rounds_for_read_length(50), (std::vector<int>{21, 33}));
  EXPECT_EQ(k_rounds_for_read_length(36), (std::vector<int>{21}));
  EXPECT_EQ(k_rounds_for_read_length(30), (std::vector<int>{19}));
  EXPECT_EQ(k_rounds_for_read_length(250), (std::vector<int>{21, 33, 55, 77, 99}));  // 99 at most
  EXPECT_EQ(k_rounds_for_read_length(4), (std::vector<int>{5}));                     // 5 at least
  for (std::size_t length = 1; length <= 300; ++length) {
    const std::vector<int> rounds = k_rounds_for_read_length(length);
    ASSERT_FALSE(rounds.empty());
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      EXPECT_EQ(rounds[i] % 2, 1) << length;
      if (i > 0) {
        EXPECT_LT(rounds[i - 1], rounds[i]) << length;
      }
    }
    if (length > 1) {
      EXPECT_GE(rounds.back(), k_rounds_for_read_length(length - 1).back()) << length;
    }
  }
}

TEST(KChoice, MedianReadLengthOfFastqAndFasta) {
  xenon::testing::TemporaryDirectory directory;
  const std::string fastq =
      directory.write("reads.fq", fastq_record(150) + fastq_record(40) + fastq_record(151) + fastq_record(149) +
                                      fastq_record(10));
  EXPECT_EQ(median_read_length(fastq), 149u);
  // FASTA records over several lines, with Windows line ends.
  const std::string fasta = directory.write("reads.fa", ">a\r\nACGT\r\nACG\r\n>b\r\nAC\r\n>c\r\nACGTACGTAC\r\n");
  EXPECT_EQ(median_read_length(fasta), 7u);
  EXPECT_EQ(median_read_length(fasta, 2), 7u);  // the first two records: 7 and 2, the upper median
  EXPECT_EQ(median_read_length(directory.write("empty.fq", "")), 0u);
  // Only the first records count.
  std::string many;
  for (int i = 0; i < 3000; ++i) many += fastq_record(i < 2000 ? 100 : 30);
  EXPECT_EQ(median_read_length(directory.write("many.fq", many)), 100u);
}

TEST(KChoice, KListIsReadAsWritten) {
  EXPECT_EQ(parse_k_list("21,33,55"), (std::vector<int>{21, 33, 55}));
  EXPECT_EQ(parse_k_list("31"), (std::vector<int>{31}));
  EXPECT_EQ(parse_k_list("21,65,127"), (std::vector<int>{21, 65, 127}));  // up to four words
  EXPECT_EQ(k_list_text({21, 33, 55}), "21,33,55");
  for (const char* bad : {"", "21,", ",21", "21,,33", "21;33", "21,32", "33,21", "21,21", "3", "129", "128", "x", "-21", "1001"}) {
    EXPECT_THROW(parse_k_list(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
