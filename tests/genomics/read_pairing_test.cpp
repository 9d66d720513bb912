// SPDX-License-Identifier: BSD-3-Clause
// Which records are mates, as the command line says (-1/-2, --12, -s, positional FILES), and
// the record counts that cannot pair, each refused with the files and counts named.
#include "genomics/io/read_pairing.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace xenon::genomics;

bool same(const MateFiles& a, const MateFiles& b) {
  return a.first == b.first && a.second == b.second && a.declared == b.declared;
}

TEST(ReadPairing, ReadsPositionalFilesFirstThenEachFirstMateWithItsSecondThenInterleavedThenSingle) {
  InputOptions options;
  options.positional = {"p1.fq", "p2.fq"};
  options.first_mates = {"a1.fq", "b1.fq"};
  options.second_mates = {"a2.fq", "b2.fq"};
  options.interleaved = {"i.fq"};
  options.single = {"s.fq"};
  std::vector<std::string> files;
  std::vector<InputRole> roles;
  gather_inputs(options, files, roles);
  EXPECT_EQ(files, (std::vector<std::string>{"p1.fq", "p2.fq", "a1.fq", "a2.fq", "b1.fq", "b2.fq", "i.fq", "s.fq"}));
  const std::vector<InputRole> expected = {InputRole::kPositional, InputRole::kPositional, InputRole::kFirstMate,
                                           InputRole::kSecondMate, InputRole::kFirstMate,  InputRole::kSecondMate,
                                           InputRole::kInterleaved, InputRole::kSingle};
  EXPECT_EQ(roles, expected);
  EXPECT_EQ(describe_roles(roles),
            " roles: positional, positional, pair 1, pair 2, pair 1, pair 2, interleaved, single");
  EXPECT_EQ(describe_roles({InputRole::kPositional, InputRole::kPositional}), "") << "as before roles existed";

  const std::vector<MateFiles> mates = mate_files(roles, files.size());
  ASSERT_EQ(mates.size(), 4u);
  EXPECT_TRUE(same(mates[0], {0, 1, false})) << "positional files pair by position, undeclared";
  EXPECT_TRUE(same(mates[1], {2, 3, true}));
  EXPECT_TRUE(same(mates[2], {4, 5, true}));
  EXPECT_TRUE(same(mates[3], {6, 6, true}));
  EXPECT_TRUE(mates[3].interleaved());
}

TEST(ReadPairing, PairsPositionalFilesOnlyWhenThereIsAnEvenNumberOfThem) {
  EXPECT_TRUE(mate_files({}, 3).empty());
  EXPECT_EQ(mate_files({}, 4).size(), 2u) << "no roles: every file positional";
  const std::vector<InputRole> roles = {InputRole::kPositional, InputRole::kSingle, InputRole::kPositional};
  const std::vector<MateFiles> mates = mate_files(roles, roles.size());
  ASSERT_EQ(mates.size(), 1u);
  EXPECT_TRUE(same(mates[0], {0, 2, false})) << "a -s file between them takes no part";
}

TEST(ReadPairing, RefusesFirstMatesWithoutAsManySecondMates) {
  InputOptions options;
  options.first_mates = {"a1.fq", "b1.fq"};
  options.second_mates = {"a2.fq"};
  std::vector<std::string> files;
  std::vector<InputRole> roles;
  try {
    gather_inputs(options, files, roles);
    FAIL() << "two -1 and one -2 were accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "-1 given 2 time(s) and -2 1 time(s): the n-th -1 file pairs with the n-th -2 file");
  }
}

TEST(ReadPairing, RefusesRecordCountsThatCannotPairNamingTheFilesAndCounts) {
  const std::vector<std::string> files = {"p1.fq", "p2.fq", "a1.fq", "a2.fq", "i.fq"};
  const std::vector<InputRole> roles = {InputRole::kPositional, InputRole::kPositional, InputRole::kFirstMate,
                                        InputRole::kSecondMate, InputRole::kInterleaved};
  EXPECT_NO_THROW(check_mate_records(files, roles, {10, 9, 5, 5, 8})) << "positional files: a warning, later";
  try {
    check_mate_records(files, roles, {10, 10, 5, 4, 8});
    FAIL() << "-1/-2 of 5 and 4 records were accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(),
                 "a1.fq (-1) holds 5 records and a2.fq (-2) holds 4: mates are the records at the same place in both");
  }
  try {
    check_mate_records(files, roles, {10, 10, 5, 5, 7});
    FAIL() << "an interleaved file of 7 records was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "i.fq: 7 records, an odd number: an interleaved file (--12) holds mates two by two");
  }
}

}  // namespace
