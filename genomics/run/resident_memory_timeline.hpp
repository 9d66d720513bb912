// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace xenon::genomics {

// The resident memory of this process over wall-clock time, for --stats: the most it held in
// each 50 ms of Unix time (the buckets of the engine's busy timeline, which line up on every
// node), so that the scaling report can give each phase's peak on every node.
//
// A thread samples VmRSS every 10 ms. Where the process's peak so far (VmHWM) rose since the
// last sample, the new peak goes to this sample's bucket: a phase that sets a new peak has it
// exactly, however short the spike. A spike below an earlier peak that lasts less than a
// sample may be missed. VmHWM is only read, never reset (/proc/self/clear_refs would also
// reset what getrusage and /usr/bin/time report as the run's peak).
// \threads Built and read on one thread; its own thread samples, under the mutex.
class ResidentMemoryTimeline {
 public:
  static constexpr std::chrono::milliseconds kBucket{50};
  static constexpr std::chrono::milliseconds kSample{10};

  // Starts sampling (one sample at once).
  ResidentMemoryTimeline();
  ~ResidentMemoryTimeline();
  ResidentMemoryTimeline(const ResidentMemoryTimeline&) = delete;
  ResidentMemoryTimeline& operator=(const ResidentMemoryTimeline&) = delete;

  struct Timeline {
    std::int64_t start_unix_nanoseconds = 0;  // bucket 0 begins here, a multiple of kBucket
    std::vector<std::uint64_t> peak_bytes;    // the most resident in each bucket; none without /proc
  };
  // What was sampled, with one more sample taken now.
  Timeline timeline() const;
  // The samples taken so far (by the sampler and by timeline()).
  std::uint64_t samples() const;

  // VmRSS and VmHWM of /proc/self/status, in bytes; 0 where the file cannot be read (then
  // no sample is kept).
  struct Resident {
    std::uint64_t now = 0;
    std::uint64_t peak = 0;
  };
  static Resident read_resident();

 private:
  void sample() const;  // under mutex_
  void sample_until_stopped();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::int64_t start_unix_ = 0;
  std::chrono::steady_clock::time_point origin_;  // start_unix_ on the steady clock
  mutable std::vector<std::uint64_t> peaks_;
  mutable std::uint64_t last_sample_ = 0;
  mutable std::uint64_t last_peak_ = 0;
  mutable std::uint64_t samples_ = 0;
  std::thread sampler_;
};

}  // namespace xenon::genomics
