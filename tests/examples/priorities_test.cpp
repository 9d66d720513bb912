// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/usage_errors.hpp"

namespace {

TEST(Examples, PrioritiesReceivesTheAlarmsBeforeTheQueuedJobs) {
  const auto run = xenon::testing::run_binary("priorities", "-normal 3 -urgent 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            "received: alarm 0, alarm 1, job 0, job 1, job 2\n"
            "priorities: 2 urgent message(s) overtook 3 normal one(s); order kept within each "
            "priority\n");
}

TEST(Examples, PrioritiesKeepsOrderWithinEachPriorityForManyMessages) {
  const auto run =
      xenon::testing::run_binary("priorities", "-normal 59000 -urgent 1000 -threads-per-node 2");
  ASSERT_EQ(run.exit_code, 0) << run.output.substr(run.output.size() - 300);
  EXPECT_NE(run.output.find("1000 urgent message(s) overtook 59000 normal one(s)"),
            std::string::npos);
}

TEST(Examples, PrioritiesRejectsBadUseInOneLine) {
  xenon::testing::expect_usage_errors(
      "priorities", {{"-normal -1", "between 0 and"},
                     {"-urgent many", "expects an integer"},
                     {"-normal 50000 -urgent 20000", "exceed 60000 messages together"}});
}

}  // namespace
