// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace xenon {

// The phases a program marked on this node (Actor::begin_phase(), begin_run_phase()), in
// the order marked, each with its start and end in Unix time; a phase ends where the next
// begins, at end(), or when the run ends (end 0 until then). Phases are few (a handful a
// run), so any thread may mark one under a mutex.
class PhaseLog {
 public:
  struct Phase {
    std::string name;
    std::int64_t start_unix_nanoseconds = 0;
    std::int64_t end_unix_nanoseconds = 0;  // 0: still open
  };

  void begin(std::string_view name) {
    const std::int64_t now = unix_now();
    const std::lock_guard<std::mutex> lock(mutex_);
    end_open(now);
    phases_.push_back({std::string(name), now, 0});
  }
  void end() {
    const std::int64_t now = unix_now();
    const std::lock_guard<std::mutex> lock(mutex_);
    end_open(now);
  }

  // Every phase; one still open ends at `end_unix_nanoseconds` (the end of the run).
  std::vector<Phase> phases(std::int64_t end_unix_nanoseconds) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Phase> all = phases_;
    if (!all.empty() && all.back().end_unix_nanoseconds == 0) {
      all.back().end_unix_nanoseconds = end_unix_nanoseconds;
    }
    return all;
  }

 private:
  static std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  void end_open(std::int64_t now) {
    if (!phases_.empty() && phases_.back().end_unix_nanoseconds == 0) {
      phases_.back().end_unix_nanoseconds = now;
    }
  }

  mutable std::mutex mutex_;
  std::vector<Phase> phases_;
};

}  // namespace xenon
