// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

void expect_summary(const std::string& output, const std::string& counted_on) {
  EXPECT_NE(output.find("node 0: catalogue of 3 shelves sent as"), std::string::npos) << output;
  EXPECT_NE(output.find("node 0: empty: 0 titles"), std::string::npos) << output;
  EXPECT_NE(output.find("node 0: poetry: 2 titles"), std::string::npos) << output;
  EXPECT_NE(output.find("node 0: science: 3 titles"), std::string::npos) << output;
  // 4 + 27 + 9 + 24 + 7 characters in the five titles.
  EXPECT_NE(output.find("node 0: counted on " + counted_on + ": 71 title characters, note kept"),
            std::string::npos)
      << output;
}

TEST(Examples, TypedMessagesCrossNodesAsStructsAndComeBackMatching) {
  SKIP_WITHOUT_MPI();
  const auto run = xenon::testing::mpi_run(2, "typed_messages", "-threads-per-node 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_summary(run.output, "node 1");
  EXPECT_NE(run.output.find("2 node(s): the summary matches"), std::string::npos) << run.output;
}

TEST(Examples, TypedMessagesAloneRunOnItsOneNode) {
  const auto run = xenon::testing::run_binary("typed_messages", "");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("one node only: the counter is spawned on node 0"), std::string::npos)
      << run.output;
  expect_summary(run.output, "node 0");
  EXPECT_NE(run.output.find("1 node(s): the summary matches"), std::string::npos) << run.output;
}

}  // namespace
