// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/performance_counters.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/usage_errors.hpp"

namespace {

using xenon::testing::ProcessResult;

ProcessResult run_probe(const std::string& arguments) {
  return xenon::testing::run_binary("latency_probe", arguments);
}

TEST(LatencyProbe, PrintsTheNineteenCountersInOrderWithConsistentValues) {
  const ProcessResult run = run_probe(
      "-threads-per-node 3 -actor-count-per-worker 10 -ping-message-count-per-actor 3000 "
      "-seed 7");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto lines = xenon::testing::counter_lines(run.output);
  const std::vector<std::string> fixed = {
      "type", "ping-action", "pong-action", "node-count", "worker-count-per-node",
      "actor-count-per-worker", "worker-count", "actor-count", "ping-message-count-per-actor",
      "ping-message-count", "pong-message-count", "message-count", "elapsed-time",
      "computation-throughput", "node-throughput", "worker-throughput", "worker-latency",
      "actor-throughput", "actor-latency"};
  ASSERT_GE(lines.size(), fixed.size()) << run.output;
  std::map<std::string, std::string> value;
  for (std::size_t i = 0; i < fixed.size(); ++i) {
    EXPECT_EQ(lines[i].first, fixed[i]) << "line " << i;
    value[lines[i].first] = lines[i].second;
  }
  EXPECT_EQ(value["type"], "ping-pong");
  EXPECT_EQ(value["ping-action"], "ACTION_PING");
  EXPECT_EQ(value["pong-action"], "ACTION_PING_REPLY");
  EXPECT_EQ(value["node-count"], "1");
  EXPECT_EQ(value["worker-count-per-node"], "2");
  EXPECT_EQ(value["worker-count"], "2");
  EXPECT_EQ(value["actor-count"], "20");
  EXPECT_EQ(value["ping-message-count"], "60000");
  EXPECT_EQ(value["pong-message-count"], "60000");
  EXPECT_EQ(value["message-count"], "120000");
  const double seconds = std::stod(value["elapsed-time"]);
  const double throughput = std::stod(value["computation-throughput"]);
  ASSERT_GT(seconds, 0.0);
  // elapsed-time is printed to the microsecond: allow that rounding in the recomputation.
  EXPECT_NEAR(throughput, 120000 / seconds, throughput * (1e-6 / seconds) + 1);
  EXPECT_NEAR(std::stod(value["worker-throughput"]), throughput / 2, throughput * 1e-5);
  EXPECT_NEAR(std::stod(value["actor-throughput"]), throughput / 20, throughput * 1e-5);
  EXPECT_EQ(std::stoll(value["worker-latency"]),
            static_cast<long long>(1e9 / std::stod(value["worker-throughput"])));
  // Extras follow the fixed lines, and say that nothing was lost.
  std::map<std::string, std::string> extras(lines.begin() + fixed.size(), lines.end());
  EXPECT_EQ(extras["dead-letter-count"], "0");
  EXPECT_GT(std::stoll(extras["messages-to-other-workers"]), 0);
  // The engine's counters: the first receive() of each worker round is timed, and a
  // round of a busy worker runs up to 256 messages.
  const long long samples = std::stoll(extras["receive-time-sample-count"]);
  EXPECT_GT(samples, 0);
  EXPECT_LT(samples, std::stoll(extras["messages-received-by-actors"]));
  EXPECT_EQ(extras["messages-to-other-nodes"], "0");
  EXPECT_GT(std::stoll(extras["worker-busy-time"]), 0);
  EXPECT_LE(std::stoll(extras["receive-time-p50-ns"]), std::stoll(extras["receive-time-p99-ns"]));
  // Queue time: sampled on both workers, never more than one per message received.
  const long long queued = std::stoll(extras["queue-time-sample-count"]);
  EXPECT_GT(queued, 0);
  EXPECT_LT(queued, std::stoll(extras["messages-received-by-actors"]));
  EXPECT_LE(std::stoll(extras["queue-time-p50-ns"]), std::stoll(extras["queue-time-p99-ns"]));
  EXPECT_LE(std::stoll(extras["queue-time-p99-ns"]), std::stoll(extras["queue-time-max-ns"]));
}

TEST(LatencyProbe, RunsWithOneWorkerByDefault) {
  const ProcessResult run = run_probe("-ping-message-count-per-actor 500");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto lines = xenon::testing::counter_lines(run.output);
  ASSERT_GE(lines.size(), 8u);
  EXPECT_EQ(lines[4].second, "1");    // worker-count-per-node
  EXPECT_EQ(lines[7].second, "100");  // actor-count
}

TEST(LatencyProbe, RejectsBadOptionsWithAClearMessage) {
  xenon::testing::expect_usage_errors("latency_probe", {
      {"-threads-per-nod 3", "unknown option '-threads-per-nod'"},
      {"-threads-per-node", "needs a value"},
      {"-threads-per-node three", "expects an integer"},
      {"-threads-per-node 0", "must be between 1 and"},
      {"-ping-message-count-per-actor 0", "must be between 1 and"},
      {"-actor-count-per-worker 1", "need at least 2 actors"},
      {"-seed -1", "non-negative"},
  });
}

TEST(LatencyProbe, HelpListsTheOptions) {
  const ProcessResult run = run_probe("--help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* option : {"--threads-per-node", "--actor-count-per-worker",
                             "--ping-message-count-per-actor", "--seed", "--pin"}) {
    EXPECT_NE(run.output.find(option), std::string::npos) << option;
  }
}

}  // namespace

