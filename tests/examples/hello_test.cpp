// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/usage_errors.hpp"

namespace {

TEST(Examples, HelloGreetsOnceAndEnds) {
  const auto run = xenon::testing::run_binary("hello", "");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "hello, world, from actor 0 on worker 0 of node 0\n");
}

TEST(Examples, HelloTakesTheNameAsALongOptionWithEquals) {
  const auto run = xenon::testing::run_binary("hello", "--name=Xenon --threads-per-node=2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "hello, Xenon, from actor 0 on worker 0 of node 0\n");
}

TEST(Examples, HelloRejectsBadUseInOneLine) {
  xenon::testing::expect_usage_errors("hello", {{"--name", "needs a value"},
                                                {"--greeting=hi", "unknown option"}});
}

}  // namespace

// An engine that cannot start (here: more workers than the machine may hold) ends every
// example with one line and exit 1, not `terminate called`.
TEST(Examples, AnEngineThatCannotStartEndsEachExampleWithOneLine) {
  for (const char* program : {"hello", "ring", "ping_pair", "two_nodes", "priorities"}) {
    const auto run = xenon::testing::run_binary(program, "-threads-per-node 4096");
    EXPECT_EQ(run.exit_code, 1) << program << ": " << run.output;
    EXPECT_EQ(run.output.rfind(std::string(program) + ": error: -threads-per-node 4096: ", 0), 0u) << run.output;
    EXPECT_EQ(run.output.find("terminate called"), std::string::npos) << run.output;
  }
}
