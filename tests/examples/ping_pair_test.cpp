// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include "tests/support/run_binary.hpp"

namespace {

TEST(Examples, PingPairPlaysThreeRoundsAcrossWorkersAndEnds) {
  const auto run = xenon::testing::run_binary("ping_pair", "-threads-per-node 3");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("pong 1 from actor on worker 1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("pong 3 from actor on worker 1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("ponger stopped; stopping too"), std::string::npos) << run.output;
  // start, 3 pings, 3 pongs, the stop notice
  EXPECT_NE(run.output.find("messages received: 8"), std::string::npos) << run.output;
}

}  // namespace
