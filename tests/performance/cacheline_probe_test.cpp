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

ProcessResult run_probe(const std::string& arguments) {
  return xenon::testing::run_binary("cacheline_probe", arguments);
}

// Unpinned, so it runs wherever the test runs; the figures' size is not checked, only that
// they exist, are positive and ordered (median between minimum and maximum).
TEST(CachelineProbe, PrintsMediansOfTheRoundTripAndTheStreams) {
  const ProcessResult run =
      run_probe("-pin=off -repetitions 3 -rounds 2000 -items 50000 -capacity 64 -batch 8");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto value = xenon::testing::counters_by_name(run.output);
  EXPECT_EQ(value.at("cacheline-pinned"), "no");
  EXPECT_EQ(value.at("cacheline-repetitions"), "3");
  for (const char* name :
       {"cacheline-round-trip", "cacheline-shared-line-round-trip", "stream-8B-batch-8",
        "stream-8B-one-by-one"}) {
    const double median = std::stod(value.at(name));
    EXPECT_GT(median, 0.0) << name;
    EXPECT_LE(std::stod(value.at(std::string(name) + "-min")), median) << name;
    EXPECT_GE(std::stod(value.at(std::string(name) + "-max")), median) << name;
  }
  EXPECT_NEAR(std::stod(value.at("cacheline-one-way")),
              std::stod(value.at("cacheline-round-trip")) / 2, 1e-3);
}

TEST(CachelineProbe, RejectsBadOptionsWithAClearMessage) {
  xenon::testing::expect_usage_errors("cacheline_probe", {
      {"-capacity 100", "must be a power of two"},
      {"-batch 2048 -capacity 1024", "must not exceed -capacity"},
      {"-rounds 0", "must be between 1 and"},
      {"-repetitions", "needs a value"},
      {"-round 5", "unknown option"},
  });
}

}  // namespace
