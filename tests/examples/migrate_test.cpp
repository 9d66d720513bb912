// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

TEST(Examples, MigrateMovesTheTallyToNode1WithEveryNumberOnceInOrder) {
  SKIP_WITHOUT_MPI();
  const auto run = xenon::testing::mpi_run(2, "migrate", "-threads-per-node 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("migrating to node 1"), std::string::npos) << run.output;
  EXPECT_NE(
      run.output.find("tally: 40000 numbers, every one once and in order: yes; nodes visited: 0 1"),
      std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 0: actors migrated out 1, in 0"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 1: actors migrated out 0, in 1"), std::string::npos)
      << run.output;
}

TEST(Examples, MigrateMovesTheTallyOnToNode2) {
  SKIP_WITHOUT_MPI();
  const auto run = xenon::testing::mpi_run(3, "migrate", "-threads-per-node 1 -messages 5000");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(
                "tally: 15000 numbers, every one once and in order: yes; nodes visited: 0 1 2"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 1: actors migrated out 1, in 1"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 2: actors migrated out 0, in 1"), std::string::npos)
      << run.output;
}

TEST(Examples, MigrateAloneSaysItNeedsTwoNodes) {
  const auto run = xenon::testing::run_binary("migrate", "");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("migrate: error: needs 2 or more nodes"), std::string::npos)
      << run.output;
}

}  // namespace
