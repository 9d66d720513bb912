// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

// The example checks itself (exit 1 if a tick was lost or the stop came early).
void expect_every_tick_heard(const xenon::testing::ProcessResult& run, const char* node) {
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(std::string("node 0: listener on node ") + node +
                            " heard 5 ticks; metronome cancelled"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("heard; the stop arrived"), std::string::npos) << run.output;
}

TEST(Examples, TimersTickToAnActorOnAnotherWorkerUntilCancelled) {
  for (const char* threads : {"1", "3"}) {
    expect_every_tick_heard(
        xenon::testing::run_binary("timers", std::string("-threads-per-node ") + threads), "0");
  }
}

TEST(Examples, TimersTickToAnActorOnAnotherNodeUntilCancelled) {
  SKIP_WITHOUT_MPI();
  for (const char* threads : {"1", "2"}) {
    expect_every_tick_heard(
        xenon::testing::mpi_run(2, "timers", std::string("-threads-per-node ") + threads), "1");
  }
}

}  // namespace
