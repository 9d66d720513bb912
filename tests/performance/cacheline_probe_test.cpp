#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/run_binary.hpp"

namespace {

using xenon::testing::ProcessResult;

ProcessResult run_probe(const std::string& arguments) {
  return xenon::testing::run_binary("cacheline_probe", arguments);
}

std::map<std::string, std::string> counters(const std::string& output) {
  std::map<std::string, std::string> result;
  std::istringstream lines(output);
  std::string line;
  const std::string prefix = "PERFORMANCE_COUNTER ";
  while (std::getline(lines, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto equals = line.find(" = ");
    const std::string value = line.substr(equals + 3);
    result[line.substr(prefix.size(), equals - prefix.size())] = value.substr(0, value.find(' '));
  }
  return result;
}

// Unpinned, so it runs wherever the test runs; the figures' size is not checked, only that
// they exist, are positive and ordered (median between minimum and maximum).
TEST(CachelineProbe, PrintsMediansOfTheRoundTripAndTheStreams) {
  const ProcessResult run =
      run_probe("-pin=off -repetitions 3 -rounds 2000 -items 50000 -capacity 64 -batch 8");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto value = counters(run.output);
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
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-capacity 100", "must be a power of two"},
      {"-batch 2048 -capacity 1024", "must not exceed -capacity"},
      {"-rounds 0", "must be between 1 and"},
      {"-repetitions", "needs a value"},
      {"-round 5", "unknown option"},
  };
  for (const auto& [arguments, message] : cases) {
    const ProcessResult run = run_probe(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_EQ(run.output.rfind("cacheline_probe: error: ", 0), 0u) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << arguments << "\n" << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << "one line";
  }
}

}  // namespace
