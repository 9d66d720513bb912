// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

// The example checks itself (exit 1 on a wrong answer, or a timeout or late answer that
// did not come exactly once).
void expect_answer_timeout_and_late_answer(const xenon::testing::ProcessResult& run,
                                           const char* node) {
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(std::string("node 0: question: answer 42 from node ") + node),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 0: riddle: no answer within 100 ms (request named)"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("node 0: late responses dropped: 1"), std::string::npos) << run.output;
}

TEST(Examples, AskAnswersTimesOutAndCountsALateAnswerAcrossWorkers) {
  for (const char* threads : {"1", "3"}) {
    expect_answer_timeout_and_late_answer(
        xenon::testing::run_binary("ask", std::string("-threads-per-node ") + threads), "0");
  }
}

TEST(Examples, AskAnswersTimesOutAndCountsALateAnswerAcrossNodes) {
  SKIP_WITHOUT_MPI();
  for (const char* threads : {"1", "2"}) {
    expect_answer_timeout_and_late_answer(
        xenon::testing::mpi_run(2, "ask", std::string("-threads-per-node ") + threads), "1");
  }
}

}  // namespace
