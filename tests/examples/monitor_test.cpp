// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

// Node 0 watches an actor on node 1 that stops with a reason of its own.
TEST(Examples, MonitorHearsOnNodeZeroWhyTheActorOnNodeOneStopped) {
  SKIP_WITHOUT_MPI();
  for (const char* threads : {"1", "2"}) {
    const auto run =
        xenon::testing::mpi_run(2, "monitor", std::string("-threads-per-node ") + threads);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("down: 1.0.0 reason: work done, nothing left to do\n"),
              std::string::npos)
        << run.output;
  }
}

TEST(Examples, MonitorAloneSaysSoAndWatchesOnItsOneNode) {
  const auto run = xenon::testing::run_binary("monitor", "-threads-per-node 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("one node only: the worker is spawned on node 0"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("down: 0.0.1 reason: work done, nothing left to do\n"),
            std::string::npos)
      << run.output;
}

}  // namespace
