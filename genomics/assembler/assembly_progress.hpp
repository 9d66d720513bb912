// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdio>
#include <string>

#include <xenon/xenon.hpp>
#include "genomics/io/run_log.hpp"

namespace xenon::genomics {

// How one assembly round tells its progress: a line on standard error for each step (unless
// quiet), timed from the round's start, and each phase's end in the run log.
class AssemblyProgress {
 public:
  AssemblyProgress(RunLog& log, bool shown) : log_(log), shown_(shown) {}

  // A line of progress; returns its text. Every value is printed as an unsigned integer.
  template <class... Values>
  std::string report(const char* format, Values... values) const {
    char text[512] = {};  // the longest line, the scaffolds', is under 400
    std::snprintf(text, sizeof text, format, static_cast<unsigned long long>(values)...);
    if (shown_) std::fprintf(stderr, "assembler: %6.2f s: %s\n", seconds_between(started_, MonotonicClock::now()), text);
    return text;
  }
  // The end of a phase: its line of progress, and in the log.
  template <class... Values>
  void phase_done(const char* format, Values... values) const {
    log_.end_phase(report(format, values...));
  }
  RunLog& log() const { return log_; }

 private:
  RunLog& log_;
  bool shown_;
  MonotonicClock::time_point started_ = MonotonicClock::now();
};

}  // namespace xenon::genomics
