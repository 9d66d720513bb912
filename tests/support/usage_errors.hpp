// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/run_binary.hpp"

namespace xenon::testing {

// Runs `program` with each bad command line and checks it exits 2 with exactly one line,
// "PROGRAM: error: ...", that contains the expected words.
inline void expect_usage_errors(
    const std::string& program,
    const std::vector<std::pair<std::string, std::string>>& arguments_and_messages) {
  for (const auto& [arguments, message] : arguments_and_messages) {
    const ProcessResult run = run_binary(program, arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_EQ(run.output.rfind(program + ": error: ", 0), 0u) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << arguments << "\n" << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1)
        << arguments << ": one line\n" << run.output;
  }
}

}  // namespace xenon::testing
