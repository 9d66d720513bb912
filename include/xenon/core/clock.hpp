// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>

namespace xenon {

/// Monotonic wall-clock time for benchmarks: never jumps with NTP, consistent across the
/// threads of a process.
using MonotonicClock = std::chrono::steady_clock;

/// Seconds from `start` to `end` (negative if `end` is earlier). \threads Any thread.
inline double seconds_between(MonotonicClock::time_point start, MonotonicClock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}

/// CPU time the whole process has used (all threads), in seconds. \threads Any thread.
double process_cpu_seconds();

/// CPU time the calling thread has used, in nanoseconds: time the OS ran it, not time it
/// waited for a core. A system call (no vDSO for thread clocks): for measurements, not for
/// a message's path. \threads Any thread, about itself.
std::uint64_t thread_cpu_nanoseconds();

}  // namespace xenon
