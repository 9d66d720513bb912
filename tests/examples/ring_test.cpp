// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/usage_errors.hpp"

namespace {

// actors x laps token hops, plus one setup message per actor, the start, and the stop
// notice passed from the leader to the last member.
std::string expected_messages(int actors, int laps) {
  return "messages received: " + std::to_string(actors * laps + 2 * actors) + "\n";
}

TEST(Examples, RingPassesTheTokenExactlyActorsTimesLapsAcrossWorkers) {
  const auto run = xenon::testing::run_binary("ring", "-threads-per-node 3 -actors 10 -laps 500");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("ring: 10 actors on 2 worker(s), 500 laps: token passed 5000 times "
                            "(expected 5000)"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(expected_messages(10, 500)), std::string::npos) << run.output;
}

TEST(Examples, RingOfTwoOnOneWorker) {
  const auto run = xenon::testing::run_binary("ring", "--actors=2 --laps=1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("token passed 2 times (expected 2)"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(expected_messages(2, 1)), std::string::npos) << run.output;
}

TEST(Examples, RingRejectsBadUseInOneLine) {
  xenon::testing::expect_usage_errors(
      "ring", {{"-actors 1", "between 2 and"}, {"-laps zero", "expects an integer"}});
}

}  // namespace
