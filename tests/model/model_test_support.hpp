// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Running a Relacy test suite from GoogleTest: one simulation per check, its verdict
// asserted, Relacy's report (the failing execution's history) shown only when it matters.

#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "tests/model/relacy_atomics.hpp"

namespace xenon::model {

// Relacy replaces the global operator new with its own arena while a simulation runs, so a
// growing std::string buffer would be allocated by one allocator and freed by the other:
// its report goes into this fixed buffer instead (truncated if ever longer).
class ReportBuffer : public std::streambuf {
 public:
  ReportBuffer() { setp(text_, text_ + sizeof(text_)); }
  std::string text() const { return std::string(pbase(), pptr()); }

 private:
  char text_[1 << 16];
};

struct ModelResult {
  rl::test_result_e result = rl::test_result_success;
  std::string report;
};

// How Relacy explores a suite: every execution (small suites only: a spin loop makes the
// space infinite), every execution with at most `preemptions` forced thread switches, or
// `iterations` random executions.
struct Search {
  rl::scheduler_type_e type;
  unsigned bound;
  static Search exhaustive() { return {rl::fair_full_search_scheduler_type, 0}; }
  static Search preemptions(unsigned count) {
    return {rl::fair_context_bound_scheduler_type, count};
  }
  static Search random(unsigned iterations) { return {rl::random_scheduler_type, iterations}; }
};

template <class Suite>
ModelResult check_model(Search search) {
  ReportBuffer buffer;
  std::ostream report(&buffer);
  rl::test_params params;
  params.search_type = search.type;
  if (search.type == rl::random_scheduler_type) params.iteration_count = search.bound;
  if (search.type == rl::fair_context_bound_scheduler_type) params.context_bound = search.bound;
  params.output_stream = &report;
  params.progress_stream = &report;
  rl::simulate<Suite>(params);
  return {params.test_result, buffer.text()};
}

inline void expect_passes(const ModelResult& outcome) {
  EXPECT_EQ(outcome.result, rl::test_result_success)
      << "Relacy: " << rl::test_result_str(outcome.result) << "\n"
      << outcome.report;
}

// Shortens a history line of Relacy's report to its event and the file(line) it names.
inline std::string brief(const std::string& line) {
  const std::size_t in = line.find(", in ");
  const std::size_t at = line.rfind(", ");
  if (in == std::string::npos || at == std::string::npos || at <= in) return line;
  return line.substr(0, in) + " at " + line.substr(at + 2);
}

// A weakened variant must fail with `expected`. Its verdict and the last two events of the
// failing execution (the conflicting access and the verdict) are printed, so the log shows
// what was caught and where.
inline void expect_caught(const ModelResult& outcome, rl::test_result_e expected) {
  EXPECT_EQ(outcome.result, expected) << "Relacy: " << rl::test_result_str(outcome.result) << "\n"
                                      << outcome.report;
  std::istringstream lines(outcome.report);
  std::string line;
  std::string previous;
  std::string last;
  bool in_history = false;
  while (std::getline(lines, line)) {
    if (line.rfind("execution history", 0) == 0) {
      in_history = true;
    } else if (in_history && line.empty()) {
      break;
    } else if (in_history) {
      previous = last;
      last = line;
    } else if (!line.empty()) {
      std::printf("  relacy: %s\n", line.c_str());
    }
  }
  if (!previous.empty()) std::printf("  relacy:   %s\n", brief(previous).c_str());
  if (!last.empty()) std::printf("  relacy:   %s\n", brief(last).c_str());
}

}  // namespace xenon::model
