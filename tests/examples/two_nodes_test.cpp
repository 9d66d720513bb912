// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

TEST(Examples, TwoNodesSpawnsByNameOnNodeOneAndHearsTheAnswer) {
  SKIP_WITHOUT_MPI();
  const auto run = xenon::testing::mpi_run(2, "two_nodes", "-threads-per-node 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("node 0: spawned two_nodes.answerer on node 1"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 0: answer: 'hello from node 0' answered on node 1 by the "
                            "answerer"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 0: answerer stopped; stopping too"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("2 node(s), run ended"), std::string::npos) << run.output;
}

TEST(Examples, TwoNodesAloneSaysSoAndRunsOnItsOneNode) {
  const auto run = xenon::testing::run_binary("two_nodes", "");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("one node only: the answerer is spawned on node 0"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("answered on node 0 by the answerer"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("1 node(s), run ended"), std::string::npos) << run.output;
}

}  // namespace
