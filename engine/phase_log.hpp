// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace xenon {

// The phases a program marked on this node (Actor::begin_phase()), in the order marked,
// each with its start in Unix time; a phase ends where the next begins. Phases are few (a
// handful a run), so any worker may mark one under a mutex.
class PhaseLog {
 public:
  struct Phase {
    std::string name;
    std::int64_t start_unix_nanoseconds = 0;
  };

  void begin(std::string_view name) {
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    const std::lock_guard<std::mutex> lock(mutex_);
    phases_.push_back({std::string(name), now});
  }

  // After the workers joined.
  std::vector<Phase> phases() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return phases_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Phase> phases_;
};

}  // namespace xenon
