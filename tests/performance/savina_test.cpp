// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/performance_counters.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/usage_errors.hpp"

namespace {

using xenon::testing::ProcessResult;

// Tiny workloads: the suite's logic and its count checks, not its speed.
const std::string kSmall =
    "-repetitions 1 -ping-pong-pings 300 -thread-ring-actors 7 -thread-ring-passes 500 "
    "-counting-messages 3000 -fork-join-throughput-actors 5 -fork-join-throughput-messages 300 "
    "-big-actors 6 -big-pings 200 -chameneos-creatures 5 -chameneos-meetings 500";

ProcessResult run_savina(const std::string& arguments) {
  return xenon::testing::run_binary("savina", arguments);
}

TEST(Savina, EveryBenchmarkRunsWithExactCountsOnTwoWorkers) {
  const ProcessResult run = run_savina("-threads-per-node 3 " + kSmall);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto value = xenon::testing::counters_by_name(run.output);
  // message-count is what the workload defines; the program exits 1 if any count differs.
  const std::map<std::string, std::string> expected_messages = {
      {"ping-pong-different-workers", "600"},   // 2 x 300
      {"thread-ring", "500"},                   // one per pass
      {"counting", "3002"},                     // increments + request + total
      {"fork-join-throughput", "1500"},         // 5 x 300
      {"big", "2400"},                          // 2 x 6 x 200
      {"chameneos", "2015"},                    // 4 x 500 + 3 x 5
  };
  for (const auto& [name, messages] : expected_messages) {
    const std::string prefix = "savina-" + name;
    EXPECT_EQ(value.at(prefix + "-message-count"), messages) << name;
    EXPECT_EQ(value.at(prefix + "-dead-letter-count"), "0") << name;
    EXPECT_GT(std::stod(value.at(prefix + "-elapsed-time")), 0.0) << name;
    EXPECT_GT(std::stod(value.at(prefix + "-throughput")), 0.0) << name;
    EXPECT_GT(std::stod(value.at(prefix + "-ns-per-message")), 0.0) << name;
  }
  // Different workers: every ping and pong crosses (plus the hello and ready).
  EXPECT_GE(std::stoll(value.at("savina-ping-pong-different-workers-messages-to-other-workers")),
            600);
  EXPECT_GT(std::stod(value.at("savina-ping-pong-different-workers-round-trip")), 0.0);
}

TEST(Savina, PingPongOnTheSameWorkerCrossesNothing) {
  const ProcessResult run = run_savina(
      "-threads-per-node 3 -benchmark ping-pong -ping-pong-placement same -repetitions 2 "
      "-ping-pong-pings 400");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto value = xenon::testing::counters_by_name(run.output);
  EXPECT_EQ(value.at("savina-ping-pong-same-worker-message-count"), "800");
  EXPECT_EQ(value.at("savina-ping-pong-same-worker-messages-to-other-workers"), "0");
  EXPECT_EQ(value.at("savina-ping-pong-same-worker-repetitions"), "2");
  EXPECT_EQ(value.count("savina-thread-ring-message-count"), 0u) << "only the chosen benchmark";
}

TEST(Savina, RunsOnOneWorker) {
  const ProcessResult run =
      run_savina("-threads-per-node 1 -ping-pong-placement same " + kSmall);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto value = xenon::testing::counters_by_name(run.output);
  EXPECT_EQ(value.at("savina-worker-count"), "1");
  EXPECT_EQ(value.at("savina-chameneos-messages-to-other-workers"), "0");
}

TEST(Savina, RejectsBadOptionsWithAClearMessage) {
  xenon::testing::expect_usage_errors("savina", {
      {"-benchmark pingpong", "unknown benchmark 'pingpong'"},
      {"-ping-pong-placement far", "must be 'same' or 'different'"},
      {"-threads-per-node 1", "needs two workers"},
      {"-thread-ring-actors 1", "must be between 2 and"},
      {"-repetitions 0", "must be between 1 and"},
      {"-chameneos-meetings x", "expects an integer"},
      {"-no-such-option 1", "unknown option"},
  });
}

}  // namespace
